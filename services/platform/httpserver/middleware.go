package httpserver

import (
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"prode/platform/apierror"
	"prode/platform/metrics"
)

const (
	requestIDHeader = "X-Request-Id"
	requestKey      = "prode.request"
)

// request is what the middleware knows of a request, kept under one key of the gin context:
// one map entry per request, and the logger and client address worked out only when asked
// for (most requests log nothing and never ask where they came from).
type request struct {
	id               string
	baseLog          *slog.Logger
	log              *slog.Logger // baseLog with the request id, made on first use
	trustedProxyHops int
	clientAddress    string // made on first use
}

func requestOf(c *gin.Context) *request {
	if r, ok := c.Get(requestKey); ok {
		return r.(*request)
	}
	return nil
}

// RequestID returns the request's id (from the ingress when it sent one, else ours).
func RequestID(c *gin.Context) string {
	if r := requestOf(c); r != nil {
		return r.id
	}
	return ""
}

// Logger returns the request's logger, which carries the request id.
func Logger(c *gin.Context) *slog.Logger {
	r := requestOf(c)
	if r == nil {
		return slog.Default()
	}
	if r.log == nil {
		r.log = r.baseLog.With(slog.String("request_id", r.id))
	}
	return r.log
}

func newRequestID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// validRequestID accepts ids an ingress would send and nothing that could forge log lines.
func validRequestID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, r := range id {
		if !requestIDRune(r) {
			return false
		}
	}
	return true
}

// requestIDRune: letters and digits of ASCII, '-', '_' and '.'.
func requestIDRune(r rune) bool {
	return r == '-' || r == '_' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
}

// observe gives every request an id and a logger, recovers panics into a JSON 500, and
// records the access log line and the HTTP metrics by route template (never the raw path,
// which may hold an e-mail; never headers, which hold the session cookie). The log line is at
// Info for an error answer (4xx, 5xx: its request id is in the body) or a slow one, at Debug
// otherwise: the ingress logs every request already, and one JSON line and one write per
// successful read cost a rush of standings about a tenth of its throughput (docs/benchmarks.md).
// slowRequest: a successful request that took this long is logged at Info.
const slowRequest = time.Second

func observe(log *slog.Logger, m *metrics.HTTP, trustedProxyHops int) gin.HandlerFunc {
	return func(c *gin.Context) {
		start := time.Now()
		id := c.GetHeader(requestIDHeader)
		if !validRequestID(id) {
			id = newRequestID()
		}
		c.Set(requestKey, &request{id: id, baseLog: log, trustedProxyHops: trustedProxyHops})
		c.Writer.Header()[requestIDHeader] = []string{id} // canonical already: no Set
		m.InFlight.Inc()
		defer m.InFlight.Dec()

		func() {
			defer func() {
				if p := recover(); p != nil {
					Logger(c).Error("panic", slog.Any("panic", p))
					Fail(c, apierror.ErrInternal)
				}
			}()
			c.Next()
		}()

		route := c.FullPath()
		if route == "" {
			route = "unmatched"
		}
		status := strconv.Itoa(c.Writer.Status())
		elapsed := time.Since(start)
		m.Requests.WithLabelValues(route, c.Request.Method, status).Inc()
		m.Duration.WithLabelValues(route, c.Request.Method, status).Observe(elapsed.Seconds())
		level := slog.LevelDebug
		if c.Writer.Status() >= 400 || elapsed >= slowRequest {
			level = slog.LevelInfo
		}
		if !log.Enabled(c.Request.Context(), level) {
			return
		}
		Logger(c).Log(c.Request.Context(), level, "request",
			slog.String("method", c.Request.Method), slog.String("route", route),
			slog.Int("status", c.Writer.Status()), slog.Duration("duration", elapsed))
	}
}

// sameOrigin refuses unsafe methods that a cross-site page could send: a browser always
// sends Origin on them, so an Origin that is not the game's is refused, and so is
// Sec-Fetch-Site: cross-site. Programs (tests, curl) send neither. The game's origin is
// PUBLIC_ORIGIN (scheme, host and port, exactly) when it is set, as it is wherever the game is
// deployed; only without it (a bare service in a test) does an Origin naming the request's own
// Host pass, because Host is the client's to choose and says nothing of the scheme.
func sameOrigin(allowed []string) gin.HandlerFunc {
	allow := map[string]bool{}
	for _, o := range allowed {
		allow[strings.TrimRight(o, "/")] = true
	}
	return func(c *gin.Context) {
		switch c.Request.Method {
		case http.MethodGet, http.MethodHead, http.MethodOptions:
			c.Next()
			return
		}
		if c.GetHeader("Sec-Fetch-Site") == "cross-site" {
			Fail(c, apierror.ErrCrossSite)
			return
		}
		if origin := c.GetHeader("Origin"); origin != "" && !allow[origin] {
			u, err := url.Parse(origin)
			if len(allow) > 0 || err != nil || u.Host != c.Request.Host {
				Fail(c, apierror.ErrCrossSite)
				return
			}
		}
		c.Next()
	}
}
