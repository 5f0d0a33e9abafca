import './tournaments.css';
import { Link, useLocation } from 'react-router';
import { ErrorMessage } from '../../../shared/components/ErrorMessage';
import { SelectField } from '../../../shared/components/SelectField';
import { useTorneos } from '../api/getTorneos';
import { TournamentOptions } from './TournamentOptions';

interface Props {
  /** The tournament on screen; undefined: the current one. */
  torneo: number | undefined;
  onChange: (torneo: number) => void;
}

/**
 * "Torneo": which tournament a screen shows, the current one marked "(actual)". A past one is the
 * "historial": the screen says so and links back to the current one.
 */
export function TournamentPicker({ torneo, onChange }: Props) {
  const { pathname } = useLocation();
  const torneos = useTorneos();
  if (torneos.isPending) return null;
  if (torneos.isError) {
    return <ErrorMessage error={torneos.error} onRetry={() => void torneos.refetch()} compact />;
  }
  const lista = torneos.data;
  if (lista.length === 0) return null;
  const selected = torneo ?? lista.find((t) => t.actual)?.id ?? lista[0]!.id;
  const viendo = lista.find((t) => t.id === selected);
  return (
    <div className="torneo-picker">
      <SelectField
        label="Torneo"
        className="field torneo-picker__field"
        value={selected}
        onChange={(value) => onChange(Number(value))}
      >
        {!viendo && <option value={selected}>Torneo desconocido</option>}
        <TournamentOptions torneos={lista} />
      </SelectField>
      {viendo && !viendo.actual && (
        <p className="torneo-picker__historial">
          Historial: estás viendo {viendo.nombre}, un torneo que no es el actual.{' '}
          <Link to={pathname}>Ver el torneo actual</Link>
        </p>
      )}
    </div>
  );
}
