/** "2022-11-20" -> "20/11/2022", as people in Argentina write dates. */
export function formatFecha(fecha: string): string {
  const [y, m, d] = fecha.split('-');
  return y && m && d ? `${d}/${m}/${y}` : fecha;
}

/** A score as the game writes it everywhere: "2 - 1". */
export function formatScore(local: number, visitante: number): string {
  return `${local} - ${visitante}`;
}

/** An RFC 3339 instant in this device's time: "20/11/2022 a las 13:00". */
export function formatInstante(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()} a las ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
