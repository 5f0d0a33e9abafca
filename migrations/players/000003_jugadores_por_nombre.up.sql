-- Players by name: the list of everyone's predictions for a match (predictions) and its points
-- (scoring) are pages in name order. With this index a page walks the names in order and looks
-- each player's row up by key, instead of sorting every prediction of the match (2,000,000 at
-- the scale we aim for) for each page.
CREATE INDEX jugadores_nombre ON players.jugadores (nombre, id);
