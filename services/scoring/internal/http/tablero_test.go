package http_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"prode/platform/ratelimit"
	"prode/platform/testenv"
	"prode/scoring/internal/scoringtest"
	"prode/scoring/internal/store"
	"prode/scoring/internal/tablero"
)

// boardTable is a current tournament whose table is players, in table order, with the points
// given (no exact hits, no right outcomes: ties show in the order the players registered).
type boardTable struct {
	e       *scoringtest.Env
	app     *scoringtest.App
	torneo  int64
	players []testenv.Player
}

func arrangeBoard(t *testing.T, puntos ...int) boardTable {
	t.Helper()
	e := scoringtest.New(t)
	e.Match("Grupo A", "ARG", "FRA", time.Now().Add(24*time.Hour))
	b := boardTable{e: e, torneo: e.Tournament("test")}
	for i, p := range puntos {
		pl := e.Player(fmt.Sprintf("J%02d", i+1))
		b.players = append(b.players, pl)
		e.Exec(`INSERT INTO scoring.totales_torneo (torneo_id, jugador_id, puntaje, exactos, aciertos) VALUES ($1, $2, $3, 0, 0)`,
			b.torneo, pl.ID, p)
	}
	b.app = e.NewApp(scoringtest.Options{})
	b.rebuild(t)
	return b
}

func (b boardTable) rebuild(t *testing.T) {
	t.Helper()
	if err := b.app.Standings.Rebuild(context.Background(), []int64{b.torneo}); err != nil {
		t.Fatal(err)
	}
}

// getOK GETs path, as the players given if any, fails the test unless it answers 200 without
// an e-mail address in it (boards and rows name players by display name only), and decodes it.
func getOK[T any](t *testing.T, app *scoringtest.App, path string, as ...testenv.Player) T {
	t.Helper()
	var opts []func(*http.Request)
	for _, p := range as {
		opts = append(opts, testenv.As(p))
	}
	res := app.API.Do(http.MethodGet, path, nil, opts...)
	if res.Status != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, res.Status, res.Body)
	}
	if strings.Contains(string(res.Body), "@") {
		t.Errorf("GET %s shows an e-mail address: %s", path, res.Body)
	}
	var v T
	res.Decode(t, &v)
	return v
}

func getBoard(t *testing.T, app *scoringtest.App, path string, as testenv.Player) tablero.Board {
	t.Helper()
	return getOK[tablero.Board](t, app, path, as)
}

// joined writes rows one by one, space-separated, for comparisons a reader can check by eye.
func joined[R any](rows []R, format func(R) string) string {
	parts := make([]string, len(rows))
	for i, r := range rows {
		parts[i] = format(r)
	}
	return strings.Join(parts, " ")
}

// describe writes a board as "fila.name(rank,points):motivo+motivo ..." for comparisons a reader
// can check by eye.
func describe(rows []tablero.BoardRow) string {
	return joined(rows, func(r tablero.BoardRow) string {
		return fmt.Sprintf("%d.%s(%d,%d):%s", r.Fila.Fila, r.Nombre, r.Posicion.Posicion, r.Puntaje, strings.Join(r.Motivos, "+"))
	})
}

func wantBoard(t *testing.T, what string, b tablero.Board, total int64, want string) {
	t.Helper()
	if b.Total != total || describe(b.Filas) != want {
		t.Errorf("%s: total %d, board\n %s\nwant total %d,\n %s", what, b.Total, describe(b.Filas), total, want)
	}
}

