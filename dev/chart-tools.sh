# shellcheck shell=bash
# The tools the chart test needs, installed on first use and kept in $TOOLS (dev/lib.sh: once per
# machine, outside the checkout; each built under tools_build's lock):
#   helm            go install helm.sh/helm/v3/cmd/helm@$HELM_VERSION          (~2 min cold)
#   etcd            Debian's etcd-server package, unpacked, never installed    (~10 s)
#   kubernetes      kube-apiserver and the node's binaries, built from the k8s.io/kubernetes module
#                   at $K8S_VERSION (~8 min cold; see ensure_kubernetes)
#   skaffold        a `go build` of the downloaded skaffold module              (see ensure_skaffold)
# Each lives in a folder named after its version, so bumping a version rebuilds it.
# Source it after dev/lib.sh.

HELM_VERSION=v3.22.0
K8S_VERSION=v1.36.3
# The newest skaffold whose module the proxy and checksum database serve here (v2.17+ are
# refused with 403/404).
SKAFFOLD_VERSION=v2.16.1

# module_dir MODULE@VERSION: downloads a Go module (into Go's module cache) and prints its folder.
module_dir() {
  local json dir
  json=$(GOWORK=off go mod download -json "$1" 2>&1) || { log "go mod download $1: $json"; return 1; }
  dir=$(sed -n 's/^[[:space:]]*"Dir": "\(.*\)",*$/\1/p' <<<"$json")
  [ -d "$dir" ] || { log "go mod download $1: no folder in $json"; return 1; }
  echo "$dir"
}

# ensure_helm: sets HELM.
ensure_helm() {
  HELM=$TOOLS/helm-$HELM_VERSION/helm
  [ -x "$HELM" ] || tools_build helm build_helm || die "could not build helm $HELM_VERSION"
}
build_helm() {
  [ -x "$HELM" ] && return 0
  log "building helm $HELM_VERSION (about 2 minutes, once)"
  # The -X flags are the ones helm's Makefile sets: without them `helm version` says nothing
  # useful and `helm template`/`helm lint` assume Kubernetes 1.20 (our chart needs >= 1.30).
  # Like the Makefile, take the Kubernetes version from helm's client-go requirement.
  local gomod client_go minor pkg=helm.sh/helm/v3
  gomod=$(module_dir "$pkg@$HELM_VERSION")/go.mod || die "cannot download $pkg@$HELM_VERSION"
  client_go=$(awk '$1 == "k8s.io/client-go" { print $2 }' "$gomod")
  minor=$(cut -d. -f2 <<<"$client_go")
  [ -n "$minor" ] || die "could not read helm's k8s.io/client-go version from $gomod"
  # GOWORK=off (go_install_into): the repo's go.work must not pull helm's dependencies in.
  go_install_into "$(dirname "$HELM")" "$pkg/cmd/helm@$HELM_VERSION" -ldflags "-s -w \
    -X $pkg/internal/version.version=$HELM_VERSION \
    -X $pkg/pkg/lint/rules.k8sVersionMajor=1 -X $pkg/pkg/lint/rules.k8sVersionMinor=$minor \
    -X $pkg/pkg/chartutil.k8sVersionMajor=1 -X $pkg/pkg/chartutil.k8sVersionMinor=$minor"
}

# unpack_deb PACKAGE DIR: Debian's PACKAGE, downloaded and unpacked (never installed) into DIR,
# which appears whole. Installing etcd-server or prometheus would start a system-wide daemon;
# unpacking gives the binaries alone, and needs root only for `apt-get update`.
unpack_deb() {
  local pkg=$1 dir=$2 tmp
  tmp=$(mktemp -d)
  if ! (cd "$tmp" && apt-get download "$pkg" >/dev/null 2>&1); then
    [ "$(id -u)" -eq 0 ] || { log "cannot download $pkg; run: sudo apt-get update"; rm -rf "$tmp"; return 1; }
    apt-get -o DPkg::Lock::Timeout=600 update -qq >&2
    (cd "$tmp" && apt-get download "$pkg" >/dev/null) || { log "apt-get download $pkg failed"; rm -rf "$tmp"; return 1; }
  fi
  rm -rf "$dir.tmp"; mkdir -p "$dir.tmp"
  dpkg-deb -x "$tmp/${pkg}"_*.deb "$dir.tmp" || { rm -rf "$tmp" "$dir.tmp"; return 1; }
  rm -rf "$tmp" "$dir"; mv "$dir.tmp" "$dir"
}

# ensure_etcd: sets ETCD, from Debian's etcd-server package (unpack_deb).
ensure_etcd() {
  ETCD=$TOOLS/etcd-server/usr/bin/etcd
  [ -x "$ETCD" ] || tools_build etcd build_etcd || die "could not unpack Debian's etcd-server"
}
build_etcd() {
  [ -x "$ETCD" ] && return 0
  log "unpacking Debian's etcd-server into $TOOLS/etcd-server"
  unpack_deb etcd-server "$TOOLS/etcd-server" || return 1
  [ -x "$ETCD" ] || { log "etcd-server did not contain usr/bin/etcd"; return 1; }
}

