-- Which matches had closed when predictions.apuestas_por_partido was last rebuilt: `migrate
-- reindex` (the chart's CronJob) rebuilds it once another match's betting has closed, so that
-- the entries of a closed match lie packed in file order when its result is scored
-- (docs/operations.md, "The predictions' index at a million players and more"). A set rather
-- than a time: a kick-off moved earlier closes a match "in the past". One row; only the
-- migrating role, the index's owner, reads and writes it.
CREATE TABLE predictions.indice_reconstruido (
    unica    boolean  PRIMARY KEY DEFAULT true CHECK (unica),
    -- The ids of the matches whose cut-off (fixtures.partidos_publicados.cierre) had passed
    -- when the last rebuild began; none at first, so that the first run after this migration
    -- rebuilds a deployment's index once.
    cerrados bigint[] NOT NULL
);
INSERT INTO predictions.indice_reconstruido (cerrados) VALUES ('{}');