// The board of a 12-player table with a three-way tie on top (ranks 1, 1, 1, 4): the player in
// the middle, 2nd (rows fill in below), first, last (rows fill in above); always 7 rows, none
// twice; the version is the table's.
func TestBoardAroundMe(t *testing.T) {
	b := arrangeBoard(t, 30, 30, 30, 20, 18, 16, 14, 12, 10, 8, 6, 4)
	p := b.players
	for _, c := range []struct {
		who  int
		want string
	}{
		{8, "1.J01(1,30):top 2.J02(1,30):top 3.J03(1,30):top 7.J07(7,14):vecino 8.J08(8,12):yo 9.J09(9,10):vecino 12.J12(12,4):ultimo"},
		{2, "1.J01(1,30):top+vecino 2.J02(1,30):top+yo 3.J03(1,30):top+vecino 4.J04(4,20):vecino 5.J05(5,18):vecino 6.J06(6,16):vecino 12.J12(12,4):ultimo"},
		{1, "1.J01(1,30):top+yo 2.J02(1,30):top+vecino 3.J03(1,30):top+vecino 4.J04(4,20):vecino 5.J05(5,18):vecino 6.J06(6,16):vecino 12.J12(12,4):ultimo"},
		{12, "1.J01(1,30):top 2.J02(1,30):top 3.J03(1,30):top 9.J09(9,10):vecino 10.J10(10,8):vecino 11.J11(11,6):vecino 12.J12(12,4):yo+ultimo"},
		{4, "1.J01(1,30):top 2.J02(1,30):top 3.J03(1,30):top+vecino 4.J04(4,20):yo 5.J05(5,18):vecino 6.J06(6,16):vecino 12.J12(12,4):ultimo"},
	} {
		got := getBoard(t, b.app, "/api/posiciones/tablero", p[c.who-1])
		wantBoard(t, fmt.Sprintf("%s's board", p[c.who-1].Nombre), got, 12, c.want)
		var latest int64
		if err := b.e.Admin.QueryRow(context.Background(), `SELECT max(id) FROM scoring.tablas_compactas`).Scan(&latest); err != nil {
			t.Fatal(err)
		}
		if got.Version != latest || got.Torneo != b.torneo {
			t.Errorf("board of tournament %d at version %d, want %d at %d", got.Torneo, got.Version, b.torneo, latest)
		}
	}
	if n := b.app.Metric(t, "prode_board_reads_total", "tabla", "general"); n != 5 {
		t.Errorf("%v board reads counted, want 5", n)
	}
	if res := b.app.API.Do(http.MethodGet, "/api/posiciones/tablero", nil); res.Status != http.StatusUnauthorized {
		t.Errorf("a board signed out: %d %s, want 401", res.Status, res.Body)
	}
}

