import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { SignInButton, SignOutButton, useSesion } from '../features/session';
import { fakeFetch } from '../test/fakeFetch';
import { renderWithProviders } from '../test/render';
import { Layout } from './Layout';

const jugador = { id: 3, nombre: 'Ana', email: 'ana@prode.test', admin: false };

/** The home's choice, reduced to the two buttons: 'Salir' signed in, the landing's button signed out. */
function Home() {
  const jugador = useSesion().data;
  if (jugador === undefined) return null;
  return jugador ? <SignOutButton /> : <SignInButton />;
}

describe('the automatic sign-in popup', () => {
  it("does not open after 'Salir' on a page that was loaded signed in", async () => {
    let signedIn = true;
    fakeFetch((r) => {
      if (r.path === '/api/sesion/proveedor') return { status: 200, body: { modo: 'dev', client_id: '' } };
      if (r.method === 'GET' && r.path === '/api/sesion') {
        return signedIn ? { status: 200, body: jugador } : { status: 401, body: { error: 'no_autenticado' } };
      }
      if (r.method === 'DELETE' && r.path === '/api/sesion') {
        signedIn = false;
        return { status: 204 };
      }
      return undefined;
    });
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    renderWithProviders(
      <Routes>
        <Route element={<Layout />}>
          <Route index element={<Home />} />
        </Route>
      </Routes>,
    );

    await userEvent.click(await screen.findByRole('button', { name: 'Salir' }));
    const button = await screen.findByRole('button', { name: 'Ingresar con Google' });
    await vi.waitFor(() => expect(button).toBeEnabled());
    expect(open).not.toHaveBeenCalled();
  });
});
