import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { axeViolations } from '../../../test/axe';
import { fakeFetch, type Recorded } from '../../../test/fakeFetch';
import { fakePartido, resultadoConPenales } from '../../../test/fixtures';
import { signInRoutes } from '../../../test/fakeSignIn';
import { renderRoutes } from '../../../test/render';
import type { ApuestasDePartido } from '../api/getApuestasDePartido';
import type { Partido } from '../api/getPartido';
import type { PuntosDePartido } from '../api/getPuntosDePartido';
import type { ResumenApuestas } from '../api/getResumenApuestas';
import MatchPage from './MatchPage';

const ana = { id: 7, nombre: 'Ana', email: 'ana@prode.test', admin: false };

const partido = (over: Partial<Partido> = {}): Partido => fakePartido({ id: 12, numero: 12, apostable: true, ...over });

const jugado = partido({ estado: 'finalizado', apostable: false, resultado: resultadoConPenales });

const abierto: ResumenApuestas = { partido: 12, cerrado: false, mia: { goles_local: 2, goles_visitante: 1 }, distribucion: null };
const cerrado: ResumenApuestas = {
  partido: 12,
  cerrado: true,
  mia: { goles_local: 2, goles_visitante: 1 },
  distribucion: {
    total: 4,
    local: 2,
    empate: 1,
    visitante: 1,
    marcadores: [
      { goles_local: 2, goles_visitante: 1, jugadores: 2 },
      { goles_local: 1, goles_visitante: 1, jugadores: 1 },
      { goles_local: 0, goles_visitante: 2, jugadores: 1 },
    ],
  },
};

const apuestas = (pagina: number, total: number): ApuestasDePartido => ({
  partido: 12,
  pagina,
  por_pagina: 50,
  total,
  apuestas: [
    { nombre: 'Ana', goles_local: 2, goles_visitante: 1, propia: true },
    { nombre: `Beto ${pagina}`, goles_local: 0, goles_visitante: 2, propia: false },
  ],
});

const puntos = (filtro: number | null): PuntosDePartido => ({
  partido: 12,
  pagina: 1,
  por_pagina: 50,
  total: filtro === 0 ? 1 : 4,
  por_puntos: [
    { puntos: 10, jugadores: 1 },
    { puntos: 2, jugadores: 2 },
    { puntos: 0, jugadores: 1 },
  ],
  tus_puntos: 2,
  jugadores:
    filtro === 0
      ? [{ nombre: 'Caro', goles_local: 0, goles_visitante: 2, puntos: 0, propia: false }]
      : [
          { nombre: 'Ana', goles_local: 2, goles_visitante: 1, puntos: 2, propia: true },
          { nombre: 'Beto', goles_local: 3, goles_visitante: 3, puntos: 10, propia: false },
          { nombre: 'Caro', goles_local: 0, goles_visitante: 2, puntos: 0, propia: false },
          { nombre: 'Dani', goles_local: 3, goles_visitante: 0, puntos: 2, propia: false },
        ],
});

interface Serve {
  match?: Partido;
  resumen?: ResumenApuestas;
  total?: number;
  signedIn?: boolean;
}

/** The server; signed out (`signedIn: false`), until the chooser's code is exchanged (POST /api/sesion). */
function serve({ match = partido(), resumen = abierto, total = 4, signedIn = true }: Serve = {}) {
  const session = signInRoutes(ana, signedIn);
  return fakeFetch((r: Recorded) => {
    const signIn = session(r);
    if (signIn) return signIn;
    if (r.path === '/api/partidos/12') return { status: 200, body: match };
    if (r.path === '/api/partidos/99') return { status: 404, body: { error: 'no_encontrado', mensaje: 'No existe ese partido.' } };
    if (r.path === '/api/apuestas/resumen?partido=12') return { status: 200, body: resumen };
    const page = /^\/api\/apuestas\?partido=12&pagina=(\d+)&por_pagina=50$/.exec(r.path);
    if (page) return { status: 200, body: apuestas(Number(page[1]), total) };
    if (r.path === '/api/puntos?partido=12&pagina=1&por_pagina=50') return { status: 200, body: puntos(null) };
    if (r.path === '/api/puntos?partido=12&pagina=1&por_pagina=50&puntos=0') return { status: 200, body: puntos(0) };
    return undefined;
  });
}

function renderAt(path: string) {
  return renderRoutes({ '/partidos/:id': <MatchPage /> }, { route: path });
}