// Pins: on the board wherever they are (a row already there gains the reason, one elsewhere is
// added), off it once unpinned; only one's own; not oneself nor a player who does not exist; a
// player who registered after the snapshot is on the board, after its rows.
func TestBoardPins(t *testing.T) {
	b := arrangeBoard(t, 30, 30, 30, 20, 18, 16, 14, 12, 10, 8, 6, 4)
	p := b.players
	yo := p[7] // J08, 8th
	pin := func(as testenv.Player, id int64, method string) *testenv.Response {
		return b.app.API.Do(method, fmt.Sprintf("/api/posiciones/fijados/%d", id), nil, testenv.As(as))
	}
	for _, other := range []testenv.Player{p[8], p[4], p[4]} { // J09 a neighbour, J05 twice
		if res := pin(yo, other.ID, http.MethodPut); res.Status != http.StatusNoContent {
			t.Fatalf("pin %s: %d %s", other.Nombre, res.Status, res.Body)
		}
	}
	wantBoard(t, "with two pins", getBoard(t, b.app, "/api/posiciones/tablero", yo), 12,
		"1.J01(1,30):top 2.J02(1,30):top 3.J03(1,30):top 5.J05(5,18):fijado 7.J07(7,14):vecino 8.J08(8,12):yo 9.J09(9,10):vecino+fijado 12.J12(12,4):ultimo")
	var fijados []store.Fijado
	b.app.API.Do(http.MethodGet, "/api/posiciones/fijados", nil, testenv.As(yo)).Decode(t, &fijados)
	if len(fijados) != 2 || fijados[0].Nombre != "J05" || fijados[1].Nombre != "J09" {
		t.Errorf("pins %+v, want J05 and J09", fijados)
	}
	// Someone else's pins are theirs: another player's board and list show none of these.
	b.app.API.Do(http.MethodGet, "/api/posiciones/fijados", nil, testenv.As(p[0])).Decode(t, &fijados)
	if len(fijados) != 0 {
		t.Errorf("J01 sees pins %+v", fijados)
	}
	if got := describe(getBoard(t, b.app, "/api/posiciones/tablero", p[9]).Filas); strings.Contains(got, "fijado") {
		t.Errorf("J10's board shows J08's pins: %s", got)
	}

	if res := pin(yo, p[4].ID, http.MethodDelete); res.Status != http.StatusNoContent {
		t.Fatalf("unpin: %d %s", res.Status, res.Body)
	}
	if res := pin(yo, p[4].ID, http.MethodDelete); res.Status != http.StatusNoContent {
		t.Errorf("unpin again: %d %s", res.Status, res.Body)
	}
	wantBoard(t, "unpinned", getBoard(t, b.app, "/api/posiciones/tablero", yo), 12,
		"1.J01(1,30):top 2.J02(1,30):top 3.J03(1,30):top 7.J07(7,14):vecino 8.J08(8,12):yo 9.J09(9,10):vecino+fijado 12.J12(12,4):ultimo")

	want(t, "pin oneself", pin(yo, yo.ID, http.MethodPut), http.StatusBadRequest, "datos_invalidos")
	want(t, "pin nobody", pin(yo, p[11].ID+1000, http.MethodPut), http.StatusNotFound, "no_encontrado")
	want(t, "pin a bad id", b.app.API.Do(http.MethodPut, "/api/posiciones/fijados/abc", nil, testenv.As(yo)), http.StatusBadRequest, "datos_invalidos")
	want(t, "pin signed out", b.app.API.Do(http.MethodPut, fmt.Sprintf("/api/posiciones/fijados/%d", p[0].ID), nil), http.StatusUnauthorized, "no_autenticado")
	want(t, "pins signed out", b.app.API.Do(http.MethodGet, "/api/posiciones/fijados", nil), http.StatusUnauthorized, "no_autenticado")
	if got := b.app.Metric(t, "prode_board_pin_writes_total", "accion", "fijar"); got != 3 {
		t.Errorf("%v pins counted, want 3", got)
	}

	// A player registered after the snapshot follows its rows without points, at the rank of
	// those without points (13th here): on their own board, and pinned on another's.
	nuevo := b.e.Player("Nuevo")
	wantBoard(t, "the newcomer's board", getBoard(t, b.app, "/api/posiciones/tablero", nuevo), 13,
		"1.J01(1,30):top 2.J02(1,30):top 3.J03(1,30):top 10.J10(10,8):vecino 11.J11(11,6):vecino 12.J12(12,4):vecino 13.Nuevo(13,0):yo+ultimo")
	if res := pin(yo, nuevo.ID, http.MethodPut); res.Status != http.StatusNoContent {
		t.Fatalf("pin the newcomer: %d %s", res.Status, res.Body)
	}
	wantBoard(t, "the newcomer pinned", getBoard(t, b.app, "/api/posiciones/tablero", yo), 13,
		"1.J01(1,30):top 2.J02(1,30):top 3.J03(1,30):top 7.J07(7,14):vecino 8.J08(8,12):yo 9.J09(9,10):vecino+fijado 13.Nuevo(13,0):ultimo+fijado")
}

// A table smaller than the board shows every row once; a table of one, its only row.
func TestBoardSmallTables(t *testing.T) {
	b := arrangeBoard(t, 10, 10, 5, 0)
	p := b.players
	wantBoard(t, "four players", getBoard(t, b.app, "/api/posiciones/tablero", p[3]), 4,
		"1.J01(1,10):top 2.J02(1,10):top 3.J03(3,5):top+vecino 4.J04(4,0):yo+ultimo")

	solo := arrangeBoard(t, 7)
	wantBoard(t, "one player", getBoard(t, solo.app, "/api/posiciones/tablero", solo.players[0]), 1,
		"1.J01(1,7):top+yo+ultimo")
}

