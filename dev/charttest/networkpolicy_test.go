package charttest

// NetworkPolicies, evaluated the way Kubernetes does (no cluster here enforces them): traffic
// from A to B on a port flows when A's egress and B's ingress both allow it. A pod no policy of
// a direction selects is open in that direction; once one selects it, only what some rule of
// those policies allows gets through.

import (
	"fmt"
	"net/netip"
	"testing"

	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// endpoint is a pod (labels set) or an address outside the cluster (labels nil).
type endpoint struct {
	name      string
	namespace string
	nsLabels  map[string]string
	labels    map[string]string
	ip        string
	ports     map[string]int32 // named container ports, for policies that name them
}

func (e endpoint) isPod() bool { return e.labels != nil }

type policySet struct {
	namespace string // where the release (and its policies) live
	policies  []networkingv1.NetworkPolicy
}

// allowed: may src open a TCP connection to dst:port?
func (s policySet) allowed(src, dst endpoint, port int32) bool {
	return s.egressAllowed(src, dst, port) && s.ingressAllowed(src, dst, port)
}

func (s policySet) egressAllowed(src, dst endpoint, port int32) bool {
	return s.directionAllowed(networkingv1.PolicyTypeEgress, src, dst, dst, port)
}

func (s policySet) ingressAllowed(src, dst endpoint, port int32) bool {
	return s.directionAllowed(networkingv1.PolicyTypeIngress, dst, src, dst, port)
}

// rule is an egress or an ingress rule: the ports it opens, to or from its peers.
type rule struct {
	ports []networkingv1.NetworkPolicyPort
	peers []networkingv1.NetworkPolicyPeer
}

// rulesOf are p's rules of type t: its egress rules (to their peers) or its ingress rules (from
// theirs).
func rulesOf(p networkingv1.NetworkPolicy, t networkingv1.PolicyType) []rule {
	var rules []rule
	if t == networkingv1.PolicyTypeEgress {
		for _, r := range p.Spec.Egress {
			rules = append(rules, rule{r.Ports, r.To})
		}
		return rules
	}
	for _, r := range p.Spec.Ingress {
		rules = append(rules, rule{r.Ports, r.From})
	}
	return rules
}

// directionAllowed: may pod (the source for egress, the destination for ingress) talk with peer,
// to dst's port, as far as the policies of type t say (their rules of that type)?
func (s policySet) directionAllowed(t networkingv1.PolicyType, pod, peer, dst endpoint, port int32) bool {
	if !pod.isPod() || pod.namespace != s.namespace {
		return true // not ours to restrict
	}
	selected := false
	for _, p := range s.policies {
		if !hasType(p, t) || !selects(p.Spec.PodSelector, pod.labels) {
			continue
		}
		selected = true
		for _, r := range rulesOf(p, t) {
			if portsMatch(r.ports, dst, port) && peersMatch(r.peers, peer, s.namespace) {
				return true
			}
		}
	}
	return !selected
}

func hasType(p networkingv1.NetworkPolicy, t networkingv1.PolicyType) bool {
	for _, pt := range p.Spec.PolicyTypes {
		if pt == t {
			return true
		}
	}
	return false
}

func selects(sel metav1.LabelSelector, l map[string]string) bool {
	s, err := metav1.LabelSelectorAsSelector(&sel)
	if err != nil {
		panic(err)
	}
	return s.Matches(labels.Set(l))
}

// portsMatch: no ports means every port; a named port is the destination container's.
func portsMatch(ports []networkingv1.NetworkPolicyPort, dst endpoint, port int32) bool {
	if len(ports) == 0 {
		return true
	}
	for _, p := range ports {
		if p.Protocol != nil && *p.Protocol != corev1.ProtocolTCP {
			continue
		}
		switch {
		case p.Port == nil:
			return true
		case p.Port.StrVal != "":
			if n, ok := dst.ports[p.Port.StrVal]; ok && n == port {
				return true
			}
		case p.EndPort != nil:
			if port >= p.Port.IntVal && port <= *p.EndPort {
				return true
			}
		case p.Port.IntVal == port:
			return true
		}
	}
	return false
}

// peersMatch: no peers means everyone. A podSelector alone means the policy's namespace; an
// ipBlock matches by address, pods included (some network plugins do, so a test that denies
// must not count on them not to).
func peersMatch(peers []networkingv1.NetworkPolicyPeer, e endpoint, policyNS string) bool {
	if len(peers) == 0 {
		return true
	}
	for _, p := range peers {
		if p.IPBlock != nil {
			if ipIn(e.ip, p.IPBlock) {
				return true
			}
			continue
		}
		if !e.isPod() {
			continue
		}
		nsOK := e.namespace == policyNS
		if p.NamespaceSelector != nil {
			nsOK = selects(*p.NamespaceSelector, e.nsLabels)
		}
		podOK := p.PodSelector == nil || selects(*p.PodSelector, e.labels)
		if nsOK && podOK {
			return true
		}
	}
	return false
}

func ipIn(ip string, b *networkingv1.IPBlock) bool {
	addr, err := netip.ParseAddr(ip)
	if err != nil {
		return false
	}
	if pfx, err := netip.ParsePrefix(b.CIDR); err != nil || !pfx.Contains(addr) {
		return false
	}
	for _, ex := range b.Except {
		if pfx, err := netip.ParsePrefix(ex); err == nil && pfx.Contains(addr) {
			return false
		}
	}
	return true
}

// Acceptance 4 (and DESIGN.md section 3): web reaches no database and no service; each pod
// reaches only what it needs.
func TestNetworkPolicies(t *testing.T) {
	for _, vs := range valueSets {
		t.Run(vs.name, func(t *testing.T) {
			m := render(t, vs)
			set := policySet{namespace: "prode", policies: m.networkPolicies(t)}
			if len(set.policies) == 0 {
				t.Fatal("no NetworkPolicies")
			}
			ns := map[string]string{"kubernetes.io/metadata.name": "prode"}
			ip := 10
			pod := func(component string) (endpoint, bool) {
				w, ok := m.component(t, component)
				if !ok {
					return endpoint{}, false
				}
				ports := map[string]int32{}
				for _, c := range w.spec.Containers {
					for _, p := range c.Ports {
						ports[p.Name] = p.ContainerPort
					}
				}
				ip++
				return endpoint{component, "prode", ns, w.labels, fmt.Sprintf("10.244.0.%d", ip), ports}, true
			}
			mustPod := func(component string) endpoint {
				e, ok := pod(component)
				if !ok {
					t.Fatalf("no %s pod template", component)
				}
				return e
			}
			outside := func(name, namespace string, podLabels map[string]string, ip string) endpoint {
				return endpoint{name, namespace, map[string]string{"kubernetes.io/metadata.name": namespace}, podLabels, ip, nil}
			}
			ingressNginx := outside("ingress-nginx", "ingress-nginx", map[string]string{"app.kubernetes.io/name": "ingress-nginx"}, "10.244.9.1")
			prometheus := outside("prometheus", "monitoring", map[string]string{"app.kubernetes.io/name": "prometheus"}, "10.244.9.2")
			dns := outside("kube-dns", "kube-system", map[string]string{"k8s-app": "kube-dns"}, "10.244.9.3")
			stranger := outside("a pod of another app", "other", map[string]string{"app": "other"}, "10.244.9.4")
			google := endpoint{name: "Google", ip: "142.250.0.10"}

			// Where the databases are: the bundled pods, or addresses in the configured ranges.
			type target struct {
				e    endpoint
				port int32
			}
			var databases []target
			postgres, bundledPG := pod("postgresql")
			if bundledPG {
				databases = append(databases, target{postgres, 5432})
			}
			redis, bundledRedis := pod("redis")
			if bundledRedis {
				databases = append(databases, target{redis, 6379})
			}
			// An external database in every address range some policy names, and one elsewhere.
			addrs := map[string]bool{"203.0.113.7": true}
			for _, p := range set.policies {
				for _, r := range p.Spec.Egress {
					for _, peer := range r.To {
						if peer.IPBlock != nil {
							addrs[netip.MustParsePrefix(peer.IPBlock.CIDR).Addr().Next().String()] = true
						}
					}
				}
			}
			for addr := range addrs {
				for _, port := range []int32{5432, 6379} {
					databases = append(databases, target{endpoint{name: "external " + addr, ip: addr}, port})
				}
			}
			pgTarget := target{postgres, 5432}
			if !bundledPG {
				pgTarget = target{endpoint{name: "the external PostgreSQL", ip: firstAddr(t, set, 5432)}, 5432}
			}

			expect := func(src, dst endpoint, port int32, want bool) {
				t.Helper()
				if got := set.allowed(src, dst, port); got != want {
					t.Errorf("%s -> %s:%d allowed=%v, want %v", src.name, dst.name, port, got, want)
				}
			}

			// web reaches no database: not even its own egress allows it (the database's ingress
			// policy alone would not do if the database moved out of the release).
			web := mustPod("web")
			for _, db := range databases {
				expect(web, db.e, db.port, false)
				if set.egressAllowed(web, db.e, db.port) {
					t.Errorf("web's egress allows %s:%d", db.e.name, db.port)
				}
			}
			// PgBouncer, when on, is the way to PostgreSQL of the services whose DATABASE_URL
			// names it; it reaches PostgreSQL, nobody else reaches it.
			bouncer, withBouncer := pod("pgbouncer")
			if withBouncer {
				expect(bouncer, pgTarget.e, pgTarget.port, true)
				expect(bouncer, dns, 53, true)
				expect(bouncer, google, 443, false)
				for _, src := range []endpoint{web, stranger, ingressNginx} {
					expect(src, bouncer, 6432, false)
				}
			}
			for _, name := range goServices {
				svc := mustPod(name)
				w, _ := m.component(t, name)
				if withBouncer {
					pooled := behindPgBouncer(t, m, w.spec.Containers[0])
					expect(svc, bouncer, 6432, pooled)
					expect(svc, pgTarget.e, pgTarget.port, !pooled)
				} else {
					expect(svc, pgTarget.e, pgTarget.port, true)
				}
				expect(web, svc, 8080, false)
				expect(web, svc, 9090, false)
				expect(ingressNginx, svc, 8080, true)
				expect(ingressNginx, svc, 9090, false)
				expect(prometheus, svc, 9090, true)
				expect(stranger, svc, 8080, false)
				expect(svc, dns, 53, true)
				expect(svc, web, 8080, false)
				for _, other := range goServices {
					if other != name {
						expect(svc, mustPod(other), 8080, false)
					}
				}
				if bundledRedis {
					expect(svc, redis, 6379, name == "players" || name == "scoring") // the shared rate limits; the cache
				}
			}
			expect(web, dns, 53, false)
			expect(web, google, 443, false)
			expect(ingressNginx, web, 8080, true)
			expect(prometheus, web, 8080, false)
			expect(stranger, web, 8080, false)

			// Google sign-in needs Google's token endpoint and signing keys; dev sign-in nothing.
			playersWorkload, _ := m.component(t, "players")
			dev, _ := envValue(playersWorkload.spec.Containers[0], "DEV_LOGIN")
			expect(mustPod("players"), google, 443, dev.Value != "true")
			expect(mustPod("fixtures"), google, 443, false)

			// The Jobs and the predictions-index CronJob (on in every value set): DNS and
			// PostgreSQL, which admits them; nothing else.
			mustPod("predictions-index")
			for _, job := range []string{"migrations", "fixtures-seed", "predictions-index"} {
				if j, ok := pod(job); ok {
					expect(j, pgTarget.e, pgTarget.port, true)
					expect(j, dns, 53, true)
					expect(j, web, 8080, false)
					expect(j, google, 443, false)
					expect(j, stranger, 8080, false)
					expect(stranger, j, 8080, false)
					for _, name := range goServices {
						expect(j, mustPod(name), 8080, false)
					}
					if withBouncer {
						expect(j, bouncer, 6432, false)
					}
					if bundledRedis {
						expect(j, redis, 6379, false)
					}
				}
			}
			if bundledPG {
				expect(ingressNginx, postgres, 5432, false)
				expect(stranger, postgres, 5432, false)
				expect(postgres, google, 443, false)
			}
			if bundledRedis {
				expect(stranger, redis, 6379, false)
			}
			test := mustPod("test")
			expect(test, web, 8080, true)
			expect(test, mustPod("fixtures"), 8080, true)
			expect(test, pgTarget.e, pgTarget.port, false)
		})
	}
}

// firstAddr: an address the policies allow to reach on port (the external database).
func firstAddr(t *testing.T, s policySet, port int32) string {
	for _, p := range s.policies {
		for _, r := range p.Spec.Egress {
			if !portsMatch(r.Ports, endpoint{}, port) {
				continue
			}
			for _, peer := range r.To {
				if peer.IPBlock != nil {
					return netip.MustParsePrefix(peer.IPBlock.CIDR).Addr().Next().String()
				}
			}
		}
	}
	t.Fatalf("no address range allowed on port %d", port)
	return ""
}

// releasePod: the endpoint of a component's pod in a rendered release (namespace prode).
func releasePod(t *testing.T, m *manifests, component, ip string) endpoint {
	t.Helper()
	w, ok := m.component(t, component)
	if !ok {
		t.Fatalf("no %s pod template", component)
	}
	ports := map[string]int32{}
	for _, c := range w.spec.Containers {
		for _, p := range c.Ports {
			ports[p.Name] = p.ContainerPort
		}
	}
	return endpoint{component, "prode", map[string]string{"kubernetes.io/metadata.name": "prode"}, w.labels, ip, ports}
}

// The values for clusters whose DNS or load balancer is not a pod, and the operator's own
// rules: each opens what it says, for whom it says, and nothing else. Every case checks the
// same traffic with and without the value, so a value that opened nothing would fail too.
func TestNetworkPolicyValuesForManagedClusters(t *testing.T) {
	base := render(t, valueSets[0])
	components := []string{"web", "players", "fixtures", "predictions", "scoring", "migrations", "predictions-index", "postgresql", "redis"}
	pods := map[string]endpoint{}
	for i, name := range components {
		pods[name] = releasePod(t, base, name, fmt.Sprintf("10.244.0.%d", 10+i))
	}
	outside := func(name, ip string) endpoint { return endpoint{name: name, ip: ip} }
	nodeLocalDNS := outside("NodeLocal DNSCache", "169.254.20.10")
	alb := outside("an ALB in the VPC", "10.0.3.4")
	partner := outside("a partner's API", "203.0.113.10")
	scraper := outside("an external scraper", "192.0.2.50")
	stranger := endpoint{"a pod of another app", "other", map[string]string{"kubernetes.io/metadata.name": "other"}, map[string]string{"app": "other"}, "10.244.9.4", nil}

	type flow struct {
		src, dst endpoint
		port     int32
		want     bool // with the value; without it, every flow listed is denied
	}
	cases := []struct {
		name  string
		args  []string
		flows func(p map[string]endpoint) []flow
	}{
		{"dns.ipBlocks: NodeLocal DNS", []string{"--set", "networkPolicy.dns.ipBlocks[0]=169.254.20.10/32"}, func(p map[string]endpoint) []flow {
			fs := []flow{
				{p["web"], nodeLocalDNS, 53, false}, // web resolves nothing
				{p["players"], outside("another link-local address", "169.254.20.11"), 53, false},
				{p["players"], nodeLocalDNS, 443, false},
				{p["postgresql"], nodeLocalDNS, 53, false},
			}
			for _, name := range []string{"players", "fixtures", "predictions", "scoring", "migrations", "predictions-index"} {
				fs = append(fs, flow{p[name], nodeLocalDNS, 53, true})
			}
			return fs
		}},
		{"ingressController.ipBlocks: an ALB's VPC", []string{"--set", "networkPolicy.ingressController.ipBlocks[0]=10.0.0.0/16"}, func(p map[string]endpoint) []flow {
			fs := []flow{
				{alb, p["web"], 8080, true},
				{outside("outside the VPC", "10.1.0.1"), p["web"], 8080, false},
				{alb, p["postgresql"], 5432, false},
				{alb, p["redis"], 6379, false},
			}
			for _, name := range goServices {
				fs = append(fs, flow{alb, p[name], 8080, true}, flow{alb, p[name], 9090, false})
			}
			return fs
		}},
		{"extraIngress: every pod", []string{"--set", "networkPolicy.extraIngress[0].from[0].ipBlock.cidr=192.0.2.0/24",
			"--set", "networkPolicy.extraIngress[0].ports[0].port=9090"}, func(p map[string]endpoint) []flow {
			fs := []flow{{outside("another address", "198.51.100.50"), p["players"], 9090, false}, {scraper, p["web"], 8080, false}}
			for _, name := range goServices {
				fs = append(fs, flow{scraper, p[name], 9090, true}, flow{scraper, p[name], 8080, false})
			}
			return fs
		}},
		{"extraEgress: every pod", []string{"--set", "networkPolicy.extraEgress[0].to[0].ipBlock.cidr=203.0.113.10/32",
			"--set", "networkPolicy.extraEgress[0].ports[0].port=8443"}, func(p map[string]endpoint) []flow {
			fs := []flow{{p["web"], partner, 443, false}, {p["web"], outside("next door", "203.0.113.11"), 8443, false}}
			for _, name := range components {
				fs = append(fs, flow{p[name], partner, 8443, true})
			}
			return fs
		}},
		{"perComponent: players only", []string{"--set", "networkPolicy.perComponent.players.extraEgress[0].to[0].ipBlock.cidr=203.0.113.10/32",
			"--set", "networkPolicy.perComponent.players.extraEgress[0].ports[0].port=443"}, func(p map[string]endpoint) []flow {
			return []flow{
				{p["players"], partner, 443, true},
				{p["players"], partner, 80, false},
				{p["fixtures"], partner, 443, false},
				{p["web"], partner, 443, false},
				{p["migrations"], partner, 443, false},
				{p["predictions-index"], partner, 443, false},
			}
		}},
		{"perComponent: web from another namespace", []string{"--set", "networkPolicy.perComponent.web.extraIngress[0].from[0].namespaceSelector.matchLabels.kubernetes\\.io/metadata\\.name=other"}, func(p map[string]endpoint) []flow {
			return []flow{
				{stranger, p["web"], 8080, true},
				{stranger, p["players"], 8080, false},
				{stranger, p["postgresql"], 5432, false},
			}
		}},
	}
	without := policySet{namespace: "prode", policies: base.networkPolicies(t)}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := render(t, valueSets[0], c.args...)
			with := policySet{namespace: "prode", policies: m.networkPolicies(t)}
			for _, f := range c.flows(pods) {
				if got := with.allowed(f.src, f.dst, f.port); got != f.want {
					t.Errorf("with the value: %s -> %s:%d allowed=%v, want %v", f.src.name, f.dst.name, f.port, got, f.want)
				}
				if without.allowed(f.src, f.dst, f.port) {
					t.Errorf("without the value: %s -> %s:%d is already allowed", f.src.name, f.dst.name, f.port)
				}
			}
			// Nothing else moved: every flow of the release's own pods is as it was.
			for _, src := range pods {
				for _, dst := range pods {
					for _, port := range []int32{53, 5432, 6379, 8080, 9090} {
						if with.allowed(src, dst, port) != without.allowed(src, dst, port) {
							t.Errorf("%s -> %s:%d changed", src.name, dst.name, port)
						}
					}
				}
			}
		})
	}
}
