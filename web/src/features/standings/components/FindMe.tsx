import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../../shared/api/ApiError';
import { ErrorMessage } from '../../../shared/components/ErrorMessage';
import { useLiveRefetchInterval } from '../../../shared/live/liveContext';
import { getMiPosicion, miPosicionQueryKey, type MiPosicion } from '../api/getMiPosicion';
import { movimiento, puestos, type Movimiento } from './movement';

interface Props {
  /** The tournament on screen; undefined: the current one. */
  torneo: number | undefined;
  jugadorId: number;
  /** Go to this page of the table (100 rows a page, as /api/posiciones/yo counts them). */
  onFound: (mi: MiPosicion) => void;
  /** Look right away (the home's "Ver mi posición" link lands here with ?yo). */
  immediately: boolean;
}

/**
 * "Ver mi posición": asks the server which page holds the player, then the table jumps there.
 * The answer stays on screen as a live query: a new result updates it, without jumping again.
 */
export function FindMe({ torneo, jugadorId, onFound, immediately }: Props) {
  const queryClient = useQueryClient();
  // Once asked, the answer stays a live query. Arriving with ?yo counts as asking.
  const [asked, setAsked] = useState(immediately);
  if (immediately && !asked) setAsked(true);
  const yo = useQuery({
    queryKey: miPosicionQueryKey(torneo, jugadorId),
    queryFn: () => getMiPosicion(torneo),
    enabled: asked,
    refetchInterval: useLiveRefetchInterval(),
  });

  const onFoundRef = useRef(onFound);
  useEffect(() => {
    onFoundRef.current = onFound;
  });
  /** Asks which page holds the player, and goes there. */
  const jump = useCallback(async () => {
    try {
      const mi = await queryClient.fetchQuery({
        queryKey: miPosicionQueryKey(torneo, jugadorId),
        queryFn: () => getMiPosicion(torneo),
        staleTime: 0,
      });
      onFoundRef.current(mi);
    } catch {
      // The query holds the error: it shows below.
    }
  }, [queryClient, torneo, jugadorId]);

  useEffect(() => {
    if (immediately) void jump();
  }, [immediately, jump]);
  const find = () => {
    setAsked(true);
    void jump();
  };

  const notRanked = yo.error instanceof ApiError && yo.error.status === 404;
  const cambio = yo.data ? movimiento(yo.data.posicion, yo.data.posicion_anterior) : null;
  return (
    <div className="find-me">
      <button type="button" className="button button--secondary" onClick={find}>
        Ver mi posición
      </button>
      {yo.isSuccess && (
        <p role="status">
          Estás en el puesto {yo.data.posicion} con {yo.data.puntaje} puntos.
          {cambio && ` ${desdeLaFechaAnterior(cambio)}`}
        </p>
      )}
      {notRanked && <p role="status">Todavía no figurás en la tabla de posiciones.</p>}
      {yo.isError && !notRanked && <ErrorMessage error={yo.error} onRetry={find} compact />}
    </div>
  );
}

/** The player's own movement, in the second person. */
function desdeLaFechaAnterior(m: Movimiento): string {
  if (m.simbolo === '▲') return `Subiste ${puestos(m.puestos)} desde la fecha anterior.`;
  if (m.simbolo === '▼') return `Bajaste ${puestos(m.puestos)} desde la fecha anterior.`;
  return 'Seguís en el mismo puesto que en la fecha anterior.';
}
