-- Points per matchday: a tournament's players' points on each date (in the display time zone)
-- of the matches that count them, kept like scoring.totales_torneo by applying each match's new
-- minus old points. They give the matchday's own table, its best players ("ganador de la
-- fecha") and the movement since the previous matchday without going over every point.
CREATE TABLE scoring.totales_fecha (
    torneo_id  bigint  NOT NULL,
    fecha      date    NOT NULL,
    jugador_id bigint  NOT NULL,
    puntaje    integer NOT NULL DEFAULT 0,
    exactos    integer NOT NULL DEFAULT 0,
    aciertos   integer NOT NULL DEFAULT 0,
    PRIMARY KEY (torneo_id, fecha, jugador_id)
);
CREATE INDEX totales_fecha_orden ON scoring.totales_fecha
    (torneo_id, fecha, puntaje DESC, exactos DESC, aciertos DESC, jugador_id);

-- The time zone the matchdays were dated in. NULL until scoring dates them at its first start
-- (it knows DISPLAY_TIMEZONE; this migration does not), and again whenever the setting changes.
ALTER TABLE scoring.estado ADD COLUMN zona text;

GRANT SELECT, INSERT, UPDATE, DELETE ON scoring.totales_fecha TO prode_scoring;
