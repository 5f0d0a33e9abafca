package main_test

import (
	"testing"

	"prode/platform/testenv"
)

// startPlayers builds the real binary and starts it on db with the dev sign-in (the scenarios
// need no Google) and env (KEY=value) besides.
func startPlayers(t testing.TB, db *testenv.DB, env ...string) *testenv.Binary {
	t.Helper()
	return testenv.Start(t, testenv.Build(t, "."), append([]string{"DATABASE_URL=" + db.URL("players"), "DEV_LOGIN=true"}, env...)...)
}