func getRange(t *testing.T, app *scoringtest.App, path string, as ...testenv.Player) tablero.Range {
	t.Helper()
	return getOK[tablero.Range](t, app, path, as...)
}

// names writes rows as "fila.name(rank) ...".
func names(rows []store.Fila) string {
	return joined(rows, func(r store.Fila) string { return fmt.Sprintf("%d.%s(%d)", r.Fila, r.Nombre, r.Posicion.Posicion) })
}

// "Ver 10 más": 10 rows from any fila on, fewer at the end, none past it; the board's version
// is read again after the table moved on (while it is kept); bad ranges are refused.
func TestBoardRanges(t *testing.T) {
	b := arrangeBoard(t, 30, 30, 30, 20, 18, 16, 14, 12, 10, 8, 6, 4)
	board := getBoard(t, b.app, "/api/posiciones/tablero", b.players[7])

	r := getRange(t, b.app, "/api/posiciones/filas?desde=2")
	if r.Total != 12 || names(r.Filas) != "2.J02(1) 3.J03(1) 4.J04(4) 5.J05(5) 6.J06(6) 7.J07(7) 8.J08(8) 9.J09(9) 10.J10(10) 11.J11(11)" {
		t.Errorf("10 from the 2nd: total %d, %s", r.Total, names(r.Filas))
	}
	if r := getRange(t, b.app, "/api/posiciones/filas?desde=10&cantidad=10"); names(r.Filas) != "10.J10(10) 11.J11(11) 12.J12(12)" {
		t.Errorf("10 from the 10th: %s", names(r.Filas))
	}
	if r := getRange(t, b.app, "/api/posiciones/filas?desde=13"); len(r.Filas) != 0 || r.Total != 12 {
		t.Errorf("past the end: %+v", r)
	}

	// J12 scores: the table moves on; the board's version still reads as it was.
	b.e.Exec(`UPDATE scoring.totales_torneo SET puntaje = 40 WHERE jugador_id = $1`, b.players[11].ID)
	b.rebuild(t)
	old := getRange(t, b.app, fmt.Sprintf("/api/posiciones/filas?desde=1&cantidad=2&version=%d", board.Version))
	if old.Version != board.Version || names(old.Filas) != "1.J01(1) 2.J02(1)" {
		t.Errorf("at the board's version %d: version %d, %s", board.Version, old.Version, names(old.Filas))
	}
	now := getRange(t, b.app, "/api/posiciones/filas?desde=1&cantidad=2")
	if now.Version <= board.Version || names(now.Filas) != "1.J12(1) 2.J01(2)" {
		t.Errorf("the current table: version %d, %s", now.Version, names(now.Filas))
	}
	b.rebuild(t) // two builds later the board's snapshot is gone: the current one is read
	if gone := getRange(t, b.app, fmt.Sprintf("/api/posiciones/filas?cantidad=1&version=%d", board.Version)); gone.Version == board.Version || names(gone.Filas) != "1.J12(1)" {
		t.Errorf("a version no longer kept: version %d, %s", gone.Version, names(gone.Filas))
	}

	for _, q := range []string{"desde=0", "desde=x", "cantidad=0", "cantidad=101", "version=0", "version=abc", "fecha=ayer"} {
		want(t, "?"+q, b.app.API.Do(http.MethodGet, "/api/posiciones/filas?"+q, nil), http.StatusBadRequest, "datos_invalidos")
	}
	if n := b.app.Metric(t, "prode_board_range_reads_total", "tabla", "general"); n < 6 {
		t.Errorf("%v range reads counted, want at least 6", n)
	}
}

