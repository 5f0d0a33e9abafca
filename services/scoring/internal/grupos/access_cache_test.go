package grupos

import (
	"runtime"
	"slices"
	"strconv"
	"testing"
	"time"

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

// A key remembered again under another tournament is forgotten by the new tournament's table,
// not the old one's; an access read after its league changed is remembered.
func TestAccessEndsWhatItNamesAtTheTimeOfTheNotification(t *testing.T) {
	c := listening()
	k := accessKey{grupo: 1, jugador: 2, sesion: "s"}
	c.put(k, granted, c.begin())
	moved := granted
	moved.Torneo = 8
	c.put(k, moved, c.begin())
	c.Notified(events.TableChanged(7))
	if !remembers(c, k) {
		t.Fatal("forgotten by the table of the tournament it no longer names")
	}
	c.Notified(events.TableChanged(8))
	if remembers(c, k) {
		t.Fatal("remembered after its tournament's table changed")
	}
	c.Notified(events.LeagueChanged(1))
	c.put(k, granted, c.begin())
	if !remembers(c, k) {
		t.Fatal("an access read after its league changed is not remembered")
	}
}

// An ending is kept only while an entry kept before it could be fresh, so that the endings of
// a day of sign-outs take no memory; dropping one brings no entry back.
func TestAccessEndingsLastOnlyWhileNeeded(t *testing.T) {
	c := listening()
	clock := time.Date(2026, 6, 11, 12, 0, 0, 0, time.UTC)
	c.now = func() time.Time { return clock }
	k := accessKey{grupo: 1, jugador: 2, sesion: "ana"}
	c.put(k, granted, c.begin())
	clock = clock.Add(time.Second)
	c.Notified(events.SessionEnded("ana"))
	for i := range 1000 {
		c.Notified(events.SessionEnded(strconv.Itoa(i)))
	}
	clock = clock.Add(3 * time.Second)
	if remembers(c, k) {
		t.Fatal("remembered after its session ended")
	}
	clock = clock.Add(accessFreshFor)
	c.Notified(events.SessionEnded("beto"))
	if n, q := len(c.sesiones.at), len(c.sesiones.queue); n != 1 || q != 1 {
		t.Errorf("%d endings (%d queued) kept, want only beto's", n, q)
	}
	if remembers(c, k) {
		t.Fatal("an entry came back once its ending was dropped")
	}
}

// fullAccessCache holds the most entries it may: members of 10,000 leagues, each with a
// session of their own, in two tournaments.
func fullAccessCache() *AccessCache {
	c := listening()
	for i := range maxAccessEntries - 1 {
		a := granted
		a.Torneo = int64(i % 2)
		c.put(accessKey{grupo: int64(i % 10_000), jugador: int64(i), sesion: strconv.Itoa(i)}, a, c.begin())
	}
	return c
}

// What a 'Salir' costs a replica whose cache is full: it must not grow with the entries.
func BenchmarkAccessForgetOneSession(b *testing.B) {
	c := fullAccessCache()
	k := accessKey{grupo: 1, jugador: -1, sesion: "saliente"}
	b.ResetTimer()
	for b.Loop() {
		c.put(k, granted, c.begin())
		c.Notified(events.SessionEnded(k.sesion))
	}
	if len(c.entries) < maxAccessEntries-1 {
		b.Fatalf("%d entries left: not a full cache's figure", len(c.entries))
	}
}

// The memory of a full cache, reported as bytes an entry.
func BenchmarkAccessCacheMemory(b *testing.B) {
	var before, after runtime.MemStats
	for b.Loop() {
		runtime.GC()
		runtime.ReadMemStats(&before)
		c := fullAccessCache()
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/float64(len(c.entries)), "B/entry")
		runtime.KeepAlive(c)
	}
}
