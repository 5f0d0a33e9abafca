import { useMutation, useQueryClient } from '@tanstack/react-query';

// An organiser's change shows up everywhere: tournaments, lists, unplayed matches, results and
// standings, bonus questions, and in the organisers' own list of changes.
const AFFECTED = ['torneos', 'partidos', 'partidos-sin-jugar', 'resultados', 'posiciones', 'auditoria', 'preguntas'];

/** A mutation of the admin screen that refreshes every list the change may touch. */
export function useAdminMutation<TVariables, TData>(mutationFn: (variables: TVariables) => Promise<TData>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () =>
      Promise.all(AFFECTED.map((key) => queryClient.invalidateQueries({ queryKey: [key] }))),
  });
}
