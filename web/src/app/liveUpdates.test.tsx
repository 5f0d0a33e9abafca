import { act, screen, waitFor } from '@testing-library/react';
import { useResultados } from '../features/results';
import { StandingsBlock } from '../features/standings';
import { useLiveMode } from '../shared/live/liveContext';
import { CATCH_UP_MAX_DELAY_MS, CATCH_UP_TRIES } from '../shared/live/liveQueries';
import { fakeEventSources } from '../test/fakeEventSource';
import { fakeFetch, type Recorded } from '../test/fakeFetch';
import { renderWithProviders } from '../test/render';

/** The current tournament's table: Ana's points grow as the test's "server" enters results. */
function serve(state: { puntaje: number }) {
  return fakeFetch((r: Recorded) => {
    if (r.path === '/api/posiciones?pagina=1&por_pagina=10') {
      return {
        status: 200,
        body: {
          torneo: 1,
          version: state.puntaje,
          pagina: 1,
          por_pagina: 10,
          total: 1,
          posiciones: [
            { posicion: 1, id: 7, nombre: 'Ana', puntaje: state.puntaje, exactos: 0, aciertos: 0, posicion_anterior: null },
          ],
        },
      };
    }
    if (r.path === '/api/resultados?torneo=2') return { status: 200, body: [] };
    if (r.path === '/api/posiciones/fijados') return { status: 200, body: [] };
    return undefined;
  });
}

/** A past tournament's results, next to the current table, as two open pages would be. */
function PastResults() {
  const resultados = useResultados(2, null);
  return <p>{resultados.data ? `${resultados.data.length} resultados del torneo 2` : 'cargando'}</p>;
}

function Mode() {
  return <p data-testid="modo">{useLiveMode()}</p>;
}

const count = (requests: Recorded[], path: string) => requests.filter((r) => r.path === path).length;
const TABLA = '/api/posiciones?pagina=1&por_pagina=10';
const PASADOS = '/api/resultados?torneo=2';

/** Ana's points cell in the home block's table. */
const puntajeDeAna = () =>
  screen.getByRole('row', { name: /Ana/ }).querySelector('.standings-table__points')?.textContent;

/** Lets fake time pass inside act: fetches answer, React Query notifies, React renders. */
async function pass(ms: number) {
  await act(() => vi.advanceTimersByTimeAsync(ms));
}

/**
 * Ana's table at version 10 on screen, in fake time, when its open stream says that version 20
 * is out. The caller's `state.puntaje` is what the server answers from then on.
 */
async function toldOfVersion20() {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  const state = { puntaje: 10 };
  const { requests } = serve(state);
  const streams = fakeEventSources();
  renderWithProviders(<StandingsBlock jugadorId={99} />, { live: streams.factory });
  await pass(100);
  act(() => streams.latest.open());
  act(() => streams.latest.emit('posiciones', { torneo: 1, version: 20 }, '20'));
  return { state, requests, streams };
}

/** The server can read version `puntaje` now: the table on screen shows it within 30 s. */
async function serverReaches(state: { puntaje: number }, puntaje: number) {
  state.puntaje = puntaje;
  await pass(CATCH_UP_MAX_DELAY_MS);
  expect(puntajeDeAna()).toBe(String(puntaje));
}

/** Caught up: five more minutes bring no request for the table. */
async function expectNoMoreRequests(requests: Recorded[]) {
  const caughtUp = count(requests, TABLA);
  await pass(5 * 60_000);
  expect(count(requests, TABLA)).toBe(caughtUp);
}

afterEach(() => {
  vi.useRealTimers();
});

