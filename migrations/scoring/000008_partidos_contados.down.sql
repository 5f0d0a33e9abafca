ALTER TABLE scoring.tablas_compactas DROP COLUMN contados, DROP COLUMN fecha_del_dia;
DROP TABLE scoring.partidos_contados;
