-- Standings snapshots ranked by the scoring process and kept as one value each (the ranked
-- rows, encoded by services/scoring/internal/ranked), instead of one row per player in
-- scoring.tabla_filas: at the largest games' scale a snapshot was 2 million rows written per
-- result. Readers keep the few snapshots they read in memory.
--
-- The previous release still writes and reads scoring.tablas and scoring.tabla_filas while the
-- new pods start (and after a rollback): those stay until a later release drops them. Versions
-- of both come from one sequence, so that a version never names two different tables (the
-- caches and the live updates key on it).
CREATE TABLE scoring.tablas_compactas (
    id              bigint      PRIMARY KEY DEFAULT nextval('scoring.tablas_id_seq'),
    torneo_id       bigint      NOT NULL,
    jugadores_hasta bigint      NOT NULL,
    filas           integer     NOT NULL,
    posicion_ceros  integer     NOT NULL,
    creada          timestamptz NOT NULL DEFAULT clock_timestamp(),
    datos           bytea       NOT NULL
);
-- Written once and read whole: compressing tens of megabytes on every result would cost more
-- than the bytes it saves.
ALTER TABLE scoring.tablas_compactas ALTER COLUMN datos SET STORAGE EXTERNAL;
CREATE INDEX tablas_compactas_torneo ON scoring.tablas_compactas (torneo_id, id DESC);

GRANT SELECT, INSERT, DELETE ON scoring.tablas_compactas TO prode_scoring;
GRANT USAGE ON SEQUENCE scoring.tablas_id_seq TO prode_scoring;
