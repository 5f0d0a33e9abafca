#!/usr/bin/env bash
# Prode's images, built from docker/Dockerfile.go, docker/Dockerfile.web and
# docker/Dockerfile.pgbouncer exactly as a user builds them with BuildKit, and pushed to the test
# cluster's registry (dev/cluster.sh):
#   dev/images.sh build TAG      builds localhost:5000/prode-<players|fixtures|predictions|scoring|
#                                migrate|web|pgbouncer>:TAG and pushes them
#   dev/images.sh standins       only the stand-in base images (below)
#   dev/images.sh addons         only the cluster's own images: pause, CoreDNS, Traefik, and the
#                                stand-ins values-cluster.yaml names (dev/cluster.sh up runs it)
# No container registry can be reached from our machines, so the Dockerfiles' base images are
# stood in for by local ones, passed as build arguments (the Dockerfiles keep the real defaults):
#   prode-standin/debian:bookworm           debootstrap --variant=minbase bookworm
#   prode-standin/golang:<go>-<sums>        that + this machine's Go + the project's modules as a
#                                           file module proxy (the build fetches nothing)
#   prode-standin/node:<node>-<lock>        that + this machine's Node.js + npm's cache of
#                                           web/package-lock.json (npm ci --offline)
#   prode-standin/nginx-unprivileged:1      Debian's nginx, uid 101
#   prode-standin/distroless-static:nonroot CA certificates, /etc/passwd (65532), /tmp; no shell
#   prode-standin/postgres:15, redis:7      Debian's PostgreSQL 15 / Redis 7, uid 999 (what the
#                                           chart's bundled database and cache run)
#   prode-standin/curl:1                    Debian's curl, uid 100 (the chart's `helm test` pod)
#   prode-standin/prometheus:2              Debian's Prometheus, uid 65534 (the cluster test's)
# Each stand-in is tagged by what it holds and built only when that tag is missing. The Debian
# root filesystem and .deb files are cached under .test/standins.
# Docker: Debian's docker.io (dockerd 20.10, whose built-in BuildKit runs RUN --mount; the
# machine's newer docker client would want buildx, which Debian lacks).
# shellcheck source=dev/lib.sh
source "$(dirname "$0")/lib.sh"
# shellcheck source=dev/chart-tools.sh
source "$ROOT/dev/chart-tools.sh"
LOG_PREFIX=images
cd "$ROOT"

REGISTRY=${PRODE_REGISTRY:-localhost:5000}
DOCKER=/usr/bin/docker
STANDINS=$ROOT/.test/standins
DEBIAN_SUITE=bookworm
GO_SERVICES=(players fixtures predictions scoring migrate)

docker_build() { DOCKER_BUILDKIT=1 "$DOCKER" build --progress=plain "$@"; }
image_exists() { "$DOCKER" image inspect "$1" >/dev/null 2>&1; }

# sum FILES...: a short hash of the files' contents, for tags.
sum() { cat "$@" | sha256sum | cut -c1-12; }

