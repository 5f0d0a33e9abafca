import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { axeViolations } from '../../../test/axe';
import { fakeFetch } from '../../../test/fakeFetch';
import { renderRoutes, renderWithProviders } from '../../../test/render';
import { LeaguesPage } from './LeaguesPage';
import { MyLeaguesBlock } from './MyLeaguesBlock';

const torneos = [{ id: 1, nombre: 'Mundial 2026', actual: true, partidos: 104, finalizados: 0 }];
const mios = [
  { id: 5, torneo: 1, nombre: 'La oficina', miembros: 12, es_dueno: true, mi_posicion: 3 },
  { id: 8, torneo: 1, nombre: 'Familia', miembros: 1, es_dueno: false, mi_posicion: null },
];

function page() {
  return renderRoutes({ '/grupos': <LeaguesPage />, '/grupos/:id': <h1>Página del grupo</h1> }, { route: '/grupos' });
}

describe('LeaguesPage', () => {
  it("lists one's leagues with their members and one's place, each a link to its page", async () => {
    fakeFetch((r) => {
      if (r.path === '/api/torneos') return { status: 200, body: torneos };
      if (r.path === '/api/grupos') return { status: 200, body: mios };
      return undefined;
    });
    const { container } = page();
    expect(screen.getByRole('heading', { level: 1, name: 'Mis grupos' })).toBeInTheDocument();
    const oficina = await screen.findByRole('link', { name: 'La oficina' });
    expect(oficina).toHaveAttribute('href', '/grupos/5');
    const items = screen.getAllByRole('listitem');
    expect(items[0]).toHaveTextContent('12 integrantes · Tu posición: 3');
    expect(within(items[0]!).getByText('Lo creaste vos')).toBeInTheDocument();
    expect(items[1]).toHaveTextContent('1 integrante · Sin posición todavía');
    await screen.findByRole('combobox', { name: 'Torneo' });
    expect(await axeViolations(container)).toEqual([]);
  });

  it("creates a league with the name typed (trimmed) and opens its page", async () => {
    const { requests } = fakeFetch((r) => {
      if (r.path === '/api/torneos') return { status: 200, body: torneos };
      if (r.path === '/api/grupos' && r.method === 'GET') return { status: 200, body: [] };
      if (r.path === '/api/grupos' && r.method === 'POST') {
        return { status: 201, body: { id: 9, torneo: 1, nombre: 'Los pibes', miembros: 1, dueno: { id: 3, nombre: 'Ana' }, es_dueno: true, codigo: 'abc' } };
      }
      return undefined;
    });
    page();
    expect(await screen.findByText(/Todavía no estás en ningún grupo/)).toBeInTheDocument();
    const crear = screen.getByRole('button', { name: 'Crear grupo' });
    expect(crear).toBeDisabled();
    await userEvent.type(screen.getByLabelText('Nombre del grupo'), '  Los pibes ');
    await userEvent.click(crear);
    expect(await screen.findByRole('heading', { name: 'Página del grupo' })).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'POST')).toEqual([{ method: 'POST', path: '/api/grupos', body: { nombre: 'Los pibes' } }]);
  });

  it("shows the server's refusal in Spanish (too many leagues)", async () => {
    const mensaje = 'Ya estás en 50 grupos, el máximo.';
    fakeFetch((r) => {
      if (r.path === '/api/torneos') return { status: 200, body: torneos };
      if (r.path === '/api/grupos' && r.method === 'GET') return { status: 200, body: [] };
      return { status: 409, body: { error: 'demasiados_grupos', mensaje, request_id: 'x' } };
    });
    page();
    await userEvent.type(await screen.findByLabelText('Nombre del grupo'), 'Otro');
    await userEvent.click(screen.getByRole('button', { name: 'Crear grupo' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(mensaje);
  });
});

describe('MyLeaguesBlock', () => {
  it("shows the current tournament's leagues on the home, with the way to all of them", async () => {
    const { requests } = fakeFetch((r) => (r.path === '/api/grupos' ? { status: 200, body: mios } : undefined));
    renderWithProviders(<MyLeaguesBlock />);
    expect(screen.getByRole('heading', { level: 2, name: 'Mis grupos' })).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Familia' })).toHaveAttribute('href', '/grupos/8');
    expect(screen.getByRole('link', { name: 'Ver mis grupos o crear uno' })).toHaveAttribute('href', '/grupos');
    expect(requests.map((r) => r.path)).toEqual(['/api/grupos']);
  });
});
