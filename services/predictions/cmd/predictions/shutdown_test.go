package main_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"prode/platform/testenv"
)

// TestSIGTERMUnderSteadyWritesLosesNothing builds the real predictions binary, keeps eight
// signed-in players writing predictions in a steady loop (for each match a POST that creates
// the prediction, then a PUT that changes it), sends SIGTERM, and checks through
// testenv.SIGTERMUnderLoad that no request fails and the process exits 0 within its grace
// period. Then every write acknowledged with 2xx must be in the database: each match holds
// the score of the player's last acknowledged write.
func TestSIGTERMUnderSteadyWritesLosesNothing(t *testing.T) {
	const workers, matches = 8, 3000
	sc := startWriteScenario(t, "Shutdown", matches, workers, nil)

	// Per worker (only its own goroutine touches its entry): the match it is on, the id of its
	// prediction for that match once created, and the local score of every acknowledged write.
	type writer struct {
		next, seq int
		apuesta   int64
		acked     map[int64]int // match → local goals of the last acknowledged write
		nAcked    int
	}
	writers := make([]writer, workers)
	for w := range writers {
		writers[w].acked = map[int64]int{}
	}
	testenv.SIGTERMUnderLoad(t, sc.svc, testenv.Load{Workers: workers, Send: func(client *http.Client, w int) error {
		wr := &writers[w]
		p := sc.players[w]
		match := sc.matches[wr.next%len(sc.matches)]
		wr.seq++
		local := wr.seq % 100
		method, path, want := http.MethodPost, "/api/jugadores/"+p.Email+"/apuestas", http.StatusCreated
		if wr.apuesta != 0 {
			method, path, want = http.MethodPut, fmt.Sprintf("%s/%d", path, wr.apuesta), http.StatusOK
		}
		body, _ := json.Marshal(map[string]any{"partido": match, "goles_local": local, "goles_visitante": w})
		req, err := http.NewRequest(method, sc.svc.URL(path), bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		req.AddCookie(p.Cookie)
		res, err := client.Do(req)
		if err != nil {
			return fmt.Errorf("%s %s: %w", method, path, err)
		}
		defer res.Body.Close()
		var a struct {
			ID         int64 `json:"id"`
			GolesLocal int   `json:"goles_local"`
		}
		if res.StatusCode != want {
			return fmt.Errorf("%s %s: %d, want %d", method, path, res.StatusCode, want)
		}
		if err := json.NewDecoder(res.Body).Decode(&a); err != nil || a.ID == 0 || a.GolesLocal != local {
			return fmt.Errorf("%s %s: %d with id %d, goles_local %d (decode: %v), want goles_local %d", method, path, res.StatusCode, a.ID, a.GolesLocal, err, local)
		}
		wr.acked[match] = local
		wr.nAcked++
		if wr.apuesta == 0 {
			wr.apuesta = a.ID // next: change it
		} else {
			wr.apuesta, wr.next = 0, wr.next+1 // next: a new match
		}
		return nil
	}})

	// Every acknowledged write is stored: each match holds its last acknowledged score.
	admin := sc.db.AdminPool(t)
	var nAcked, nMatches, nStored int
	for w, wr := range writers {
		nAcked += wr.nAcked
		nMatches += len(wr.acked)
		stored := storedScores(t, admin, sc.players[w])
		for match, local := range wr.acked {
			if got, ok := stored[match]; ok && got == local {
				nStored++
			} else {
				t.Errorf("player %d, match %d: acknowledged goles_local %d, stored %d (present: %v)", w, match, local, got, ok)
			}
		}
	}
	if nAcked == 0 {
		t.Error("no write was acknowledged")
	}
	t.Logf("acknowledged writes %d (POST and PUT) on %d predictions; %d predictions hold their last acknowledged score, lost %d",
		nAcked, nMatches, nStored, nMatches-nStored)
}
