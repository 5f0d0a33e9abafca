package cache_test

import (
	"context"
	"strings"
	"testing"

	"prode/platform/cache"
	"prode/platform/testenv"
)

// A Redis that wants a password (the chart's requirepass) is reached with REDIS_PASSWORD given
// apart from the URL, whatever characters it holds: in the URL's user part "@", ":" and "/"
// would have to be escaped, and an operator's own password may hold any of them.
func TestConnectWithAPasswordApartFromTheURL(t *testing.T) {
	server := testenv.NewRedisServer(t)
	password, admin := server.RequirePassword()
	defer admin.Close()
	for _, tc := range []struct {
		name, password, refusal string
	}{
		{"the password", password, ""},
		{"no password", "", "NOAUTH"},
		{"another password", password + "2", "WRONGPASS"},
	} {
		rdb, err := cache.Connect(server.URL(), tc.password)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		err = rdb.Set(context.Background(), "prode:test", "1", 0).Err()
		_ = rdb.Close()
		switch {
		case tc.refusal == "" && err != nil:
			t.Errorf("%s: SET answered %v", tc.name, err)
		case tc.refusal != "" && (err == nil || !strings.Contains(err.Error(), tc.refusal)):
			t.Errorf("%s: SET answered %v, want %s", tc.name, err, tc.refusal)
		}
	}
}