// A league's board ranks within the league; pinned players outside the league are not on it;
// its rows page like the main table's; a non-member is refused like the league's table.
func TestLeagueBoard(t *testing.T) {
	b := arrangeBoard(t, 30, 25, 20, 15, 10, 5, 0, 0, 0)
	p := b.players
	g := createGrupo(t, b.app, p[4], "Oficina") // J05
	for _, m := range []int{0, 2, 5, 6, 7} {    // J01, J03, J06, J07, J08
		if res := join(t, b.app, p[m], *g.Codigo); res.Status != http.StatusOK {
			t.Fatalf("join: %d %s", res.Status, res.Body)
		}
	}
	for _, other := range []testenv.Player{p[1], p[7]} { // J02 not in the league, J08 in it
		if res := b.app.API.Do(http.MethodPut, fmt.Sprintf("/api/posiciones/fijados/%d", other.ID), nil, testenv.As(p[4])); res.Status != http.StatusNoContent {
			t.Fatalf("pin: %d %s", res.Status, res.Body)
		}
	}
	path := fmt.Sprintf("/api/grupos/%d/tablero", g.ID)
	wantBoard(t, "J05's league board", getBoard(t, b.app, path, p[4]), 6,
		"1.J01(1,30):top 2.J03(2,20):top+vecino 3.J05(3,10):top+yo 4.J06(4,5):vecino 5.J07(5,0):vecino 6.J08(5,0):ultimo+fijado")
	r := getRange(t, b.app, fmt.Sprintf("/api/grupos/%d/filas?desde=3&cantidad=2", g.ID), p[0])
	if r.Total != 6 || names(r.Filas) != "3.J05(3) 4.J06(4)" {
		t.Errorf("league rows from the 3rd: total %d, %s", r.Total, names(r.Filas))
	}
	for _, sub := range []string{"tablero", "filas"} {
		path := fmt.Sprintf("/api/grupos/%d/%s", g.ID, sub)
		want(t, "a non-member's "+sub, b.app.API.Do(http.MethodGet, path, nil, testenv.As(p[1])), http.StatusForbidden, "no_es_miembro")
		want(t, "signed out "+sub, b.app.API.Do(http.MethodGet, path, nil), http.StatusUnauthorized, "no_autenticado")
		want(t, "an unknown league's "+sub, b.app.API.Do(http.MethodGet, fmt.Sprintf("/api/grupos/%d/%s", g.ID+100, sub), nil, testenv.As(p[0])),
			http.StatusNotFound, "grupo_no_encontrado")
	}
	if n := b.app.Metric(t, "prode_board_reads_total", "tabla", "grupo"); n != 1 {
		t.Errorf("%v league boards counted, want 1", n)
	}
}

// A matchday's board: that day's table (players who scored that day, ranked by that day's
// points); a player who scored nothing that day sees its top 6 and its last.
func TestMatchdayBoard(t *testing.T) {
	b := arrangeBoard(t, 0, 0, 0, 0, 0, 0, 0, 0, 0)
	p := b.players
	for i, pts := range []int{10, 10, 7, 5, 5, 5, 2, 2} { // J09 scored nothing that day
		b.e.Exec(`INSERT INTO scoring.totales_fecha (torneo_id, fecha, jugador_id, puntaje) VALUES ($1, '2026-06-20', $2, $3)`,
			b.torneo, p[i].ID, pts)
	}
	path := "/api/posiciones/tablero?fecha=2026-06-20"
	wantBoard(t, "J05's matchday board", getBoard(t, b.app, path, p[4]), 8,
		"1.J01(1,10):top 2.J02(1,10):top 3.J03(3,7):top 4.J04(4,5):vecino 5.J05(4,5):yo 6.J06(4,5):vecino 8.J08(7,2):ultimo")
	wantBoard(t, "a player without points that day", getBoard(t, b.app, path, p[8]), 8,
		"1.J01(1,10):top 2.J02(1,10):top 3.J03(3,7):top 4.J04(4,5):top 5.J05(4,5):top 6.J06(4,5):top 8.J08(7,2):ultimo")
	if r := getRange(t, b.app, "/api/posiciones/filas?fecha=2026-06-20&desde=6&cantidad=10"); r.Total != 8 || names(r.Filas) != "6.J06(4) 7.J07(7) 8.J08(7)" {
		t.Errorf("matchday rows from the 6th: total %d, %s", r.Total, names(r.Filas))
	}
	want(t, "a bad date", b.app.API.Do(http.MethodGet, "/api/posiciones/tablero?fecha=20-06-2026", nil, testenv.As(p[0])),
		http.StatusBadRequest, "datos_invalidos")
	// Dates without a table, more than a replica keeps, do not push out the day people look at.
	for _, empty := range []string{"2026-06-21", "2026-06-22", "2030-01-01"} {
		if board := getBoard(t, b.app, "/api/posiciones/tablero?fecha="+empty, p[0]); board.Total != 0 || len(board.Filas) != 0 {
			t.Errorf("the board of %s, a day without points: %+v", empty, board)
		}
	}
	getBoard(t, b.app, path, p[4])
	// The day was read from PostgreSQL once, for its first board (and each empty day once); its
	// other boards found it kept.
	if read, kept := b.app.Metric(t, "prode_board_matchday_tables_total", "result", "read"),
		b.app.Metric(t, "prode_board_matchday_tables_total", "result", "kept"); read != 4 || kept != 3 {
		t.Errorf("matchday tables read %v and kept %v times, want 4 (the day, 3 empty days) and 3", read, kept)
	}

	// The day's points move and a new table is ranked (as after a result): the next board is
	// read at the new snapshot, not from the kept day.
	b.e.Exec(`UPDATE scoring.totales_fecha SET puntaje = 12 WHERE jugador_id = $1`, p[6].ID)
	b.rebuild(t)
	wantBoard(t, "J05's matchday board after J07 scored more", getBoard(t, b.app, path, p[4]), 8,
		"1.J07(1,12):top 2.J01(2,10):top 3.J02(2,10):top 5.J04(5,5):vecino 6.J05(5,5):yo 7.J06(5,5):vecino 8.J08(8,2):ultimo")
}

