import './standings.css';
import { SelectField } from '../../../shared/components/SelectField';
import { formatFecha } from '../../../shared/format';
import type { FechaJugada } from '../api/getPosicionesFechas';

interface Props {
  fechas: FechaJugada[];
  /** The matchday on screen; undefined: "General", the whole table. */
  value: string | undefined;
  onChange: (fecha: string | undefined) => void;
}

/** "Fecha": the whole table ("General") or one matchday's, newest first. */
export function MatchdaySelect({ fechas, value, onChange }: Props) {
  return (
    <SelectField label="Fecha" value={value ?? ''} onChange={(fecha) => onChange(fecha || undefined)}>
      <option value="">General</option>
      {value !== undefined && !fechas.some((f) => f.fecha === value) && <option value={value}>{formatFecha(value)}</option>}
      {fechas.map((f) => (
        <option key={f.fecha} value={f.fecha}>
          {formatFecha(f.fecha)}
        </option>
      ))}
    </SelectField>
  );
}
