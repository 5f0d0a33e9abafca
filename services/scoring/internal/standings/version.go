package standings

import (
	"fmt"
	"strconv"
	"strings"

	"prode/scoring/internal/store"
)

// Version names one state of a tournament's table: its snapshot (the standings version that
// results move) and the last player registered after it (which sign-ups move). Cached pages
// are keyed by it, so every page served at one version belongs to one table.
type Version struct {
	Tabla     int64
	Jugadores int64
}

func versionOf(v store.Version) Version { return Version{Tabla: v.ID, Jugadores: v.Jugadores} }

// newer orders versions: a later snapshot first, then more players.
func (v Version) newer(o Version) bool {
	return v.Tabla > o.Tabla || (v.Tabla == o.Tabla && v.Jugadores > o.Jugadores)
}

// String is the version as Redis keys hold it: "<tabla>.<jugadores>".
func (v Version) String() string { return fmt.Sprintf("%d.%d", v.Tabla, v.Jugadores) }

func parseVersion(s string) (Version, error) {
	a, b, ok := strings.Cut(s, ".")
	if !ok {
		return Version{}, fmt.Errorf("standings version %q: not <tabla>.<jugadores>", s)
	}
	tabla, err := strconv.ParseInt(a, 10, 64)
	if err != nil {
		return Version{}, fmt.Errorf("standings version %q: %w", s, err)
	}
	jugadores, err := strconv.ParseInt(b, 10, 64)
	if err != nil {
		return Version{}, fmt.Errorf("standings version %q: %w", s, err)
	}
	return Version{Tabla: tabla, Jugadores: jugadores}, nil
}
