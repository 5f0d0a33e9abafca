import { vi } from 'vitest';

export interface Recorded {
  method: string;
  path: string;
  body: unknown;
}

export type Route = (request: Recorded) => { status: number; body?: unknown } | undefined;

/**
 * Replaces window.fetch with a handler that answers from `route` and records every request, so a
 * test can assert what was (or was not) sent. Unrouted requests fail the test loudly.
 */
export function fakeFetch(route: Route) {
  const requests: Recorded[] = [];
  const fetchMock = vi.fn(async (input: Request) => {
    const url = new URL(input.url);
    const text = await input.text();
    const recorded: Recorded = {
      method: input.method,
      path: decodeURIComponent(url.pathname) + url.search,
      body: text ? (JSON.parse(text) as unknown) : undefined,
    };
    requests.push(recorded);
    const answer = route(recorded);
    if (!answer) throw new Error(`unexpected request ${recorded.method} ${recorded.path}`);
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { requests, fetchMock };
}
