import { useState, type ReactNode } from 'react';
import { LiveContext } from './liveContext';
import { browserEventSource, useLiveUpdates, type EventSourceFactory } from './useLiveUpdates';

interface Props {
  children: ReactNode;
  /** Tests pass a fake; by default the browser's EventSource (none in jsdom: polling). */
  createEventSource?: EventSourceFactory | null;
}

/**
 * Live updates for the whole tab: one stream, opened once, above every screen. Screens read the
 * mode through useLiveRefetchInterval() to poll only while there is no stream.
 */
export function LiveUpdatesProvider({ children, createEventSource }: Props) {
  // Chosen once: a new factory on every render would reopen the stream.
  const [factory] = useState(() => (createEventSource === undefined ? browserEventSource() : createEventSource));
  const mode = useLiveUpdates(factory);
  return <LiveContext.Provider value={mode}>{children}</LiveContext.Provider>;
}
