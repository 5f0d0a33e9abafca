import { Link } from 'react-router';
import type { GrupoResumen } from '../api/types';
import { integrantes } from './plural';

/** One's leagues: name (to its page), members and one's place in its table. */
export function LeagueList({ grupos }: { grupos: GrupoResumen[] }) {
  if (grupos.length === 0) {
    return <p className="empty">Todavía no estás en ningún grupo. Creá uno e invitá a quienes quieras con su enlace.</p>;
  }
  return (
    <ul className="league-list">
      {grupos.map((g) => (
        <li key={g.id} className="league-list__item">
          <Link to={`/grupos/${g.id}`} className="league-list__name">
            {g.nombre}
          </Link>
          <span className="league-list__meta">
            {integrantes(g.miembros)}
            {' · '}
            {g.mi_posicion === null ? 'Sin posición todavía' : `Tu posición: ${g.mi_posicion}`}
            {g.es_dueno && <span className="badge">Lo creaste vos</span>}
          </span>
        </li>
      ))}
    </ul>
  );
}
