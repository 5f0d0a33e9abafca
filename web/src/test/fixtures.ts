import type { Schemas } from '../shared/api/types';

// The contract's shapes filled in for tests: the 2022 final (Argentina–Francia) unless a test says
// otherwise, so that each test spells out only what it is about.

/** A score after 90 minutes, with no extra time and no penalties unless given. */
export const fakeResultado = (
  goles_local: number,
  goles_visitante: number,
  over: Partial<Schemas['Resultado']> = {},
): Schemas['Resultado'] => ({
  goles_local,
  goles_visitante,
  goles_local_alargue: null,
  goles_visitante_alargue: null,
  penales_local: null,
  penales_visitante: null,
  ...over,
});

/** Every part of a result filled: 3-3, 3-3 after extra time, 4-2 on penalties. */
export const resultadoConPenales = fakeResultado(3, 3, {
  goles_local_alargue: 3,
  goles_visitante_alargue: 3,
  penales_local: 4,
  penales_visitante: 2,
});

/** What every view of the final shows of it. */
const laFinal = {
  nombre_local: 'Argentina',
  nombre_visitante: 'Francia',
  bandera_local: 'ar',
  bandera_visitante: 'fr',
  fecha: '2022-12-18',
  hora: '12:00',
  nombre_categoria: 'Final',
  inicio: '2022-12-18T15:00:00Z',
};

/** The final as the organiser and the match page see it, before its result. */
export const fakePartido = (over: Partial<Schemas['Partido']> = {}): Schemas['Partido'] => ({
  id: 64,
  torneo: 'Mundial 2022',
  torneo_id: 1,
  numero: 64,
  estado: 'programado',
  apostable: false,
  codigo_local: 'ARG',
  codigo_visitante: 'FRA',
  ...laFinal,
  cierre: '2022-12-18T14:00:00Z',
  sede: 'Lusail',
  resultado: null,
  ...over,
});

/** A 2026 group match on 11 June at 16:00, not played yet. */
export const fakePartidoDeGrupo = (over: Partial<Schemas['Partido']> = {}): Schemas['Partido'] =>
  fakePartido({
    torneo: 'Mundial 2026',
    torneo_id: 2,
    fecha: '2026-06-11',
    hora: '16:00',
    nombre_categoria: 'Grupo A',
    inicio: '2026-06-11T19:00:00Z',
    cierre: '2026-06-11T18:00:00Z',
    sede: '',
    ...over,
  });

/** The final as /api/resultados lists it: 3-3 after 90 minutes, nothing else. */
export const fakeResultadoPartido = (over: Partial<Schemas['ResultadoPartido']> = {}): Schemas['ResultadoPartido'] => ({
  partido: 64,
  torneo: 1,
  ...laFinal,
  resultado: fakeResultado(3, 3),
  apuesta: null,
  puntos: null,
  ...over,
});

/** Match `id` of tournament 1 on /jugadas, kicking off at `inicio`; predictions close an hour before. */
export const fakePartidoSinJugar = (
  id: number,
  inicio: Date,
  categoria: string,
  apostable = true,
): Schemas['PartidoSinJugar'] => ({
  id,
  torneo: 1,
  apostable,
  nombre_local: `Local ${id}`,
  nombre_visitante: `Visitante ${id}`,
  bandera_local: 'ar',
  bandera_visitante: 'br',
  fecha: '2026-11-20',
  hora: '13:00',
  nombre_categoria: categoria,
  inicio: inicio.toISOString(),
  cierre: new Date(inicio.getTime() - 3600_000).toISOString(),
});

/** A row of the standings, with no exact results nor right outcomes counted, and no bonus unless given. */
export const fakePosicion = (
  posicion: number,
  id: number,
  nombre: string,
  puntaje: number,
  posicion_anterior: number | null = null,
  bonus = 0,
): Schemas['Posicion'] => ({
  posicion,
  id,
  nombre,
  puntaje,
  exactos: 0,
  aciertos: 0,
  posicion_anterior,
  bonus,
});

/** The 2026 bonus question "¿Quién sale campeón?" (20 points, open until 2099), unanswered: options
 * Argentina (11), Brasil (12) and Francia (13). */
export const fakePregunta = (over: Partial<Schemas['Pregunta']> = {}): Schemas['Pregunta'] => ({
  id: 1,
  torneo: 1,
  texto: '¿Quién sale campeón?',
  puntos: 20,
  cierre: '2099-06-11T18:00:00Z',
  cerrada: false,
  opciones: [
    { id: 11, texto: 'Argentina' },
    { id: 12, texto: 'Brasil' },
    { id: 13, texto: 'Francia' },
  ],
  mi_respuesta: null,
  correctas: [],
  ...over,
});
