/** "1 jugada", "3 jugadas"; "1 punto", "0 puntos". */
export function cantidad(n: number, singular: string, plural: string): string {
  return `${n.toLocaleString('es-AR')} ${n === 1 ? singular : plural}`;
}

/** A share of a total as people read it: "50 %" (0 when the total is 0). */
export function porcentaje(n: number, total: number): number {
  return total === 0 ? 0 : Math.round((n * 100) / total);
}
