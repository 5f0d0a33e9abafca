// <input type="datetime-local"> speaks the browser's local time without a zone ("2022-11-20T13:00");
// the API speaks RFC 3339. These two convert between them.

const pad = (n: number) => String(n).padStart(2, '0');

/** RFC 3339 instant -> the local "YYYY-MM-DDTHH:mm" the input shows. */
export function toDateTimeLocal(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The input's local "YYYY-MM-DDTHH:mm" -> RFC 3339 in UTC ("2022-11-20T16:00:00Z"); null when invalid. */
export function fromDateTimeLocal(value: string): string | null {
  const d = new Date(value); // a date-time without a zone is local time
  if (value === '' || Number.isNaN(d.getTime())) return null;
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
