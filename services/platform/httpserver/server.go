// Package httpserver runs a service's two HTTP servers: the API (gin, behind the ingress) and
// the admin port (/healthz, /readyz, /metrics; never exposed by the ingress), and drains
// both on SIGTERM.
package httpserver

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"prode/platform/apierror"
	"prode/platform/metrics"
)

// Config says where to listen and how to drain.
type Config struct {
	Service        string
	HTTPAddr       string
	AdminAddr      string
	AllowedOrigins []string
	// DrainDelay is how long readiness fails before the server stops taking requests, so
	// the ingress stops sending new ones first.
	DrainDelay time.Duration
	// ShutdownTimeout bounds how long in-flight requests may take to finish.
	ShutdownTimeout time.Duration
	// TrustedProxyHops is how many proxies in front of the service append to (or overwrite)
	// X-Forwarded-For: the client address is the entry this many from the right (see
	// clientAddress). 0, the zero value, ignores the header and uses the connection's address;
	// TRUSTED_PROXY_HOPS defaults to 1, the ingress (or the local nginx).
	TrustedProxyHops int
	// Profiling serves net/http/pprof under /debug/pprof/ on the admin port, which the ingress
	// never exposes: off by default, on for `make bench`, which reads the profiles into its report.
	Profiling bool
}

// Check is a readiness dependency; its error is reported on /readyz.
type Check func(ctx context.Context) error

// Server is a service's API engine plus its admin endpoints.
type Server struct {
	cfg      Config
	log      *slog.Logger
	Engine   *gin.Engine
	Registry *prometheus.Registry
	draining atomic.Bool
	checks   map[string]Check
}

// New builds the gin engine with the middleware every service shares.
func New(cfg Config, log *slog.Logger) *Server {
	gin.SetMode(gin.ReleaseMode)
	reg, httpMetrics := metrics.New(cfg.Service)
	engine := gin.New()
	engine.HandleMethodNotAllowed = true
	engine.ContextWithFallback = true
	// securityHeaders first, so that every answer has them, whichever middleware refuses it.
	engine.Use(securityHeaders(), observe(log, httpMetrics, cfg.TrustedProxyHops), sameOrigin(cfg.AllowedOrigins))
	engine.NoRoute(func(c *gin.Context) { Fail(c, apierror.ErrNotFoundRoute) })
	engine.NoMethod(func(c *gin.Context) { Fail(c, apierror.ErrMethod) })
	return &Server{cfg: cfg, log: log, Engine: engine, Registry: reg, checks: map[string]Check{}}
}

// AddCheck reports a dependency on /readyz?verbose. Checks inform; only draining fails readiness,
// because a service that cannot reach PostgreSQL still answers a quick JSON 503 with
// Retry-After, which is better for players than the ingress's own error page.
func (s *Server) AddCheck(name string, check Check) { s.checks[name] = check }

// AdminHandler serves /healthz, /readyz and /metrics.
func (s *Server) AdminHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"estado": "vivo"})
	})
	mux.HandleFunc("GET /readyz", s.readyz)
	mux.Handle("GET /metrics", promhttp.HandlerFor(s.Registry, promhttp.HandlerOpts{Registry: s.Registry}))
	if s.cfg.Profiling {
		mux.HandleFunc("GET /debug/pprof/", pprof.Index)
		mux.HandleFunc("GET /debug/pprof/profile", pprof.Profile)
	}
	return mux
}

// readyz answers from the drain flag alone, so that a probe on a busy node never waits for a
// connection of a pool that requests keep busy: that wait once made probes time out and take
// serving pods out of their Service. ?verbose adds each dependency's state, checked all at once
// within a second, for people (as kube-apiserver's /readyz?verbose).
func (s *Server) readyz(w http.ResponseWriter, r *http.Request) {
	status, body := http.StatusOK, map[string]any{"estado": "listo"}
	if s.draining.Load() {
		status, body["estado"] = http.StatusServiceUnavailable, "cerrando"
	}
	if r.URL.Query().Has("verbose") {
		body["dependencias"] = s.checkDependencies(r.Context())
	}
	writeJSON(w, status, body)
}

// checkDependencies runs every check at once, each within the same second, and reports each as
// "ok" or "falla".
func (s *Server) checkDependencies(ctx context.Context) map[string]string {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	var (
		mu   sync.Mutex
		wg   sync.WaitGroup
		deps = map[string]string{}
	)
	for name, check := range s.checks {
		wg.Go(func() {
			state := "ok"
			if err := check(ctx); err != nil {
				state = "falla"
			}
			mu.Lock()
			deps[name] = state
			mu.Unlock()
		})
	}
	wg.Wait()
	return deps
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// Handler is what the API port serves: the engine behind what must happen before gin routes a
// request (withoutForwardedPrefix).
func (s *Server) Handler() http.Handler { return withoutForwardedPrefix(s.Engine) }

// Run serves until ctx is cancelled (SIGTERM), then fails readiness, waits DrainDelay, and
// lets in-flight requests finish within ShutdownTimeout.
func (s *Server) Run(ctx context.Context) error {
	api := &http.Server{Addr: s.cfg.HTTPAddr, Handler: s.Handler(), ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout: 15 * time.Second, WriteTimeout: 30 * time.Second, IdleTimeout: 90 * time.Second}
	admin := &http.Server{Addr: s.cfg.AdminAddr, Handler: s.AdminHandler(), ReadHeaderTimeout: 5 * time.Second}

	apiLn, err := net.Listen("tcp", s.cfg.HTTPAddr)
	if err != nil {
		return err
	}
	adminLn, err := net.Listen("tcp", s.cfg.AdminAddr)
	if err != nil {
		apiLn.Close()
		return err
	}
	errs := make(chan error, 2)
	go func() { errs <- api.Serve(apiLn) }()
	go func() { errs <- admin.Serve(adminLn) }()
	s.log.Info("serving", slog.String("http", apiLn.Addr().String()), slog.String("admin", adminLn.Addr().String()))

	select {
	case err := <-errs:
		return err
	case <-ctx.Done():
	}
	s.log.Info("draining", slog.Duration("delay", s.cfg.DrainDelay))
	s.draining.Store(true)
	time.Sleep(s.cfg.DrainDelay)
	shutdownCtx, cancel := context.WithTimeout(context.Background(), s.cfg.ShutdownTimeout)
	defer cancel()
	err = api.Shutdown(shutdownCtx)
	_ = admin.Shutdown(shutdownCtx)
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	s.log.Info("stopped")
	return nil
}
