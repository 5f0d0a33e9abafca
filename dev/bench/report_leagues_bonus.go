package main

// The report's parts about issue 16: what the league table and the bonus question's rows
// measure, and the bonus question's section (the league's is an httpSection like the main
// table's).

// The goals the league's table and the bonus question share with the main table and a match's
// result, as every row using them does.
const (
	readGoal    = 0.45 // a GET's throughput, as a share of nginx's sending the same bytes
	scoringGoal = 1.5  // a change of the points to the standings visible, in times the bare SQL
)

// readGoalMet: a GET reached readGoal (nothing measured is not reached).
func readGoalMet(c comparison) bool {
	return c.Reference.RPS > 0 && ratio(c.Subject.RPS, c.Reference.RPS) >= readGoal
}

// scoringGoalMet: the median end-to-end time within scoringGoal of the bare SQL's (nothing
// measured is not reached).
func scoringGoalMet(d durationFigures) bool {
	return len(d.Subject) > 0 && len(d.Reference) > 0 && d.Ratio() <= scoringGoal
}

// leagueBullets explain the two rows in "What limits each figure": what each costs by design,
// since no run had measured them when they were added.
const leagueBullets = `- **GET /api/grupos/{id}/posiciones (issue 16).** Measured like the main table, against the same
  goal, but each request does more before the kept page: one PostgreSQL query asks whether the
  session is open (players.sesiones_vigentes) and whether the player is a member, with the
  league's version and the snapshot (store.GruposStore.Access); the page is then served from the
  process's memory under those versions. The main table's page 1 needs no round trip at all. A
  round trip to PostgreSQL costs about what nginx spends on a whole request here, so this row is
  bounded near half of the main table's ratio unless sessions and memberships are kept in memory
  (with 'Salir' and removals pushed to every replica), which is not built.
- **A bonus question's right answer to the standings (issue 16).** One set-based pass over the
  question's answers (one per player) moves the totals of the players whose points changed, then
  the whole table is ranked into a snapshot as after a result: the same path as a match's result,
  and the same goal against the bare SQL.`

// writeBonus is the section of the bonus question's right answer.
func (r report) writeBonus(w func(format string, args ...any)) {
	c := r.Config
	w("## A bonus question's right answer, to the standings in the API")
	w("")
	w("Prode: `PUT %s/api/torneos/<current>/preguntas/<id>/respuesta` as the organiser, for a question", c.FixturesBase)
	w("of the current tournament with four options, worth %d points, that all %d registered players", bonusPuntos, r.BonusAnswers)
	w("answered (a quarter of them each option). The right answer alternates between the first two options,")
	w("so that after the first run (an entry) every run is a correction that moves half the players' totals.")
	w("Then `GET %s/api/posiciones` every 2 ms until it answers a new version whose every row shows the", c.ScoringBase)
	w("bonus points that right answer gives. In between: the fixtures transaction with its outbox event and")
	w("NOTIFY, the consumer's wake-up, the scoring transaction over the question's answers")
	w("(store.ScoreQuestions), and the table ranked into a snapshot and page 1 published.")
	w("")
	w("Reference: the bare SQL (dev/bench/bonus.go, bareScoreQuestion): the same right answer written, the")
	w("totals moved by new minus old bonus points, the question's points replaced and the table ranked, on")
	w("the base tables, in one transaction rolled back, timed just before each PUT from the same state.")
	w("")
	writeScoredRuns(w, r.Bonus, r.BonusTx)
}
