-- Private leagues ("grupos"): a league's table is the tournament's standings snapshot
-- (scoring.tabla_filas) restricted to its members, so the membership lives beside the snapshot.

-- codigo is the invite code (NULL: revoked, no code works until the owner makes a new one).
-- version grows with every change of the membership: cached league tables are keyed by it.
-- miembros is kept equal to the count of grupo_miembros in the transactions that change them,
-- so that listing a player's leagues does not count up to 5,000 members for each.
CREATE TABLE scoring.grupos (
    id        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    torneo_id bigint      NOT NULL,
    nombre    text        NOT NULL CHECK (char_length(nombre) BETWEEN 1 AND 60),
    dueno_id  bigint      NOT NULL,
    codigo    text        UNIQUE,
    version   bigint      NOT NULL DEFAULT 1,
    miembros  integer     NOT NULL DEFAULT 0 CHECK (miembros >= 0),
    creado    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE scoring.grupo_miembros (
    grupo_id   bigint      NOT NULL REFERENCES scoring.grupos (id) ON DELETE CASCADE,
    jugador_id bigint      NOT NULL,
    desde      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (grupo_id, jugador_id)
);
-- A player's leagues (the list, the per-player limit).
CREATE INDEX grupo_miembros_jugador ON scoring.grupo_miembros (jugador_id, grupo_id);

GRANT SELECT, INSERT, UPDATE, DELETE ON scoring.grupos, scoring.grupo_miembros TO prode_scoring;
