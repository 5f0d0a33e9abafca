import type { Query, QueryClient } from '@tanstack/react-query';
import type { TorneoKey } from '../api/torneo';

/**
 * The queries a result changes, by key root: every standings query (pages, matchday tables and
 * winners, one's own position) lives under 'posiciones', results under 'resultados'. Their keys
 * are [root, TorneoKey, ...] (see shared/api/torneo.ts).
 */
export const LIVE_ROOTS: readonly string[] = ['posiciones', 'resultados'];

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
  const current = currentTorneo(queryClient);
  const affected = (key: TorneoKey | unknown) =>
    key === torneo || (key === 'actual' && (current === undefined || current === torneo));
  return queryClient.invalidateQueries({ predicate: (q) => isLive(q) && affected(q.queryKey[1]) });
}

/** Events may have been missed (the stream was down): refresh every tournament's live queries. */
export function invalidateAllLive(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ predicate: isLive });
}
