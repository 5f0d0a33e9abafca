DROP TABLE scoring.tablas_compactas;
REVOKE USAGE ON SEQUENCE scoring.tablas_id_seq FROM prode_scoring;
