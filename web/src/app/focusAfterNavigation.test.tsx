import { useEffect, useState } from 'react';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Link, Route, Routes, useParams, useSearchParams } from 'react-router';
import { fakeFetch } from '../test/fakeFetch';
import { renderWithProviders } from '../test/render';
import { Layout } from './Layout';

function Inicio() {
  return (
    <>
      <h1>Inicio</h1>
      <Link to="/tabla">Ver la tabla</Link> <Link to="/lenta">Ver la página lenta</Link>{' '}
      <Link to="/lenta?propia">Ver la página que enfoca lo suyo</Link>
    </>
  );
}

/** Pages through the query string, as the standings do. */
function Tabla() {
  const [params, setParams] = useSearchParams();
  return (
    <>
      <h1>Tabla</h1>
      <p>Página {params.get('pagina') ?? '1'}</p>
      <button type="button" onClick={() => setParams({ pagina: '2' })}>
        Siguiente
      </button>
    </>
  );
}

/** Shows its heading only once "loaded"; with ?propia it focuses a control of its own first. */
function Lenta() {
  const [params] = useSearchParams();
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    if (params.has('propia')) document.getElementById('propio')?.focus();
    const t = setTimeout(() => setLoaded(true), 50);
    return () => clearTimeout(t);
  }, [params]);
  return (
    <>
      <button id="propio" type="button">
        Mi fila
      </button>
      {loaded ? <h1>Lenta</h1> : <p>Cargando…</p>}
    </>
  );
}

/** One page per match, linking to the next: the same element stays on screen. */
function Partido() {
  const { id } = useParams();
  return (
    <>
      <h1>Partido {id}</h1>
      <Link to={`/partido/${Number(id) + 1}`}>Siguiente partido</Link>
    </>
  );
}

function renderApp(route = '/') {
  fakeFetch((r) => {
    if (r.path === '/api/sesion') return { status: 401, body: { error: 'no_autenticado', mensaje: 'x' } };
    if (r.path === '/api/sesion/proveedor') return { status: 200, body: { modo: 'dev', client_id: '' } };
    return undefined;
  });
  return renderWithProviders(
    <Routes>
      <Route element={<Layout />}>
        <Route index element={<Inicio />} />
        <Route path="tabla" element={<Tabla />} />
        <Route path="lenta" element={<Lenta />} />
        <Route path="partido/:id" element={<Partido />} />
      </Route>
    </Routes>,
    { route },
  );
}

describe('focus after a navigation', () => {
  it('stays where it is on the first load', async () => {
    renderApp();
    await screen.findByRole('heading', { name: 'Inicio' });
    expect(document.body).toHaveFocus();
  });

  it("moves to the new page's h1 after a click on a link, without making it a Tab stop", async () => {
    renderApp();
    await userEvent.click(await screen.findByRole('link', { name: 'Ver la tabla' }));
    const heading = screen.getByRole('heading', { level: 1, name: 'Tabla' });
    expect(heading).toHaveFocus();
    expect(heading).toHaveAttribute('tabindex', '-1');
  });

  it('stays on the control when only the query string changes (paging)', async () => {
    renderApp('/tabla');
    const next = await screen.findByRole('button', { name: 'Siguiente' });
    await userEvent.click(next);
    expect(await screen.findByText('Página 2')).toBeInTheDocument();
    expect(next).toHaveFocus();
  });

  it('waits for the heading of a page that is still loading', async () => {
    renderApp();
    await userEvent.click(await screen.findByRole('link', { name: 'Ver la página lenta' }));
    const heading = await screen.findByRole('heading', { level: 1, name: 'Lenta' });
    await waitFor(() => expect(heading).toHaveFocus());
  });

  it('leaves focus alone when the new page moved it first', async () => {
    renderApp();
    await userEvent.click(await screen.findByRole('link', { name: 'Ver la página que enfoca lo suyo' }));
    await screen.findByRole('heading', { level: 1, name: 'Lenta' });
    expect(screen.getByRole('button', { name: 'Mi fila' })).toHaveFocus();
  });

  it('moves from a link inside a page that stays on screen to its new heading', async () => {
    renderApp('/partido/1');
    await userEvent.click(await screen.findByRole('link', { name: 'Siguiente partido' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Partido 2' })).toHaveFocus();
  });
});
