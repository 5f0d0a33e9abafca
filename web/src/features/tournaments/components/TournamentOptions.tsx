import type { Torneo } from '../api/getTorneos';

interface Props {
  torneos: Torneo[];
  /** Said after each name, after a "·": how far the tournament has gone, for the organiser. */
  detail?: (torneo: Torneo) => string;
}

/** A <select>'s options, one per tournament by its id, the current one marked "(actual)". */
export function TournamentOptions({ torneos, detail }: Props) {
  return torneos.map((t) => {
    const nombre = t.actual ? `${t.nombre} (actual)` : t.nombre;
    return (
      <option key={t.id} value={t.id}>
        {detail ? `${nombre} · ${detail(t)}` : nombre}
      </option>
    );
  });
}
