import { Link } from 'react-router';
import { usePreguntas } from '../api/getPreguntas';

/** The home's way to /preguntas, while the current tournament has a question still open. */
export function OpenQuestionsLink() {
  const preguntas = usePreguntas(undefined);
  const abiertas = preguntas.data?.filter((p) => !p.cerrada) ?? [];
  if (abiertas.length === 0) return null;
  const sinResponder = abiertas.filter((p) => p.mi_respuesta === null).length;
  return (
    <p className="notice">
      {sinResponder > 0
        ? `Tenés ${sinResponder === 1 ? '1 pregunta' : `${sinResponder} preguntas`} sin responder que suman puntos extra. `
        : 'Hay preguntas abiertas que suman puntos extra. '}
      <Link to="/preguntas">Responder las preguntas</Link>
    </p>
  );
}
