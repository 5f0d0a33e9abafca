#!/usr/bin/env bash
# A real one-node Kubernetes on this machine, built from the sources kind uses (kind's node image
# cannot be had here: it needs pulled images). Usage:
#   dev/cluster.sh up      (make cluster)       start it, or check it is up; prints the kubeconfig
#   dev/cluster.sh down    (make cluster-down)  stop what `up` started and remove the node's state
#   dev/cluster.sh status                       exit 0 when this checkout's cluster answers
# What runs (all as root, state and logs under .cluster/, binaries in $TOOLS, dev/lib.sh):
#   etcd (Debian's etcd-server)  kube-apiserver  kube-controller-manager  kube-scheduler
#   containerd (its own instance, not Docker's)  kubelet  kube-proxy (iptables)
#   CoreDNS and Traefik as pods; a registry on 127.0.0.1:5000; dockerd for image builds
# Pods live on the bridge cni0 (10.244.0.0/24, the node is 10.244.0.1), Services on 10.96.0.0/16
# (kube-dns 10.96.0.10). The ingress (Traefik, IngressClass "traefik") listens on
# 127.0.0.1:$CLUSTER_HTTP_PORT (8880). CoreDNS forwards nothing and pods are not masqueraded:
# nothing outside loopback and the cluster's own addresses is contacted.
# One cluster per machine (ports, iptables, cni0): another checkout's running cluster is refused
# with its path; dev/test-cluster.sh queues on a machine-wide lock instead.
# shellcheck source=dev/lib.sh
source "$(dirname "$0")/lib.sh"
# shellcheck source=dev/chart-tools.sh
source "$ROOT/dev/chart-tools.sh"
LOG_PREFIX=cluster

CLUSTER=$ROOT/.cluster
PKI=$CLUSTER/pki
RUN=$CLUSTER/run
LOGS=$CLUSTER/logs
KUBECONFIG_ADMIN=$CLUSTER/kubeconfig
NODE_NAME=prode-node
NODE_IP=10.244.0.1
POD_CIDR=10.244.0.0/24
SERVICE_CIDR=10.96.0.0/16
API_PORT=6443
ETCD_PORT=12379
REGISTRY_ADDR=127.0.0.1:5000
CLUSTER_HTTP_PORT=${CLUSTER_HTTP_PORT:-8880}
TRAEFIK_ADMIN_PORT=8881
CONTAINERD_SOCK=$CLUSTER/containerd/containerd.sock
# Who runs the machine's cluster (one at a time): the checkout's path.
OWNER_FILE=/run/prode-cluster.owner

kubectl() { "$K8S_BIN/kubectl" --kubeconfig "$KUBECONFIG_ADMIN" "$@"; }

# start NAME COMMAND...: a daemon in the background, its pid in run/NAME.pid, output in logs/NAME.log.
start() {
  local name=$1; shift
  pid_alive "$RUN/$name.pid" && return 0
  setsid "$@" </dev/null >>"$LOGS/$name.log" 2>&1 &
  echo $! >"$RUN/$name.pid"
}

# write FILE: stdin into FILE, unless FILE already holds exactly that. kube-proxy exits when its
# configuration file is rewritten, so an idempotent `up` must leave unchanged files alone.
write() {
  local tmp; tmp=$(mktemp)
  cat >"$tmp"
  if cmp -s "$tmp" "$1"; then rm -f "$tmp"; else mv "$tmp" "$1"; chmod 644 "$1"; fi
}

# wait_for WHAT SECONDS COMMAND...: poll until COMMAND succeeds.
wait_for() {
  local what=$1 deadline=$((SECONDS + $2)); shift 2
  until "$@" >/dev/null 2>&1; do
    [ $SECONDS -lt $deadline ] || { log "$what not ready after ${deadline}s; logs in $LOGS"; return 1; }
    sleep 0.5
  done
}

