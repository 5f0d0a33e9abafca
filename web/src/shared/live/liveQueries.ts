import type { Query, QueryClient } from '@tanstack/react-query';

/**
 * The queries a result changes, by key root: every standings query (pages, matchday tables and
 * winners, one's own position, league tables) lives under 'posiciones', results under
 * 'resultados', bonus questions (whose right answers move the standings too) under 'preguntas'.
 * Their keys are [root, TorneoKey, ...] (see shared/api/torneo.ts).
 */
export const LIVE_ROOTS: readonly string[] = ['posiciones', 'resultados', 'preguntas'];

function isLive(query: Query): boolean {
  const root = query.queryKey[0];
  return typeof root === 'string' && LIVE_ROOTS.includes(root);
}

/** The current tournament's id when the tournaments list is in the cache. */
function currentTorneo(queryClient: QueryClient): number | undefined {
  const torneos = queryClient.getQueryData(['torneos']);
  if (!Array.isArray(torneos)) return undefined;
  const actual = (torneos as { id?: unknown; actual?: unknown }[]).find((t) => t.actual === true);
  return typeof actual?.id === 'number' ? actual.id : undefined;
}

/**
 * A tournament's standings changed: refetch what is on screen for it (and mark the rest stale).
 * Queries asked "for the current tournament" are included unless we know the current one is
 * another: refetching one too many is cheap, missing one is not.
 */
export function invalidateTorneo(queryClient: QueryClient, torneo: number): Promise<void> {
  const affected = affects(queryClient, torneo);
  return queryClient.invalidateQueries({ predicate: (q) => isLive(q) && affected(q.queryKey[1]) });
}

/** Whether a live query's tournament key names `torneo` (see invalidateTorneo). */
function affects(queryClient: QueryClient, torneo: number): (key: unknown) => boolean {
  const current = currentTorneo(queryClient);
  return (key) => key === torneo || (key === 'actual' && (current === undefined || current === torneo));
}

/** Quick refetches of an event's tournament while a standings answer on screen is still older. */
export const CATCH_UP_TRIES = 4;
export const CATCH_UP_DELAY_MS = 500;
/**
 * Past the quick tries the answer is still older: the replicas cannot read the new table yet
 * (PostgreSQL is down, and they serve the table they hold). Nothing announces that version again
 * once they can, so ask again ever more slowly, up to the polling mode's interval.
 */
export const CATCH_UP_MAX_DELAY_MS = 30_000;

/** The newest version each tournament is being caught up to, per query client (one per tab). */
const catchingUp = new WeakMap<QueryClient, Map<number, number>>();

/**
 * An event says `torneo`'s standings reached `version`: refetch what is on screen for it and,
 * while a standings answer on screen is still older, again: a moment later a few times (the
 * replica that answered had not heard of the version yet: another replica's stream told us
 * first), then ever more slowly until the table shows it, it leaves the screen, or a newer
 * event of the tournament takes over.
 */
export async function catchUp(queryClient: QueryClient, torneo: number, version: number): Promise<void> {
  let newest = catchingUp.get(queryClient);
  if (!newest) catchingUp.set(queryClient, (newest = new Map<number, number>()));
  if ((newest.get(torneo) ?? -1) >= version) {
    // A repeated or older event: the loop catching up to the newer version asks again itself.
    return invalidateTorneo(queryClient, torneo);
  }
  newest.set(torneo, version);
  try {
    for (let tries = 0; ; tries++) {
      await invalidateTorneo(queryClient, torneo);
      if (newest.get(torneo) !== version || !showsOlder(queryClient, torneo, version)) return;
      await new Promise((resolve) => setTimeout(resolve, catchUpDelay(tries)));
      if (newest.get(torneo) !== version) return;
    }
  } finally {
    if (newest.get(torneo) === version) newest.delete(torneo);
  }
}

/** The wait after the tries-th refetch: CATCH_UP_DELAY_MS a few times, then doubling up to the cap. */
export function catchUpDelay(tries: number): number {
  if (tries < CATCH_UP_TRIES) return CATCH_UP_DELAY_MS;
  return Math.min(CATCH_UP_MAX_DELAY_MS, CATCH_UP_DELAY_MS * 2 ** (tries - CATCH_UP_TRIES + 2));
}

/** Whether a standings answer on screen for `torneo` is older than `version`. */
function showsOlder(queryClient: QueryClient, torneo: number, version: number): boolean {
  const affected = affects(queryClient, torneo);
  return queryClient
    .getQueryCache()
    .findAll({ predicate: (q) => q.queryKey[0] === 'posiciones' && affected(q.queryKey[1]) && q.getObserversCount() > 0 })
    .some((q) => {
      const shown = (q.state.data as { version?: unknown } | undefined)?.version;
      return typeof shown === 'number' && shown < version;
    });
}

/** Events may have been missed (the stream was down): refresh every tournament's live queries. */
export function invalidateAllLive(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ predicate: isLive });
}
