// A kick-off or a cut-off is written in this device's time zone, on every screen: the predictions
// list groups its matches under the device's days ("Hoy", "Mañana"), and one match must not show
// one time on its card and another on its page. The server's `fecha` and `hora` are in the
// tournament's zone. Two things stay in that zone: a matchday (the standings' "Fecha del
// 20/11/2022" is a day of the tournament), and the organiser's records of changes (their own and
// an import's), whose values the server wrote as text ("Horario: 22/11 07:00 → 22/11 10:00").

const pad = (n: number) => String(n).padStart(2, '0');

/** "2022-11-20" -> "20/11/2022", as people in Argentina write dates. */
export function formatFecha(fecha: string): string {
  const [y, m, d] = fecha.split('-');
  return y && m && d ? `${d}/${m}/${y}` : fecha;
}

/** A score as the game writes it everywhere: "2 - 1". */
export function formatScore(local: number, visitante: number): string {
  return `${local} - ${visitante}`;
}

/** "dd/mm/yyyy" of an RFC 3339 instant in this device's time zone. */
export function localDate(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()}`;
}

/** "HH:MM" of an RFC 3339 instant in this device's time zone. */
export function localTime(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : `${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** An RFC 3339 instant in this device's time: "20/11/2022 a las 13:00". */
export function formatInstante(iso: string): string {
  return Number.isNaN(Date.parse(iso)) ? iso : `${localDate(iso)} a las ${localTime(iso)}`;
}
