DROP TABLE IF EXISTS scoring.tabla_filas;
DROP TABLE IF EXISTS scoring.tablas;
DROP TABLE IF EXISTS scoring.totales_torneo;
DROP INDEX IF EXISTS scoring.puntos_torneo_jugador;
ALTER TABLE scoring.puntos DROP COLUMN IF EXISTS torneo_id;
