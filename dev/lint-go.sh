#!/usr/bin/env bash
# The Go format and lint gate (`dev/test.sh lint`, first in `make test`):
#   1. gofmt -l over every Go file of the repository prints nothing;
#   2. golangci-lint $GOLANGCI_LINT_VERSION, with the repository's .golangci.yml (vet,
#      staticcheck, errcheck, ineffassign, unused, and the import rules between modules), finds
#      nothing in any module of go.work;
#   3. every module of go.work is tidy on its own (GOWORK=off go mod tidy -diff): the images
#      build each module without go.work, so a go.sum that lacks what a platform package newly
#      imports breaks only the cluster step, an hour later, unless this catches it here.
# golangci-lint is built once per machine into $TOOLS/golangci-lint-<version>/ (dev/lib.sh; about
# 3 minutes cold); bumping the version builds the new one. gofmt runs first: it takes a second.
# shellcheck source=dev/lib.sh
source "$(dirname "$0")/lib.sh"
LOG_PREFIX=lint
cd "$ROOT"

GOLANGCI_LINT_VERSION=v2.15.0
GOLANGCI_LINT=$TOOLS/golangci-lint-$GOLANGCI_LINT_VERSION/golangci-lint

ensure_golangci_lint() {
  [ -x "$GOLANGCI_LINT" ] || tools_build golangci-lint build_golangci_lint || die "could not build golangci-lint"
}
build_golangci_lint() {
  [ -x "$GOLANGCI_LINT" ] && return 0
  log "building golangci-lint $GOLANGCI_LINT_VERSION (a few minutes, once)"
  # GOWORK=off (go_install_into): the repository's go.work must not pull the linter's dependencies in.
  go_install_into "$(dirname "$GOLANGCI_LINT")" "github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$GOLANGCI_LINT_VERSION"
}

# The folders of go.work's modules, from go.work itself: a module added there is linted too.
workspace_modules() { go work edit -json | sed -n 's/^[[:space:]]*"DiskPath": "\(.*\)"[,]*$/\1/p'; }

# Every Go module of the repository, go.work's and the others (dev/bench, dev/charttest), is
# formatted: the folders of the go.mod files git knows or would add. (docker/Dockerfile.go is
# a Dockerfile: naming the modules, not *.go, leaves it out.)
module_dirs=$(git ls-files --cached --others --exclude-standard -- go.mod '*/go.mod' | xargs -r -n1 dirname)
unformatted=$(echo "$module_dirs" | xargs -r gofmt -l)
if [ -n "$unformatted" ]; then
  log "not gofmt-formatted (run gofmt -w on them):"
  echo "$unformatted" >&2
  exit 1
fi

modules=$(workspace_modules)
[ -n "$modules" ] || die "no modules in go.work"
untidy=()
for m in $modules; do
  (cd "$m" && GOWORK=off go mod tidy -diff >&2) || untidy+=("$m")
done
[ ${#untidy[@]} -eq 0 ] || die "not tidy on their own (run GOWORK=off go mod tidy in each): ${untidy[*]}"

ensure_golangci_lint
failed=()
for m in $modules; do
  log "golangci-lint $m"
  # Another checkout's make test may be linting at the same moment: golangci-lint takes one
  # lock per machine and, without --allow-serial-runners, fails at once instead of waiting.
  (cd "$m" && "$GOLANGCI_LINT" run --allow-serial-runners --config "$ROOT/.golangci.yml" ./...) || failed+=("$m")
done
[ ${#failed[@]} -eq 0 ] || die "golangci-lint found problems in: ${failed[*]}"
log "gofmt and golangci-lint: nothing found"
