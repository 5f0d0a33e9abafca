DROP TABLE IF EXISTS scoring.fijados;
