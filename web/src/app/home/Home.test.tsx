import { screen } from '@testing-library/react';
import { fakeFetch } from '../../test/fakeFetch';
import { fakePregunta } from '../../test/fixtures';
import { renderWithProviders } from '../../test/render';
import { Home } from './Home';

const jugador = { id: 3, nombre: 'Ana', email: 'ana@prode.test', admin: false };

function serve() {
  return fakeFetch((r) => {
    if (r.path === '/api/torneos') {
      return { status: 200, body: [{ id: 1, nombre: 'Mundial 2022', actual: true, partidos: 64, finalizados: 0 }] };
    }
    if (r.path === '/api/posiciones/fijados') return { status: 200, body: [] };
    if (r.path === '/api/posiciones/tablero') return { status: 200, body: { torneo: 1, version: 1, total: 0, filas: [] } };
    if (r.path.startsWith('/api/posiciones')) return { status: 200, body: { pagina: 1, por_pagina: 10, total: 0, posiciones: [] } };
    if (r.path === '/api/resultados') return { status: 200, body: [] };
    if (r.path === '/api/grupos') {
      return { status: 200, body: [{ id: 5, torneo: 1, nombre: 'La oficina', miembros: 12, es_dueno: false, mi_posicion: 2 }] };
    }
    if (r.path === '/api/preguntas') return { status: 200, body: [fakePregunta()] };
    return undefined;
  });
}

/** Whether `a` comes before `b` in the page, as a screen reader and a phone's scroll meet them. */
const before = (a: Element, b: Element) => Boolean(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING);

describe('Home', () => {
  it("puts 'Hacé tus jugadas' and its warning right after the greeting, before the rules and the blocks", async () => {
    serve();
    renderWithProviders(<Home jugador={jugador} />);
    const greeting = screen.getByRole('heading', { level: 1, name: 'Hola Ana' });
    const warning = screen.getByRole('note');
    const cta = screen.getByRole('link', { name: 'Hacé tus jugadas' });
    const rules = screen.getByRole('heading', { name: 'Reglamento' });
    const board = screen.getByRole('heading', { name: 'Cerca tuyo' });
    const standings = screen.getByRole('heading', { name: 'Tabla de posiciones' });
    const results = screen.getByRole('heading', { name: 'Resultados' });
    const grupos = screen.getByRole('heading', { name: 'Mis grupos' });
    expect(cta).toHaveAttribute('href', '/jugadas');
    const order = [greeting, warning, cta, rules, board, standings, results, grupos];
    order.slice(1).forEach((el, i) => expect(before(order[i]!, el)).toBe(true));
    expect(await screen.findByText('Todavía no terminó ningún partido.')).toBeInTheDocument();
  });

  it("shows one's leagues, and the way to the bonus questions while one is open", async () => {
    serve();
    renderWithProviders(<Home jugador={jugador} />);
    expect(await screen.findByRole('link', { name: 'La oficina' })).toHaveAttribute('href', '/grupos/5');
    expect(screen.getByText(/12 integrantes · Tu posición: 2/)).toBeInTheDocument();
    const preguntas = await screen.findByRole('link', { name: 'Responder las preguntas' });
    expect(preguntas).toHaveAttribute('href', '/preguntas');
    expect(before(screen.getByRole('link', { name: 'Hacé tus jugadas' }), preguntas)).toBe(true);
    expect(before(preguntas, screen.getByRole('heading', { name: 'Reglamento' }))).toBe(true);
  });
});
