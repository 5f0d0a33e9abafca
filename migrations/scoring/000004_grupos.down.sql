DROP TABLE IF EXISTS scoring.grupo_miembros;
DROP TABLE IF EXISTS scoring.grupos;
