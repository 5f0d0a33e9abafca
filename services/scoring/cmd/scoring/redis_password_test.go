package main_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"prode/platform/testenv"
	"prode/scoring/internal/scoringtest"
)

// The real scoring binary reaches a Redis that wants a password through REDIS_PASSWORD, given
// apart from REDIS_URL as the chart gives it, with characters the URL would need escaped: the
// standings it serves are cached in that Redis (their version key appears in it).
func TestRedisPasswordApartFromTheURL(t *testing.T) {
	const prefix = "password:"
	rs := testenv.NewRedisServer(t)
	password, rdb := rs.RequirePassword()
	defer rdb.Close()
	l := newLeague(t, 20, 3)
	l.enterResults(l.matches, 0)
	svc := startScoring(t, testenv.Build(t, "."), l, rs.URL(), prefix, "REDIS_PASSWORD="+password)
	l.waitScored(10 * time.Second)

	key := fmt.Sprintf("%sposiciones:t%d:version", prefix, l.count(`SELECT id FROM fixtures.torneos WHERE actual`))
	scoringtest.Eventually(t, 5*time.Second, func() string {
		if differs := pageDiffersFromTotals(t, svc, l); differs != "" {
			return differs
		}
		if n, err := rdb.Exists(context.Background(), key).Result(); err != nil || n == 0 {
			return fmt.Sprintf("no %s in Redis (%v): scoring did not reach it with its password", key, err)
		}
		return ""
	})
}
