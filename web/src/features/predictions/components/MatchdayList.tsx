import { useId, useState } from 'react';
import type { Apuesta } from '../api/getApuestas';
import type { PartidoSinJugar } from '../api/getPartidosSinJugar';
import type { FeedbackByMatch } from '../save/saveFeedback';
import { groupMatchday, type DayGroup } from './matchday';
import { MatchRow } from './MatchRow';

interface Props {
  partidos: PartidoSinJugar[];
  apuestas: Apuesta[];
  email: string;
  feedback: FeedbackByMatch;
}

/** "Te faltan N de M jugadas.": N open matches without a prediction, of M open matches. */
export function countText(faltan: number, abiertos: number): string {
  if (faltan === 0) return 'No te falta ninguna jugada.';
  return `${faltan === 1 ? 'Te falta' : 'Te faltan'} ${faltan} de ${abiertos} ${abiertos === 1 ? 'jugada' : 'jugadas'}.`;
}

/**
 * The matches by day and stage, with what is missing: the count of open matches without a
 * prediction and a filter that shows only those.
 */
export function MatchdayList({ partidos, apuestas, email, feedback }: Props) {
  const filterId = useId();
  // The filter keeps the matches that were missing when it was turned on, so a card saved
  // meanwhile stays with its 'Jugada guardada.' instead of vanishing under the player's finger.
  const [missingWhenFiltered, setMissingWhenFiltered] = useState<ReadonlySet<number> | null>(null);

  if (partidos.length === 0) return <p className="empty">No quedan partidos por jugar.</p>;

  const porPartido = new Map(apuestas.map((a) => [a.partido, a]));
  const missing = (p: PartidoSinJugar) => p.apostable && !porPartido.has(p.id);
  const abiertos = partidos.filter((p) => p.apostable);
  const faltan = abiertos.filter(missing);
  const shown =
    missingWhenFiltered === null
      ? partidos
      : partidos.filter((p) => missingWhenFiltered.has(p.id) || missing(p));

  return (
    <>
      {abiertos.length > 0 ? (
        <div className="matchday-tools">
          <p className="matchday-tools__count" aria-live="polite">
            {countText(faltan.length, abiertos.length)}
          </p>
          <div className="checkbox-field">
            <input
              id={filterId}
              type="checkbox"
              checked={missingWhenFiltered !== null}
              onChange={(e) => setMissingWhenFiltered(e.target.checked ? new Set(faltan.map((p) => p.id)) : null)}
            />
            <label htmlFor={filterId}>Ver solo los partidos sin jugada</label>
          </div>
        </div>
      ) : (
        <p className="matchday-tools__count">Por ahora no hay partidos abiertos para jugar.</p>
      )}
      {shown.length === 0 ? (
        <p className="empty">¡Listo! No te falta ninguna jugada.</p>
      ) : (
        groupMatchday(shown, new Date()).map((day) => (
          <DaySection key={day.key} day={day} porPartido={porPartido} email={email} feedback={feedback} />
        ))
      )}
    </>
  );
}

interface DaySectionProps {
  day: DayGroup;
  porPartido: Map<number, Apuesta>;
  email: string;
  feedback: FeedbackByMatch;
}

// Sections without a name, so they are headings to a screen reader and not dozens of landmarks.
function DaySection({ day, porPartido, email, feedback }: DaySectionProps) {
  return (
    <section className="matchday-day">
      <h2 className="matchday-day__title">{day.titulo}</h2>
      {day.etapas.map((etapa) => (
        <section key={etapa.categoria} className="matchday-stage">
          <h3 className="matchday-stage__title">{etapa.categoria}</h3>
          <ul className="match-list">
            {etapa.partidos.map((p) => (
              <MatchRow
                key={p.id}
                partido={p}
                apuesta={porPartido.get(p.id)}
                email={email}
                feedback={feedback.of(p.id)}
                onFeedback={(f) => feedback.set(p.id, f)}
              />
            ))}
          </ul>
        </section>
      ))}
    </section>
  );
}
