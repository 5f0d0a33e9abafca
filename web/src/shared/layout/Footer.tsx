import { socialLinks } from '../config';

/** On every screen: the organisers' logo and their social networks (configurable, see config.ts). */
export function Footer() {
  return (
    <footer className="site-footer">
      <img className="site-footer__logo" src="/logo.svg" alt="Prode de Identidad" width={48} height={48} />
      <ul className="site-footer__links" aria-label="Redes sociales">
        <li>
          <a href={socialLinks.instagram} target="_blank" rel="noopener noreferrer">
            Instagram
          </a>
        </li>
        <li>
          <a href={socialLinks.facebook} target="_blank" rel="noopener noreferrer">
            Facebook
          </a>
        </li>
        <li>
          <a href={socialLinks.telegram} target="_blank" rel="noopener noreferrer">
            Telegram
          </a>
        </li>
      </ul>
    </footer>
  );
}
