ALTER TABLE scoring.tabla_filas DROP COLUMN IF EXISTS bonus;
-- The totals lose the bonus points they included.
UPDATE scoring.totales_torneo SET puntaje = puntaje - bonus WHERE bonus <> 0;
ALTER TABLE scoring.totales_torneo DROP COLUMN IF EXISTS bonus;
DROP TABLE IF EXISTS scoring.puntos_bonus;
