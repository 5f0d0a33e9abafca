-- The dev sign-in codes already exchanged (DEV_LOGIN=true only), so that each is exchanged once,
-- as Google's are, whichever replica receives it. nonce is the random value signed into the
-- code; vence is when the code expires, after which the row only waits to be deleted (the players
-- service deletes expired rows as it inserts, with a margin for clock differences).
CREATE TABLE players.codigos_dev_usados (
    nonce text        PRIMARY KEY,
    vence timestamptz NOT NULL
);
-- The deletion of expired rows reads the oldest ones only.
CREATE INDEX codigos_dev_usados_vence ON players.codigos_dev_usados (vence);

-- UPDATE only for SELECT ... FOR UPDATE SKIP LOCKED, which picks the rows to delete: PostgreSQL
-- asks for UPDATE to lock rows. Nothing updates them.
GRANT SELECT, INSERT, UPDATE, DELETE ON players.codigos_dev_usados TO prode_players;
