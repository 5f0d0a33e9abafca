import { useEffect, useRef } from 'react';
import { NavLink, Outlet } from 'react-router';
import { DevModeBanner, skipAutomaticSignIn, useSesion } from '../features/session';
import { Footer } from '../shared/layout/Footer';
import { useFocusHeadingOnNavigation } from '../shared/layout/useFocusHeadingOnNavigation';
import '../shared/layout/layout.css';

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
              <li>
                <NavLink to="/preguntas">Preguntas</NavLink>
              </li>
              {jugador && (
                <li>
                  <NavLink to="/grupos">Grupos</NavLink>
                </li>
              )}
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
