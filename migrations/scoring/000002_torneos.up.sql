-- Standings per tournament (fixtures.torneos), served from snapshots built once per change.

-- Points carry their match's tournament, so totals can be kept per tournament.
ALTER TABLE scoring.puntos ADD COLUMN torneo_id bigint;
UPDATE scoring.puntos pt SET torneo_id = p.torneo_id FROM fixtures.partidos p WHERE p.id = pt.partido_id;
ALTER TABLE scoring.puntos ALTER COLUMN torneo_id SET NOT NULL;
CREATE INDEX puntos_torneo_jugador ON scoring.puntos (torneo_id, jugador_id);

-- Running totals per tournament and player, kept equal to the sum of puntos by applying each
-- match's new minus old points (as scoring.totales was for all tournaments together). That
-- table stays, no longer written, for pods of the previous release while an upgrade rolls.
CREATE TABLE scoring.totales_torneo (
    torneo_id  bigint  NOT NULL,
    jugador_id bigint  NOT NULL,
    puntaje    integer NOT NULL DEFAULT 0,
    exactos    integer NOT NULL DEFAULT 0,
    aciertos   integer NOT NULL DEFAULT 0,
    PRIMARY KEY (torneo_id, jugador_id)
);
INSERT INTO scoring.totales_torneo (torneo_id, jugador_id, puntaje, exactos, aciertos)
SELECT torneo_id, jugador_id, sum(puntos), count(*) FILTER (WHERE exacto), count(*) FILTER (WHERE acierto)
  FROM scoring.puntos
 GROUP BY torneo_id, jugador_id;

-- A standings snapshot: a tournament's whole table ranked once, at one moment, and read by
-- page with an index range scan. Its id is the standings version (increasing across
-- tournaments); pages cached in Redis are keyed by it. Players registered after the snapshot
-- (id above jugadores_hasta) have no points yet: they follow its rows, in the order they
-- registered, at posicion_ceros (the rank every player without points shares).
CREATE TABLE scoring.tablas (
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    torneo_id       bigint      NOT NULL,
    jugadores_hasta bigint      NOT NULL,
    filas           integer     NOT NULL,
    posicion_ceros  integer     NOT NULL,
    creada          timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX tablas_torneo ON scoring.tablas (torneo_id, id DESC);

-- One row per player of a snapshot, in display order (fila). posicion_anterior is the rank at
-- the end of the previous matchday (NULL before the second matchday): the movement ▲ ▼ =.
CREATE TABLE scoring.tabla_filas (
    tabla_id          bigint  NOT NULL REFERENCES scoring.tablas (id) ON DELETE CASCADE,
    fila              integer NOT NULL,
    posicion          integer NOT NULL,
    jugador_id        bigint  NOT NULL,
    puntaje           integer NOT NULL,
    exactos           integer NOT NULL,
    aciertos          integer NOT NULL,
    posicion_anterior integer,
    PRIMARY KEY (tabla_id, fila)
);
CREATE INDEX tabla_filas_jugador ON scoring.tabla_filas (tabla_id, jugador_id);

GRANT SELECT, INSERT, UPDATE, DELETE ON scoring.totales_torneo, scoring.tablas, scoring.tabla_filas TO prode_scoring;
