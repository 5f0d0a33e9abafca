import { createContext, useContext } from 'react';

/**
 * How open pages learn about new results:
 * - 'connecting': the stream is being opened;
 * - 'streaming': the server pushes each change (GET /api/eventos, Server-Sent Events);
 * - 'polling': no stream (unsupported, failing, or the server is full): live queries refetch
 *   every POLL_INTERVAL_MS until the stream works again.
 */
export type LiveMode = 'connecting' | 'streaming' | 'polling';

export const POLL_INTERVAL_MS = 30_000;

// Without a provider (unit tests of a single screen) nothing polls and nothing streams.
export const LiveContext = createContext<LiveMode>('connecting');

export function useLiveMode(): LiveMode {
  return useContext(LiveContext);
}

/** The `refetchInterval` of a live query: polling only while there is no stream. */
export function useLiveRefetchInterval(): number | false {
  return useLiveMode() === 'polling' ? POLL_INTERVAL_MS : false;
}
