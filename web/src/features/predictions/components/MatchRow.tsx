import { useEffect, useEffectEvent, useId, useState, type FormEvent } from 'react';
import { flushSync } from 'react-dom';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ApiError } from '../../../shared/api/ApiError';
import { Flag } from '../../../shared/flags/Flag';
import { formatScore, localDate, localTime } from '../../../shared/format';
import { returnAfterSignIn } from '../../session';
import { apuestasQueryKey, type Apuesta } from '../api/getApuestas';
import { partidosSinJugarQueryKey, type PartidoSinJugar } from '../api/getPartidosSinJugar';
import { postApuesta } from '../api/postApuesta';
import { putApuesta } from '../api/putApuesta';
import { draftOf, dropDraft, keepDraft, type Draft } from '../save/drafts';
import { GOLES_INVALIDOS, parseGoles } from '../save/goles';
import { describeSaveError, sessionEnded, STALE_LIST_CODES } from '../save/saveError';
import type { SaveFeedback } from '../save/saveFeedback';
import { cierreText } from './matchday';
import { SaveError } from './SaveError';
import './predictions.css';

// The specification's alerts, word for word.
export const FALTA_LOCAL = 'Te falta poner el resultado del equipo local.';
export const FALTA_VISITANTE = 'Te falta poner el resultado del equipo visitante.';

export const RECUPERADA =
  'Recuperamos lo que habías escrito antes de que se cerrara tu sesión: tocá Guardar para guardarlo.';
export const AVISO_SESION_CERRADA =
  'Tu sesión se cerró y tu jugada no se guardó. Ingresá de nuevo y volvés a tus jugadas con lo que habías escrito.';

interface Props {
  partido: PartidoSinJugar;
  /** The player's current prediction for this match, if any. */
  apuesta: Apuesta | undefined;
  email: string;
  /** What the card says after the player's last save (held by the page: see useFeedbackByMatch). */
  feedback: SaveFeedback | undefined;
  onFeedback: (feedback: SaveFeedback | undefined) => void;
}

interface Goles {
  goles_local: number;
  goles_visitante: number;
}

/** Where the inputs start: a score kept when the session ended, else the saved prediction. */
function initialScore(email: string, partido: PartidoSinJugar, apuesta: Apuesta | undefined): Draft {
  const draft = partido.apostable ? draftOf(email, partido.id) : undefined;
  if (draft) return draft;
  if (apuesta) return { local: String(apuesta.goles_local), visitante: String(apuesta.goles_visitante) };
  return { local: '', visitante: '' };
}

/**
 * One match still to be played. Inputs (starting from the saved prediction) and 'Guardar' only
 * while it takes predictions; the previous prediction in brackets (or 'Sin jugada'). The first
 * save creates the prediction, later ones update it, and each save reloads the player's
 * predictions. A failed save keeps what was typed and says why.
 */
