-- Points per prediction, running totals per player, and the consumer's bookkeeping.

-- The specification's points table (section 9), as a pure function of prediction and result.
CREATE FUNCTION scoring.puntos_de(pl integer, pv integer, rl integer, rv integer)
RETURNS smallint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT (CASE
        WHEN pl = rl AND pv = rv                  THEN 10  -- exact result
        WHEN sign(pl - pv) = sign(rl - rv)
             AND (pl = rl OR pv = rv)             THEN 7   -- outcome + one team's goals
        WHEN sign(pl - pv) = sign(rl - rv)        THEN 5   -- outcome
        WHEN pl = rl OR pv = rv                   THEN 2   -- consolation: one team's goals
        ELSE 0
    END)::smallint
$$;

CREATE TABLE scoring.puntos (
    partido_id bigint   NOT NULL,
    jugador_id bigint   NOT NULL,
    puntos     smallint NOT NULL,
    exacto     boolean  NOT NULL,
    acierto    boolean  NOT NULL,   -- right outcome (win, draw or loss), exact included
    PRIMARY KEY (partido_id, jugador_id)
);
CREATE INDEX puntos_jugador ON scoring.puntos (jugador_id);

-- Totals are kept equal to the sum of puntos by applying, in the same transaction, the
-- difference between a match's new and old points.
CREATE TABLE scoring.totales (
    jugador_id bigint  PRIMARY KEY,
    puntaje    integer NOT NULL DEFAULT 0,
    exactos    integer NOT NULL DEFAULT 0,
    aciertos   integer NOT NULL DEFAULT 0
);
CREATE INDEX totales_orden ON scoring.totales (puntaje DESC, exactos DESC, aciertos DESC);

-- Outbox events already applied. Ids of fixtures.eventos can commit out of order, so the
-- consumer keeps the set it has processed rather than a high-water mark.
CREATE TABLE scoring.eventos_procesados (
    evento_id bigint      PRIMARY KEY,
    procesado timestamptz NOT NULL DEFAULT now()
);

-- version increases with every change to the standings; the Redis cache is keyed by it.
-- criterio is the knock-out setting the points were computed with.
CREATE TABLE scoring.estado (
    unico    boolean PRIMARY KEY DEFAULT true CHECK (unico),
    version  bigint  NOT NULL DEFAULT 0,
    criterio text    NOT NULL DEFAULT 'noventa' CHECK (criterio IN ('noventa', 'alargue'))
);
INSERT INTO scoring.estado DEFAULT VALUES;

GRANT USAGE ON SCHEMA scoring TO prode_scoring;
GRANT SELECT, INSERT, UPDATE, DELETE ON scoring.puntos, scoring.totales, scoring.eventos_procesados, scoring.estado TO prode_scoring;
GRANT EXECUTE ON FUNCTION scoring.puntos_de(integer, integer, integer, integer) TO prode_scoring;
