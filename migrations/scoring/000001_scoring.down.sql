DROP TABLE IF EXISTS scoring.estado;
DROP TABLE IF EXISTS scoring.eventos_procesados;
DROP TABLE IF EXISTS scoring.totales;
DROP TABLE IF EXISTS scoring.puntos;
DROP FUNCTION IF EXISTS scoring.puntos_de(integer, integer, integer, integer);
