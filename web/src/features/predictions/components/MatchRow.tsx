import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../../shared/api/ApiError';
import { ErrorMessage } from '../../../shared/components/ErrorMessage';
import { Flag } from '../../../shared/flags/Flag';
import { formatFecha, formatScore } from '../../../shared/format';
import { apuestasQueryKey, type Apuesta } from '../api/getApuestas';
import { partidosSinJugarQueryKey, type PartidoSinJugar } from '../api/getPartidosSinJugar';
import { postApuesta } from '../api/postApuesta';
import { putApuesta } from '../api/putApuesta';
import './predictions.css';

// The specification's alerts, word for word.
export const FALTA_LOCAL = 'Te falta poner el resultado del equipo local.';
export const FALTA_VISITANTE = 'Te falta poner el resultado del equipo visitante.';

// Refusals that mean the match can no longer take predictions: the list is stale, reload it.
const CLOSED = new Set(['apuesta_cerrada', 'partido_no_apostable', 'partido_sin_equipos']);

interface Props {
  partido: PartidoSinJugar;
  /** The player's current prediction for this match, if any. */
  apuesta: Apuesta | undefined;
  email: string;
}

interface Goles {
  goles_local: number;
  goles_visitante: number;
}

/**
 * One match still to be played. Inputs and 'Guardar' only while it takes predictions; the previous
 * prediction in brackets (or 'Sin jugada'). The first save creates the prediction, later ones
 * update it, and each save reloads the player's predictions.
 */
export function MatchRow({ partido, apuesta, email }: Props) {
  const queryClient = useQueryClient();
  const id = useId();
  const [local, setLocal] = useState('');
  const [visitante, setVisitante] = useState('');

  const save = useMutation({
    mutationFn: (goles: Goles) => {
      const body = { partido: partido.id, ...goles, jugador: email };
      return apuesta ? putApuesta(email, apuesta.id, body) : postApuesta(email, body);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apuestasQueryKey(email) }),
    onError: (error) => {
      if (error instanceof ApiError && CLOSED.has(error.code)) {
        void queryClient.invalidateQueries({ queryKey: partidosSinJugarQueryKey });
      }
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (local.trim() === '') {
      window.alert(FALTA_LOCAL);
      return;
    }
    if (visitante.trim() === '') {
      window.alert(FALTA_VISITANTE);
      return;
    }
    save.mutate({ goles_local: Number(local), goles_visitante: Number(visitante) });
  };

  return (
    <li className="match-card" data-partido={partido.id}>
      <p className="card-meta">
        {partido.nombre_categoria} · <time dateTime={partido.inicio}>{formatFecha(partido.fecha)} · {partido.hora}</time>
      </p>
      {/* noValidate: the only client checks are the specification's two alerts; the server says the rest. */}
      <form className="match-card__form" onSubmit={submit} noValidate>
        <TeamLine
          inputId={`${id}-local`}
          nombre={partido.nombre_local}
          bandera={partido.bandera_local}
          apostable={partido.apostable}
          value={local}
          onChange={setLocal}
        />
        <TeamLine
          inputId={`${id}-visitante`}
          nombre={partido.nombre_visitante}
          bandera={partido.bandera_visitante}
          apostable={partido.apostable}
          value={visitante}
          onChange={setVisitante}
        />
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
      {save.isSuccess && (
        <p className="match-card__saved" role="status">
          Jugada guardada.
        </p>
      )}
      {save.isError && (
        <ErrorMessage error={save.error} onRetry={() => save.variables && save.mutate(save.variables)} compact />
      )}
    </li>
  );
}

interface TeamLineProps {
  inputId: string;
  nombre: string;
  bandera: string;
  apostable: boolean;
  value: string;
  onChange: (value: string) => void;
}

function TeamLine({ inputId, nombre, bandera, apostable, value, onChange }: TeamLineProps) {
  return (
    <div className="team-line">
      <Flag code={bandera} />
      <span className="team-line__name">{nombre}</span>
      {apostable && (
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
