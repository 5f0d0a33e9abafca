-- A match's predictions in match order, each with its goals: scoring reads the predictions of
-- one match (a result carried into the standings, its points rows) from this index alone, an
-- index-only scan, instead of picking them out of the table's pages, where a player's
-- predictions lie together and one match's are scattered over all of them. At 1 million
-- players that read went from 2.1 s to 0.2 s (docs/benchmarks.md, "Toward 2 million players").
-- The price: the goals are in the index, so editing a prediction writes an index entry too
-- (no HOT update), and the index is about 6 times the one on partido_id alone that it replaces
-- (619 MB against 106 MB at 16 million predictions).
CREATE INDEX apuestas_por_partido ON predictions.apuestas (partido_id, jugador_id)
    INCLUDE (goles_local, goles_visitante);
DROP INDEX predictions.apuestas_partido;

-- An index-only scan skips the table's pages that the visibility map marks all-visible, which
-- vacuum does: vacuum once 2% of the predictions were added or changed rather than the
-- default 20% (6 million predictions at 2 million players, a whole match day's edits).
ALTER TABLE predictions.apuestas SET (autovacuum_vacuum_scale_factor = 0.02,
                                      autovacuum_vacuum_insert_scale_factor = 0.02);
