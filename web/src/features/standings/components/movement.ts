export interface Movimiento {
  /** ▲ moved up, ▼ down, = same place. */
  simbolo: '▲' | '▼' | '=';
  /** Places moved (0 for the same place). */
  puestos: number;
  /** For people and screen readers: "Subió 2 puestos", "Bajó 1 puesto", "Sin cambios". */
  texto: string;
}

export const puestos = (n: number) => (n === 1 ? '1 puesto' : `${n} puestos`);

/** The movement since the previous matchday's end; null when there is nothing to compare. */
export function movimiento(posicion: number, anterior: number | null | undefined): Movimiento | null {
  if (anterior === null || anterior === undefined) return null;
  const diff = anterior - posicion;
  if (diff > 0) return { simbolo: '▲', puestos: diff, texto: `Subió ${puestos(diff)}` };
  if (diff < 0) return { simbolo: '▼', puestos: -diff, texto: `Bajó ${puestos(-diff)}` };
  return { simbolo: '=', puestos: 0, texto: 'Sin cambios' };
}
