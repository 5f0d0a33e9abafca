import { localTime } from '../../../shared/format';
import type { PartidoSinJugar } from '../api/getPartidosSinJugar';

// Spanish names, written here so the headings read the same in every browser and test runner.
const WEEKDAYS = ['domingo', 'lunes', 'martes', 'miércoles', 'jueves', 'viernes', 'sábado'];
const MONTHS = [
  'enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio',
  'julio', 'agosto', 'septiembre', 'octubre', 'noviembre', 'diciembre',
];
const DAY_MS = 24 * 60 * 60 * 1000;

export interface StageGroup {
  /** The group or stage, e.g. "Grupo A", "Octavos de final". */
  categoria: string;
  partidos: PartidoSinJugar[];
}

export interface DayGroup {
  /** The local calendar day, "2026-11-21": a stable key. */
  key: string;
  /** "Hoy", "Mañana", or e.g. "sábado 21 de noviembre". */
  titulo: string;
  etapas: StageGroup[];
}

const pad = (n: number) => String(n).padStart(2, '0');
const dayKey = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
const midnight = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate());

/** Whole calendar days from `from` to `to` in the browser's zone (a DST day is still one day). */
function daysBetween(from: Date, to: Date): number {
  return Math.round((midnight(to).getTime() - midnight(from).getTime()) / DAY_MS);
}

/** The heading of a day as a player says it: "Hoy", "Mañana", "Ayer", or "sábado 21 de noviembre". */
export function dayTitle(day: Date, now: Date): string {
  switch (daysBetween(now, day)) {
    case 0:
      return 'Hoy';
    case 1:
      return 'Mañana';
    case -1:
      return 'Ayer';
  }
  const year = day.getFullYear() === now.getFullYear() ? '' : ` de ${day.getFullYear()}`;
  return `${WEEKDAYS[day.getDay()]} ${day.getDate()} de ${MONTHS[day.getMonth()]}${year}`;
}

/**
 * When predictions for the match close, as the card says it: "cierra 13:00" ("cerró" once past).
 * A cut-off on the evening before a kick-off after midnight says so, since it sits under the
 * kick-off's day.
 */
export function cierreText(partido: Pick<PartidoSinJugar, 'inicio' | 'cierre'>, now: Date): string {
  const cierre = new Date(partido.cierre);
  const verb = cierre.getTime() <= now.getTime() ? 'cerró' : 'cierra';
  const dayBefore = daysBetween(cierre, new Date(partido.inicio)) === 1 ? ' del día anterior' : '';
  return `${verb} ${localTime(partido.cierre)}${dayBefore}`;
}

/**
 * The matches by the local day of their kick-off, then by group or stage, keeping the server's
 * order (by kick-off) inside each and the order in which days and stages first appear.
 */
export function groupMatchday(partidos: PartidoSinJugar[], now: Date): DayGroup[] {
  const days = new Map<string, DayGroup>();
  for (const partido of partidos) {
    const inicio = new Date(partido.inicio);
    const key = dayKey(inicio);
    let day = days.get(key);
    if (!day) {
      day = { key, titulo: dayTitle(inicio, now), etapas: [] };
      days.set(key, day);
    }
    let etapa = day.etapas.find((e) => e.categoria === partido.nombre_categoria);
    if (!etapa) {
      etapa = { categoria: partido.nombre_categoria, partidos: [] };
      day.etapas.push(etapa);
    }
    etapa.partidos.push(partido);
  }
  return [...days.values()];
}
