-- Pins ("fijados"): the players a player pinned, shown on their around-me board of every table
-- they are in. A player's own: read and written only with the player's session. No limit on
-- how many; the board looks each one up in the table (one index lookup per pin).
CREATE TABLE scoring.fijados (
    jugador_id bigint      NOT NULL,
    fijado_id  bigint      NOT NULL CHECK (fijado_id <> jugador_id),
    desde      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (jugador_id, fijado_id)
);

GRANT SELECT, INSERT, DELETE ON scoring.fijados TO prode_scoring;
