/** "2022-11-20" -> "20/11/2022", as people in Argentina write dates. */
export function formatFecha(fecha: string): string {
  const [y, m, d] = fecha.split('-');
  return y && m && d ? `${d}/${m}/${y}` : fecha;
}

/** A score as the game writes it everywhere: "2 - 1". */
export function formatScore(local: number, visitante: number): string {
  return `${local} - ${visitante}`;
}
