import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { axeViolations } from '../../../test/axe';
import { fakeFetch, type Route } from '../../../test/fakeFetch';
import { signInRoutes } from '../../../test/fakeSignIn';
import { renderRoutes } from '../../../test/render';
import { JoinPage } from './JoinPage';

const CODIGO = 'Qm9uaXRvQ29kaWdvMTIzNA';
const invitacion = { id: 5, nombre: 'La oficina', torneo: 1, miembros: 12, dueno: { nombre: 'Beto' } };
const jugador = { id: 3, nombre: 'Ana', email: 'ana@prode.test', admin: false };
const REVOCADO = 'El enlace de invitación no es válido o fue revocado.';

/** The server: signed out until the chooser's code is exchanged (POST /api/sesion), unless `signedIn`. */
function serve(signedIn: boolean, extra: Route = () => undefined) {
  const session = signInRoutes(jugador, signedIn);
  return fakeFetch((r) => {
    if (r.path === `/api/grupos/invitacion/${CODIGO}`) return { status: 200, body: invitacion };
    return session(r) ?? extra(r);
  });
}

function page() {
  return renderRoutes(
    { '/unirse/:codigo': <JoinPage />, '/grupos/:id': <h1>Página del grupo</h1> },
    { route: `/unirse/${CODIGO}` },
  );
}

describe('JoinPage', () => {
  it('signed out: shows the league and the sign-in button; after the popup, the page stays with one button to join', async () => {
    const { requests } = serve(false);
    const open = vi.spyOn(window, 'open').mockReturnValue(window); // the chooser's popup opens
    const { container } = page();
    expect(await screen.findByText('La oficina')).toBeInTheDocument();
    expect(screen.getByText(/grupo de Beto, con 12 integrantes/)).toBeInTheDocument();
    const ingresar = await screen.findByRole('button', { name: 'Ingresar con Google' });
    expect(screen.queryByRole('button', { name: /Unirme/ })).not.toBeInTheDocument();
    expect(await axeViolations(container)).toEqual([]);

    await userEvent.click(ingresar);
    expect(open).toHaveBeenLastCalledWith('/api/sesion/dev', 'prode-login', 'width=500,height=600');
    fireEvent(window, new MessageEvent('message', { data: { tipo: 'prode-codigo', code: 'c0de' }, origin: window.location.origin }));
    expect(await screen.findByRole('button', { name: 'Unirme a La oficina' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Invitación a un grupo' })).toBeInTheDocument();
    // Signing in joined nothing: that takes the click.
    expect(requests.some((r) => r.path === '/api/grupos/unirse')).toBe(false);
  });

  it('signed in: one click joins with the code and opens the league', async () => {
    const { requests } = serve(true, (r) =>
      r.path === '/api/grupos/unirse'
        ? { status: 200, body: { ...invitacion, dueno: { id: 4, nombre: 'Beto' }, es_dueno: false, codigo: null } }
        : undefined,
    );
    page();
    await userEvent.click(await screen.findByRole('button', { name: 'Unirme a La oficina' }));
    expect(await screen.findByRole('heading', { name: 'Página del grupo' })).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'POST')).toEqual([
      { method: 'POST', path: '/api/grupos/unirse', body: { codigo: CODIGO } },
    ]);
  });

  it("a full league: the server's Spanish refusal, and the page stays", async () => {
    const lleno = 'El grupo llegó al máximo de 5000 integrantes.';
    serve(true, (r) =>
      r.path === '/api/grupos/unirse' ? { status: 409, body: { error: 'grupo_lleno', mensaje: lleno, request_id: 'x' } } : undefined,
    );
    page();
    await userEvent.click(await screen.findByRole('button', { name: 'Unirme a La oficina' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(lleno);
    expect(screen.getByRole('heading', { level: 1, name: 'Invitación a un grupo' })).toBeInTheDocument();
  });

  it('a revoked or unknown code: says so in Spanish, with no way to join', async () => {
    fakeFetch((r) => {
      if (r.path === '/api/sesion') return { status: 200, body: jugador };
      if (r.path.startsWith('/api/grupos/invitacion/')) {
        return { status: 404, body: { error: 'invitacion_invalida', mensaje: REVOCADO, request_id: 'x' } };
      }
      return undefined;
    });
    const { container } = page();
    expect(await screen.findByRole('alert')).toHaveTextContent(REVOCADO);
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    expect(await axeViolations(container)).toEqual([]);
  });
});
