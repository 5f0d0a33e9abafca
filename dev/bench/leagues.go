package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/jackc/pgx/v5"
)

// A private league ("grupo", issue 16) among the loaded players, and its table read under load
// the way the main table is (getBenchmark: wrk against the service, then against nginx serving
// the same bytes).

// league is the loaded league and the member whose session reads its table.
type league struct {
	ID      int64
	Members int
	Reader  player
}

// leagueFile is the copy of the league's page 1 that the reference nginx serves.
const leagueFile = "grupo-posiciones.json"

// loadLeague makes a league of the first n loaded players. Its owner, the first player, creates
// it through the API, so that it is made as a player makes one (owner, invite code, tournament);
// the other n-1 are then added in one statement, as if each had joined with the code: 4,999
// joins through the API would measure only the join route and its write limit.
func (b *bench) loadLeague(ctx context.Context, ids []int64, players []player, n int) (league, error) {
	n = min(n, len(ids))
	if n < 1 {
		return league{}, fmt.Errorf("a league needs at least one member")
	}
	l := league{Members: n}
	for _, p := range players {
		if p.ID == ids[0] {
			l.Reader = p
		}
	}
	if l.Reader.Cookie == "" {
		return l, fmt.Errorf("player %d, the league's owner, has no session", ids[0])
	}
	answer, err := send(http.MethodPost, b.cfg.ScoringBase+"/api/grupos", l.Reader.Cookie, `{"nombre":"Liga del bench"}`, http.StatusCreated)
	if err != nil {
		return l, err
	}
	var created struct {
		ID int64 `json:"id"`
	}
	if err := json.Unmarshal(answer, &created); err != nil {
		return l, fmt.Errorf("POST /api/grupos answered %s: %w", answer, err)
	}
	l.ID = created.ID
	err = pgx.BeginFunc(ctx, b.db, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `
			INSERT INTO scoring.grupo_miembros (grupo_id, jugador_id)
			SELECT $1, id FROM unnest($2::bigint[]) AS id
			ON CONFLICT (grupo_id, jugador_id) DO NOTHING`, l.ID, ids[:n]); err != nil {
			return err
		}
		// What a join keeps in the same transaction: miembros equal to the count of members, and
		// a new version, which the cached pages of the league's table are keyed by.
		_, err := tx.Exec(ctx, `
			UPDATE scoring.grupos
			   SET miembros = (SELECT count(*) FROM scoring.grupo_miembros WHERE grupo_id = $1),
			       version = version + 1
			 WHERE id = $1`, l.ID)
		return err
	})
	if err != nil {
		return l, fmt.Errorf("league members: %w", err)
	}
	// As after the other loads: the planner sees the members, as it would once autovacuum had.
	if _, err := b.db.Exec(ctx, `ANALYZE scoring.grupo_miembros`); err != nil {
		return l, err
	}
	return l, nil
}

// leagueBenchmark loads the league and measures its table into r.
func (b *bench) leagueBenchmark(ctx context.Context, r *report, ids []int64, players []player) error {
	l, err := b.loadLeague(ctx, ids, players, b.cfg.LeagueMembers)
	if err != nil {
		return err
	}
	r.LeagueMembers, r.LeagueURL = l.Members, b.leagueURL(l)
	r.League, err = b.leagueStandings(ctx, l)
	return err
}

// leagueURL is page 1 of the league's table, as the web app asks for it.
func (b *bench) leagueURL(l league) string {
	return fmt.Sprintf("%s/api/grupos/%d/posiciones", b.cfg.ScoringBase, l.ID)
}

// leagueStandings measures page 1 of the league's table as one of its members, against nginx
// sending the same bytes to the same request (cookie included).
func (b *bench) leagueStandings(ctx context.Context, l league) (comparison, error) {
	answer, err := send(http.MethodGet, b.leagueURL(l), l.Reader.Cookie, "", http.StatusOK)
	if err != nil {
		return comparison{}, err
	}
	var page struct {
		Total int64 `json:"total"`
	}
	if err := json.Unmarshal(answer, &page); err != nil {
		return comparison{}, fmt.Errorf("league table: %w", err)
	}
	// Every member counted: a table that lost some would be measured faster than the real one.
	if page.Total != int64(l.Members) {
		return comparison{}, fmt.Errorf("the league's table counts %d members, not %d", page.Total, l.Members)
	}
	return b.getBenchmark(ctx, "scoring", b.cfg.ScoringAdmin, b.leagueURL(l), l.Reader.Cookie, leagueFile)
}
