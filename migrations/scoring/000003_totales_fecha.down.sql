ALTER TABLE scoring.estado DROP COLUMN IF EXISTS zona;
DROP TABLE IF EXISTS scoring.totales_fecha;
