DROP VIEW IF EXISTS players.jugadores_publicados;
DROP VIEW IF EXISTS players.sesiones_vigentes;
DROP TABLE IF EXISTS players.sesiones;
DROP TABLE IF EXISTS players.jugadores;
