package httpserver

import (
	"net/http"
	"slices"

	"github.com/gin-gonic/gin"
)

// securityHeaderValues go on every answer of the API, errors and gin's own 404/405 included.
// They are the non-CSP headers that nginx adds to the web app (docker/nginx-web.conf) and to the
// API in the local nginx (dev/nginx-routes.sh), with the same values (headers_test.go compares
// them): on Kubernetes the ingress sends /api/ straight to the services and adds none of them,
// so the services must. No Content-Security-Policy: the API answers JSON, and its one HTML page
// (the dev account chooser) sets its own, which a second policy would only narrow.
var securityHeaderValues = map[string]string{
	"X-Content-Type-Options":     "nosniff",
	"Referrer-Policy":            "strict-origin-when-cross-origin",
	"X-Frame-Options":            "DENY",
	"Cross-Origin-Opener-Policy": "same-origin-allow-popups",
	"Permissions-Policy":         "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
}

// defaultCacheControl keeps API answers (personal data, sessions, errors) out of browser and
// proxy caches. A handler that wants caching replaces it with c.Header("Cache-Control", ...).
const defaultCacheControl = "no-store"

// securityHeaders sets the headers before the handler runs, so that they are there however the
// answer is written (c.JSON, c.Data, Fail, a recovered panic) and a handler can still override
// one by setting it again. The names are canonical and the one-value slices are built once and
// shared by every answer: Header.Set would canonicalise and allocate each of them per request,
// and nothing appends to or edits a value in place (Set and Add replace or reallocate a
// full slice).
func securityHeaders() gin.HandlerFunc {
	shared := http.Header{}
	for name, value := range securityHeaderValues {
		shared.Set(name, value)
	}
	shared.Set("Cache-Control", defaultCacheControl)
	for name, values := range shared {
		shared[name] = slices.Clip(values)
	}
	return func(c *gin.Context) {
		h := c.Writer.Header()
		for name, values := range shared {
			h[name] = values
		}
		c.Next()
	}
}
