# Thin entry points; the work is in dev/ (see the scripts' headers for overrides).
.PHONY: up down test test-go test-web test-routes test-chart test-e2e vet soak bench bench-smoke

up:           ## start the whole game locally; prints its URL
	@dev/up.sh
down:         ## stop what `make up` started (the data stays in .dev/)
	@dev/down.sh
test:         ## every test: routes, the Helm chart on a real API server, Go (vet + race tests on real PostgreSQL/Redis), web unit, e2e
	@dev/test.sh all
test-go:
	@dev/test.sh go
test-web:
	@dev/test.sh web
test-routes:
	@dev/test-routes.sh
test-chart:   ## helm lint, rendered manifests, install/upgrade on a real kube-apiserver, skaffold.yaml
	@dev/test-chart.sh
test-e2e:
	@dev/test.sh e2e
vet:
	@dev/test.sh vet
soak:         ## the long checks: every fuzz target for FUZZTIME (30s) each, 30 s PostgreSQL and Redis outages, the match-day rush
	@dev/soak.sh all
bench:        ## 100,000 players × 64 predictions, every benchmark beside its reference; writes docs/benchmarks.md
	@dev/bench.sh full
bench-smoke:  ## the same at a tiny scale (make test runs it so that the bench cannot rot)
	@dev/bench.sh smoke
