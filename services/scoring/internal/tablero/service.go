package tablero

import (
	"context"
	"errors"
	"slices"
	"time"

	"prode/platform/apierror"
	"prode/scoring/internal/metrics"
	"prode/scoring/internal/store"
)

// Standings are what the boards need of the standings (standings.Service): the tournament a
// request names, and its table's current version.
type Standings interface {
	Tournament(ctx context.Context, torneo int64) (id int64, actual bool, err error)
	Version(ctx context.Context, torneo int64) (store.Version, error)
}

// Grupos checks who may read a league's table (grupos.Service).
type Grupos interface {
	Access(ctx context.Context, id, jugador int64, sesion string) (store.Acceso, error)
}

var (
	errFecha   = apierror.Invalid("La fecha tiene que tener la forma AAAA-MM-DD, por ejemplo 2022-11-22.")
	errYoMismo = apierror.Invalid("No podés fijarte a vos mismo: tu fila ya está siempre en el tablero.")
	errNoHay   = apierror.NotFound("No existe ese jugador.")
)

// Board is an around-me board (GET /api/posiciones/tablero, /api/grupos/{id}/tablero): its rows
// in the table's order, a gap between two rows wherever their filas are not consecutive.
type Board struct {
	Torneo  int64      `json:"torneo"`
	Version int64      `json:"version"` // the snapshot the rows were read at ("ver 10 más" asks for it)
	Total   int64      `json:"total"`   // rows in the whole table
	Filas   []BoardRow `json:"filas"`
}

// BoardRow is a row of a board and why it is there (Top, Yo, Vecino, Ultimo, Fijado).
type BoardRow struct {
	store.Fila
	Motivos []string `json:"motivos"`
}

// Range is the rows of a table from a fila on (GET /api/posiciones/filas, /api/grupos/{id}/filas).
type Range struct {
	Torneo  int64        `json:"torneo"`
	Version int64        `json:"version"`
	Total   int64        `json:"total"`
	Filas   []store.Fila `json:"filas"`
}

// Table is one table a board is read from: its rows found by player (locate) and read by fila
// (rows), at one version.
type Table struct {
	kind    string // the metrics label: general, fecha, grupo
	torneo  int64
	version int64
	locate  func(ctx context.Context, ids []int64) (total int64, filas map[int64]int64, err error)
	rows    func(ctx context.Context, filas []int64) ([]store.Fila, error)
}

// Service reads the boards and ranges, and keeps the pins.
type Service struct {
	standings Standings
	grupos    Grupos
	tablas    *store.StandingsStore
	ligas     *store.GruposStore
	pins      *store.PinsStore
	matchdays *matchdays
	metrics   *metrics.Tablero
}

// New builds the service; zone dates the matchdays, as the standings' (standings.New).
func New(st Standings, g Grupos, tablas *store.StandingsStore, ligas *store.GruposStore, pins *store.PinsStore,
	zone *time.Location, m *metrics.Tablero) *Service {
	return &Service{standings: st, grupos: g, tablas: tablas, ligas: ligas, pins: pins, metrics: m,
		matchdays: &matchdays{store: tablas, zone: zone.String(), results: m.Matchdays}}
}

// General is the table of a tournament (0: the current one) or, with fecha (AAAA-MM-DD), of one
// of its matchdays; version, when not 0, is a snapshot an earlier answer gave, read again while
// it is kept (the matchday's table is always the current one).
func (s *Service) General(ctx context.Context, torneo int64, fecha string, version int64) (Table, error) {
	var dia time.Time
	if fecha != "" {
		var err error
		if dia, err = time.Parse(time.DateOnly, fecha); err != nil {
			return Table{}, errFecha
		}
	}
	torneo, _, err := s.standings.Tournament(ctx, torneo)
	if err != nil || torneo == 0 {
		return empty(), err
	}
	v, err := s.standings.Version(ctx, torneo)
	if err != nil {
		return Table{}, err
	}
	if fecha != "" {
		return s.matchday(ctx, torneo, v.ID, dia)
	}
	if version != 0 && version != v.ID {
		older, kept, err := s.tablas.TablaAt(ctx, torneo, version)
		if err != nil {
			return Table{}, err
		}
		if kept { // else the current one: the answer's version says which was read
			v.Tabla = older
		}
	}
	view, err := s.tablas.View(ctx, v)
	if err != nil {
		return Table{}, err
	}
	return Table{kind: "general", torneo: torneo, version: v.ID,
		locate: func(_ context.Context, ids []int64) (int64, map[int64]int64, error) {
			total, filas := view.Locate(ids)
			return total, filas, nil
		},
		rows: view.Rows}, nil
}

// matchday is matchday dia's own table at snapshot tabla: kept in memory once the points rows
// count that snapshot; while a carried result's rows are being written, the day as they stand:
// kept at the snapshot they still count, else read from PostgreSQL on each request.
func (s *Service) matchday(ctx context.Context, torneo, tabla int64, dia time.Time) (Table, error) {
	kept, err := s.matchdays.at(ctx, torneo, tabla, dia)
	if err != nil {
		return Table{}, err
	}
	t := Table{kind: "fecha", torneo: torneo, version: tabla}
	if kept != nil {
		t.locate = func(_ context.Context, ids []int64) (int64, map[int64]int64, error) {
			total, filas := kept.Locate(ids)
			return total, filas, nil
		}
		t.rows = kept.Rows
		return t, nil
	}
	t.locate = func(ctx context.Context, ids []int64) (int64, map[int64]int64, error) {
		return s.tablas.MatchdayLocate(ctx, torneo, dia, ids)
	}
	t.rows = func(ctx context.Context, filas []int64) ([]store.Fila, error) {
		return s.tablas.MatchdayRows(ctx, torneo, dia, filas)
	}
	return t, nil
}

