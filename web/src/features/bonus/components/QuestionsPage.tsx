import { QueryList } from '../../../shared/components/QueryList';
import { usePageTitle } from '../../../shared/layout/usePageTitle';
import { useSesion } from '../../session';
import { TournamentPicker, useTorneoParam } from '../../tournaments';
import { usePreguntas } from '../api/getPreguntas';
import { QuestionCard } from './QuestionCard';
import './bonus.css';

/** /preguntas: the tournament's bonus questions; signed in, one's answers to them. */
export function QuestionsPage() {
  usePageTitle('Preguntas');
  const [torneo, choose] = useTorneoParam();
  const preguntas = usePreguntas(torneo);
  const signedIn = Boolean(useSesion().data);
  return (
    <section className="page" aria-labelledby="preguntas-titulo">
      <h1 id="preguntas-titulo">Preguntas</h1>
      <TournamentPicker torneo={torneo} onChange={choose} />
      <p>
        Preguntas del torneo que suman puntos extra a tu puntaje (la columna Bonus de la tabla). Podés cambiar
        tu respuesta hasta el cierre de cada una; las respuestas de los demás se ven después del cierre.
      </p>
      <QueryList
        query={preguntas}
        loadingText="Cargando las preguntas…"
        emptyText="Este torneo todavía no tiene preguntas."
        className="bonus-list"
      >
        {(p) => <QuestionCard key={p.id} pregunta={p} signedIn={signedIn} />}
      </QueryList>
    </section>
  );
}
