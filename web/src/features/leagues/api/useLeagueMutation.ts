import { useMutation, useQueryClient } from '@tanstack/react-query';
import { gruposKey } from './keys';

/**
 * A change to a league: afterwards every league query is fetched again (one's list, the league,
 * its members) and the league tables too, which live under 'posiciones'.
 */
export function useLeagueMutation<TVariables, TData>(
  mutationFn: (variables: TVariables) => Promise<TData>,
  onSuccess?: (data: TData) => void,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: async (data) => {
      onSuccess?.(data);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: gruposKey }),
        queryClient.invalidateQueries({ queryKey: ['posiciones'] }),
      ]);
    },
  });
}
