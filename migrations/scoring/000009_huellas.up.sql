-- A snapshot is carried to a change of a match's result from the match's predictions alone:
-- each one's points at the new score less its points at the score the snapshot counts, which
-- are its points row's only if the predictions are still the ones the rows were computed from.
-- A result deleted may reopen betting, and a prediction saved as a result is entered may be
-- seen by one read and not the other, so that is checked, not assumed: the points rows record
-- a fingerprint of the predictions they were computed from (huella), the snapshot the one of
-- the predictions it counts, and a carry compares them with the predictions it reads. A
-- match whose fingerprint differs (or is not recorded: rows written before this migration)
-- has its points rows subtracted instead, which reads them scattered over scoring.puntos.

-- One prediction's part of a fingerprint: 40 bits of a hash of the player and the score, so
-- that a sum over 8 million predictions still fits a bigint. A changed prediction changes the
-- sum unless its hash collides with the one it replaced (about 1 in 10^12).
CREATE FUNCTION scoring.huella_de(jugador bigint, local integer, visitante integer)
RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT hashint8extended(jugador, local * 100 + visitante) & 1099511627775
$$;

-- The sum of huella_de over the predictions the match's points rows were computed from; NULL:
-- not recorded (no result, or rows written before this migration or by the previous release).
ALTER TABLE scoring.partidos_contados ADD COLUMN huella bigint;

GRANT EXECUTE ON FUNCTION scoring.huella_de(bigint, integer, integer) TO prode_scoring;
