-- Bonus points: one row per answer of a bonus question (the question's puntos when the answer
-- is among the right options, else 0), kept like scoring.puntos: each question's new minus old
-- points are applied to the totals in the same transaction.
CREATE TABLE scoring.puntos_bonus (
    pregunta_id bigint  NOT NULL,
    jugador_id  bigint  NOT NULL,
    torneo_id   bigint  NOT NULL,
    puntos      integer NOT NULL,
    PRIMARY KEY (pregunta_id, jugador_id)
);
CREATE INDEX puntos_bonus_torneo_jugador ON scoring.puntos_bonus (torneo_id, jugador_id);

-- puntaje includes the bonus points; bonus is that part of it, shown as its own column.
ALTER TABLE scoring.totales_torneo ADD COLUMN bonus integer NOT NULL DEFAULT 0;
ALTER TABLE scoring.tabla_filas ADD COLUMN bonus integer NOT NULL DEFAULT 0;

GRANT SELECT, INSERT, UPDATE, DELETE ON scoring.puntos_bonus TO prode_scoring;