describe('live updates', () => {
  it("opens one stream for the tab, and a `posiciones` event refetches that tournament's queries only", async () => {
    const state = { puntaje: 10 };
    const { requests } = serve(state);
    const streams = fakeEventSources();
    const { rerender } = renderWithProviders(
      <>
        <StandingsBlock jugadorId={99} />
        <PastResults />
        <Mode />
      </>,
      { live: streams.factory },
    );
    expect(await screen.findByText('0 resultados del torneo 2')).toBeInTheDocument();
    await waitFor(() => expect(puntajeDeAna()).toBe('10'));
    expect(streams.opened).toHaveLength(1);
    expect(streams.latest.url).toBe('/api/eventos');

    act(() => streams.latest.open());
    expect(screen.getByTestId('modo')).toHaveTextContent('streaming');

    // A result of the current tournament (1): its table updates, tournament 2's results do not reload.
    state.puntaje = 20;
    act(() => streams.latest.emit('posiciones', { torneo: 1, version: 20 }, '20'));
    await waitFor(() => expect(puntajeDeAna()).toBe('20'));
    expect(count(requests, TABLA)).toBe(2);
    expect(count(requests, PASADOS)).toBe(1);

    // A correction in tournament 2 reloads its results.
    act(() => streams.latest.emit('posiciones', { torneo: 2, version: 8 }, '8'));
    await waitFor(() => expect(count(requests, PASADOS)).toBe(2));

    rerender(<p>otra pantalla</p>);
    expect(streams.opened).toHaveLength(1);
  });

  it("leaves the current tournament's queries alone for another tournament's event once it knows which is current", async () => {
    const { requests } = serve({ puntaje: 10 });
    const streams = fakeEventSources();
    const { queryClient } = renderWithProviders(<StandingsBlock jugadorId={99} />, { live: streams.factory });
    queryClient.setQueryData(['torneos'], [
      { id: 1, nombre: 'Mundial 2026', actual: true, partidos: 104, finalizados: 3 },
      { id: 2, nombre: 'Mundial 2022', actual: false, partidos: 64, finalizados: 64 },
    ]);
    await waitFor(() => expect(puntajeDeAna()).toBe('10'));
    act(() => streams.latest.open());
    act(() => streams.latest.emit('posiciones', { torneo: 2, version: 9 }));
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(count(requests, TABLA)).toBe(1);
    act(() => streams.latest.emit('posiciones', { torneo: 1, version: 10 }));
    await waitFor(() => expect(count(requests, TABLA)).toBe(2));
  });

  it("asks again while the answer is older than the event's version (another replica had not heard of it yet)", async () => {
    // The event says version 20, but the replica that answers the refetch still has 10.
    const { state, requests } = await toldOfVersion20();
    await pass(100);
    expect(count(requests, TABLA)).toBe(2);
    expect(puntajeDeAna()).toBe('10');

    state.puntaje = 20; // it has heard of it now
    await pass(600);
    expect(count(requests, TABLA)).toBe(3);
    expect(puntajeDeAna()).toBe('20');

    // Caught up: no more requests.
    await pass(5_000);
    expect(count(requests, TABLA)).toBe(3);
  });

  it('keeps asking, ever more slowly, while the replicas cannot read the new table yet (PostgreSQL down)', async () => {
    const { state, requests } = await toldOfVersion20();

    // The quick tries, within 2 s of the event, as when another replica had not heard of it.
    await pass(2_100);
    expect(count(requests, TABLA)).toBe(1 + 1 + CATCH_UP_TRIES);

    // Then ever more slowly: ten minutes of outage cost at most one request every 30 s.
    const beforeOutage = count(requests, TABLA);
    await pass(10 * 60_000);
    const duringOutage = count(requests, TABLA) - beforeOutage;
    expect(duringOutage).toBeGreaterThanOrEqual(20);
    expect(duringOutage).toBeLessThanOrEqual(25);
    expect(puntajeDeAna()).toBe('10');

    // PostgreSQL is back: the table shows the announced version within 30 s, and the asking stops.
    await serverReaches(state, 20);
    await expectNoMoreRequests(requests);
  });

  it('follows only the newest event of a tournament while catching up', async () => {
    const { state, requests, streams } = await toldOfVersion20();
    await pass(10_000);
    const oneLoop = count(requests, TABLA);

    // A newer event, and the same one again: one request each, then one loop asks, not three.
    act(() => streams.latest.emit('posiciones', { torneo: 1, version: 30 }, '30'));
    act(() => streams.latest.emit('posiciones', { torneo: 1, version: 30 }, '30'));
    await pass(100);
    expect(count(requests, TABLA)).toBe(oneLoop + 2);
    // Ten minutes of one loop: its quick tries, the ramp and one every 30 s (about 28); two
    // loops, the old one not stopping, would make about 50.
    await pass(10 * 60_000);
    expect(count(requests, TABLA) - oneLoop - 2).toBeLessThanOrEqual(30);

    // The table reaches 20 only: still older than 30, so it keeps asking; at 30 it stops.
    await serverReaches(state, 20);
    await serverReaches(state, 30);
    await expectNoMoreRequests(requests);
  });

  it('polls every 30 s when the server is full (503), and streams again once a new stream opens', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    const state = { puntaje: 10 };
    const { requests } = serve(state);
    const streams = fakeEventSources();
    renderWithProviders(
      <>
        <StandingsBlock jugadorId={99} />
        <Mode />
      </>,
      { live: streams.factory },
    );
    await pass(100);
    expect(puntajeDeAna()).toBe('10');

    // A 503 makes the browser give up on the stream (CLOSED).
    act(() => streams.latest.fail({ closed: true }));
    expect(screen.getByTestId('modo')).toHaveTextContent('polling');
    expect(streams.latest.closed).toBe(true);

    state.puntaje = 17;
    await pass(30_000);
    await pass(100);
    expect(puntajeDeAna()).toBe('17');

    // A new stream is tried within 40 s; when it opens, the mode is streaming again and what may
    // have been missed meanwhile is reloaded.
    await pass(10_000);
    expect(streams.opened).toHaveLength(2);
    const before = count(requests, TABLA);
    act(() => streams.latest.open());
    expect(screen.getByTestId('modo')).toHaveTextContent('streaming');
    await pass(100);
    expect(count(requests, TABLA)).toBe(before + 1);

    // Streaming: no more polling.
    const streaming = count(requests, TABLA);
    await pass(95_000);
    expect(count(requests, TABLA)).toBe(streaming);
  });

  it('polls while the browser keeps failing to reconnect, and streams again when it manages', () => {
    fakeFetch(() => undefined);
    const streams = fakeEventSources();
    renderWithProviders(<Mode />, { live: streams.factory });
    act(() => streams.latest.open());
    act(() => streams.latest.fail());
    // One dropped connection is the browser's to retry: still counted on.
    expect(screen.getByTestId('modo')).toHaveTextContent('streaming');
    act(() => streams.latest.fail());
    act(() => streams.latest.fail());
    expect(screen.getByTestId('modo')).toHaveTextContent('polling');
    act(() => streams.latest.open());
    expect(screen.getByTestId('modo')).toHaveTextContent('streaming');
    expect(streams.opened).toHaveLength(1);
  });

  it('polls when a stream does not open within 10 s', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    fakeFetch(() => undefined);
    const streams = fakeEventSources();
    renderWithProviders(<Mode />, { live: streams.factory });
    expect(screen.getByTestId('modo')).toHaveTextContent('connecting');
    await pass(10_000);
    expect(screen.getByTestId('modo')).toHaveTextContent('polling');
  });

  it('polls from the start where there is no EventSource', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    const { requests } = serve({ puntaje: 10 });
    renderWithProviders(
      <>
        <StandingsBlock jugadorId={99} />
        <Mode />
      </>,
      { live: null },
    );
    expect(screen.getByTestId('modo')).toHaveTextContent('polling');
    await pass(100);
    expect(count(requests, TABLA)).toBe(1);
    await pass(30_000);
    await pass(100);
    expect(count(requests, TABLA)).toBe(2);
  });
});
