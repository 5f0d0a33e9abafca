DROP TABLE IF EXISTS players.codigos_dev_usados;
