package charttest

import (
	"testing"
)

// Every Go service sees the organisers (auth.adminEmails as ADMIN_EMAILS): they are decided on
// each request from it, never from a session, so fixtures' organiser routes need it as much as
// players does; with none configured every service sees it empty.
func TestEveryServiceSeesTheOrganisers(t *testing.T) {
	for _, c := range []struct {
		vs   valueSet
		want string
	}{
		{valueSets[0], ""},
		{valueSet{"two organisers", []string{"--set", "auth.adminEmails={ana@example.org,kim@example.org}"}}, "ana@example.org,kim@example.org"},
	} {
		m := render(t, c.vs)
		for _, name := range goServices {
			w, ok := m.component(t, name)
			if !ok {
				t.Fatalf("%s: no %s", c.vs.name, name)
			}
			got, plain := m.containerEnv(t, w.spec.Containers[0], "ADMIN_EMAILS")
			if !plain || got != c.want {
				t.Errorf("%s: %s sees ADMIN_EMAILS=%q (plain %v), want %q", c.vs.name, name, got, plain, c.want)
			}
		}
	}
}
