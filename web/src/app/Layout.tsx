import { useEffect, useRef } from 'react';
import { NavLink, Outlet } from 'react-router';
import { DevModeBanner, skipAutomaticSignIn, useSesion, type Jugador } from '../features/session';
import { Footer } from '../shared/layout/Footer';
import { useFocusHeadingOnNavigation } from '../shared/layout/useFocusHeadingOnNavigation';
import '../shared/layout/layout.css';

/** The header's links, in order; `para` says who sees one, when not everyone does. */
const LINKS: { to: string; label: string; para?: (jugador: Jugador | null) => boolean }[] = [
  { to: '/jugadas', label: 'Jugadas', para: (jugador) => jugador !== null },
  { to: '/posiciones', label: 'Posiciones' },
  { to: '/resultados', label: 'Resultados' },
  { to: '/preguntas', label: 'Preguntas' },
  { to: '/grupos', label: 'Grupos', para: (jugador) => jugador !== null },
  { to: '/admin', label: 'Organizar', para: (jugador) => jugador?.admin === true },
];

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
              {LINKS.filter((link) => !link.para || link.para(jugador)).map((link) => (
                <li key={link.to}>
                  <NavLink to={link.to}>{link.label}</NavLink>
                </li>
              ))}
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
