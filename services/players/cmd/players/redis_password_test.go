package main_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"prode/platform/testenv"
)

// The real players binary reaches a Redis that wants a password through REDIS_PASSWORD, given
// apart from REDIS_URL as the chart gives it, with characters the URL would need escaped: a
// player's rename is counted in that Redis's shared bucket, not by the replica alone.
func TestRedisPasswordApartFromTheURL(t *testing.T) {
	const prefix = "password:"
	rs := testenv.NewRedisServer(t)
	password, rdb := rs.RequirePassword()
	defer rdb.Close()
	db := testenv.NewDB(t)
	player := testenv.SignInPlayers(t, db, 1)[0]
	svc := startPlayers(t, db, "REDIS_URL="+rs.URL(), "REDIS_PASSWORD="+password, "REDIS_PREFIX="+prefix)

	body, _ := json.Marshal(map[string]string{"nombre": "Con contraseña", "email": player.Email})
	req, _ := http.NewRequest(http.MethodPost, svc.URL("/api/jugadores"), bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.AddCookie(player.Cookie)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("rename: %d, want 200", res.StatusCode)
	}
	pattern := "rate:" + prefix + "limit:players:renames:*"
	if keys, err := rdb.Keys(context.Background(), pattern).Result(); err != nil || len(keys) != 1 {
		t.Errorf("keys %s in Redis: %v (%v), want the player's bucket: players did not reach Redis with its password", pattern, keys, err)
	}
}

// A password without a Redis to give it to is a mistake, not a choice of per-replica limits:
// players refuses to start, says why, and does not log the password.
func TestRedisPasswordWithoutAURLIsRefused(t *testing.T) {
	const password = "s3creto-sin-redis"
	logs := testenv.Refused(t, testenv.Build(t, "."),
		"DATABASE_URL=postgres://prode@127.0.0.1:1/prode", "DEV_LOGIN=true", "REDIS_URL=", "REDIS_PASSWORD="+password)
	if !strings.Contains(logs, "REDIS_PASSWORD is set without REDIS_URL") {
		t.Errorf("players' output does not say why it stopped:\n%s", logs)
	}
	if strings.Contains(logs, password) {
		t.Errorf("the password is in players' output:\n%s", logs)
	}
}
