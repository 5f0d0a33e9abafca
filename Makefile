# Thin entry points; the work is in dev/ (see the scripts' headers for overrides).
.PHONY: up down test test-go test-web test-routes test-e2e vet

up:           ## start the whole game locally; prints its URL
	@dev/up.sh
down:         ## stop what `make up` started (the data stays in .dev/)
	@dev/down.sh
test:         ## every test: routes, Go (vet + race tests on real PostgreSQL/Redis), web unit, e2e
	@dev/test.sh all
test-go:
	@dev/test.sh go
test-web:
	@dev/test.sh web
test-routes:
	@dev/test-routes.sh
test-e2e:
	@dev/test.sh e2e
vet:
	@dev/test.sh vet
