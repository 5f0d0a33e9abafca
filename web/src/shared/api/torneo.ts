/**
 * Every screen of a tournament asks for one tournament: its id, or none for the current one (the
 * server's default). Query keys carry it right after their root — [root, TorneoKey, ...] — so
 * live updates (shared/live) can refresh exactly one tournament's queries.
 */
export type TorneoKey = number | 'actual';

export const torneoKey = (torneo: number | undefined): TorneoKey => torneo ?? 'actual';

/** The `torneo` query parameter: left out for the current tournament. */
export const torneoParam = (torneo: number | undefined): { torneo?: number } =>
  torneo === undefined ? {} : { torneo };

/** `?torneo=` as a URL carries it: a positive integer, anything else means the current one. */
export function parseTorneo(value: string | null): number | undefined {
  if (value === null || !/^\d{1,9}$/.test(value)) return undefined;
  const id = Number(value);
  return id >= 1 ? id : undefined;
}
