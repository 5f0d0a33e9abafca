package grupos

import (
	"slices"
	"testing"

	"prode/platform/events"
	"prode/scoring/internal/store"
)

var granted = store.Acceso{Torneo: 7, Existe: true, Miembro: true, Sesion: true}

// listening is a cache whose connection listens: the only state in which it remembers.
func listening() *AccessCache {
	c := newAccessCache(accessFreshFor)
	c.Listening()
	return c
}

// remembers says whether c answers k from memory.
func remembers(c *AccessCache, k accessKey) bool {
	_, ok := c.get(k)
	return ok
}

// Nothing is remembered before the connection listens, nor after it is lost; listening again
// starts from nothing.
func TestAccessRememberedOnlyWhileListening(t *testing.T) {
	c := newAccessCache(accessFreshFor)
	k := accessKey{grupo: 1, jugador: 2, sesion: "s"}
	c.put(k, granted, c.begin())
	if remembers(c, k) {
		t.Fatal("remembered before listening")
	}
	c.Listening()
	c.put(k, granted, c.begin())
	if !remembers(c, k) {
		t.Fatal("not remembered while listening")
	}
	c.Lost()
	if remembers(c, k) {
		t.Fatal("remembered after the connection was lost")
	}
	c.Listening()
	if remembers(c, k) {
		t.Fatal("remembered across a lost connection")
	}
}

// A read begun before a change was heard is not kept: its answer may predate the change.
func TestAccessReadBeforeAChangeIsNotKept(t *testing.T) {
	c := listening()
	k := accessKey{grupo: 1, jugador: 2, sesion: "s"}
	generation := c.begin()
	c.Notified(events.LeagueChanged(1))
	c.put(k, granted, generation)
	if remembers(c, k) {
		t.Fatal("kept an access read before its league changed")
	}
}

// Each notification forgets what it names and nothing else; a refusal is never remembered.
func TestAccessForgetsWhatIsNotified(t *testing.T) {
	c := listening()
	ana := accessKey{grupo: 1, jugador: 2, sesion: "sesion-ana"}
	beto := accessKey{grupo: 1, jugador: 3, sesion: "sesion-beto"}
	otra := accessKey{grupo: 9, jugador: 3, sesion: "sesion-beto"}
	enOtroTorneo := accessKey{grupo: 5, jugador: 4, sesion: "sesion-caro"}
	fill := func() {
		for _, k := range []accessKey{ana, beto, otra} {
			c.put(k, granted, c.begin())
		}
		other := granted
		other.Torneo = 8
		c.put(enOtroTorneo, other, c.begin())
	}
	remembered := func() (keys []accessKey) {
		for _, k := range []accessKey{ana, beto, otra, enOtroTorneo} {
			if remembers(c, k) {
				keys = append(keys, k)
			}
		}
		return keys
	}
	for _, tc := range []struct {
		payload string
		left    []accessKey
	}{
		{events.SessionEnded("sesion-beto"), []accessKey{ana, enOtroTorneo}},
		{events.LeagueChanged(1), []accessKey{otra, enOtroTorneo}},
		{events.TableChanged(7), []accessKey{enOtroTorneo}},
		{"desconocido", nil},
	} {
		fill()
		c.Notified(tc.payload)
		if got := remembered(); !slices.Equal(got, tc.left) {
			t.Errorf("after %q: %v remembered, want %v", tc.payload, got, tc.left)
		}
	}
	refused := granted
	refused.Miembro = false
	c.put(ana, refused, c.begin())
	if remembers(c, ana) {
		t.Error("a refusal was remembered")
	}
}
