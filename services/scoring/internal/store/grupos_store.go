package store

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"prode/platform/events"
)

// Grupo is a league as its members see it (GET /api/grupos/{id}); Codigo only for its owner.
type Grupo struct {
	ID       int64   `json:"id"`
	Torneo   int64   `json:"torneo"`
	Nombre   string  `json:"nombre"`
	Miembros int64   `json:"miembros"`
	Dueno    Dueno   `json:"dueno"`
	EsDueno  bool    `json:"es_dueno"`
	Codigo   *string `json:"codigo"`
}

// Dueno is the player who created a league.
type Dueno struct {
	ID     int64  `json:"id"`
	Nombre string `json:"nombre"`
}

// GrupoResumen is one of a player's leagues (GET /api/grupos).
type GrupoResumen struct {
	ID         int64  `json:"id"`
	Torneo     int64  `json:"torneo"`
	Nombre     string `json:"nombre"`
	Miembros   int64  `json:"miembros"`
	EsDueno    bool   `json:"es_dueno"`
	MiPosicion *int64 `json:"mi_posicion"`
}

// Invitacion is what an invite link shows before joining (GET /api/grupos/invitacion/{codigo}).
type Invitacion struct {
	ID       int64           `json:"id"`
	Nombre   string          `json:"nombre"`
	Torneo   int64           `json:"torneo"`
	Miembros int64           `json:"miembros"`
	Dueno    InvitacionDueno `json:"dueno"`
}

// InvitacionDueno names a league's owner to someone who is not a member yet.
type InvitacionDueno struct {
	Nombre string `json:"nombre"`
}

// Miembro is one member of a league.
type Miembro struct {
	ID     int64     `json:"id"`
	Nombre string    `json:"nombre"`
	Desde  time.Time `json:"desde"`
}

// Acceso is what a request for a league's table needs to know of it: whether it exists and the
// asker is a member, and what its table is read at.
type Acceso struct {
	Torneo   int64
	Actual   bool  // the current tournament: members not in the snapshot follow with no points
	Version  int64 // the league's membership version
	Tabla    int64 // the tournament's newest standings snapshot (0: none yet)
	Miembro  bool
	Existe   bool
	Sesion   bool // the asking session is open (players.sesiones_vigentes)
	EsDueno  bool
	Miembros int64
}

var (
	// ErrNoGrupo: no league has that id.
	ErrNoGrupo = errors.New("league not found")
	// ErrNotOwner: the player did not create the league.
	ErrNotOwner = errors.New("not the league's owner")
	// ErrNotMember: the player is not in the league.
	ErrNotMember = errors.New("not a member of the league")
	// ErrNoInvitacion: no league has that code (unknown, or revoked).
	ErrNoInvitacion = errors.New("invite code not valid")
	// ErrGrupoLleno: the league has its maximum of members.
	ErrGrupoLleno = errors.New("league full")
	// ErrDemasiadosGrupos: the player is in their maximum of leagues.
	ErrDemasiadosGrupos = errors.New("player in too many leagues")
	// ErrNoSuchMember: the player to remove is not in the league.
	ErrNoSuchMember = errors.New("no such member in the league")
	// ErrOwnerLeaves: the owner cannot leave their own league (they can delete it).
	ErrOwnerLeaves = errors.New("the owner cannot leave")
	// ErrCodigoRepetido: a new code collided with an existing one (the caller draws another).
	ErrCodigoRepetido = errors.New("invite code already in use")
)

// Limites are the configured maximums, enforced in the write transactions.
type Limites struct {
	PorJugador int64 // leagues a player can be in
	Miembros   int64 // members a league can have
}

// GruposStore keeps the leagues and their members (scoring.grupos, scoring.grupo_miembros).
// A league's table looks its members up in the tournament's snapshot, read through standings.
type GruposStore struct {
	pool      *pgxpool.Pool
	standings *StandingsStore
}

// NewGruposStore wraps a pool connected as prode_scoring.
func NewGruposStore(pool *pgxpool.Pool, standings *StandingsStore) *GruposStore {
	return &GruposStore{pool: pool, standings: standings}
}

// lockPlayer serialises the transactions that add a player to a league: the count of their
// leagues and the insert that may make it one more are never interleaved with another's.
func lockPlayer(ctx context.Context, tx pgx.Tx, jugador int64) error {
	return lockKeys(ctx, tx, "scoring.grupos.jugador", jugador)
}

