import type { EventSourceFactory, EventSourceLike } from '../shared/live/useLiveUpdates';

/** An EventSource the test drives: open it, send events, fail it. jsdom has none of its own. */
export class FakeEventSource implements EventSourceLike {
  readyState = 0; // CONNECTING
  closed = false;
  private listeners = new Map<string, ((event: Event) => void)[]>();

  constructor(readonly url: string) {}

  addEventListener(type: string, listener: (event: Event) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }

  close(): void {
    this.closed = true;
    this.readyState = 2;
  }

  private dispatch(type: string, event: Event) {
    for (const listener of this.listeners.get(type) ?? []) listener(event);
  }

  open() {
    this.readyState = 1;
    this.dispatch('open', new Event('open'));
  }

  /** A named event, as the server writes `event: <type>` and `data: <json>`. */
  emit(type: string, data: unknown, lastEventId = '') {
    this.dispatch(type, new MessageEvent(type, { data: JSON.stringify(data), lastEventId }));
  }

  /** A dropped connection the browser retries (CONNECTING), or one it gave up on (CLOSED: a 503). */
  fail({ closed = false } = {}) {
    this.readyState = closed ? 2 : 0;
    this.dispatch('error', new Event('error'));
  }
}

/** A factory that records every stream it opens; `latest` is the one in use. */
export function fakeEventSources() {
  const opened: FakeEventSource[] = [];
  const factory: EventSourceFactory = (url) => {
    const source = new FakeEventSource(url);
    opened.push(source);
    return source;
  };
  return {
    factory,
    opened,
    get latest(): FakeEventSource {
      const last = opened.at(-1);
      if (!last) throw new Error('no EventSource was opened');
      return last;
    },
  };
}
