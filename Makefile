# Thin entry points; the work is in dev/ (see the scripts' headers for overrides).
.PHONY: up down test lint test-go test-web test-routes test-chart test-alerts test-e2e test-cluster test-skaffold vet soak bench bench-smoke bench-scale bench-scale-smoke cluster cluster-down images

up:           ## start the whole game locally; prints its URL
	@dev/up.sh
down:         ## stop what `make up` started (the data stays in .dev/)
	@dev/down.sh
test:         ## every test: routes, the Helm chart on a real API server, Go (vet + race tests on real PostgreSQL/Redis), web unit, e2e
	@dev/test.sh all
lint:         ## the gates that `make test` runs first: gofmt -l empty, golangci-lint (.golangci.yml) on every module, ShellCheck (.shellcheckrc) on every script
	@dev/test.sh lint
test-go:
	@dev/test.sh go
test-web:
	@dev/test.sh web
test-routes:
	@dev/test-routes.sh
test-chart:   ## helm lint, rendered manifests, install/upgrade on a real kube-apiserver, skaffold.yaml
	@dev/test-chart.sh
test-alerts:  ## the chart's alerts unit-tested by promtool (dev/alerts/: 5xx, 499s, a Redis outage, outbox lag)
	@dev/test-alerts.sh
test-e2e:
	@dev/test.sh e2e
test-cluster: ## the chart on a real one-node Kubernetes: install, helm test, the browser through the ingress, upgrade under load, a failing migration, rollback, scoring killed, PostgreSQL and Redis crashed under load, re-install, a backup restored (into the release, then onto a new claim)
	@dev/test-cluster.sh
test-skaffold: ## skaffold dev on that cluster: the time from saving a Go file and a web file to seeing them live
	@dev/test-skaffold.sh
cluster:      ## start a one-node Kubernetes (as root): etcd, control plane, kubelet + containerd, kube-proxy, CoreDNS, Traefik, a registry on 127.0.0.1:5000; prints the kubeconfig
	@dev/cluster.sh up
cluster-down: ## stop what `make cluster` started and remove .cluster/
	@dev/cluster.sh down
images:       ## build the six images (docker/) with local stand-ins for the base images and push them to the cluster's registry (TAG=dev)
	@dev/images.sh build $${TAG:-dev}
vet:
	@dev/test.sh vet
soak:         ## the long checks: every fuzz target for FUZZTIME (30s) each, 30 s PostgreSQL and Redis outages, the match-day rush
	@dev/soak.sh all
bench:        ## 100,000 players × 64 predictions, every benchmark beside its reference; writes docs/benchmarks.md
	@dev/bench.sh full
bench-smoke:  ## the same at a tiny scale (make test runs it so that the bench cannot rot)
	@dev/bench.sh smoke
bench-scale:  ## issue 20: one database grown to 100,000, 1,000,000, 2,000,000 players (SCALE_PLAYERS), each measured; writes docs/benchmarks-scale.md
	@dev/bench.sh scale
bench-scale-smoke:  ## the same at 2,000 and 4,000 players (make test runs it so that the harness cannot rot)
	@dev/bench.sh scale-smoke
