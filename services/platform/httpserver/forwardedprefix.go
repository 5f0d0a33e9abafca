package httpserver

import "net/http"

// withoutForwardedPrefix drops X-Forwarded-Prefix before gin sees the request. gin writes the
// header's path in front of the Location of its trailing-slash redirect (GET /api/partidos/3/
// with "X-Forwarded-Prefix: /otro" is sent to /otro/api/partidos/3), so whoever sends a
// request chooses where it redirects, and a cache in front could keep that answer for
// everyone. gin redirects while routing, before any middleware runs: hence a wrapper around
// the engine. The game is served at the root of its host, so no proxy has a prefix to tell us.
func withoutForwardedPrefix(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, ok := r.Header["X-Forwarded-Prefix"]; ok {
			r.Header.Del("X-Forwarded-Prefix")
		}
		next.ServeHTTP(w, r)
	})
}
