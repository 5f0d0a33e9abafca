import { useId, useState, type FormEvent } from 'react';
import { QueryView } from '../../../shared/components/QueryView';
import { SelectField } from '../../../shared/components/SelectField';
import { TournamentOptions, useTorneos, type Torneo } from '../../tournaments';
import { putTorneoActual } from '../api/putTorneoActual';
import { useAdminMutation } from '../hooks/useAdminMutation';
import { FormSubmit } from './FormSubmit';

/** "Torneo actual": which tournament players see by default, in Jugadas, the table and the results. */
export function CurrentTournamentForm() {
  const id = useId();
  const torneos = useTorneos();
  return (
    <section className="card admin-section" aria-labelledby={`${id}-titulo`}>
      <h2 id={`${id}-titulo`}>Torneo actual</h2>
      <p className="admin-hint">
        Es el torneo que ven los jugadores: sus partidos en Jugadas, su tabla de posiciones y sus
        resultados. Los torneos anteriores quedan en el historial.
      </p>
      <QueryView query={torneos} loadingText="Cargando los torneos…">
        {(lista) =>
          lista.length === 0 ? (
            <p className="empty">Todavía no hay torneos: importá uno.</p>
          ) : (
            <Picker torneos={lista} />
          )
        }
      </QueryView>
    </section>
  );
}

function Picker({ torneos }: { torneos: Torneo[] }) {
  const actual = torneos.find((t) => t.actual);
  const [elegido, setElegido] = useState<number>(actual?.id ?? torneos[0]!.id);
  const cambiar = useAdminMutation(putTorneoActual);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    cambiar.mutate(elegido);
  };

  return (
    <form className="admin-form" onSubmit={submit}>
      <SelectField
        label="Torneo actual"
        value={elegido}
        onChange={(value) => {
          cambiar.reset();
          setElegido(Number(value));
        }}
      >
        <TournamentOptions torneos={torneos} detail={(t) => `${t.finalizados} de ${t.partidos} partidos jugados`} />
      </SelectField>
      <FormSubmit
        mutation={cambiar}
        label="Cambiar el torneo actual"
        disabled={elegido === actual?.id}
        successText={cambiar.data ? `Listo: ${cambiar.data.nombre} es ahora el torneo actual.` : ''}
      />
    </form>
  );
}
