package store

import (
	"cmp"
	"context"
	"errors"
	"slices"

	"github.com/jackc/pgx/v5"
)

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
// each row with its fila (from 1): a page is a slice of it, the board picks its rows from it.
// Members are looked up in the snapshot (the cost follows the league's size, not the
// tournament's). The rank is the main table's rule within the league (competition ranking by
// points); the order is the main table's (its fila); members not in the snapshot (registered
// since, in the current tournament) follow with no points, in the order they registered, at the
// rank of the members without points. posicion_anterior is the rank within the league by the
// main table's previous rank, which orders the members by their points before the last
// matchday.
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