export function MatchRow({ partido, apuesta, email, feedback, onFeedback }: Props) {
  const queryClient = useQueryClient();
  const id = useId();
  const [initial] = useState(() => initialScore(email, partido, apuesta));
  const [local, setLocal] = useState(initial.local);
  const [visitante, setVisitante] = useState(initial.visitante);

  // A score kept when the session ended is in the inputs now (initialScore): say so, once, and
  // forget it. Only on the card's first showing: an effect event reads the props without making
  // them the effect's dependencies.
  const restoreDraft = useEffectEvent(() => {
    if (!draftOf(email, partido.id)) return;
    dropDraft(email, partido.id);
    if (partido.apostable) onFeedback({ kind: 'restored' });
  });
  useEffect(() => restoreDraft(), []);

  const save = useMutation({
    // Offline, fail at once and say so: by default a mutation waits, paused, with a grey button.
    networkMode: 'always',
    mutationFn: (goles: Goles) => {
      const body = { partido: partido.id, ...goles, jugador: email };
      return apuesta ? putApuesta(email, apuesta.id, body) : postApuesta(email, body);
    },
    onMutate: () => onFeedback(undefined),
    onSuccess: () => {
      onFeedback({ kind: 'saved' });
      return queryClient.invalidateQueries({ queryKey: apuestasQueryKey(email) });
    },
    onError: (error, goles) => {
      if (sessionEnded(error)) {
        // The app goes to the landing now (a 401 asks who is signed in): keep the score for later.
        keepDraft(email, partido.id, { local: String(goles.goles_local), visitante: String(goles.goles_visitante) });
        returnAfterSignIn('/jugadas', AVISO_SESION_CERRADA);
      }
      if (error instanceof ApiError && STALE_LIST_CODES.has(error.code)) {
        void queryClient.invalidateQueries({ queryKey: partidosSinJugarQueryKey });
      }
      onFeedback({ kind: 'error', ...describeSaveError(error) });
    },
  });

  /** An alert replaces whatever the card said before, before the dialog shows. */
  const alertInstead = (message: string) => {
    flushSync(() => onFeedback(undefined));
    window.alert(message);
  };

  const send = () => {
    if (local.trim() === '') return alertInstead(FALTA_LOCAL);
    if (visitante.trim() === '') return alertInstead(FALTA_VISITANTE);
    const golesLocal = parseGoles(local);
    const golesVisitante = parseGoles(visitante);
    if (golesLocal === null || golesVisitante === null) {
      onFeedback({ kind: 'error', message: GOLES_INVALIDOS, retry: false });
      return;
    }
    save.mutate({ goles_local: golesLocal, goles_visitante: golesVisitante });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    send();
  };

  /** 'Jugada guardada.' is about the saved numbers: it goes once they are changed. */
  const edit = (set: (value: string) => void) => (value: string) => {
    set(value);
    if (feedback?.kind === 'saved') onFeedback(undefined);
  };

  return (
    <li className="match-card" data-partido={partido.id}>
      {/* Date, time and cut-off in the device's zone, like the day headings (shared/format.ts). */}
      <p className="card-meta">
        {partido.nombre_categoria} ·{' '}
        <time dateTime={partido.inicio}>
          {localDate(partido.inicio)} · {localTime(partido.inicio)}
        </time>
        {' · '}
        <time className="match-card__cierre" dateTime={partido.cierre}>
          {cierreText(partido, new Date())}
        </time>
      </p>
      {/* noValidate: the client's checks are the specification's two alerts and the goals' range. */}
      <form className="match-card__form" onSubmit={submit} noValidate>
        <TeamLine partido={partido} side="local" formId={id} value={local} onChange={edit(setLocal)} />
        <TeamLine partido={partido} side="visitante" formId={id} value={visitante} onChange={edit(setVisitante)} />
        <div className="match-card__footer">
          <span className="match-card__previous">
            {apuesta ? (
              <>
                <span className="visually-hidden">Tu jugada: </span>
                {`(${formatScore(apuesta.goles_local, apuesta.goles_visitante)})`}
              </>
            ) : (
              'Sin jugada'
            )}
          </span>
          {partido.apostable ? (
            <button type="submit" className="button" disabled={save.isPending}>
              Guardar
            </button>
          ) : (
            <span className="match-card__closed">{closedReason(partido)}</span>
          )}
        </div>
      </form>
      {feedback?.kind === 'saved' && (
        <p className="match-card__saved" role="status">
          Jugada guardada.
        </p>
      )}
      {feedback?.kind === 'restored' && (
        <p className="match-card__restored" role="status">
          {RECUPERADA}
        </p>
      )}
      {feedback?.kind === 'error' && (
        <SaveError message={feedback.message} onRetry={feedback.retry ? send : undefined} />
      )}
      <p className="match-card__more">
        <Link to={`/partidos/${partido.id}`}>
          {'Ver el partido '}
          <span className="visually-hidden">
            {partido.nombre_local} contra {partido.nombre_visitante}
          </span>
        </Link>
      </p>
    </li>
  );
}

interface TeamLineProps {
  partido: PartidoSinJugar;
  side: 'local' | 'visitante';
  /** The card's own id: the input's id is made from it. */
  formId: string;
  value: string;
  onChange: (value: string) => void;
}

/** One team of the match: its flag and name, and its goals input while the match takes predictions. */
function TeamLine({ partido, side, formId, value, onChange }: TeamLineProps) {
  const nombre = partido[`nombre_${side}`];
  const inputId = `${formId}-${side}`;
  return (
    <div className="team-line">
      <Flag code={partido[`bandera_${side}`]} />
      <span className="team-line__name">{nombre}</span>
      {partido.apostable && (
        <>
          <label className="visually-hidden" htmlFor={inputId}>
            Goles de {nombre}
          </label>
          <input
            id={inputId}
            className="goals-input"
            type="number"
            inputMode="numeric"
            min={0}
            max={99}
            step={1}
            value={value}
            onChange={(e) => onChange(e.target.value)}
          />
        </>
      )}
    </div>
  );
}

/** Why a match shows no inputs (the server's `apostable` is false). */
function closedReason(partido: PartidoSinJugar): string {
  if (Date.parse(partido.cierre) <= Date.now()) return 'Jugadas cerradas';
  if (!partido.bandera_local || !partido.bandera_visitante) return 'Equipos a definir';
  return 'No disponible por ahora';
}