// A matchday's board while a carried result's points rows are being written shows the day as
// its rows stand, without the result, as a read of PostgreSQL would, but from the day kept at
// the snapshot the rows still count; once the rows are written it shows the result.
func TestMatchdayBoardWhileTheRowsAreWritten(t *testing.T) {
	e := scoringtest.New(t)
	ctx := context.Background()
	m := e.Match("Grupo A", "ARG", "FRA", scoringtest.NoonDaysAgo(t, 1))
	var players []testenv.Player
	for i, score := range [][2]int{{2, 1}, {2, 1}, {1, 0}, {0, 1}, {0, 1}, {1, 1}} {
		players = append(players, e.Player(fmt.Sprintf("J%02d", i+1)))
		e.Predict(players[i], m, score[0], score[1])
	}
	app := e.NewApp(scoringtest.Options{})
	e.SetResult(m, scoringtest.Result{GolesLocal: 2, GolesVisitante: 1})
	app.Score(t)
	var fecha string
	if err := e.Admin.QueryRow(ctx, `SELECT max(fecha)::text FROM scoring.totales_fecha`).Scan(&fecha); err != nil {
		t.Fatal(err)
	}
	path := "/api/posiciones/tablero?fecha=" + fecha
	entered := describe(getBoard(t, app, path, players[3]).Filas)
	if entered != "1.J01(1,10):top 2.J02(1,10):top 3.J03(3,5):top+vecino 4.J04(4,2):yo 5.J05(4,2):vecino 6.J06(4,2):ultimo" {
		t.Fatalf("the matchday's board after 2-1: %s", entered)
	}

	// The result corrected to 0-1 and carried by another replica, whose rows are not written yet.
	other := otherReplica{e: e, torneo: e.Tournament("test"), partido: m}
	other.change(t, scoringtest.Result{GolesLocal: 0, GolesVisitante: 1}, false)
	if got := describe(getBoard(t, app, path, players[3]).Filas); got != entered {
		t.Errorf("the matchday's board before the correction's rows: %s, want %s", got, entered)
	}
	if n := app.Metric(t, "prode_board_matchday_tables_total", "result", "earlier"); n != 1 {
		t.Errorf("%v boards read the day kept at the earlier snapshot, want 1", n)
	}

	app.Score(t) // the correction's rows
	corrected := "1.J04(1,10):top+yo 2.J05(1,10):top+vecino 3.J01(3,2):top+vecino 4.J02(3,2):vecino 5.J06(3,2):ultimo"
	if got := describe(getBoard(t, app, path, players[3]).Filas); got != corrected {
		t.Errorf("the matchday's board after the correction's rows: %s, want %s", got, corrected)
	}

	// Two more corrections by the other replica, the first with its rows, the second without:
	// the rows no longer count the snapshot this replica kept the day at, so the day is read
	// from PostgreSQL as the rows stand (1-1).
	other.change(t, scoringtest.Result{GolesLocal: 1, GolesVisitante: 1}, true)
	other.change(t, scoringtest.Result{GolesLocal: 3, GolesVisitante: 0}, false)
	drawn := "1.J06(1,10):top 2.J01(2,2):top 3.J02(2,2):top 4.J03(2,2):vecino 5.J04(2,2):yo 6.J05(2,2):vecino+ultimo"
	if got := describe(getBoard(t, app, path, players[3]).Filas); got != drawn {
		t.Errorf("the matchday's board at 1-1's rows, 3-0 carried: %s, want %s", got, drawn)
	}
	if n := app.Metric(t, "prode_board_matchday_tables_total", "result", "rows_behind"); n != 1 {
		t.Errorf("%v boards read the day from PostgreSQL, want 1", n)
	}
}

