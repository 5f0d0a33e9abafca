import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../shared/api/client';
import type { Schemas } from '../../../shared/api/types';
import { unwrap } from '../../../shared/api/unwrap';

export type Fijado = Schemas['Fijado'];

// The pins live under 'posiciones' too: pinning or unpinning refetches every board with them.
const fijadosKey = ['posiciones', 'fijados'] as const;

/** GET /api/posiciones/fijados: the players the signed-in player pinned. */
export function getFijados(): Promise<Fijado[]> {
  return unwrap(api.GET('/api/posiciones/fijados'));
}

/** PUT or DELETE /api/posiciones/fijados/{jugador}. */
export async function setFijado(jugador: number, fijar: boolean): Promise<void> {
  const params = { params: { path: { jugador } } };
  await unwrap(fijar ? api.PUT('/api/posiciones/fijados/{jugador}', params) : api.DELETE('/api/posiciones/fijados/{jugador}', params));
}

/** What a table needs to show and change the pins: who is pinned, and the toggle. */
export interface Fijar {
  fijados: ReadonlySet<number>;
  /** Whether the pins have been read: until then `fijados` is empty, and a board says who is pinned. */
  known: boolean;
  toggle: (jugador: number, fijar: boolean) => void;
  pending: boolean;
  /** The last change refused (a 429, a network error), to show; null when none. */
  error: Error | null;
}

/** The signed-in player's pins and the way to change them; off (undefined) while `enabled` is false. */
export function useFijar(enabled = true): Fijar | undefined {
  const queryClient = useQueryClient();
  const fijados = useQuery({ queryKey: fijadosKey, queryFn: getFijados, enabled });
  const mutation = useMutation({
    mutationFn: ({ jugador, fijar }: { jugador: number; fijar: boolean }) => setFijado(jugador, fijar),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['posiciones'] }),
  });
  if (!enabled) return undefined;
  return {
    fijados: new Set((fijados.data ?? []).map((f) => f.id)),
    known: fijados.data !== undefined,
    toggle: (jugador, fijar) => mutation.mutate({ jugador, fijar }),
    pending: mutation.isPending,
    error: mutation.error,
  };
}
