/**
 * When betting closes, in the tournament's display time zone: one hour before the kick-off the
 * server gives as `fecha` and `hora` in that zone (the cut-off is always kick-off minus one hour,
 * and no display zone changes its offset within that hour on a match day).
 */
export function cierreLocal(fecha: string, hora: string): { fecha: string; hora: string } {
  // The wall-clock time as if it were UTC: plain arithmetic, no zone involved.
  const kickOff = Date.parse(`${fecha}T${hora}Z`);
  if (Number.isNaN(kickOff)) return { fecha, hora };
  const t = new Date(kickOff - 3_600_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return {
    fecha: `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`,
    hora: `${pad(t.getUTCHours())}:${pad(t.getUTCMinutes())}`,
  };
}
