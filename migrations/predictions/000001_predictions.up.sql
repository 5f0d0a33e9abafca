CREATE TABLE predictions.apuestas (
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    jugador_id      bigint      NOT NULL,
    jugador_email   text        NOT NULL,
    partido_id      bigint      NOT NULL,
    goles_local     smallint    NOT NULL CHECK (goles_local BETWEEN 0 AND 99),
    goles_visitante smallint    NOT NULL CHECK (goles_visitante BETWEEN 0 AND 99),
    creada          timestamptz NOT NULL DEFAULT now(),
    actualizada     timestamptz NOT NULL DEFAULT now(),
    -- One prediction per player and match: double submits update, never duplicate.
    UNIQUE (jugador_id, partido_id)
);
CREATE INDEX apuestas_partido ON predictions.apuestas (partido_id);

CREATE VIEW predictions.apuestas_publicadas AS
    SELECT jugador_id, partido_id, goles_local, goles_visitante FROM predictions.apuestas;

GRANT USAGE ON SCHEMA predictions TO prode_predictions, prode_scoring;
GRANT SELECT, INSERT, UPDATE ON predictions.apuestas TO prode_predictions;
GRANT SELECT ON predictions.apuestas_publicadas TO prode_predictions, prode_scoring;
