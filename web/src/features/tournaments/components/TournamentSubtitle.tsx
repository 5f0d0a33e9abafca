import './tournaments.css';
import { useTorneos } from '../api/getTorneos';

interface Props {
  /** Undefined: the current tournament. */
  torneo?: number;
  /** Words before the name, e.g. "Torneo: ". */
  prefix?: string;
}

/** The name of the tournament a screen shows, under its title; nothing until it is known. */
export function TournamentSubtitle({ torneo, prefix = '' }: Props) {
  const torneos = useTorneos();
  const lista = Array.isArray(torneos.data) ? torneos.data : [];
  const shown = lista.find((t) => (torneo === undefined ? t.actual : t.id === torneo));
  if (!shown) return null;
  return (
    <p className="page-subtitle">
      {prefix}
      {shown.nombre}
    </p>
  );
}
