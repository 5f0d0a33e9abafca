package store

import (
	"context"
	"errors"
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