// League is a league's table for one of its members (the league table's refusals otherwise),
// read whole once (bounded by the league's size) and picked from in memory. version as in
// General.
func (s *Service) League(ctx context.Context, id, jugador int64, sesion string, version int64) (Table, error) {
	a, err := s.grupos.Access(ctx, id, jugador, sesion)
	if err != nil {
		return Table{}, err
	}
	if version != 0 && version != a.Tabla {
		if _, kept, err := s.tablas.TablaAt(ctx, a.Torneo, version); err != nil {
			return Table{}, err
		} else if kept {
			a.Tabla = version
		}
	}
	all, err := s.ligas.LeagueRows(ctx, id, a)
	if err != nil {
		return Table{}, err
	}
	return Table{kind: "grupo", torneo: a.Torneo, version: a.Tabla,
		locate: func(_ context.Context, ids []int64) (int64, map[int64]int64, error) {
			filas := map[int64]int64{}
			for _, r := range all {
				if slices.Contains(ids, r.ID) {
					filas[r.ID] = r.Fila
				}
			}
			return int64(len(all)), filas, nil
		},
		rows: func(_ context.Context, filas []int64) ([]store.Fila, error) {
			out := make([]store.Fila, 0, len(filas))
			for _, f := range filas {
				if f >= 1 && f <= int64(len(all)) {
					out = append(out, all[f-1])
				}
			}
			return out, nil
		}}, nil
}

// empty is the table of no tournament yet.
func empty() Table {
	return Table{kind: "general",
		locate: func(context.Context, []int64) (int64, map[int64]int64, error) { return 0, map[int64]int64{}, nil },
		rows:   func(context.Context, []int64) ([]store.Fila, error) { return []store.Fila{}, nil }}
}

// Board reads the player's board of t: the player and their pins located (one lookup each),
// the board planned (plan), and its rows read by fila.
func (s *Service) Board(ctx context.Context, t Table, jugador int64) (Board, error) {
	s.metrics.Boards.WithLabelValues(t.kind).Inc()
	b := Board{Torneo: t.torneo, Version: t.version, Filas: []BoardRow{}}
	pins, err := s.pins.IDs(ctx, jugador)
	if err != nil {
		return b, err
	}
	total, filas, err := t.locate(ctx, append([]int64{jugador}, pins...))
	if err != nil {
		return b, err
	}
	b.Total = total
	pinFilas := make([]int64, 0, len(pins))
	for _, p := range pins {
		if f, ok := filas[p]; ok {
			pinFilas = append(pinFilas, f)
		}
	}
	entries := plan(total, filas[jugador], pinFilas)
	wanted := make([]int64, len(entries))
	for i, e := range entries {
		wanted[i] = e.Fila
	}
	rows, err := t.rows(ctx, wanted)
	if err != nil {
		return b, err
	}
	for _, r := range rows {
		if i := slices.IndexFunc(entries, func(e Entrada) bool { return e.Fila == r.Fila }); i >= 0 {
			b.Filas = append(b.Filas, BoardRow{Fila: r, Motivos: entries[i].Motivos})
		}
	}
	return b, nil
}

// Range reads up to cantidad rows of t from fila desde on.
func (s *Service) Range(ctx context.Context, t Table, desde, cantidad int64) (Range, error) {
	s.metrics.Ranges.WithLabelValues(t.kind).Inc()
	r := Range{Torneo: t.torneo, Version: t.version, Filas: []store.Fila{}}
	total, _, err := t.locate(ctx, nil)
	if err != nil {
		return r, err
	}
	r.Total = total
	var filas []int64
	for f := desde; f < desde+cantidad && f <= total; f++ {
		filas = append(filas, f)
	}
	if len(filas) == 0 {
		return r, nil
	}
	rows, err := t.rows(ctx, filas)
	if err != nil {
		return r, err
	}
	r.Filas = append(r.Filas, rows...)
	return r, nil
}

// Pins lists the players the player pinned.
func (s *Service) Pins(ctx context.Context, jugador int64) ([]store.Fijado, error) {
	return s.pins.List(ctx, jugador)
}

// Pin pins another player for the player.
func (s *Service) Pin(ctx context.Context, jugador, fijado int64) error {
	if fijado == jugador {
		return errYoMismo
	}
	err := s.pins.Pin(ctx, jugador, fijado)
	if errors.Is(err, store.ErrNoPlayer) {
		return errNoHay
	}
	if err == nil {
		s.metrics.Pins.WithLabelValues("fijar").Inc()
	}
	return err
}

// Unpin unpins another player for the player (not pinned: nothing changes).
func (s *Service) Unpin(ctx context.Context, jugador, fijado int64) error {
	if err := s.pins.Unpin(ctx, jugador, fijado); err != nil {
		return err
	}
	s.metrics.Pins.WithLabelValues("quitar").Inc()
	return nil
}
