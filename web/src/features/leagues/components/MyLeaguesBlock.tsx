import { Link } from 'react-router';
import { QueryView } from '../../../shared/components/QueryView';
import { useGrupos } from '../api/getGrupos';
import { LeagueList } from './LeagueList';
import './leagues.css';

/** The home's "Mis grupos": the current tournament's leagues of the player, and the way to all. */
export function MyLeaguesBlock() {
  const grupos = useGrupos(undefined);
  return (
    <section className="card block" aria-labelledby="grupos-inicio">
      <h2 id="grupos-inicio">Mis grupos</h2>
      <QueryView query={grupos} loadingText="Cargando tus grupos…">
        {(lista) => <LeagueList grupos={lista} />}
      </QueryView>
      <p className="block__more">
        <Link to="/grupos">Ver mis grupos o crear uno</Link>
      </p>
    </section>
  );
}
