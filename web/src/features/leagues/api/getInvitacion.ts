import { useQuery } from '@tanstack/react-query';
import { api } from '../../../shared/api/client';
import { unwrap } from '../../../shared/api/unwrap';
import type { Invitacion } from './types';

/** GET /api/grupos/invitacion/{codigo}: the league a link invites to (404 invitacion_invalida). */
export function getInvitacion(codigo: string): Promise<Invitacion> {
  return unwrap(api.GET('/api/grupos/invitacion/{codigo}', { params: { path: { codigo } } }));
}

export function useInvitacion(codigo: string) {
  return useQuery({ queryKey: ['grupos', 'invitacion', codigo], queryFn: () => getInvitacion(codigo) });
}
