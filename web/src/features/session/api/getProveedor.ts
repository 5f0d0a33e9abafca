import { useQuery } from '@tanstack/react-query';
import { api } from '../../../shared/api/client';
import type { Schemas } from '../../../shared/api/types';
import { unwrap } from '../../../shared/api/unwrap';

export type Proveedor = Schemas['Proveedor'];

/** GET /api/sesion/proveedor: Google, or the local dev account chooser. Fixed per deployment. */
export function getProveedor(): Promise<Proveedor> {
  return unwrap(api.GET('/api/sesion/proveedor'));
}

export function useProveedor() {
  return useQuery({ queryKey: ['proveedor'], queryFn: getProveedor, staleTime: Infinity });
}