// checkPlayerRoom refuses a player already in the maximum of leagues (after lockPlayer).
func checkPlayerRoom(ctx context.Context, tx pgx.Tx, jugador, max int64) error {
	var n int64
	if err := tx.QueryRow(ctx, `SELECT count(*) FROM scoring.grupo_miembros WHERE jugador_id = $1`, jugador).Scan(&n); err != nil {
		return err
	}
	if n >= max {
		return ErrDemasiadosGrupos
	}
	return nil
}

// Create makes a league with the player as its owner and first member, unless they are in
// the maximum of leagues already.
func (s *GruposStore) Create(ctx context.Context, torneo int64, nombre string, dueno int64, codigo string, lim Limites) (int64, error) {
	var id int64
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if err := lockPlayer(ctx, tx, dueno); err != nil {
			return err
		}
		if err := checkPlayerRoom(ctx, tx, dueno, lim.PorJugador); err != nil {
			return err
		}
		err := tx.QueryRow(ctx, `
			INSERT INTO scoring.grupos (torneo_id, nombre, dueno_id, codigo, miembros)
			VALUES ($1, $2, $3, $4, 1) RETURNING id`, torneo, nombre, dueno, codigo).Scan(&id)
		if err != nil {
			return codeCollision(err)
		}
		_, err = tx.Exec(ctx, `INSERT INTO scoring.grupo_miembros (grupo_id, jugador_id) VALUES ($1, $2)`, id, dueno)
		return err
	})
	return id, err
}

// codeCollision turns a unique violation of the invite code into ErrCodigoRepetido.
func codeCollision(err error) error {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23505" {
		return ErrCodigoRepetido
	}
	return err
}

