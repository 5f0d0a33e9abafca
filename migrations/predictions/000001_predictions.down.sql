DROP VIEW IF EXISTS predictions.apuestas_publicadas;
DROP TABLE IF EXISTS predictions.apuestas;