// otherReplica changes a match's result as another scoring replica would apply it: carried,
// and its points rows written or not yet.
type otherReplica struct {
	e               *scoringtest.Env
	torneo, partido int64
}

func (o otherReplica) change(t *testing.T, r scoringtest.Result, rows bool) {
	t.Helper()
	ctx := context.Background()
	zone, err := time.LoadLocation("America/Argentina/Buenos_Aires") // the test App's
	if err != nil {
		t.Fatal(err)
	}
	evento := o.e.SetResult(o.partido, r)
	pool := o.e.DB.Pool(t, "scoring")
	standings := store.NewStandingsStore(pool, store.NewSnapshots(store.KeptSnapshots))
	rowsWritten, err := standings.CarryAhead(ctx, o.torneo, []int64{o.partido}, "noventa", zone.String(), nil, func(store.Tabla) {})
	if err != nil || rowsWritten == nil {
		t.Fatalf("%v not carried: %v", r, err)
	}
	defer rowsWritten()
	if rows {
		if _, err := store.NewPointsStore(pool, zone).ScoreMatches(ctx, []int64{o.partido}, "noventa", []int64{evento}); err != nil {
			t.Fatal(err)
		}
	}
}

// Pin writes count against the session's write limit, as the other writes: past the burst a pin
// is refused with 429 and changes nothing; reading the pins and the board is not limited.
func TestPinWritesCountAgainstTheSessionsWriteLimit(t *testing.T) {
	e := scoringtest.New(t)
	e.Match("Grupo A", "ARG", "FRA", time.Now().Add(24*time.Hour))
	app := e.NewApp(scoringtest.Options{WriteLimit: ratelimit.New(0.001, 2)})
	ana, beto, caro := e.Player("Ana"), e.Player("Beto"), e.Player("Caro")
	pin := func(method string, who testenv.Player) *testenv.Response {
		return app.API.Do(method, fmt.Sprintf("/api/posiciones/fijados/%d", who.ID), nil, testenv.As(ana))
	}
	pin(http.MethodPut, beto)
	pin(http.MethodDelete, beto)
	want(t, "a third pin write", pin(http.MethodPut, caro), http.StatusTooManyRequests, "demasiadas_solicitudes")
	var fijados []store.Fijado
	res := app.API.Do(http.MethodGet, "/api/posiciones/fijados", nil, testenv.As(ana))
	res.Decode(t, &fijados)
	if res.Status != http.StatusOK || len(fijados) != 0 {
		t.Errorf("pins after a refused pin: %d %s, want none", res.Status, res.Body)
	}
	if b := getBoard(t, app, "/api/posiciones/tablero", ana); strings.Contains(describe(b.Filas), "fijado") {
		t.Errorf("the board after a refused pin: %s", describe(b.Filas))
	}
}