// Join adds the player to the league whose code is codigo. Already a member: nothing changes
// and joined is false. The player's lock and the league's row lock make the two counts and the
// insert one step, so concurrent joins never pass either maximum.
func (s *GruposStore) Join(ctx context.Context, codigo string, jugador int64, lim Limites) (id int64, joined bool, err error) {
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if err := lockPlayer(ctx, tx, jugador); err != nil {
			return err
		}
		var miembros int64
		err := tx.QueryRow(ctx, `SELECT id, miembros FROM scoring.grupos WHERE codigo = $1 FOR UPDATE`, codigo).Scan(&id, &miembros)
		if errors.Is(err, pgx.ErrNoRows) {
			return ErrNoInvitacion
		}
		if err != nil {
			return err
		}
		var already bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT FROM scoring.grupo_miembros WHERE grupo_id = $1 AND jugador_id = $2)`,
			id, jugador).Scan(&already); err != nil || already {
			return err
		}
		if err := checkPlayerRoom(ctx, tx, jugador, lim.PorJugador); err != nil {
			return err
		}
		if miembros >= lim.Miembros {
			return ErrGrupoLleno
		}
		if _, err := tx.Exec(ctx, `INSERT INTO scoring.grupo_miembros (grupo_id, jugador_id) VALUES ($1, $2)`, id, jugador); err != nil {
			return err
		}
		joined = true
		_, err = tx.Exec(ctx, `UPDATE scoring.grupos SET miembros = miembros + 1, version = version + 1 WHERE id = $1`, id)
		if err != nil {
			return err
		}
		return notifyAccess(ctx, tx, events.LeagueChanged(id))
	})
	return id, joined, err
}

// Get reads a league as the player sees it; ErrNoGrupo when it does not exist, ErrNotMember
// when the player is not in it.
func (s *GruposStore) Get(ctx context.Context, id, jugador int64) (Grupo, error) {
	var g Grupo
	var miembro bool
	err := s.pool.QueryRow(ctx, `
		SELECT g.id, g.torneo_id, g.nombre, g.miembros, g.dueno_id, coalesce(j.nombre, ''), g.codigo,
		       EXISTS (SELECT FROM scoring.grupo_miembros m WHERE m.grupo_id = g.id AND m.jugador_id = $2)
		  FROM scoring.grupos g
		  LEFT JOIN players.jugadores_publicados j ON j.id = g.dueno_id
		 WHERE g.id = $1`, id, jugador).
		Scan(&g.ID, &g.Torneo, &g.Nombre, &g.Miembros, &g.Dueno.ID, &g.Dueno.Nombre, &g.Codigo, &miembro)
	if errors.Is(err, pgx.ErrNoRows) {
		return g, ErrNoGrupo
	}
	if err != nil {
		return g, err
	}
	if !miembro {
		return g, ErrNotMember
	}
	g.EsDueno = g.Dueno.ID == jugador
	if !g.EsDueno {
		g.Codigo = nil // the invite code is the owner's to share
	}
	return g, nil
}

// owned runs change on a league after locking its row, when the player owns it.
func (s *GruposStore) owned(ctx context.Context, id, jugador int64, change func(pgx.Tx) error) error {
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var dueno int64
		err := tx.QueryRow(ctx, `SELECT dueno_id FROM scoring.grupos WHERE id = $1 FOR UPDATE`, id).Scan(&dueno)
		if errors.Is(err, pgx.ErrNoRows) {
			return ErrNoGrupo
		}
		if err != nil {
			return err
		}
		if dueno != jugador {
			return ErrNotOwner
		}
		return change(tx)
	})
}

// Rename renames the player's league.
func (s *GruposStore) Rename(ctx context.Context, id, jugador int64, nombre string) error {
	return s.owned(ctx, id, jugador, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `UPDATE scoring.grupos SET nombre = $2 WHERE id = $1`, id, nombre)
		return err
	})
}

// Delete deletes the player's league and its membership.
func (s *GruposStore) Delete(ctx context.Context, id, jugador int64) error {
	return s.owned(ctx, id, jugador, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `DELETE FROM scoring.grupos WHERE id = $1`, id); err != nil {
			return err
		}
		return notifyAccess(ctx, tx, events.LeagueChanged(id))
	})
}

// SetCode gives the player's league a new invite code (nil: revokes it); the old one stops
// working in the same statement.
func (s *GruposStore) SetCode(ctx context.Context, id, jugador int64, codigo *string) error {
	return s.owned(ctx, id, jugador, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `UPDATE scoring.grupos SET codigo = $2 WHERE id = $1`, id, codigo)
		return codeCollision(err)
	})
}

// Remove takes jugador out of the league, asked by actor: the owner removes anyone but
// themselves; a member removes themselves (leaves). ErrNoSuchMember when jugador is not in it.
func (s *GruposStore) Remove(ctx context.Context, id, actor, jugador int64) error {
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var dueno int64
		var actorMiembro bool
		err := tx.QueryRow(ctx, `
			SELECT dueno_id, EXISTS (SELECT FROM scoring.grupo_miembros WHERE grupo_id = $1 AND jugador_id = $2)
			  FROM scoring.grupos WHERE id = $1 FOR UPDATE`, id, actor).Scan(&dueno, &actorMiembro)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			return ErrNoGrupo
		case err != nil:
			return err
		case !actorMiembro:
			return ErrNotMember
		case jugador == dueno && actor == dueno:
			return ErrOwnerLeaves
		case actor != jugador && actor != dueno:
			return ErrNotOwner
		}
		tag, err := tx.Exec(ctx, `DELETE FROM scoring.grupo_miembros WHERE grupo_id = $1 AND jugador_id = $2`, id, jugador)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return ErrNoSuchMember
		}
		_, err = tx.Exec(ctx, `UPDATE scoring.grupos SET miembros = miembros - 1, version = version + 1 WHERE id = $1`, id)
		if err != nil {
			return err
		}
		return notifyAccess(ctx, tx, events.LeagueChanged(id))
	})
}

// notifyAccess tells every scoring replica, when tx commits, that what a league's readers may
// read changed (events.AccessChannel): they forget the access they remember (grupos).
func notifyAccess(ctx context.Context, tx pgx.Tx, payload string) error {
	_, err := tx.Exec(ctx, `SELECT pg_notify($1, $2)`, events.AccessChannel, payload)
	return err
}

// Invitation reads what an invite code leads to; ErrNoInvitacion when no league has it.
func (s *GruposStore) Invitation(ctx context.Context, codigo string) (Invitacion, error) {
	var i Invitacion
	err := s.pool.QueryRow(ctx, `
		SELECT g.id, g.nombre, g.torneo_id, g.miembros, coalesce(j.nombre, '')
		  FROM scoring.grupos g
		  LEFT JOIN players.jugadores_publicados j ON j.id = g.dueno_id
		 WHERE g.codigo = $1`, codigo).Scan(&i.ID, &i.Nombre, &i.Torneo, &i.Miembros, &i.Dueno.Nombre)
	if errors.Is(err, pgx.ErrNoRows) {
		return i, ErrNoInvitacion
	}
	return i, err
}

// Members reads one page of a league's members, in the order they joined.
func (s *GruposStore) Members(ctx context.Context, id int64, pagina, porPagina int) ([]Miembro, error) {
	rows, err := s.pool.Query(ctx, `
		SELECT m.jugador_id, j.nombre, m.desde
		  FROM scoring.grupo_miembros m
		  JOIN players.jugadores_publicados j ON j.id = m.jugador_id
		 WHERE m.grupo_id = $1
		 ORDER BY m.desde, m.jugador_id
		 LIMIT $2 OFFSET $3`, id, porPagina, int64(pagina-1)*int64(porPagina))
	if err != nil {
		return nil, err
	}
	return pgx.AppendRows(make([]Miembro, 0), rows, pgx.RowToStructByPos[Miembro])
}

// Access reads, in one round trip, whether the asking session is still open, whether the
// league exists, whether the player is in it and what its table is read at (the tournament's
// newest snapshot and the league's version). The session is checked here rather than by its
// own query before (session.Verifier.Required): the league's reads are the busiest of its
// routes, and one round trip instead of two was most of their cost. A granted access is then
// remembered for a few seconds by the replica (grupos.AccessCache), until a notification says
// what could end it.
func (s *GruposStore) Access(ctx context.Context, id, jugador int64, sesion string) (Acceso, error) {
	var a Acceso
	var dueno int64
	err := s.pool.QueryRow(ctx, `
		SELECT EXISTS (SELECT FROM players.sesiones_vigentes WHERE id = $3),
		       g.id IS NOT NULL, coalesce(g.torneo_id, 0), coalesce(t.actual, false), coalesce(g.version, 0),
		       coalesce(g.dueno_id, 0), coalesce(g.miembros, 0),
		       coalesce((SELECT max(id) FROM scoring.tablas_compactas WHERE torneo_id = g.torneo_id), 0),
		       EXISTS (SELECT FROM scoring.grupo_miembros m WHERE m.grupo_id = g.id AND m.jugador_id = $2)
		  FROM (VALUES (1)) AS asked
		  LEFT JOIN scoring.grupos g ON g.id = $1
		  LEFT JOIN fixtures.torneos_publicados t ON t.id = g.torneo_id`, id, jugador, sesion).
		Scan(&a.Sesion, &a.Existe, &a.Torneo, &a.Actual, &a.Version, &dueno, &a.Miembros, &a.Tabla, &a.Miembro)
	a.EsDueno = a.Existe && dueno == jugador
	return a, err
}

// Mine lists the player's leagues in a tournament, by name, with their rank in each: the rank
// in the league's table of the tournament's newest snapshot. It is null when the player is not
// in that table (a past tournament they did not play). Each rank counts the league's members
// with more points, looked up in the snapshot: bounded by the leagues' sizes, never a pass over
// the whole table.
func (s *GruposStore) Mine(ctx context.Context, jugador, torneo int64) ([]GrupoResumen, error) {
	var tabla int64
	var actual bool
	if err := s.pool.QueryRow(ctx, `
		SELECT coalesce((SELECT max(id) FROM scoring.tablas_compactas WHERE torneo_id = $1), 0),
		       coalesce((SELECT actual FROM fixtures.torneos_publicados WHERE id = $1), false)`, torneo).
		Scan(&tabla, &actual); err != nil {
		return nil, err
	}
	table, err := s.standings.table(ctx, tabla)
	if err != nil {
		return nil, err
	}
	rows, err := s.pool.Query(ctx, `
		SELECT g.id, g.torneo_id, g.nombre, g.miembros, g.dueno_id = $1,
		       (SELECT array_agg(o.jugador_id) FROM scoring.grupo_miembros o WHERE o.grupo_id = g.id)
		  FROM scoring.grupo_miembros m
		  JOIN scoring.grupos g ON g.id = m.grupo_id
		 WHERE m.jugador_id = $1 AND g.torneo_id = $2
		 ORDER BY g.nombre, g.id`, jugador, torneo)
	if err != nil {
		return nil, err
	}
	puntaje := func(id int64) (int32, bool) {
		fila, ok := table.Find(id)
		if !ok {
			return 0, false
		}
		return table.Row(fila).Puntaje, true
	}
	mio, enTabla := puntaje(jugador)
	enTabla = enTabla || actual
	return pgx.AppendRows(make([]GrupoResumen, 0), rows, func(row pgx.CollectableRow) (GrupoResumen, error) {
		var g GrupoResumen
		var miembros []int64
		if err := row.Scan(&g.ID, &g.Torneo, &g.Nombre, &g.Miembros, &g.EsDueno, &miembros); err != nil || !enTabla {
			return g, err
		}
		posicion := int64(1)
		for _, m := range miembros {
			if p, ok := puntaje(m); ok && p > mio {
				posicion++
			}
		}
		g.MiPosicion = &posicion
		return g, nil
	})
}

// LeagueRows reads a league's whole table at snapshot a.Tabla, in the league's display order,
// each row with its fila (from 1): a page is a slice of it, the board picks its rows from it. Members are looked up in the snapshot (the cost follows the
// league's size, not the tournament's). The rank is the main table's rule within the league
// (competition ranking by points); the order is the main table's (its fila); members not in the
// snapshot (registered since, in the current tournament) follow with no points, in the order
// they registered, at the rank of the members without points. posicion_anterior is the rank
// within the league by the main table's previous rank, which orders the members by their
// points before the last matchday.
func (s *GruposStore) LeagueRows(ctx context.Context, id int64, a Acceso) ([]Fila, error) {
	table, err := s.standings.table(ctx, a.Tabla)
	if err != nil {
		return nil, err
	}
	rows, err := s.pool.Query(ctx, `
		SELECT m.jugador_id, j.nombre
		  FROM scoring.grupo_miembros m
		  JOIN players.jugadores_publicados j ON j.id = m.jugador_id
		 WHERE m.grupo_id = $1`, id)
	if err != nil {
		return nil, err
	}
	type miembro struct {
		Fila
		enTabla  int64 // the fila in the snapshot, 0: none
		anterior int32 // the main table's previous rank, 0: none
	}
	var miembros []miembro
	var jugador int64
	var nombre string
	if _, err := pgx.ForEachRow(rows, []any{&jugador, &nombre}, func() error {
		m := miembro{Fila: Fila{Posicion: Posicion{ID: jugador, Nombre: nombre}}}
		if fila, ok := table.Find(jugador); ok {
			r := table.Row(fila)
			m.Posicion = posicionOf(r, nombre)
			m.enTabla, m.anterior = fila, r.Anterior
		} else if !a.Actual {
			return nil
		}
		miembros = append(miembros, m)
		return nil
	}); err != nil {
		return nil, err
	}
	slices.SortFunc(miembros, func(x, y miembro) int {
		if (x.enTabla == 0) != (y.enTabla == 0) {
			return cmp.Compare(y.enTabla, x.enTabla) // the snapshot's rows first
		}
		return cmp.Or(cmp.Compare(x.enTabla, y.enTabla), cmp.Compare(x.ID, y.ID))
	})
	byPuntaje := make([]int64, len(miembros))
	var previous []int32
	for i, m := range miembros {
		byPuntaje[i] = -m.Puntaje
		if m.anterior != 0 {
			previous = append(previous, m.anterior)
		}
	}
	slices.Sort(byPuntaje)
	slices.Sort(previous)
	out := make([]Fila, len(miembros))
	for i, m := range miembros {
		above, _ := slices.BinarySearch(byPuntaje, -m.Puntaje)
		m.Posicion.Posicion = int64(above) + 1
		m.PosicionAnterior = nil
		if m.anterior != 0 {
			before, _ := slices.BinarySearch(previous, m.anterior)
			anterior := int64(before) + 1
			m.PosicionAnterior = &anterior
		}
		m.Fila.Fila = int64(i) + 1
		out[i] = m.Fila
	}
	return out, nil
}

// TablePage reads one page of a league's table at snapshot a.Tabla (0: none yet, every member
// without points) as Posiciones: version is the snapshot, as in the main table.
func (s *GruposStore) TablePage(ctx context.Context, id int64, a Acceso, pagina, porPagina int) (Pagina, error) {
	p := Pagina{Torneo: a.Torneo, Version: a.Tabla, Pagina: pagina, PorPagina: porPagina, Posiciones: []Posicion{}}
	filas, err := s.LeagueRows(ctx, id, a)
	if err != nil {
		return p, err
	}
	p.Total = int64(len(filas))
	desde := min(int64(pagina-1)*int64(porPagina), p.Total)
	for _, f := range filas[desde:min(desde+int64(porPagina), p.Total)] {
		p.Posiciones = append(p.Posiciones, f.Posicion)
	}
	return p, nil
}
