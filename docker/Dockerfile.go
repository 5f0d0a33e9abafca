# syntax=docker/dockerfile:1
# One image per Go module of the repository, all from this file:
#   docker build -f docker/Dockerfile.go --build-arg SERVICE=players -t prode-players .
# SERVICE is players, fixtures, predictions, scoring (services/<SERVICE>) or migrate (migrations/).
# Every command of that module lands in /usr/local/bin (fixtures also gets fixtures-seed); the
# image has no entrypoint because a Dockerfile cannot name it after a build argument: run it
# with the command, e.g. `docker run prode-players players` (the chart always sets `command`).
# The context is the repository root: the modules build as one Go workspace (go.work) whose
# replace directives reach ../platform and ../../migrations (.dockerignore keeps it small).

ARG GO_VERSION=1.26

FROM golang:${GO_VERSION}-bookworm AS build
ARG SERVICE
WORKDIR /src
COPY . .
# CGO off: a static binary that runs on distroless/static (no libc).
# timetzdata: DISPLAY_TIMEZONE works even without the base image's /usr/share/zoneinfo.
# The cache mounts keep modules and compiled packages between builds (BuildKit).
RUN --mount=type=cache,target=/go/pkg/mod \
    --mount=type=cache,target=/root/.cache/go-build \
    set -eu; \
    case "${SERVICE:?build with --build-arg SERVICE=<players|fixtures|predictions|scoring|migrate>}" in \
      migrate) dir=migrations ;; \
      players|fixtures|predictions|scoring) dir=services/${SERVICE} ;; \
      *) echo "unknown SERVICE '${SERVICE}'" >&2; exit 1 ;; \
    esac; \
    mkdir -p /out; \
    CGO_ENABLED=0 GOOS=linux go build -trimpath -tags timetzdata -ldflags="-s -w" \
      -o /out/ "./${dir}/cmd/..."; \
    test -x "/out/${SERVICE}"

# distroless/static: CA certificates (Google sign-in over TLS), tzdata, /etc/passwd; no shell,
# no package manager. :nonroot runs as 65532, repeated numerically so that Kubernetes can check
# runAsNonRoot without resolving a user name.
FROM gcr.io/distroless/static-debian12:nonroot
ARG SERVICE
LABEL org.opencontainers.image.title="prode-${SERVICE}" \
      org.opencontainers.image.source="https://github.com/prode/prode"
COPY --from=build /out/ /usr/local/bin/
USER 65532:65532
# The API and the admin port (/healthz, /readyz, /metrics); the migrate image listens on none.
EXPOSE 8080 9090
