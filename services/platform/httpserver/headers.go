package httpserver

import "github.com/gin-gonic/gin"

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
// one by setting it again.
func securityHeaders() gin.HandlerFunc {
	return func(c *gin.Context) {
		h := c.Writer.Header()
		for name, value := range securityHeaderValues {
			h.Set(name, value)
		}
		h.Set("Cache-Control", defaultCacheControl)
		c.Next()
	}
}
