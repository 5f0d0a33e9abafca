# One image per Go module of the repository, all from this file:
#   docker build -f docker/Dockerfile.go --build-arg SERVICE=players -t prode-players .
# SERVICE is players, fixtures, predictions, scoring (services/<SERVICE>) or migrate (migrations/).
# Every command of that module lands in /usr/local/bin (fixtures also gets fixtures-seed); the
# image has no entrypoint because a Dockerfile cannot name it after a build argument: run it
# with the command, e.g. `docker run prode-players players` (the chart always sets `command`).
# For migrate, also pass MODULE=migrations (its folder is not services/migrate).
# The context is the repository root. Each module builds on its own (GOWORK=off): its go.mod's
# replace directives reach ../platform and ../../migrations. Only the module's own folder and
# platform are copied, so a change elsewhere leaves this image's layers, and its tag, alone.
# No "# syntax=" line: the Dockerfile frontend built into Docker (20.10+) and BuildKit runs
# RUN --mount, and naming one would make every build fetch it from a registry.
#
# The base images are build arguments so that a machine without a registry can stand in its
# own (dev/images.sh does, for the test cluster); the defaults are the real ones.
ARG GO_VERSION=1.26
ARG GO_IMAGE=golang:${GO_VERSION}-bookworm
ARG RUNTIME_IMAGE=gcr.io/distroless/static-debian12:nonroot

FROM ${GO_IMAGE} AS build
ARG SERVICE
ARG MODULE=services/${SERVICE}
WORKDIR /src
# platform needs migrations only in its test harness: its go.mod is enough to build a service.
COPY migrations/go.mod migrations/go.sum migrations/
COPY services/platform/ services/platform/
COPY ${MODULE}/ ${MODULE}/
# CGO off: a static binary that runs on distroless/static (no libc).
# timetzdata: DISPLAY_TIMEZONE works even without the base image's /usr/share/zoneinfo.
# The cache mounts keep modules and compiled packages between builds (BuildKit).
RUN --mount=type=cache,target=/go/pkg/mod \
    --mount=type=cache,target=/root/.cache/go-build \
    set -eu; \
    case "${SERVICE:?build with --build-arg SERVICE=<players|fixtures|predictions|scoring|migrate>}" in \
      migrate) want=migrations ;; \
      players|fixtures|predictions|scoring) want=services/${SERVICE} ;; \
      *) echo "unknown SERVICE '${SERVICE}'" >&2; exit 1 ;; \
    esac; \
    [ "${MODULE}" = "${want}" ] || { echo "SERVICE=${SERVICE} needs MODULE=${want}" >&2; exit 1; }; \
    mkdir -p /out; \
    cd "${MODULE}"; \
    GOWORK=off CGO_ENABLED=0 GOOS=linux go build -trimpath -tags timetzdata -ldflags="-s -w" \
      -o /out/ ./cmd/...; \
    test -x "/out/${SERVICE}"

# distroless/static: CA certificates (Google sign-in over TLS), tzdata, /etc/passwd; no shell,
# no package manager. :nonroot runs as 65532, repeated numerically so that Kubernetes can check
# runAsNonRoot without resolving a user name.
FROM ${RUNTIME_IMAGE}
ARG SERVICE
LABEL org.opencontainers.image.title="prode-${SERVICE}" \
      org.opencontainers.image.source="https://github.com/prode/prode"
COPY --from=build /out/ /usr/local/bin/
USER 65532:65532
# The API and the admin port (/healthz, /readyz, /metrics); the migrate image listens on none.
EXPOSE 8080 9090
