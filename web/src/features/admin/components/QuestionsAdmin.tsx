import { useId, useState } from 'react';
import { QueryList } from '../../../shared/components/QueryList';
import { SelectField } from '../../../shared/components/SelectField';
import { TournamentOptions, useTorneos } from '../../tournaments';
import { usePreguntasAdmin } from '../api/preguntas';
import { QuestionForm } from './QuestionForm';
import { RightAnswerForm } from './RightAnswerForm';

/** The organiser's "Preguntas": a tournament's bonus questions, new ones, and their right answers. */
export function QuestionsAdmin() {
  const id = useId();
  const torneos = useTorneos();
  const [elegido, setElegido] = useState<number | undefined>(undefined);
  const lista = torneos.data ?? [];
  const torneo = elegido ?? lista.find((t) => t.actual)?.id ?? lista[0]?.id;
  return (
    <section className="card admin-section" aria-labelledby={`${id}-titulo`}>
      <h2 id={`${id}-titulo`}>Preguntas</h2>
      {lista.length > 1 && (
        <SelectField
          label="Preguntas del torneo"
          className="field admin-list-filter"
          value={torneo ?? ''}
          onChange={(value) => setElegido(Number(value))}
        >
          <TournamentOptions torneos={lista} />
        </SelectField>
      )}
      {torneo === undefined ? (
        torneos.isPending ? null : <p className="empty">Todavía no hay torneos.</p>
      ) : (
        <TournamentQuestions key={torneo} torneo={torneo} />
      )}
    </section>
  );
}

function TournamentQuestions({ torneo }: { torneo: number }) {
  const preguntas = usePreguntasAdmin(torneo);
  return (
    <>
      <QueryList
        query={preguntas}
        loadingText="Cargando las preguntas…"
        emptyText="Este torneo todavía no tiene preguntas."
        className="admin-question-list"
      >
        {(p) => <RightAnswerForm key={p.id} pregunta={p} />}
      </QueryList>
      <QuestionForm torneo={torneo} />
    </>
  );
}
