import { torneoKey } from '../../../shared/api/torneo';

// Every league query lives under 'grupos'; a league's table under 'posiciones' with its
// tournament's id second, so a `posiciones` event refetches it like the main table (shared/live).
export const gruposKey = ['grupos'] as const;
export const misGruposKey = (torneo: number | undefined) => ['grupos', 'mios', torneoKey(torneo)] as const;
export const grupoKey = (id: number) => ['grupos', id] as const;
export const miembrosKey = (id: number) => ['grupos', id, 'miembros'] as const;
export const posicionesGrupoKey = (torneo: number, id: number) => ['posiciones', torneo, 'grupo', id] as const;
