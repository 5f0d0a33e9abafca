-- A result is ranked into the standings before its points rows are written (the per-player
-- rows of scoring.puntos and the totals take tens of seconds at two million players): the new
-- snapshot is the previous one plus what the match's points change. For that, each snapshot
-- records the score it counts for every match (contados), and scoring.partidos_contados the
-- score the points rows of each match were computed from, so that the rows a change replaces
-- are known to be the ones the previous snapshot counted.
CREATE TABLE scoring.partidos_contados (
    partido_id bigint   PRIMARY KEY,
    torneo_id  bigint   NOT NULL,
    -- The score the match's rows of scoring.puntos count; NULL: no result, no points.
    goles_local     smallint,
    goles_visitante smallint,
    -- false: the match was scored before this table existed, its score is not recorded (its
    -- next change is applied the long way, from the totals).
    conocido   boolean  NOT NULL,
    -- The newest outbox event of the match applied when the rows were written: a scorer that
    -- does not keep this table (the previous release) applies a newer one and the row is stale.
    evento     bigint   NOT NULL DEFAULT 0,
    CHECK ((goles_local IS NULL) = (goles_visitante IS NULL))
);
-- One probe of scoring.puntos's primary key per match, not a scan of every prediction's points.
INSERT INTO scoring.partidos_contados (partido_id, torneo_id, conocido)
SELECT p.id, p.torneo_id, false
  FROM fixtures.partidos p
 WHERE EXISTS (SELECT FROM scoring.puntos pt WHERE pt.partido_id = p.id);

-- contados: {"marcadores": {"<partido>": [local, visitante]}, "desconocidos": [<partido>]}; a
-- match in neither has no points in the snapshot. NULL (a snapshot of the previous release):
-- the next one is ranked from the totals. fecha_del_dia: the matchday whose points the previous
-- rank leaves out (the last one with a finished match).
ALTER TABLE scoring.tablas_compactas ADD COLUMN contados jsonb, ADD COLUMN fecha_del_dia date;

GRANT SELECT, INSERT, UPDATE ON scoring.partidos_contados TO prode_scoring;
