import { useState, type FormEvent } from 'react';
import { QueryView } from '../../../shared/components/QueryView';
import { SelectField } from '../../../shared/components/SelectField';
import { useEquipos, type Equipo } from '../api/getEquipos';
import type { Partido } from '../api/getPartidos';
import { putEquipos, type EquiposEntrada } from '../api/putEquipos';
import { useAdminMutation } from '../hooks/useAdminMutation';
import { FormSubmit } from './FormSubmit';

/** Sets a knock-out match's teams once the previous round decides them. */
export function TeamsForm({ partido }: { partido: Partido }) {
  const equipos = useEquipos();
  return (
    <QueryView query={equipos} loadingText="Cargando los equipos…">
      {(lista) => <TeamsPicker partido={partido} equipos={lista} />}
    </QueryView>
  );
}

function TeamsPicker({ partido, equipos }: { partido: Partido; equipos: Equipo[] }) {
  const [local, setLocal] = useState(partido.codigo_local ?? '');
  const [visitante, setVisitante] = useState(partido.codigo_visitante ?? '');
  const guardar = useAdminMutation((body: EquiposEntrada) => putEquipos(partido.id, body));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    guardar.mutate({ codigo_local: local, codigo_visitante: visitante });
  };

  const picker = (label: string, value: string, onChange: (v: string) => void) => (
    <SelectField label={label} required value={value} onChange={onChange}>
      <option value="">Elegí un equipo</option>
      {equipos.map((e) => (
        <option key={e.codigo} value={e.codigo}>
          {e.nombre}
        </option>
      ))}
    </SelectField>
  );

  return (
    <form className="admin-form" onSubmit={submit}>
      {picker('Equipo local', local, setLocal)}
      {picker('Equipo visitante', visitante, setVisitante)}
      <FormSubmit mutation={guardar} label="Guardar equipos" successText="Equipos guardados." />
    </form>
  );
}
