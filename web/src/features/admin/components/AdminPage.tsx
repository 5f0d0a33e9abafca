import { useId, useState } from 'react';
import { QueryView } from '../../../shared/components/QueryView';
import { SelectField } from '../../../shared/components/SelectField';
import { usePageTitle } from '../../../shared/layout/usePageTitle';
import { TournamentOptions, useTorneos } from '../../tournaments';
import { usePartidos, type Partido } from '../api/getPartidos';
import { CurrentTournamentForm } from './CurrentTournamentForm';
import { ImportForm } from './ImportForm';
import { MatchAdminCard } from './MatchAdminCard';
import { OrganiserChanges } from './OrganiserChanges';
import { QuestionsAdmin } from './QuestionsAdmin';
import './admin.css';

function matches(partido: Partido, search: string): boolean {
  const wanted = search.trim().toLocaleLowerCase('es');
  if (wanted === '') return true;
  const text = `${partido.numero} ${partido.nombre_local} ${partido.nombre_visitante} ${partido.nombre_categoria}`;
  return text.toLocaleLowerCase('es').includes(wanted);
}

/**
 * /admin (organisers): which tournament is current, importing one, the organisers' recent changes,
 * then results, schedule, teams and state per match of any tournament (the current one by default),
 * and the tournaments' bonus questions with their right answers.
 */
export default function AdminPage() {
  usePageTitle('Organizar');
  const id = useId();
  const [torneo, setTorneo] = useState<number | undefined>(undefined);
  const partidos = usePartidos(torneo);
  const torneos = useTorneos();
  const [search, setSearch] = useState('');
  return (
    <section className="page admin" aria-labelledby={`${id}-titulo`}>
      <h1 id={`${id}-titulo`}>Organizar el torneo</h1>
      <CurrentTournamentForm />
      <ImportForm />
      <OrganiserChanges />
      <section className="card admin-section" aria-labelledby={`${id}-partidos`}>
        <h2 id={`${id}-partidos`}>Partidos</h2>
        {torneos.isSuccess && torneos.data.length > 1 && (
          <SelectField
            label="Partidos del torneo"
            className="field admin-list-filter"
            value={torneo ?? ''}
            onChange={(value) => setTorneo(value === '' ? undefined : Number(value))}
          >
            <option value="">El torneo actual</option>
            <TournamentOptions torneos={torneos.data} />
          </SelectField>
        )}
        <div className="field">
          <label htmlFor={`${id}-buscar`}>Buscar partido (equipo, grupo o número)</label>
          <input id={`${id}-buscar`} type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
        </div>
        <QueryView query={partidos} loadingText="Cargando los partidos…">
          {(lista) => {
            const visibles = lista.filter((p) => matches(p, search));
            if (visibles.length === 0) return <p className="empty">No hay partidos que coincidan.</p>;
            return (
              <ul className="admin-match-list">
                {visibles.map((p) => (
                  <MatchAdminCard key={p.id} partido={p} />
                ))}
              </ul>
            );
          }}
        </QueryView>
      </section>
      <QuestionsAdmin />
    </section>
  );
}
