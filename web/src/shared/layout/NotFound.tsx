import { Link } from 'react-router';
import { usePageTitle } from './usePageTitle';

export function NotFound() {
  usePageTitle('Página no encontrada');
  return (
    <section className="page">
      <h1>No encontramos esta página</h1>
      <p>
        <Link to="/">Volver al inicio</Link>
      </p>
    </section>
  );
}
