CREATE INDEX apuestas_partido ON predictions.apuestas (partido_id);
DROP INDEX predictions.apuestas_por_partido;
ALTER TABLE predictions.apuestas RESET (autovacuum_vacuum_scale_factor, autovacuum_vacuum_insert_scale_factor);
