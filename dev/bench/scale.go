package main

// scaleSection says how each design of the standings, the live updates and the tournaments
// behaves toward the largest games (2 million players, 10,000 watching live): a reasoned
// estimate from the figures above, not a measurement; it is written with every report so that
// it stays next to the figures it reasons from.
const scaleSection = `## Toward 2 million players

How each design's cost grows toward the largest games (2 million active players, 10,000 watching
the standings live), from what it does, with this run's figures as the base; make bench-scale
measures the growth itself at 100,000, 1 million and 2 million players (docs/benchmarks-scale.md).

- **A result, to the standings: one read of the match's predictions and a sort in memory;
  the per-player rows written behind.** Since issue 20 a result is carried into the newest
  snapshot (store.Carry): the new table is the previous one's totals (in the scoring process's
  memory) plus what the match changes, read as one query (each prediction of the match: its
  points at the new score less its points at the score the previous snapshot counts, which are
  its points rows' while the match's predictions are the ones the rows were computed from: the
  rows record a fingerprint of those predictions, a 40-bit hash of each summed modulo
  2^62, so that no match's predictions leave bigint's range (scoring 000009), which the same read sums and the carry compares; where it differs, as when a
  deleted result reopened betting and predictions changed, the points rows themselves are
  subtracted; the hash column made the read 1.15× as long, where a query of its own, reading the
  index entries again, added 0.38 of it: 2 million predictions of one match read in psql, the
  median ratio of 5 alternating runs beside a make test), the points computed once per score
  a prediction can name (10,000 scores: 0-99 goals each) rather than once per prediction,
  which had made the read about five times as long as reading the predictions alone (2 million
  predictions of one match in psql: 1.71-1.80 s against 0.34-0.39 s, 3 alternating runs beside
  a make test),
  summed per player in the process by a binary search into the totals (a GROUP BY of 2 million
  players in PostgreSQL spilled to disk, 22 s against the read's 12.5 s), ranked in memory (internal/ranked: packed
  integer keys, about 0.7 s for 2 million) and stored as one value (scoring.tablas_compactas,
  40 bytes a player, streamed to PostgreSQL by a COPY as it is encoded, 64 KB at a time); every page, place, league and board reads it at once. Only then does
  scoring write the rows (a scoring.puntos row per prediction, a move of totales_torneo and
  totales_fecha per player: O(players) row writes, tens of seconds at 2 million), off the path
  to the pages. Each snapshot records the score it counts of every match and
  scoring.partidos_contados the score each match's rows count, so a carry replaces exactly what
  the previous snapshot counted; when it cannot (a deleted result that moves the last matchday
  back, rows the previous release wrote, another time zone) the table is ranked from the
  totals after the rows, as before. A rescore of every match (a new knock-out setting) takes
  that path too: it is also what counts predictions that were never scored (written by hand,
  or saved as an organiser entered a result early), which a carry leaves out until their
  match's result changes, when the fingerprints differ and its rows are subtracted instead
  (make bench-scale-smoke's second size, whose new players' predictions are loaded for
  matches that already have a result, showed it). make bench-scale measured it: at 100,000 players a result reached every page in 0.9-2.1 s (5.4× to 2.7× faster than the bare SQL in the same run), at 2 million in 30-41 s (5.3× to 6.8× faster than the bare SQL's 198-218 s in the same run, measured beside a make test; the goal is 5 s and 10×), the rows then taking another 75-126 s behind the published table; with the
  match-ordered index below and the carry reading the predictions alone, at 1 million players
  in 3.0-4.0 s (15× to 23× faster than the bare SQL in the same run; 19-24 s before them), and
  at 2 million in 7.4 s (corrected), 10.7 s (entered) and 27.0 s (deleted), 28×, 23× and 7× faster
  than the bare SQL in the same run, on a machine busy with builds; with the fingerprints below,
  on a quieter and faster machine, at 2 million in 3.00 s (entered), 3.04 s (corrected) and
  5.02 s (deleted, the first change after the rescore's restart), 29×, 34× and 16× faster than
  the bare SQL in the same run (session 21); on a slower machine (the bare SQL's ranking 2.2×
  as long, nginx a quarter as fast) in 6.46 s, 7.29 s and 8.61 s, 21×, 21× and 14× (session
  22); with the points once per score, on a machine of that kind, in 1.79 s (entered), 2.15 s
  (corrected) and 5.09 s (deleted), 50×, 50× and 13× (session 23: docs/benchmarks-scale.md and
  its note: the deletion, the first change after the rescore and its reference, read its
  match's index entries from disk, 1.6-2.4 s against 0.34 s from memory). A match's
  predictions are read from an index in match order that holds their goals (predictions
  000003: an index-only scan), not picked out of the predictions table, where a player's lie
  together and one match's are scattered over every page: at 1 million players that read went
  from 2.1 s to 0.2 s (EXPLAIN ANALYZE of one match's read on a table of the same shape, 16 million
  predictions). It costs an index about six times the one on the match alone that it replaces
  (1.2 GB at 2 million players × 16 predictions), an index entry per edit of a prediction, and
  a vacuum at 2% of the predictions changed (so that the visibility map lets the scan skip the
  table). What still grows with players: the read of the match's 2 million index entries and
  the sort (each well under a second at 2 million), the snapshot's write. A deletion's
  carry read the match's points rows, scattered over scoring.puntos (27 s at 2 million), in
  case betting reopened and predictions changed; comparing fingerprints instead (above), a
  deletion whose predictions did not change (every deletion after the match's cut-off, and an
  early one nobody bet after) is carried from the predictions like a correction (2 million:
  5.02 s against the bare SQL's 80 s, 16×, where the rows' read had made it 7×). The same check makes a carry safe from a prediction saved in the instant an
  organiser enters a result before the cut-off, which the carry and the rows could read
  differently. A change that
  arrives while the previous change's rows are still being written (tens of seconds at 2
  million) no longer waits for them, as it did until session 24 (the tournament's turn was held
  from the carry to the rows' commit: the 10,000 streams' median was 24-47 s). The carry reads
  the predictions, not the rows, so the scorer's pass, which looks for new events every 100 ms
  while its rows are written, carries the change at once from the newest table (a match whose
  rows are still in flight counts as that table counts it, and is carried only from the
  predictions that table counted) and queues its rows behind the ones being written, which one
  transaction then writes together. Only a table ranked from the totals waits for every queued
  row (each carry holds a shared advisory lock on its tournament's rows until they commit; a
  build takes it exclusively), and a replica that heard the same event finds it applied once
  the first replica's rows commit and writes nothing. make bench-scale measured it (session 24, docs/benchmarks-scale.md): the 10,000 streams'
  median, whose second result comes 1 s after the first, went from 26.84 s to 2.68 s at 2
  million players (12.91 s to 1.55 s at 1 million), the second result carried in 2.36 s while
  the first one's rows were still being written.
- **A scoring pod that starts: no new version.** A new pod (a rolling update, the autoscaler
  adding pods in a rush, a restart) reads the totals once and keeps the newest snapshot when it
  is the table it would rank (store.UpToDate: the same players, totals, counted scores and last
  matchday); only a snapshot that misses points committed by a process that stopped before
  ranking them is ranked again. A new version would be announced to every open page, and
  10,000 watchers would each read the table again once per new pod.
- **Reading the standings: flat.** Every page and every player's place are read from the
  snapshot in the replica's memory (decoded once per version and replica, the last two kept:
  about 88 MB each at 2 million players), by position for a page and by binary search for a
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
- **Saving a prediction: flat.** One guarded upsert on the (player, match) key, O(log players)
  (an edit also moves its entry in the match-ordered index above);
  under a rush the saves waiting at the same moment share one statement (store.Batched), so
  PostgreSQL pays the statement once per batch, not per save. Its rate limit stays in the
  predictions process (docs/reliability.md, "Rate limits"): no Redis round trip on this path.
- **Rate limits shared in Redis: one small script per limited request, keys only for the
  active.** Sign-ins, renames, league writes and invite-code guesses each run one GCRA script
  in Redis (a GET and a SET of one key), whatever the number of players; a key lives until its
  bucket is full again (a minute for an address's sign-ins, 36 s for a player's renames, 4 s for
  a session's league writes), so Redis holds one key per address, player or session active in
  that window, about 200 bytes each (194 a bucket over 20,000 sign-in keys, against 186 to
  193 for a plain SET of the same key with an expiry: ratio 1.01 to 1.04 in three runs, by
  BenchmarkSharedBucketMemory in services/platform/ratelimit, whose comment gives the command):
  100,000 addresses signing in within a minute of a kick-off hold about 20 MB of the bundled
  Redis's 96 MB, beside the standings cache, and a key evicted under pressure (allkeys-lru) is only a full bucket. Reads, the bulk
  of a match day, are not limited and never ask Redis for a limit.
- **Leagues: bounded by the league, not the tournament.** A league's table looks its members up
  in the snapshot in the replica's memory (a binary search each, at most 5,000) and is kept per
  snapshot and membership version in the replica and in Redis, so after a result each league's
  table is built once, by its first reader, in O(members × log players): a few milliseconds at
  2 million. Reading it again costs no PostgreSQL round trip: the replica remembers each
  member's access (open session, member, which versions) for up to 5 s and forgets it when the
  statement that could end it notifies the prode_acceso channel ('Salir' in players; a removal, a
  deleted league, a new snapshot in scoring): one notification per such change, heard by every
  replica on the one LISTEN connection it already holds, never a message per player. The
  cache holds at most 50,000 accesses (about 8 MiB) and forgets them all when full, so 10,000
  members reading at once each pay one round trip per 5 s. A notification costs the same
  however full the cache: it notes what it ended, and a read refuses an access remembered
  before that (grupos.AccessCache), where it used to walk every entry under the lock: about
  1 µs against 0.7 ms with the cache full (BenchmarkAccessForgetOneSession, before and after,
  same machine): a 'Salir' costs each replica a microsecond, however many play.
  The home's 'Mis grupos' ranks the
  player in each of their leagues by counting members with more points: the members' ids read
  from PostgreSQL (up to 50 leagues × 5,000 for the largest player) and looked up in memory,
  the one league read that is not bounded by one league.
- **The around-me board: a handful of lookups, flat in players.** The board of the main table is
  planned from filas alone (internal/tablero: the top 3, the player and the rows beside them, the
  last, the pins), its players found and its rows read in the snapshot in memory; PostgreSQL is
  asked for the pins, the newest player, the sign-ups since the snapshot and the chosen rows'
  names (four small queries; the snapshot's version is kept per replica for a second, as the
  pages are). At 2 million players that is the same few queries: make bench-scale measured the
  board at about 2,900 boards a second at 100,000 and at 1 million alike, 0.08-0.10 of nginx
  serving the same bytes (each board is one player's, so none is served from a cache). A
  matchday's board is read from that day's table kept in the replica's memory
  (store.MatchdayTable: each row's player, 8 bytes, in runs of equal numbers searched by id;
  the last 2 days kept, 16 MB each for a day on which 2 million players scored), read once per
  snapshot and replica (a few seconds at 2 million) in the transaction that checks that the
  points rows count that snapshot. Between a carried result and its rows (35-100 s at 2
  million) the day's totals are still the previous snapshot's: a board then reads the day kept
  at that snapshot once a small query confirms the rows still count it, and ranks the day in
  PostgreSQL (O(players who scored that day), as every one did before) only when this replica
  kept none. A league's board reads the league's whole table (at most 5,000 rows, not cached).
- **Matchdays.** Points per matchday (scoring.totales_fecha) are kept by the same new-minus-old
  difference as the totals, so a matchday's table and its best players read one date's rows,
  and the movement since the previous matchday is carried in the snapshot (each player's points
  of the last matchday, beside the totals). The matchday's own rows are written with the points
  rows, behind the snapshot: a matchday's table shows a result once they are (seconds, tens of
  seconds at 2 million players). Its answers (the day's table, the matchdays' winners) wait up
  to 5 s for those rows and are cached as the version's only once the rows count what its table
  counts; at 2 million players the rows take longer, so such an answer read in between is
  served without the result and read again from PostgreSQL (one read per page per replica at a
  time) until they are written, and a page that read it keeps it until the next announcement.
  What would make the last matchday flat: its exact hits and right outcomes as two more columns
  of the snapshot beside its points (8 bytes a player, 16 MB at 2 million) and its own order
  kept as a permutation (4 bytes a player), so that its table and winners are read from memory
  at the version, as the general table is, and its board also while its rows are written.
- **Tournaments.** Every table, total and cache key is per tournament: a past tournament's
  table is ranked once and then only read; a result of one tournament ranks only its own.
`
