DROP VIEW IF EXISTS predictions.respuestas_publicadas;
DROP TABLE IF EXISTS predictions.respuestas;