install_packages() {
  local pkgs=()
  command -v dockerd >/dev/null || pkgs+=(docker.io)
  [ -x /usr/lib/cni/bridge ] || pkgs+=(containernetworking-plugins)
  command -v conntrack >/dev/null || pkgs+=(conntrack)
  command -v iptables >/dev/null || pkgs+=(iptables)
  command -v debootstrap >/dev/null || pkgs+=(debootstrap)
  command -v openssl >/dev/null || pkgs+=(openssl)
  command -v gcc >/dev/null || pkgs+=(gcc libc6-dev)
  [ ${#pkgs[@]} -eq 0 ] && return 0
  log "installing ${pkgs[*]}"
  apt-get -o DPkg::Lock::Timeout=600 update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq "${pkgs[@]}" </dev/null >&2
}

# --- certificates: one CA; client certificates name who each component is ---------------------
cert() {   # cert NAME SUBJECT [SANS]
  local name=$1 subj=$2 sans=${3:-}
  [ -s "$PKI/$name.crt" ] && return 0
  openssl req -new -newkey rsa:2048 -nodes -keyout "$PKI/$name.key" -subj "$subj" -out "$PKI/$name.csr" 2>/dev/null
  local ext; ext=$(mktemp)
  { echo "basicConstraints=CA:FALSE"; echo "keyUsage=critical,digitalSignature,keyEncipherment"
    echo "extendedKeyUsage=serverAuth,clientAuth"; [ -z "$sans" ] || echo "subjectAltName=$sans"; } >"$ext"
  openssl x509 -req -in "$PKI/$name.csr" -CA "$PKI/ca.crt" -CAkey "$PKI/ca.key" -CAcreateserial \
    -days 3650 -extfile "$ext" -out "$PKI/$name.crt" 2>/dev/null
  rm -f "$ext" "$PKI/$name.csr"
}

make_pki() {
  mkdir -p "$PKI"; chmod 700 "$PKI"
  [ -s "$PKI/ca.crt" ] || openssl req -x509 -new -newkey rsa:2048 -nodes -keyout "$PKI/ca.key" \
    -subj "/CN=prode-cluster-ca" -days 3650 -out "$PKI/ca.crt" 2>/dev/null
  cert apiserver "/CN=kube-apiserver" \
    "IP:127.0.0.1,IP:$NODE_IP,IP:10.96.0.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local"
  cert admin "/O=system:masters/CN=prode-admin"
  cert controller-manager "/CN=system:kube-controller-manager"
  cert scheduler "/CN=system:kube-scheduler"
  cert kube-proxy "/CN=system:kube-proxy"
  cert kubelet "/O=system:nodes/CN=system:node:$NODE_NAME" "IP:$NODE_IP,IP:127.0.0.1,DNS:$NODE_NAME"
  [ -s "$PKI/sa.key" ] || { openssl genrsa -out "$PKI/sa.key" 2048 2>/dev/null
                            openssl rsa -in "$PKI/sa.key" -pubout -out "$PKI/sa.pub" 2>/dev/null; }
  local who
  for who in admin controller-manager scheduler kube-proxy kubelet; do kubeconfig "$who"; done
}

kubeconfig() {   # kubeconfig NAME: $CLUSTER/NAME.kubeconfig (admin's is $KUBECONFIG_ADMIN)
  local file=$CLUSTER/$1.kubeconfig
  [ "$1" != admin ] || file=$KUBECONFIG_ADMIN
  cat >"$file" <<EOF
apiVersion: v1
kind: Config
clusters:
  - name: prode
    cluster: {server: "https://127.0.0.1:$API_PORT", certificate-authority: "$PKI/ca.crt"}
users:
  - name: $1
    user: {client-certificate: "$PKI/$1.crt", client-key: "$PKI/$1.key"}
contexts:
  - name: prode
    context: {cluster: prode, user: $1}
current-context: prode
EOF
  chmod 600 "$file"
}

# --- the node's network: the bridge first, so the API server can advertise the node's address --
make_bridge() {
  ip link show cni0 >/dev/null 2>&1 || ip link add cni0 type bridge
  ip addr show dev cni0 | grep -q " $NODE_IP/" || ip addr add "$NODE_IP/24" dev cni0
  ip link set cni0 up
  # Service addresses stay on the bridge: a packet to one that kube-proxy has not translated yet
  # (a Service seconds old) is dropped here instead of following the default route off the machine.
  ip route replace "$SERVICE_CIDR" dev cni0
  sysctl -qw net.ipv4.ip_forward=1
  modprobe br_netfilter 2>/dev/null || true
  [ ! -e /proc/sys/net/bridge/bridge-nf-call-iptables ] || sysctl -qw net.bridge.bridge-nf-call-iptables=1
  mkdir -p "$CLUSTER/cni/net.d"
  # No ipMasq: pods have no way out of the machine; the firewall plugin opens FORWARD for them
  # (dockerd sets its policy to DROP).
  write "$CLUSTER/cni/net.d/10-prode.conflist" <<EOF
{
  "cniVersion": "1.0.0",
  "name": "prode",
  "plugins": [
    {"type": "bridge", "bridge": "cni0", "isGateway": true, "ipMasq": false, "hairpinMode": true,
     "ipam": {"type": "host-local", "dataDir": "$CLUSTER/cni/ipam",
              "ranges": [[{"subnet": "$POD_CIDR", "gateway": "$NODE_IP"}]],
              "routes": [{"dst": "0.0.0.0/0"}]}},
    {"type": "portmap", "capabilities": {"portMappings": true}},
    {"type": "firewall"}
  ]
}
EOF
}

start_registry() {
  if port_busy 5000; then
    curl -fsS -o /dev/null "http://$REGISTRY_ADDR/v2/" || die "127.0.0.1:5000 is taken by something that is not a registry"
    return 0
  fi
  mkdir -p "$CLUSTER/registry"
  write "$CLUSTER/registry.yml" <<EOF
version: 0.1
log: {level: warn}
storage:
  filesystem: {rootdirectory: $CLUSTER/registry}
  delete: {enabled: true}
http: {addr: $REGISTRY_ADDR}
EOF
  start registry "$REGISTRY_BIN" serve "$CLUSTER/registry.yml"
  wait_for registry 20 curl -fsS "http://$REGISTRY_ADDR/v2/"
}

# dockerd builds the images; started only when none runs (and then stopped by `down`).
start_dockerd() {
  /usr/bin/docker info >/dev/null 2>&1 && return 0
  start dockerd dockerd
  wait_for dockerd 60 /usr/bin/docker info
}

start_control_plane() {
  mkdir -p "$CLUSTER/etcd"
  start etcd "$ETCD" --name prode --data-dir "$CLUSTER/etcd" \
    --listen-client-urls "http://127.0.0.1:$ETCD_PORT" --advertise-client-urls "http://127.0.0.1:$ETCD_PORT" \
    --listen-peer-urls http://127.0.0.1:12380 --initial-advertise-peer-urls http://127.0.0.1:12380 \
    --initial-cluster prode=http://127.0.0.1:12380
  wait_for etcd 30 curl -fsS "http://127.0.0.1:$ETCD_PORT/health"
  start kube-apiserver "$K8S_BIN/kube-apiserver" \
    --etcd-servers "http://127.0.0.1:$ETCD_PORT" --bind-address 0.0.0.0 --secure-port "$API_PORT" \
    --advertise-address "$NODE_IP" --service-cluster-ip-range "$SERVICE_CIDR" \
    --client-ca-file "$PKI/ca.crt" --tls-cert-file "$PKI/apiserver.crt" --tls-private-key-file "$PKI/apiserver.key" \
    --kubelet-client-certificate "$PKI/admin.crt" --kubelet-client-key "$PKI/admin.key" \
    --service-account-key-file "$PKI/sa.pub" --service-account-signing-key-file "$PKI/sa.key" \
    --service-account-issuer https://kubernetes.default.svc.cluster.local \
    --authorization-mode Node,RBAC --enable-admission-plugins NodeRestriction \
    --kubelet-preferred-address-types InternalIP \
    --allow-privileged=true --profiling=false
  wait_for kube-apiserver 90 kubectl get --raw /readyz
  start kube-controller-manager "$K8S_BIN/kube-controller-manager" \
    --kubeconfig "$CLUSTER/controller-manager.kubeconfig" \
    --authentication-kubeconfig "$CLUSTER/controller-manager.kubeconfig" \
    --authorization-kubeconfig "$CLUSTER/controller-manager.kubeconfig" \
    --bind-address 127.0.0.1 --leader-elect=false --use-service-account-credentials \
    --service-account-private-key-file "$PKI/sa.key" --root-ca-file "$PKI/ca.crt" \
    --cluster-signing-cert-file "$PKI/ca.crt" --cluster-signing-key-file "$PKI/ca.key" \
    --service-cluster-ip-range "$SERVICE_CIDR" --profiling=false
  start kube-scheduler "$K8S_BIN/kube-scheduler" --kubeconfig "$CLUSTER/scheduler.kubeconfig" \
    --authentication-kubeconfig "$CLUSTER/scheduler.kubeconfig" \
    --authorization-kubeconfig "$CLUSTER/scheduler.kubeconfig" \
    --bind-address 127.0.0.1 --leader-elect=false --profiling=false
}

start_node() {
  local cd=$CLUSTER/containerd
  mkdir -p "$cd/certs.d/localhost:5000" "$CLUSTER/kubelet"
  printf 'server = "http://localhost:5000"\n[host."http://localhost:5000"]\n  capabilities = ["pull", "resolve"]\n' \
    >"$cd/certs.d/localhost:5000/hosts.toml"
  # restrict_oom_score_adj: root here lacks CAP_SYS_RESOURCE; without it every sandbox fails.
  write "$cd/config.toml" <<EOF
version = 2
root = "$cd/root"
state = "$cd/state"
[grpc]
  address = "$CONTAINERD_SOCK"
[ttrpc]
  address = "$CONTAINERD_SOCK.ttrpc"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "localhost:5000/prode-addons/pause:$K8S_VERSION"
  restrict_oom_score_adj = true
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        SystemdCgroup = false
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "$CLUSTER/cni/net.d"
  [plugins."io.containerd.grpc.v1.cri".registry]
    config_path = "$cd/certs.d"
EOF
  start containerd containerd --config "$cd/config.toml"
  wait_for containerd 30 ctr --address "$CONTAINERD_SOCK" version

  write "$CLUSTER/kubelet.yaml" <<EOF
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
authentication:
  anonymous: {enabled: false}
  webhook: {enabled: true}
  x509: {clientCAFile: "$PKI/ca.crt"}
authorization: {mode: Webhook}
tlsCertFile: "$PKI/kubelet.crt"
tlsPrivateKeyFile: "$PKI/kubelet.key"
containerRuntimeEndpoint: "unix://$CONTAINERD_SOCK"
cgroupDriver: cgroupfs
failCgroupV1: false
failSwapOn: false
clusterDNS: [10.96.0.10]
clusterDomain: cluster.local
address: $NODE_IP
readOnlyPort: 0
healthzBindAddress: 127.0.0.1
healthzPort: 10248
# A shared, noisy machine: no evictions for a few GB of disk, images kept.
evictionHard: {memory.available: "100Mi", nodefs.available: "1%", imagefs.available: "1%"}
imageGCHighThresholdPercent: 100
serializeImagePulls: false
EOF
  start kubelet "$K8S_BIN/kubelet" --config "$CLUSTER/kubelet.yaml" \
    --kubeconfig "$CLUSTER/kubelet.kubeconfig" --root-dir "$CLUSTER/kubelet" \
    --node-ip "$NODE_IP" --hostname-override "$NODE_NAME"

  write "$CLUSTER/kube-proxy.yaml" <<EOF
apiVersion: kubeproxy.config.k8s.io/v1alpha1
kind: KubeProxyConfiguration
clientConnection: {kubeconfig: "$CLUSTER/kube-proxy.kubeconfig"}
mode: iptables
clusterCIDR: $POD_CIDR
hostnameOverride: $NODE_NAME
bindAddress: 127.0.0.1
healthzBindAddress: 127.0.0.1:10256
metricsBindAddress: 127.0.0.1:10249
# Leave the machine's conntrack table size alone.
conntrack: {maxPerCore: 0}
EOF
  start kube-proxy "$K8S_BIN/kube-proxy" --config "$CLUSTER/kube-proxy.yaml"
  wait_for "node $NODE_NAME" 120 kubectl wait --for=condition=Ready "node/$NODE_NAME" --timeout=1s
}

apply_addons() {
  local f
  for f in coredns traefik storage; do
    sed -e "s|@REGISTRY@|localhost:5000|g" -e "s|@COREDNS_VERSION@|$COREDNS_VERSION|g" \
        -e "s|@TRAEFIK_VERSION@|$TRAEFIK_VERSION|g" -e "s|@HTTP_PORT@|$CLUSTER_HTTP_PORT|g" \
        -e "s|@ADMIN_PORT@|$TRAEFIK_ADMIN_PORT|g" "$ROOT/dev/cluster/addons/$f.yaml" \
      | kubectl apply --server-side --force-conflicts --field-manager=prode-cluster -f - >/dev/null
  done
  # hostPath volumes for the claims (the bundled PostgreSQL's): made once, kept until `down`.
  local i
  for i in 1 2 3; do
    mkdir -p "$CLUSTER/volumes/pv$i"; chmod 777 "$CLUSTER/volumes/pv$i"
    kubectl apply -f - >/dev/null <<EOF
apiVersion: v1
kind: PersistentVolume
metadata: {name: prode-pv$i}
spec:
  capacity: {storage: 50Gi}
  accessModes: [ReadWriteOnce]
  persistentVolumeReclaimPolicy: Retain
  storageClassName: standard
  hostPath: {path: "$CLUSTER/volumes/pv$i", type: Directory}
EOF
  done
  kubectl -n kube-system rollout status deploy/coredns --timeout=180s >&2
  kubectl -n traefik rollout status deploy/traefik --timeout=180s >&2
}

up() {
  [ "$(id -u)" -eq 0 ] || die "the cluster needs root (kubelet, containerd, iptables, the bridge)"
  if [ -s "$OWNER_FILE" ] && [ "$(cat "$OWNER_FILE")" != "$ROOT" ] && pgrep -f "kube-apiserver.*--secure-port $API_PORT" >/dev/null; then
    die "this machine's cluster belongs to $(cat "$OWNER_FILE"); run 'make cluster-down' there first"
  fi
  install_packages
  ensure_cluster_tools
  mkdir -p "$RUN" "$LOGS"
  echo "$ROOT" >"$OWNER_FILE"
  local t0=$SECONDS
  start_dockerd
  start_registry
  dev/images.sh addons
  make_pki
  make_bridge
  start_control_plane
  start_node
  apply_addons
  local name
  for name in etcd kube-apiserver kube-controller-manager kube-scheduler containerd kubelet kube-proxy; do
    pid_alive "$RUN/$name.pid" || die "$name is not running; see $LOGS/$name.log"
  done
  log "cluster up in $((SECONDS - t0)) s; ingress at http://localhost:$CLUSTER_HTTP_PORT/"
  echo "$KUBECONFIG_ADMIN"
}

# status: this checkout's cluster answers (never builds anything to find out).
status() {
  K8S_BIN=$TOOLS/kubernetes-$K8S_VERSION
  [ -s "$KUBECONFIG_ADMIN" ] && [ -x "$K8S_BIN/kubectl" ] && kubectl get --raw /readyz >/dev/null 2>&1
}

# Kill the containers the kubelet left (their shims outlive containerd), unmount what the
# kubelet and containerd mounted, then remove the bridge and kube-proxy's rules.
down() {
  [ -d "$CLUSTER" ] || { log "no cluster here"; return 0; }
  K8S_BIN=$TOOLS/kubernetes-$K8S_VERSION   # what `up` ran; nothing to build to stop it
  stop_pidfile "$RUN/kubelet.pid" kubelet
  if pid_alive "$RUN/containerd.pid" containerd; then
    local id
    for id in $(ctr --address "$CONTAINERD_SOCK" -n k8s.io tasks ls -q 2>/dev/null); do
      ctr --address "$CONTAINERD_SOCK" -n k8s.io tasks kill -s KILL "$id" >/dev/null 2>&1 || true
    done
    sleep 1
  fi
  stop_pidfile "$RUN/containerd.pid" containerd
  pkill -KILL -f "containerd-shim-runc-v2 .*-address $CONTAINERD_SOCK" 2>/dev/null || true
  stop_pidfile "$RUN/kube-proxy.pid" kube-proxy
  [ ! -x "$K8S_BIN/kube-proxy" ] || "$K8S_BIN/kube-proxy" --cleanup >/dev/null 2>&1 || true
  local name
  for name in kube-scheduler kube-controller-manager kube-apiserver etcd registry dockerd; do
    stop_pidfile "$RUN/$name.pid"
  done
  local m
  while IFS= read -r m; do
    umount -l "$m" 2>/dev/null || true
  done < <(awk -v c="$CLUSTER/" 'index($2, c) == 1 { print $2 }' /proc/self/mounts | sort -r)
  ip link del cni0 2>/dev/null || true
  # The CNI firewall plugin's chains (CNI-FORWARD/CNI-ADMIN) are harmless once the bridge is gone.
  [ "$(cat "$OWNER_FILE" 2>/dev/null)" != "$ROOT" ] || rm -f "$OWNER_FILE"
  rm -rf "$CLUSTER"
  log "cluster stopped and its state removed"
}

case ${1:-} in
  up) up ;;
  down) down ;;
  status) status ;;
  *) die "usage: dev/cluster.sh up|down|status" ;;
esac