# ensure_kubernetes: sets K8S_BIN, the folder of kube-apiserver, kube-controller-manager,
# kube-scheduler, kubelet, kube-proxy, kubectl and a static `pause` (the pod sandbox's process,
# from the module's build/pause/linux/pause.c), and KUBE_APISERVER. The k8s.io/kubernetes module
# points its k8s.io/* dependencies at ./staging with replace directives; swapping each for the
# published k8s.io/X@v0.<minor>.<patch> makes it buildable outside the kubernetes repository.
# One `go build` of all six shares the compiled packages (about 8 minutes cold on 2 cores; the
# chart test needs only the API server, `make cluster` the rest).
K8S_COMMANDS=(kube-apiserver kube-controller-manager kube-scheduler kubelet kube-proxy kubectl)
# shellcheck disable=SC2034 # KUBE_APISERVER is for the scripts that source this file
ensure_kubernetes() {
  K8S_BIN=$TOOLS/kubernetes-$K8S_VERSION
  KUBE_APISERVER=$K8S_BIN/kube-apiserver
  kubernetes_built || tools_build kubernetes build_kubernetes || die "could not build Kubernetes $K8S_VERSION"
}
kubernetes_built() {
  local c
  for c in "${K8S_COMMANDS[@]}" pause; do [ -x "$K8S_BIN/$c" ] || return 1; done
}
build_kubernetes() {
  kubernetes_built && return 0
  log "building Kubernetes $K8S_VERSION (${K8S_COMMANDS[*]}; about 8 minutes, once)"
  local src dir staging_version edits=() mod pkgs=() c
  src=$(module_dir "k8s.io/kubernetes@$K8S_VERSION") || return 1
  dir=$K8S_BIN/src
  rm -rf "$dir"; mkdir -p "$dir"
  { cp -r "$src/." "$dir" && chmod -R u+w "$dir"; } || return 1
  staging_version=v0.${K8S_VERSION#v1.}
  while read -r mod; do
    edits+=("-dropreplace=$mod" "-require=$mod@$staging_version")
  done < <(awk '$2 == "=>" && $3 ~ /^\.\/staging\// { print $1 }' "$dir/go.mod")
  [ ${#edits[@]} -gt 0 ] || { log "no ./staging replace directives found in k8s.io/kubernetes's go.mod"; return 1; }
  (cd "$dir" && go mod edit "${edits[@]}") || return 1
  local minor=${K8S_VERSION#v1.}; minor=${minor%%.*}
  for c in "${K8S_COMMANDS[@]}"; do pkgs+=("./cmd/$c"); done
  mkdir -p "$dir/out"
  (cd "$dir" && GOWORK=off CGO_ENABLED=0 go build -mod=mod -trimpath \
    -ldflags "-s -w -X k8s.io/component-base/version.gitVersion=$K8S_VERSION -X k8s.io/component-base/version.gitMajor=1 -X k8s.io/component-base/version.gitMinor=$minor" \
    -o out/ "${pkgs[@]}" >&2) || return 1
  gcc -Os -static -o "$dir/out/pause" "$dir/build/pause/linux/pause.c" -DVERSION="$K8S_VERSION" >&2 || return 1
  mv "$dir"/out/* "$K8S_BIN/" || return 1   # each a rename: a binary appears whole
  rm -rf "$dir"   # 100+ MB of sources; the module cache keeps the download
}
ensure_kube_apiserver() { ensure_kubernetes; }

# ensure_promtool: sets PROMTOOL, from Debian's prometheus package (unpack_deb: no Prometheus
# server is started on the machine).
ensure_promtool() {
  PROMTOOL=$TOOLS/prometheus/usr/bin/promtool
  [ -x "$PROMTOOL" ] || tools_build promtool build_promtool || die "could not unpack Debian's prometheus package"
}
build_promtool() {
  [ -x "$PROMTOOL" ] && return 0
  log "unpacking Debian's prometheus package for promtool"
  unpack_deb prometheus "$TOOLS/prometheus"
}

# ensure_operator_crds: sets OPERATOR_CRDS, the folder of the Prometheus Operator's CRDs
# (ServiceMonitor, PrometheusRule, ...), from its Go module: the production values enable both,
# and the API server validates them against the operator's real schemas.
PROMETHEUS_OPERATOR_VERSION=v0.85.0
ensure_operator_crds() {
  local dir
  dir=$(module_dir "github.com/prometheus-operator/prometheus-operator@$PROMETHEUS_OPERATOR_VERSION") \
    || die "cannot download the Prometheus Operator's module"
  OPERATOR_CRDS=$dir/example/prometheus-operator-crd
  [ -f "$OPERATOR_CRDS/monitoring.coreos.com_servicemonitors.yaml" ] \
    || die "no Prometheus Operator CRDs in $OPERATOR_CRDS"
}

# ensure_skaffold: sets SKAFFOLD, built in a copy of its module (build_in_module_copy).
ensure_skaffold() {
  SKAFFOLD=$TOOLS/skaffold-$SKAFFOLD_VERSION/skaffold
  [ -x "$SKAFFOLD" ] || tools_build skaffold build_skaffold || { SKAFFOLD=""; return 1; }
}
build_skaffold() {
  local pkg=github.com/GoogleContainerTools/skaffold/v2
  build_in_module_copy "$SKAFFOLD" "$pkg@$SKAFFOLD_VERSION" ./cmd/skaffold "-X $pkg/pkg/skaffold/version.version=$SKAFFOLD_VERSION"
}

# --- The one-node cluster's own tools (dev/cluster.sh) ----------------------------------------
COREDNS_VERSION=v1.15.0
REGISTRY_VERSION=v3.1.2
# The newest Traefik v3 whose dependencies the module proxy serves here (v3.7.x needs module
# versions it refuses with 403); from v3.5.2 on its module keeps an empty
# webui/static, so it builds without the dashboard's web assets.
TRAEFIK_VERSION=v3.6.12

# static_tool VAR NAME VERSION PACKAGE: sets VAR to $TOOLS/NAME-VERSION/NAME, a static binary
# (no libc: it runs in a distroless image) that go install builds once from PACKAGE@VERSION.
static_tool() {
  printf -v "$1" '%s' "$TOOLS/$2-$3/$2"
  [ -x "${!1}" ] || tools_build "$2" build_static_tool "${!1}" "$4@$3" || die "could not build $2 $3"
}
build_static_tool() {   # build_static_tool BINARY PACKAGE@VERSION
  [ -x "$1" ] && return 0
  log "building $2 (a few minutes, once)"
  CGO_ENABLED=0 go_install_into "$(dirname "$1")" "$2" -trimpath -ldflags "-s -w"
}

# build_in_module_copy BINARY MODULE@VERSION PACKAGE [-X FLAGS]: go build of PACKAGE inside a
# copy of the downloaded module, for modules whose replace directives make go install refuse them.
build_in_module_copy() {
  local bin=$1 module=$2 pkg=$3 xflags=${4:-} src dir
  [ -x "$bin" ] && return 0
  log "building $module (several minutes, once)"
  src=$(module_dir "$module") || return 1
  dir=$(dirname "$bin")/src
  rm -rf "$dir"; mkdir -p "$dir"
  { cp -r "$src/." "$dir" && chmod -R u+w "$dir"; } || return 1
  (cd "$dir" && GOWORK=off go build -mod=mod -trimpath -ldflags "-s -w $xflags" -o "$bin.tmp" "$pkg" >&2) \
    || { rm -rf "$dir"; return 1; }
  mv "$bin.tmp" "$bin"
  rm -rf "$dir"
}

# ensure_coredns: sets COREDNS, the cluster's DNS server (run as a pod behind kube-dns).
ensure_coredns() { static_tool COREDNS coredns "$COREDNS_VERSION" github.com/coredns/coredns; }

# ensure_registry: sets REGISTRY_BIN, the CNCF distribution registry (images for the kubelet).
ensure_registry() {
  static_tool REGISTRY_BIN registry "$REGISTRY_VERSION" github.com/distribution/distribution/v3/cmd/registry
}

# ensure_traefik: sets TRAEFIK, the ingress controller (Ingress and Gateway API), built in a copy
# of its module (build_in_module_copy), static like the others.
ensure_traefik() {
  TRAEFIK=$TOOLS/traefik-$TRAEFIK_VERSION/traefik
  [ -x "$TRAEFIK" ] || tools_build traefik build_traefik || die "could not build Traefik $TRAEFIK_VERSION"
}
build_traefik() {
  local pkg=github.com/traefik/traefik/v3
  CGO_ENABLED=0 build_in_module_copy "$TRAEFIK" "$pkg@$TRAEFIK_VERSION" ./cmd/traefik "-X $pkg/pkg/version.Version=$TRAEFIK_VERSION"
}

ensure_cluster_tools() {
  ensure_kubernetes
  ensure_helm
  ensure_etcd
  ensure_coredns
  ensure_registry
  ensure_traefik
}

# ensure_vegeta: sets VEGETA, the load generator of the cluster test (the same version as
# dev/bench's library; its CLI needs modules the bench's go.sum does not list).
VEGETA_VERSION=v12.13.0
ensure_vegeta() { static_tool VEGETA vegeta "$VEGETA_VERSION" github.com/tsenart/vegeta/v12; }
