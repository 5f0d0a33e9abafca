import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeFetch } from '../../../test/fakeFetch';
import { renderRoutes, renderWithProviders } from '../../../test/render';
import { sesionQueryKey } from '../api/getSesion';
import { returnAfterSignIn } from '../signIn/returnAfterSignIn';
import { SignInButton } from './SignInButton';

const jugador = { id: 3, nombre: 'Ana', email: 'ana@prode.test', admin: false };

describe('SignInButton (dev mode)', () => {
  it('opens the chooser popup, then signs in and registers the player with the code it sends', async () => {
    const { requests } = fakeFetch((r) => {
      if (r.path === '/api/sesion/proveedor') return { status: 200, body: { modo: 'dev', client_id: '' } };
      if (r.method === 'POST' && r.path === '/api/sesion') return { status: 200, body: jugador };
      if (r.method === 'POST' && r.path === '/api/jugadores') return { status: 200, body: jugador };
      return undefined;
    });
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const { queryClient } = renderWithProviders(<SignInButton />);

    const button = await screen.findByRole('button', { name: 'Ingresar con Google' });
    await waitFor(() => expect(button).toBeEnabled());
    // The automatic attempt on load was blocked (window.open returned null): no error shows.
    expect(open).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    // Asked for by a click, a blocked popup is explained.
    await userEvent.click(button);
    expect(open).toHaveBeenLastCalledWith('/api/sesion/dev', 'prode-login', 'width=500,height=600');
    expect(await screen.findByRole('alert')).toHaveTextContent('El navegador bloqueó la ventana');

    fireEvent(
      window,
      new MessageEvent('message', { data: { tipo: 'prode-codigo', code: 'c0de' }, origin: window.location.origin }),
    );
    await waitFor(() => expect(queryClient.getQueryData(sesionQueryKey)).toEqual(jugador));
    const posts = requests.filter((r) => r.method === 'POST');
    expect(posts).toEqual([
      { method: 'POST', path: '/api/sesion', body: { code: 'c0de' } },
      { method: 'POST', path: '/api/jugadores', body: { nombre: 'Ana', email: 'ana@prode.test' } },
    ]);
  });

  it('after a session that ended under the player, says why and goes back to where they were', async () => {
    fakeFetch((r) => {
      if (r.path === '/api/sesion/proveedor') return { status: 200, body: { modo: 'dev', client_id: '' } };
      if (r.method === 'POST' && r.path === '/api/sesion') return { status: 200, body: jugador };
      if (r.method === 'POST' && r.path === '/api/jugadores') return { status: 200, body: jugador };
      return undefined;
    });
    vi.spyOn(window, 'open').mockReturnValue(null);
    returnAfterSignIn('/jugadas', 'Tu sesión se cerró: ingresá de nuevo.');
    renderRoutes({ '/': <SignInButton />, '/jugadas': <h1>Tus jugadas</h1> });
    expect(await screen.findByText('Tu sesión se cerró: ingresá de nuevo.')).toBeInTheDocument();
    fireEvent(
      window,
      new MessageEvent('message', { data: { tipo: 'prode-codigo', code: 'c0de' }, origin: window.location.origin }),
    );
    expect(await screen.findByRole('heading', { name: 'Tus jugadas' })).toBeInTheDocument();
    expect(sessionStorage.getItem('prode.volver-tras-ingresar')).toBeNull();
  });
});
