package main

// scaleSection says how each design of the standings, the live updates and the tournaments
// behaves toward the largest games (2 million players, 10,000 watching live): a reasoned
// estimate from the figures above, not a measurement; it is written with every report so that
// it stays next to the figures it reasons from.
const scaleSection = `## Toward 2 million players

Not measured here (the bench loads 100,000; issue 20 asks for a make bench-scale at 2 million):
how each design's cost grows, from what it does, with this run's figures as the base. The
largest games had 2 million active players with 10,000 watching the standings live.

- **A result, to the standings: linear in players, and the one design that does not hold yet.**
  Scoring a match is one set-based pass over that match's predictions, a row of
  scoring.puntos and a move of scoring.totales_torneo and totales_fecha per player: O(players)
  row writes in PostgreSQL, the part that stays. The whole tournament is then ranked again into
  a new snapshot: since issue 20 in the scoring process (internal/ranked: the totals read once,
  sorted as packed integers, 2 million players in well under a second) and stored as one value
  (scoring.tablas_compactas, 36 bytes a player), no longer as a row per player in
  scoring.tabla_filas. make bench-scale measures both parts at 100,000, 1 million and 2 million
  players (docs/benchmarks.md, "Growth"). What is left for the 5 s at 2 million: points by
  distinct predicted score (a result changes the points of a few dozen score classes), with the
  totals carried from one snapshot to the next instead of a row per player rewritten per result,
  PostgreSQL keeping the results and predictions as the source of truth.
- **Reading the standings: flat.** Every page and every player's place are read from the
  snapshot in the replica's memory (decoded once per version and replica, the last three kept:
  about 70 MB each at 2 million players), by position for a page and by binary search for a
  player; pages are also kept in each replica's memory for a second and in Redis per version;
  no request ranks anybody. 10,000 browsers refetching page 1 after an event are 10,000 reads
  of one kept page (the rush above: 1,000 reads a second at p95 under a millisecond while a
  result is scored).
- **A player who signs up: flat.** No table is ranked again: players registered after the
  snapshot follow its rows with no points, so a sign-up costs one new version key (snapshot +
  last player id) found by a watch of max(id) every 0.5 s, per replica, not per player or per
  request. The page that lists the newcomers reads only them (an index range on players' ids).
- **The live updates: O(open streams), never O(players).** One event per result and
  tournament, published once on a Redis channel (and polled from PostgreSQL every second as a
  fallback): O(replicas). Each replica writes the same few bytes to each of its open streams
  from 8 goroutines, with no goroutine or buffer per stream (about 2 KB of memory a stream
  measured above, so 10,000 streams in about 20 MiB of one replica). More watchers need more
  replicas, each paying only for its own streams.
- **Saving a prediction: flat.** One guarded upsert on the (player, match) key, O(log players);
  under a rush the saves waiting at the same moment share one statement (store.Batched), so
  PostgreSQL pays the statement once per batch, not per save.
- **Leagues: bounded by the league, not the tournament.** A league's table looks its members up
  in the snapshot in memory (a binary search each, at most 5,000) and is kept per snapshot and
  membership version in the replica and in Redis, so after a result each league's table is
  built once, by its first reader, in O(members × log players): a few milliseconds at 2
  million. A replica remembers a member's access for up to 5 s and forgets it when 'Salir', a
  removal or a new snapshot is notified (grupos.AccessCache), so a read asks PostgreSQL nothing
  while the page is kept: flat in players. The home's 'Mis grupos' ranks the player in each of
  their leagues by counting members with more points: the members' ids read from PostgreSQL
  (up to 50 leagues × 5,000) and looked up in the snapshot in memory, the one league read that
  is not bounded by one league.
- **Matchdays.** Points per matchday (scoring.totales_fecha) are kept by the same new-minus-old
  difference as the totals, so a matchday's table and its best players read one date's rows,
  and the movement since the previous matchday reads one date's points while the table is
  ranked: O(players) per result, with the snapshot (see the first point).
- **Tournaments.** Every table, total and cache key is per tournament: a past tournament's
  table is ranked once and then only read; a result of one tournament ranks only its own.
`
