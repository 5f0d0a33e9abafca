package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"

	"prode/platform/apierror"
	"prode/platform/cache"
	"prode/platform/httpserver"
	"prode/platform/service"
	"prode/scoring/internal/live"
	"prode/scoring/internal/metrics"
)

func runServer(redisURL string, classic bool) error {
	logger := slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	service.TuneRuntime(logger) // scoring's GOGC and memory limit
	var rdb redis.UniversalClient
	if redisURL != "" {
		c, err := cache.Connect(redisURL, "")
		if err != nil {
			return err
		}
		defer c.Close()
		rdb = c
	}
	server := httpserver.New(httpserver.Config{Service: "scoring"}, logger)
	hub := live.New(rdb, "livebench-"+strconv.Itoa(os.Getpid())+":", nil, &metrics.New(prometheus.NewRegistry()).Live, logger,
		live.Options{MaxStreams: 1 << 20})
	// What scoring's EventsHandlers.stream does (services/scoring/internal/http/events_handlers.go).
	server.Engine.GET("/api/eventos", func(c *gin.Context) {
		last, _ := strconv.ParseInt(c.GetHeader("Last-Event-ID"), 10, 64)
		if err := hub.Reserve(); err != nil {
			httpserver.Fail(c, apierror.ErrUnavailable.Wrap(err))
			return
		}
		conn, _, err := c.Writer.Hijack()
		if err != nil {
			hub.Unreserve()
			httpserver.Fail(c, apierror.ErrUnavailable.Wrap(err))
			return
		}
		hub.Adopt(conn, live.Head(c.Writer.Header()), last)
	})

	var next atomic.Int64
	announce := func(ctx context.Context, e live.Event) {
		if err := hub.Announce(ctx, e); err != nil {
			logger.Warn("publish", slog.String("error", err.Error()))
		}
	}
	open := hub.Open
	if classic {
		c := newClassic()
		server.Engine.GET("/api/clasico", c.stream)
		announce, open = c.announce, c.open
	}
	admin := http.NewServeMux()
	admin.HandleFunc("POST /announce", func(w http.ResponseWriter, r *http.Request) {
		id := next.Add(1)
		announce(r.Context(), live.Event{ID: id, Torneo: 1})
		_, _ = fmt.Fprint(w, id) // a client that hung up has no use for it
	})
	admin.HandleFunc("GET /mem", func(w http.ResponseWriter, r *http.Request) {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		_ = json.NewEncoder(w).Encode(memStats{HeapInuse: m.HeapInuse, StackInuse: m.StackInuse, Sys: m.Sys,
			Goroutines: runtime.NumGoroutine(), Open: open()})
	})

	apiLn, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	adminLn, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	// The API server's timeouts are httpserver.Run's: the hub must clear them on the streams.
	api := &http.Server{Handler: server.Engine, ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 15 * time.Second,
		WriteTimeout: 30 * time.Second, IdleTimeout: 90 * time.Second}
	go func() { _ = api.Serve(apiLn) }()
	go func() { _ = http.Serve(adminLn, admin) }()

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	done := make(chan struct{})
	go func() { hub.Run(ctx); close(done) }()
	fmt.Printf("listening %s %s\n", apiLn.Addr(), adminLn.Addr())
	<-ctx.Done()
	if classic {
		_ = api.Close() // Shutdown would wait for every stream's handler
	}
	_ = api.Shutdown(context.Background()) // as httpserver.Run: hijacked streams are not waited for
	<-done                                 // Run closed every stream
	return nil
}