ensure_debian_base() {
  BASE_IMAGE=prode-standin/debian:$DEBIAN_SUITE
  image_exists "$BASE_IMAGE" && return 0
  local tar=$STANDINS/debian-$DEBIAN_SUITE.tar
  if [ ! -s "$tar" ]; then
    log "debootstrap $DEBIAN_SUITE (about 2 minutes, once)"
    command -v debootstrap >/dev/null || die "debootstrap is missing (dev/cluster.sh installs it)"
    local dir=$STANDINS/rootfs
    rm -rf "$dir"; mkdir -p "$STANDINS/debs"
    logged "$STANDINS/debootstrap.log" debootstrap --variant=minbase --cache-dir="$STANDINS/debs" \
      "$DEBIAN_SUITE" "$dir" http://deb.debian.org/debian
    # As in Debian's own images: no daemon starts inside an image build.
    printf '#!/bin/sh\nexit 101\n' >"$dir/usr/sbin/policy-rc.d"; chmod +x "$dir/usr/sbin/policy-rc.d"
    rm -rf "$dir"/var/cache/apt/archives/*.deb "$dir"/var/lib/apt/lists/*
    tar -C "$dir" -cf "$tar.tmp" . && mv "$tar.tmp" "$tar"
    rm -rf "$dir"
  fi
  "$DOCKER" import "$tar" "$BASE_IMAGE" >/dev/null
}

# standin NAME TAG DOCKERFILE CONTEXT [build args...]: builds prode-standin/NAME:TAG unless present.
standin() {
  local name=$1 image=prode-standin/$1:$2 dockerfile=$ROOT/dev/cluster/standins/$3 context=$4; shift 4
  if ! image_exists "$image"; then
    log "building stand-in $image"
    # --network host: the Debian-based stand-ins install packages from Debian's archive, the
    # same way this machine does.
    logged "$STANDINS/build.log" docker_build --network host -f "$dockerfile" -t "$image" \
      --build-arg "BASE=$BASE_IMAGE" "$@" "$context" || return 1
  fi
  # A fixed name too, for skaffold's cluster profile (its build arguments cannot be computed).
  "$DOCKER" tag "$image" "prode-standin/$name:local"
  echo "$image"
}

ensure_standins() {
  ensure_debian_base
  local goversion gosums ctx
  mkdir -p "$STANDINS"
  cp dev/cluster/standins/postgres-entrypoint.sh "$STANDINS/"

  # Go: the toolchain and the modules every go.sum names, downloaded into a module cache of
  # their own (from this machine's module cache when it has them) and served as files.
  goversion=$(go env GOVERSION); goversion=${goversion#go}
  gosums=$(sum migrations/go.sum services/*/go.sum)
  GO_STANDIN=prode-standin/golang:$goversion-$gosums
  if ! image_exists "$GO_STANDIN"; then
    ctx=$STANDINS/golang; rm -rf "$ctx"; mkdir -p "$ctx"
    cp -a "$(go env GOROOT)" "$ctx/go"
    local m cache=$ctx/gomodcache
    for m in migrations services/platform services/players services/fixtures services/predictions services/scoring; do
      (cd "$m" && GOWORK=off GOFLAGS=-modcacherw GOMODCACHE=$cache \
        GOPROXY="file://$(go env GOMODCACHE)/cache/download,$(go env GOPROXY)" go mod download) \
        || die "go mod download in $m"
    done
    mv "$cache/cache/download" "$ctx/goproxy"; rm -rf "$cache"
    GO_STANDIN=$(standin golang "$goversion-$gosums" golang.Dockerfile "$ctx") || die "golang stand-in"
    rm -rf "$ctx"
  fi

  # Node: this machine's node and npm, and npm's cache of the web app's lock file.
  local nodeversion lock
  nodeversion=$(node --version); nodeversion=${nodeversion#v}
  lock=$(sum web/package-lock.json)
  NODE_STANDIN=prode-standin/node:$nodeversion-$lock
  if ! image_exists "$NODE_STANDIN"; then
    ctx=$STANDINS/node; rm -rf "$ctx"; mkdir -p "$ctx/web"
    cp "$(command -v node)" "$ctx/node"
    cp -a "$(npm root -g)/npm" "$ctx/npm"
    cp web/package.json web/package-lock.json "$ctx/web/"
    (cd "$ctx/web" && npm ci --cache "$ctx/npm-cache" --ignore-scripts --no-audit --no-fund >/dev/null) \
      || die "npm ci for the node stand-in's cache"
    rm -rf "$ctx/web"
    NODE_STANDIN=$(standin node "$nodeversion-$lock" node.Dockerfile "$ctx") || die "node stand-in"
    rm -rf "$ctx"
  fi

  # distroless/static: a root filesystem of four files.
  ctx=$STANDINS/distroless; rm -rf "$ctx"; mkdir -p "$ctx/rootfs/etc/ssl/certs" "$ctx/rootfs/tmp"
  chmod 1777 "$ctx/rootfs/tmp"
  printf 'root:x:0:0:root:/root:/sbin/nologin\nnobody:x:65534:65534:nobody:/nonexistent:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\n' >"$ctx/rootfs/etc/passwd"
  printf 'root:x:0:\nnobody:x:65534:\nnonroot:x:65532:\n' >"$ctx/rootfs/etc/group"
  cp /etc/ssl/certs/ca-certificates.crt "$ctx/rootfs/etc/ssl/certs/"
  RUNTIME_STANDIN=$(standin distroless-static "nonroot-$(sum "$ctx"/rootfs/etc/passwd "$ctx"/rootfs/etc/group "$ctx"/rootfs/etc/ssl/certs/ca-certificates.crt)" distroless-static.Dockerfile "$ctx") \
    || die "distroless stand-in"

  NGINX_STANDIN=$(standin nginx-unprivileged 1 nginx-unprivileged.Dockerfile "$STANDINS") || die "nginx stand-in"
  POSTGRES_STANDIN=$(standin postgres "15-$(sum dev/cluster/standins/postgres*)" postgres.Dockerfile "$STANDINS") \
    || die "postgres stand-in"
  REDIS_STANDIN=$(standin redis 7 redis.Dockerfile "$STANDINS") || die "redis stand-in"
  CURL_STANDIN=$(standin curl 1 curl.Dockerfile "$STANDINS") || die "curl stand-in"
  PROMETHEUS_STANDIN=$(standin prometheus 2 prometheus.Dockerfile "$STANDINS") || die "prometheus stand-in"
  "$DOCKER" tag "$GO_STANDIN" prode-standin/golang:local
  "$DOCKER" tag "$NODE_STANDIN" prode-standin/node:local
}

