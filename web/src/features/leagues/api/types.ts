import type { Schemas } from '../../../shared/api/types';

// The leagues' shapes from the contract (/api/grupos, owned by the scoring service).

/** A league in the list of one's own (GET /api/grupos). */
export type GrupoResumen = Schemas['GrupoResumen'];
/** A league as its members see it (GET /api/grupos/{id}); `codigo` is the owner's only. */
export type Grupo = Schemas['Grupo'];
/** What an invite link shows before joining (GET /api/grupos/invitacion/{codigo}). */
export type Invitacion = Schemas['Invitacion'];
export type Miembro = Schemas['MiembroGrupo'];
/** A row of a league's table: the main table's row, ranked within the league. */
export type PosicionGrupo = Schemas['Posicion'];
/** A page of a league's table: the main table's shape, restricted to its members, and `grupo`. */
export type PosicionesGrupo = Schemas['PosicionesGrupo'];
