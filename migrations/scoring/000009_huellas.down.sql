ALTER TABLE scoring.partidos_contados DROP COLUMN huella;
DROP FUNCTION scoring.huella_de(bigint, integer, integer);
