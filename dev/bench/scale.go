package main

// scaleSection says how each design of the standings, the live updates and the tournaments
// behaves toward the largest games (2 million players, 10,000 watching live): a reasoned
// estimate from the figures above, not a measurement; it is written with every report so that
// it stays next to the figures it reasons from.
const scaleSection = `## Toward 2 million players

Not measured here (the bench loads 100,000): how each design's cost grows, from what it does.

- **A result, to the standings.** Scoring a match is one set-based pass over that match's
  predictions (O(predictions of the match)): about 20 times this run's figure at 2 million. Then
  the tournament's table is ranked once into a snapshot (scoring.tablas, scoring.tabla_filas):
  one sort of every player of the tournament, O(N log N), about 20 times the 100,000-player
  build. Every page and every player's place are then read from that snapshot by index range
  (O(rows of the page)), whatever N is; no request ranks anybody.
- **A player who signs up.** No table is ranked again: players registered after the snapshot
  follow its rows with no points (display order is points, exact hits, right outcomes, then who
  registered first), so a sign-up costs one new version key (snapshot + last player id) found
  by a watch of max(id) every 0.5 s, per replica, not per player or per request. The page that
  lists the newcomers reads only them (an index range on players' ids), O(newcomers since the
  last result).
- **The live updates.** One event per result and tournament, published once on a Redis channel
  (and polled from PostgreSQL every second as a fallback): O(replicas), never per player. Each
  replica writes the same few bytes to each of its open streams from 8 goroutines, with no
  goroutine or buffer per stream (about 2.4 KB of memory a stream measured, so 10,000 streams in
  about 24 MiB; 100 ms of CPU per broadcast to 10,000). 10,000 watchers are one replica's worth;
  more watchers need more replicas, each paying only for its own streams. A browser refetches
  page 1 after an event: 10,000 of them make 10,000 reads served from the replicas' memory
  (localPages) and Redis, the cache the match-day rush above measures.
- **Matchdays.** Points per matchday (scoring.totales_fecha) are kept by the same new-minus-old
  difference as the totals, so a matchday's table and its best players read one date's rows,
  and the movement since the previous matchday reads one date's points while the table is
  ranked, never every point.
- **Tournaments.** Every table, total and cache key is per tournament: a past tournament's
  table is ranked once and then only read; a result of one tournament ranks only its own.
`
