import { useEffect, useRef } from 'react';
import { NavLink, Outlet } from 'react-router';
import { DevModeBanner } from '../../features/session/components/DevModeBanner';
import { useSesion } from '../../features/session/api/getSesion';
import { skipAutomaticSignIn } from '../../features/session/signIn/autoSignIn';
import { Footer } from './Footer';
import { useFocusHeadingOnNavigation } from './useFocusHeadingOnNavigation';
import './layout.css';

/** Every screen: dev-mode notice, header with navigation, the screen itself, footer. */
export function Layout() {
  const sesion = useSesion();
  const jugador = sesion.data ?? null;
  const main = useRef<HTMLElement>(null);
  useFocusHeadingOnNavigation(main);
  useEffect(() => {
    if (jugador) skipAutomaticSignIn();
  }, [jugador]);
  return (
    <div className="app">
      <a className="skip-link" href="#contenido">
        Ir al contenido
      </a>
      <header className="site-header">
        <DevModeBanner />
        <div className="site-header__bar">
          <NavLink to="/" className="site-header__brand">
            Prode de Identidad
          </NavLink>
          <nav aria-label="Principal">
            <ul className="site-nav">
              {jugador && (
                <li>
                  <NavLink to="/jugadas">Jugadas</NavLink>
                </li>
              )}
              <li>
                <NavLink to="/posiciones">Posiciones</NavLink>
              </li>
              <li>
                <NavLink to="/resultados">Resultados</NavLink>
              </li>
              {jugador?.admin && (
                <li>
                  <NavLink to="/admin">Organizar</NavLink>
                </li>
              )}
            </ul>
          </nav>
        </div>
      </header>
      <main id="contenido" className="site-main" tabIndex={-1} ref={main}>
        <Outlet />
      </main>
      <Footer />
    </div>
  );
}
