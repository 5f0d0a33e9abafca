// Package config reads a service's settings from the environment once, at start, and collects
// every problem so that a misconfigured pod fails fast with one message naming all of them.
package config

import (
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"time"
)

// Env reads variables and remembers what was wrong and what was read, for one log line.
type Env struct {
	lookup   func(string) (string, bool)
	problems []string
	read     []slog.Attr
}

// FromOS reads the process environment.
func FromOS() *Env { return &Env{lookup: os.LookupEnv} }

// FromMap reads a fixed map (tests).
func FromMap(m map[string]string) *Env {
	return &Env{lookup: func(k string) (string, bool) { v, ok := m[k]; return v, ok }}
}

func (e *Env) value(name, def string) (string, bool) {
	v, ok := e.lookup(name)
	if !ok || strings.TrimSpace(v) == "" {
		return def, false
	}
	return strings.TrimSpace(v), true
}

// String returns the variable or def.
func (e *Env) String(name, def string) string {
	v, _ := e.value(name, def)
	e.read = append(e.read, slog.String(name, v))
	return v
}

// Required returns the variable, recording a problem when it is missing.
func (e *Env) Required(name string) string {
	v, ok := e.value(name, "")
	if !ok {
		e.problems = append(e.problems, name+" is required")
	}
	e.read = append(e.read, slog.String(name, v))
	return v
}

// Secret is like String but never logs the value.
func (e *Env) Secret(name, def string) string {
	v, _ := e.value(name, def)
	e.read = append(e.read, slog.String(name, mask(v)))
	return v
}

// URL is a connection string whose password is masked in the log line.
func (e *Env) URL(name string) string {
	v := e.OptionalURL(name)
	if v == "" {
		e.problems = append(e.problems, name+" is required")
	}
	return v
}

// OptionalURL is URL for a connection the service can do without: "" when unset.
func (e *Env) OptionalURL(name string) string {
	v, _ := e.value(name, "")
	e.read = append(e.read, slog.String(name, maskURL(v)))
	return v
}

// Key decodes a base64 secret of at least minBytes bytes.
func (e *Env) Key(name string, minBytes int) []byte {
	v, ok := e.value(name, "")
	e.read = append(e.read, slog.String(name, mask(v)))
	if !ok {
		e.problems = append(e.problems, name+" is required")
		return nil
	}
	key, err := base64.StdEncoding.DecodeString(v)
	if err != nil {
		key, err = base64.RawURLEncoding.DecodeString(v)
	}
	if err != nil || len(key) < minBytes {
		e.problems = append(e.problems, fmt.Sprintf("%s must be base64 of at least %d bytes", name, minBytes))
		return nil
	}
	return key
}

// Int returns an integer variable within [min, max].
func (e *Env) Int(name string, def, min, max int) int {
	v, ok := e.value(name, "")
	if !ok {
		e.read = append(e.read, slog.Int(name, def))
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < min || n > max {
		e.problems = append(e.problems, fmt.Sprintf("%s must be an integer from %d to %d", name, min, max))
	}
	e.read = append(e.read, slog.Int(name, n))
	return n
}

// Duration returns a duration variable ("5s", "100ms").
func (e *Env) Duration(name string, def time.Duration) time.Duration {
	v, ok := e.value(name, "")
	if !ok {
		e.read = append(e.read, slog.Duration(name, def))
		return def
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		e.problems = append(e.problems, name+" must be a duration such as 5s")
	}
	e.read = append(e.read, slog.Duration(name, d))
	return d
}

// Rate returns a rate such as "5/s", "10/min" or "100/h" as events per second; def is in the
// same form. A plain number is per second.
func (e *Env) Rate(name, def string) float64 {
	v, _ := e.value(name, def)
	e.read = append(e.read, slog.String(name, v))
	r, err := ParseRate(v)
	if err != nil {
		e.problems = append(e.problems, name+" must be a rate such as 5/s or 10/min")
	}
	return r
}

// ParseRate reads "N", "N/s", "N/m", "N/min" or "N/h" as events per second (N > 0).
func ParseRate(v string) (float64, error) {
	num, unit, _ := strings.Cut(strings.TrimSpace(v), "/")
	n, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
	if err != nil || n <= 0 || n > 1e6 {
		return 0, fmt.Errorf("bad rate %q", v)
	}
	switch strings.TrimSpace(unit) {
	case "", "s":
		return n, nil
	case "m", "min":
		return n / 60, nil
	case "h":
		return n / 3600, nil
	}
	return 0, fmt.Errorf("bad rate %q", v)
}

// Bool returns a boolean variable.
func (e *Env) Bool(name string, def bool) bool {
	v, ok := e.value(name, "")
	if !ok {
		e.read = append(e.read, slog.Bool(name, def))
		return def
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		e.problems = append(e.problems, name+" must be true or false")
	}
	e.read = append(e.read, slog.Bool(name, b))
	return b
}

// List splits a comma-separated variable, trimming and dropping empty items.
func (e *Env) List(name string) []string {
	v, _ := e.value(name, "")
	e.read = append(e.read, slog.String(name, v))
	var out []string
	for _, item := range strings.Split(v, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}

// Location loads a time zone by name.
func (e *Env) Location(name, def string) *time.Location {
	v := e.String(name, def)
	loc, err := time.LoadLocation(v)
	if err != nil {
		e.problems = append(e.problems, name+" must be a time zone such as America/Argentina/Buenos_Aires")
		return time.UTC
	}
	return loc
}

// Problem records a problem found by the caller's own checks.
func (e *Env) Problem(format string, args ...any) {
	e.problems = append(e.problems, fmt.Sprintf(format, args...))
}

// Err returns every problem found, or nil.
func (e *Env) Err() error {
	if len(e.problems) == 0 {
		return nil
	}
	return errors.New("configuration: " + strings.Join(e.problems, "; "))
}

// Log writes what was read, secrets masked, in one line.
func (e *Env) Log(log *slog.Logger) {
	args := make([]any, 0, len(e.read))
	for _, a := range e.read {
		args = append(args, a)
	}
	log.Info("configuration", slog.Group("config", args...))
}

func mask(v string) string {
	if v == "" {
		return ""
	}
	return "***"
}

func maskURL(v string) string {
	// postgres://user:password@host/db -> postgres://user:***@host/db
	scheme, rest, ok := strings.Cut(v, "://")
	if !ok {
		return mask(v)
	}
	userinfo, host, ok := strings.Cut(rest, "@")
	if !ok {
		return v
	}
	if user, _, hasPass := strings.Cut(userinfo, ":"); hasPass {
		return scheme + "://" + user + ":***@" + host
	}
	return v
}
