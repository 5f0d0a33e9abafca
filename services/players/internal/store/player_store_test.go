package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"prode/platform/events"
	"prode/platform/testenv"
	"prode/players/internal/store"
)

// MarkDevCodeUsed on the real table, as the service's role: a nonce is taken once; rows expired
// for more than ten minutes go as later codes come in, the recent ones stay (a replica with a
// slow clock may still take their codes).
func TestMarkDevCodeUsed(t *testing.T) {
	ctx := context.Background()
	db := testenv.NewDB(t)
	st := store.New(db.Pool(t, "players"))
	vence := time.Now().Add(2 * time.Minute)

	for i, want := range []bool{true, false, false} {
		fresh, err := st.MarkDevCodeUsed(ctx, "00112233445566778899aabbccddeeff", vence)
		if err != nil || fresh != want {
			t.Fatalf("mark %d: %v, %v; want %v", i+1, fresh, err, want)
		}
	}
	if fresh, err := st.MarkDevCodeUsed(ctx, "ffeeddccbbaa99887766554433221100", vence); err != nil || !fresh {
		t.Fatalf("another nonce: %v, %v", fresh, err)
	}

	admin := db.AdminPool(t)
	_, err := admin.Exec(ctx, `
		INSERT INTO players.codigos_dev_usados (nonce, vence)
		SELECT 'viejo-' || i, now() - interval '1 hour' FROM generate_series(1, 150) i
		UNION ALL SELECT 'reciente', now() - interval '5 minutes'`)
	if err != nil {
		t.Fatal(err)
	}
	count := func(where string) int {
		var n int
		if err := admin.QueryRow(ctx, `SELECT count(*) FROM players.codigos_dev_usados WHERE `+where).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	// Each insert deletes at most 100 expired rows: two clear the 150.
	for i, nonce := range []string{"aa", "bb"} {
		if fresh, err := st.MarkDevCodeUsed(ctx, nonce, vence); err != nil || !fresh {
			t.Fatalf("insert %s: %v, %v", nonce, fresh, err)
		}
		if got, want := count(`nonce LIKE 'viejo-%'`), []int{50, 0}[i]; got != want {
			t.Fatalf("after insert %d: %d old rows left, want %d", i+1, got, want)
		}
	}
	if count(`nonce = 'reciente'`) != 1 || count(`vence > now()`) != 4 {
		t.Fatal("a row within the margin, or an unexpired one, was deleted")
	}
	// A nonce whose row was deleted is no longer known; its code expired more than ten minutes
	// ago, so the exchange refuses it before asking.
	if fresh, err := st.MarkDevCodeUsed(ctx, "viejo-1", vence); err != nil || !fresh {
		t.Fatalf("a deleted nonce: %v, %v", fresh, err)
	}
}

// EndSession tells scoring's replicas, on events.AccessChannel, that the session ended: once,
// with its id, when it commits; ending it again says nothing more.
func TestEndSessionNotifiesTheAccessChannel(t *testing.T) {
	ctx := context.Background()
	db := testenv.NewDB(t)
	st := store.New(db.Pool(t, "players"))
	const sesion = "6f1c2f4e-8d7b-4a55-9f0e-2b7c1d3e4f50"
	if _, err := st.SignIn(ctx, "sub-ana", "ana@example.org", "Ana", sesion, time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	listener, err := pgx.Connect(ctx, db.URL("scoring"))
	if err != nil {
		t.Fatal(err)
	}
	defer listener.Close(ctx)
	if _, err := listener.Exec(ctx, "LISTEN "+pgx.Identifier{events.AccessChannel}.Sanitize()); err != nil {
		t.Fatal(err)
	}

	for range 2 {
		if err := st.EndSession(ctx, sesion); err != nil {
			t.Fatal(err)
		}
	}
	wait, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	n, err := listener.WaitForNotification(wait)
	if err != nil || n.Payload != events.SessionEnded(sesion) {
		t.Fatalf("notification %+v, %v; want %q", n, err, events.SessionEnded(sesion))
	}
	wait, cancel = context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	if n, err := listener.WaitForNotification(wait); err == nil {
		t.Fatalf("a second notification for a session already ended: %q", n.Payload)
	}
}
