import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { Schemas } from '../api/types';
import type { LiveMode } from './liveContext';
import { catchUp, invalidateAllLive } from './liveQueries';

/** What the hook needs of an EventSource: the browser's own, or a fake in tests. */
export interface EventSourceLike {
  readonly readyState: number;
  addEventListener(type: string, listener: (event: Event) => void): void;
  close(): void;
}
export type EventSourceFactory = (url: string) => EventSourceLike;

export const EVENTS_URL = '/api/eventos';
/** EventSource.CLOSED: the browser gave up (a 503 when the server is full, a wrong answer). */
const CLOSED = 2;
/** Errors in a row, without the stream opening in between, before falling back to polling. */
export const ERRORS_BEFORE_POLLING = 3;
/** A stream that has not opened after this long is not counted on: poll meanwhile. */
export const OPEN_TIMEOUT_MS = 10_000;
/** After the browser gave up, a new stream is tried after this long (plus up to 10 s of jitter). */
export const RETRY_MS = 30_000;

/** The browser's EventSource, or null where there is none (jsdom, very old browsers). */
export function browserEventSource(): EventSourceFactory | null {
  return typeof EventSource === 'function' ? (url) => new EventSource(url) : null;
}

/** A `posiciones` event's data (Schemas['EventoPosiciones']), or null when it is not one. */
function parseEvent(data: unknown): Pick<Schemas['EventoPosiciones'], 'torneo' | 'version'> | null {
  if (typeof data !== 'string') return null;
  try {
    const parsed = JSON.parse(data) as Partial<Record<keyof Schemas['EventoPosiciones'], unknown>>;
    if (typeof parsed.torneo !== 'number') return null;
    return { torneo: parsed.torneo, version: typeof parsed.version === 'number' ? parsed.version : 0 };
  } catch {
    return null;
  }
}

/**
 * Opens the one stream of live updates (GET /api/eventos) and keeps it up for as long as the
 * component using it lives (LiveUpdatesProvider, once per tab). Each `posiciones` event refetches
 * that tournament's standings and results on screen, until the standings show its version. The browser reconnects by itself, sending
 * Last-Event-ID; when the stream fails repeatedly, or the browser gives up on it (a 503 when the
 * server is full), the mode turns 'polling' and live queries refetch on an interval, while a new
 * stream is tried now and then; once one opens, the mode is 'streaming' again.
 */
export function useLiveUpdates(createEventSource: EventSourceFactory | null): LiveMode {
  const queryClient = useQueryClient();
  const [mode, setMode] = useState<LiveMode>(createEventSource ? 'connecting' : 'polling');

  useEffect(() => {
    if (!createEventSource) return;
    let source: EventSourceLike | null = null;
    let stopped = false;
    let errors = 0;
    // Something may have been missed since the last open stream: refresh everything on open.
    let missed = false;
    let openTimer: ReturnType<typeof setTimeout> | undefined;
    let retryTimer: ReturnType<typeof setTimeout> | undefined;

    const retryLater = () => {
      clearTimeout(retryTimer);
      retryTimer = setTimeout(connect, RETRY_MS + Math.random() * 10_000);
    };

    function connect() {
      if (stopped) return;
      let s: EventSourceLike;
      try {
        s = createEventSource!(EVENTS_URL);
      } catch {
        setMode('polling');
        retryLater();
        return;
      }
      source = s;
      clearTimeout(openTimer);
      openTimer = setTimeout(() => setMode('polling'), OPEN_TIMEOUT_MS);
      s.addEventListener('open', () => {
        clearTimeout(openTimer);
        errors = 0;
        setMode('streaming');
        if (missed) {
          missed = false;
          void invalidateAllLive(queryClient);
        }
      });
      s.addEventListener('posiciones', (event) => {
        const parsed = parseEvent((event as MessageEvent).data);
        if (parsed) void catchUp(queryClient, parsed.torneo, parsed.version);
      });
      s.addEventListener('error', () => {
        missed = true;
        errors += 1;
        if (s.readyState === CLOSED) {
          clearTimeout(openTimer);
          s.close();
          if (source === s) source = null;
          setMode('polling');
          retryLater();
        } else if (errors >= ERRORS_BEFORE_POLLING) {
          // The browser keeps reconnecting on its own; poll until it manages.
          setMode('polling');
        }
      });
    }

    connect();
    return () => {
      stopped = true;
      clearTimeout(openTimer);
      clearTimeout(retryTimer);
      source?.close();
    };
  }, [createEventSource, queryClient]);

  return createEventSource ? mode : 'polling';
}
