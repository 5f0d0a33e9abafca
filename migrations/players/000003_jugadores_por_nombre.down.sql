DROP INDEX IF EXISTS players.jugadores_nombre;