# push IMAGE: tags a local image as $REGISTRY/IMAGE and pushes it (unchanged layers are skipped).
push() {
  "$DOCKER" tag "$1" "$REGISTRY/$1"
  logged "$STANDINS/push.log" "$DOCKER" push "$REGISTRY/$1"
}

# The chart's bundled PostgreSQL and Redis and its test pod's curl, under the names
# charts/prode/values-cluster.yaml gives them, and the cluster test's Prometheus
# (dev/cluster/prometheus.sh).
push_dependencies() {
  "$DOCKER" tag "$POSTGRES_STANDIN" prode-deps/postgres:15 && push prode-deps/postgres:15
  "$DOCKER" tag "$REDIS_STANDIN" prode-deps/redis:7 && push prode-deps/redis:7
  "$DOCKER" tag "$CURL_STANDIN" prode-deps/curl:1 && push prode-deps/curl:1
  "$DOCKER" tag "$PROMETHEUS_STANDIN" prode-deps/prometheus:2 && push prode-deps/prometheus:2
}

build_images() {
  local tag=$1 s
  ensure_standins
  local go_args=(--build-arg "GO_IMAGE=$GO_STANDIN" --build-arg "RUNTIME_IMAGE=$RUNTIME_STANDIN")
  for s in "${GO_SERVICES[@]}"; do
    local module=services/$s
    [ "$s" != migrate ] || module=migrations
    log "building prode-$s:$tag"
    logged "$STANDINS/build.log" docker_build -f docker/Dockerfile.go --build-arg "SERVICE=$s" \
      --build-arg "MODULE=$module" "${go_args[@]}" -t "prode-$s:$tag" . || die "prode-$s did not build"
  done
  log "building prode-web:$tag"
  logged "$STANDINS/build.log" docker_build -f docker/Dockerfile.web \
    --build-arg "NODE_IMAGE=$NODE_STANDIN" --build-arg "NGINX_IMAGE=$NGINX_STANDIN" \
    -t "prode-web:$tag" . || die "prode-web did not build"
  # PgBouncer (pgbouncer.enabled) installs Debian's package, as the stand-ins do: on the Debian
  # stand-in, from Debian's archive.
  log "building prode-pgbouncer:$tag"
  logged "$STANDINS/build.log" docker_build --network host -f docker/Dockerfile.pgbouncer \
    --build-arg "DEBIAN_IMAGE=$BASE_IMAGE" -t "prode-pgbouncer:$tag" . || die "prode-pgbouncer did not build"
  for s in "${GO_SERVICES[@]}" web pgbouncer; do push "prode-$s:$tag" || die "push prode-$s:$tag"; done
}

# The cluster's add-ons: the pod sandbox's pause, CoreDNS and Traefik, each one static binary
# built by dev/cluster.sh on the distroless stand-in; and the chart's dependencies, so that a
# new cluster runs `skaffold dev` (its cluster profile builds only the project's images) as well
# as the cluster test.
build_addons() {
  ensure_standins
  local name bin version ctx
  for name in pause coredns traefik; do
    case $name in
      pause) bin=$K8S_BIN/pause; version=$K8S_VERSION ;;
      coredns) bin=$COREDNS; version=$COREDNS_VERSION ;;
      traefik) bin=$TRAEFIK; version=$TRAEFIK_VERSION ;;
    esac
    image_exists "prode-addons/$name:$version" || {
      ctx=$STANDINS/addon-$name; rm -rf "$ctx"; mkdir -p "$ctx"
      cp "$bin" "$ctx/$name"
      logged "$STANDINS/build.log" docker_build -f dev/cluster/standins/static-binary.Dockerfile \
        --build-arg "BASE=$RUNTIME_STANDIN" --build-arg "BINARY=$name" -t "prode-addons/$name:$version" "$ctx" \
        || die "image of $name"
      rm -rf "$ctx"
    }
    push "prode-addons/$name:$version" || die "push $name"
  done
  push_dependencies || die "push of the PostgreSQL, Redis, curl and Prometheus stand-ins"
}

case ${1:-} in
  build) [ -n "${2:-}" ] || die "usage: dev/images.sh build TAG"; build_images "$2" ;;
  standins) ensure_standins ;;
  addons) ensure_cluster_tools; build_addons ;;
  *) die "usage: dev/images.sh build TAG | standins | addons" ;;
esac
