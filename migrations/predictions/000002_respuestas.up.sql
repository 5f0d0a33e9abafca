-- Players' answers to the bonus questions (fixtures.preguntas): one per player and question,
-- changed freely until the question's lock, which the write statement checks with the
-- database clock.
CREATE TABLE predictions.respuestas (
    jugador_id  bigint      NOT NULL,
    pregunta_id bigint      NOT NULL,
    opcion_id   bigint      NOT NULL,
    creada      timestamptz NOT NULL DEFAULT now(),
    actualizada timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (jugador_id, pregunta_id)
);
-- Counts per option, and scoring's pass over a question's answers.
CREATE INDEX respuestas_pregunta ON predictions.respuestas (pregunta_id, opcion_id);

CREATE VIEW predictions.respuestas_publicadas AS
    SELECT jugador_id, pregunta_id, opcion_id FROM predictions.respuestas;

GRANT SELECT, INSERT, UPDATE ON predictions.respuestas TO prode_predictions;
GRANT SELECT ON predictions.respuestas_publicadas TO prode_predictions, prode_scoring;
