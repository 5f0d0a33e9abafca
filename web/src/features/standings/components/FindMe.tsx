import { useMutation } from '@tanstack/react-query';
import { useEffect } from 'react';
import { ApiError } from '../../../shared/api/ApiError';
import { ErrorMessage } from '../../../shared/components/ErrorMessage';
import { getMiPosicion, type MiPosicion } from '../api/getMiPosicion';

interface Props {
  /** Go to this page of the table (100 rows a page, as /api/posiciones/yo counts them). */
  onFound: (mi: MiPosicion) => void;
  /** Look right away (the home's "Ver mi posición" link lands here with ?yo). */
  immediately: boolean;
}

/** "Ver mi posición": asks the server which page holds the player, then the table jumps there. */
export function FindMe({ onFound, immediately }: Props) {
  const find = useMutation({ mutationFn: getMiPosicion, onSuccess: onFound });
  const { mutate } = find;
  useEffect(() => {
    if (immediately) mutate();
  }, [immediately, mutate]);

  const notRanked = find.error instanceof ApiError && find.error.status === 404;
  return (
    <div className="find-me">
      <button type="button" className="button button--secondary" onClick={() => find.mutate()}>
        Ver mi posición
      </button>
      {find.isSuccess && (
        <p role="status">
          Estás en el puesto {find.data.posicion} con {find.data.puntaje} puntos.
        </p>
      )}
      {notRanked && <p role="status">Todavía no figurás en la tabla de posiciones.</p>}
      {find.isError && !notRanked && (
        <ErrorMessage error={find.error} onRetry={() => find.mutate()} compact />
      )}
    </div>
  );
}
