import { socialLinks } from '../../../shared/config';
import { usePageTitle } from '../../../shared/layout/usePageTitle';
import { SignInButton } from '../../session';
import './landing.css';

/** Signed out at /: what the game is, where the organisers post, and the way in. */
export function Landing() {
  usePageTitle('Inicio');
  return (
    <section className="landing">
      <img className="landing__logo" src="/logo.svg" alt="" width={96} height={96} />
      <h1 className="landing__title">PRODE DE IDENTIDAD 2022</h1>
      <p className="landing__intro">
        ¡Llega el Mundial de Qatar 2022 y lo vivimos juntos! Sumate al prode de Identidad: pronosticá
        el resultado de cada partido, sumá puntos con cada acierto y competí por el primer puesto de
        la tabla. Los premios los anunciamos en nuestras redes.
      </p>
      <p className="landing__social">
        Seguinos en{' '}
        <a href={socialLinks.instagram} target="_blank" rel="noopener noreferrer">
          Instagram
        </a>{' '}
        para enterarte de los premios y las novedades.
      </p>
      <SignInButton />
    </section>
  );
}
