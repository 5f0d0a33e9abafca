import { QueryView } from '../../../shared/components/QueryView';
import { usePageTitle } from '../../../shared/layout/usePageTitle';
import { TournamentPicker, useTorneoParam } from '../../tournaments';
import { useGrupos } from '../api/getGrupos';
import { CreateLeagueForm } from './CreateLeagueForm';
import { LeagueList } from './LeagueList';
import './leagues.css';

/** /grupos: the signed-in player's leagues in the tournament shown, and "Crear grupo". */
export function LeaguesPage() {
  usePageTitle('Mis grupos');
  const [torneo, choose] = useTorneoParam();
  const grupos = useGrupos(torneo);
  return (
    <section className="page" aria-labelledby="grupos-titulo">
      <h1 id="grupos-titulo">Mis grupos</h1>
      <TournamentPicker torneo={torneo} onChange={choose} />
      <QueryView query={grupos} loadingText="Cargando tus grupos…">
        {(lista) => <LeagueList grupos={lista} />}
      </QueryView>
      <CreateLeagueForm torneo={torneo} />
    </section>
  );
}