describe('MatchPage', () => {
  it("before the lock shows the match and one's own prediction, and says when everyone's show", async () => {
    const { requests } = serve();
    const { container } = renderAt('/partidos/12');
    const heading = await screen.findByRole('heading', { level: 1 });
    expect(heading).toHaveTextContent('Argentina vs. Francia');
    // The device's clock (UTC here), like the match's card on /jugadas: the fixture's hora is Argentina's 12:00.
    expect(screen.getByText('Final ·', { exact: false })).toHaveTextContent('Final · 18/12/2022 · 15:00');
    expect(screen.getByText('Las jugadas cierran el 18/12/2022 a las 14:00, 1 hora antes del inicio.')).toBeInTheDocument();
    expect(await screen.findByText('Tu jugada:', { exact: false })).toHaveTextContent('Tu jugada: 2 - 1');
    expect(screen.getByRole('link', { name: 'Cambiá tu jugada' })).toHaveAttribute('href', '/jugadas');
    expect(
      screen.getByText('Las jugadas de todos se ven cuando cierran las apuestas, 1 hora antes del inicio.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(requests.some((r) => r.path.startsWith('/api/apuestas?') || r.path.startsWith('/api/puntos'))).toBe(false);
    expect(await axeViolations(container)).toEqual([]);
  });

  it('after the lock shows the distribution as text and everyone’s predictions in a table with a caption', async () => {
    const { requests } = serve({ match: partido({ apostable: false }), resumen: cerrado, total: 120 });
    const { container } = renderAt('/partidos/12');
    await screen.findByRole('heading', { name: 'Cómo jugaron todos' });
    expect(screen.getByText('Las jugadas cerraron el 18/12/2022 a las 14:00.')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /tu jugada/ })).not.toBeInTheDocument();
    const outcomes = screen.getAllByRole('listitem').map((li) => li.textContent);
    expect(outcomes).toEqual(
      expect.arrayContaining([
        'Gana Argentina: 2 jugadas, 50 %',
        'Empate: 1 jugada, 25 %',
        'Gana Francia: 1 jugada, 25 %',
        '2 - 1 2 jugadas (50 %)',
        '1 - 1 1 jugada (25 %)',
      ]),
    );

    const table = await screen.findByRole('table', { name: 'Jugadas de todos, por nombre (página 1 de 3)' });
    const rows = within(table).getAllByRole('row');
    expect(rows.map((r) => r.textContent)).toEqual(['JugadorJugada', 'AnaVos2 - 1', 'Beto 10 - 2']);
    expect(rows[1]).toHaveAttribute('aria-current', 'true');
    expect(await axeViolations(container)).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
    await screen.findByRole('table', { name: 'Jugadas de todos, por nombre (página 2 de 3)' });
    expect(screen.getByText('Beto 2')).toBeInTheDocument();
    expect(requests.map((r) => r.path)).toContain('/api/apuestas?partido=12&pagina=2&por_pagina=50');
  });

  it('once played shows the score and who scored what, filtered by points', async () => {
    const { requests } = serve({ match: jugado, resumen: cerrado });
    const { container } = renderAt('/partidos/12');
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent('Argentina 3 - 3 Francia');
    expect(screen.getByText('Alargue: 3 - 3 · Penales: 4 - 2')).toBeInTheDocument();
    expect(screen.getByText('Partido terminado.')).toBeInTheDocument();
    await screen.findByRole('heading', { name: 'Quién sumó qué' });
    expect(await screen.findByText('Sumaste 2 puntos en este partido.')).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Jugadas y puntos de todos, por nombre (página 1 de 1)' });
    expect(within(table).getAllByRole('row').map((r) => r.textContent)).toEqual([
      'JugadorJugadaPuntos',
      'AnaVos2 - 12',
      'Beto3 - 310',
      'Caro0 - 20',
      'Dani3 - 02',
    ]);
    expect(requests.some((r) => r.path.startsWith('/api/apuestas?'))).toBe(false);
    const filter = screen.getByRole('group', { name: 'Mostrar en la lista' });
    const choices = within(filter).getAllByRole('button').map((b) => b.textContent);
    expect(choices).toEqual(['Todos (4)', '10 puntos (1)', '2 puntos (2)', '0 puntos (1)']);
    expect(await axeViolations(container)).toEqual([]);

    await userEvent.click(within(filter).getByRole('button', { name: '0 puntos (1)' }));
    const filtered = await screen.findByRole('table', { name: 'Quienes sumaron 0 puntos, por nombre (página 1 de 1)' });
    expect(within(filtered).getAllByRole('row')).toHaveLength(2);
    expect(within(filter).getByRole('button', { name: '0 puntos (1)' })).toHaveAttribute('aria-pressed', 'true');
    expect(requests.map((r) => r.path)).toContain('/api/puntos?partido=12&pagina=1&por_pagina=50&puntos=0');
  });

  it('signed out shows the match and the sign-in button, asks for no prediction, and after the popup stays on the match', async () => {
    const { requests } = serve({ signedIn: false });
    const open = vi.spyOn(window, 'open').mockReturnValue(window); // the chooser's popup opens
    const { container } = renderAt('/partidos/12');
    await screen.findByRole('heading', { level: 1, name: 'Argentina vs. Francia' });
    expect(await screen.findByText('Ingresá para ver tu jugada y, cuando cierran las apuestas, las de todos.')).toBeInTheDocument();
    const ingresar = await screen.findByRole('button', { name: 'Ingresar con Google' });
    expect(requests.some((r) => r.path.includes('apuestas') || r.path.includes('puntos'))).toBe(false);
    expect(await axeViolations(container)).toEqual([]);

    await userEvent.click(ingresar);
    expect(open).toHaveBeenLastCalledWith('/api/sesion/dev', 'prode-login', 'width=500,height=600');
    fireEvent(window, new MessageEvent('message', { data: { tipo: 'prode-codigo', code: 'c0de' }, origin: window.location.origin }));
    expect(await screen.findByText('Tu jugada:', { exact: false })).toHaveTextContent('Tu jugada: 2 - 1');
    expect(screen.getByRole('heading', { level: 1, name: 'Argentina vs. Francia' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Ingresar con Google' })).not.toBeInTheDocument();
  });

  it('an unknown or malformed match id is a page not found', async () => {
    serve();
    renderAt('/partidos/99');
    expect(await screen.findByRole('heading', { name: 'No encontramos esta página' })).toBeInTheDocument();
    renderAt('/partidos/abc');
    expect(await screen.findAllByRole('heading', { name: 'No encontramos esta página' })).toHaveLength(2);
  });
});
