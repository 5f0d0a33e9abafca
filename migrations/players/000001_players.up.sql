-- Players and their sessions. Other services read two views, never the tables.
CREATE TABLE players.jugadores (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    google_sub  text        NOT NULL UNIQUE,
    email       text        NOT NULL UNIQUE,
    nombre      text        NOT NULL,
    creado      timestamptz NOT NULL DEFAULT now(),
    actualizado timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE players.sesiones (
    id         uuid        PRIMARY KEY,
    jugador_id bigint      NOT NULL REFERENCES players.jugadores (id),
    creada     timestamptz NOT NULL DEFAULT now(),
    expira     timestamptz NOT NULL,
    cerrada    timestamptz
);
CREATE INDEX sesiones_jugador ON players.sesiones (jugador_id);

-- A session is live until it expires or 'Salir' closes it; every service checks this view.
CREATE VIEW players.sesiones_vigentes AS
    SELECT id, jugador_id FROM players.sesiones WHERE cerrada IS NULL AND expira > now();

-- Names for the standings and for others' predictions; e-mail addresses stay private.
CREATE VIEW players.jugadores_publicados AS
    SELECT id, nombre FROM players.jugadores;

GRANT USAGE ON SCHEMA players TO prode_players, prode_fixtures, prode_predictions, prode_scoring;
GRANT SELECT, INSERT, UPDATE ON players.jugadores, players.sesiones TO prode_players;
GRANT SELECT ON players.sesiones_vigentes TO prode_players, prode_fixtures, prode_predictions, prode_scoring;
GRANT SELECT ON players.jugadores_publicados TO prode_players, prode_predictions, prode_scoring;
