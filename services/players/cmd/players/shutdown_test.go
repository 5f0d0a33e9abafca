package main_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"prode/platform/testenv"
)

// TestSIGTERMUnderSteadyRequestsDropsNothing builds the real players binary, keeps eight
// signed-in players asking for their session (GET /api/sesion: cookie check, the session row
// in PostgreSQL, the player's row) in a steady loop, sends SIGTERM, and checks through
// testenv.SIGTERMUnderLoad that no request fails and the process exits 0 within its grace
// period. Each answer must be 200 with the asking player's own e-mail.
func TestSIGTERMUnderSteadyRequestsDropsNothing(t *testing.T) {
	const workers = 8
	db := testenv.NewDB(t)
	players := testenv.SignInPlayers(t, db, workers)
	svc := startPlayers(t, db)

	testenv.SIGTERMUnderLoad(t, svc, testenv.Load{Workers: workers, Send: func(client *http.Client, w int) error {
		req, err := http.NewRequest(http.MethodGet, svc.URL("/api/sesion"), nil)
		if err != nil {
			return err
		}
		req.AddCookie(players[w].Cookie)
		res, err := client.Do(req)
		if err != nil {
			return err
		}
		defer res.Body.Close()
		var jugador struct {
			Email string `json:"email"`
		}
		if res.StatusCode != http.StatusOK {
			return fmt.Errorf("GET /api/sesion: %d", res.StatusCode)
		}
		if err := json.NewDecoder(res.Body).Decode(&jugador); err != nil || jugador.Email != players[w].Email {
			return fmt.Errorf("GET /api/sesion: 200 for %q (decode: %v), want %s", jugador.Email, err, players[w].Email)
		}
		return nil
	}})
}
