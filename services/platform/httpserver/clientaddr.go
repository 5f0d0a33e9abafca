package httpserver

import (
	"net/http"
	"net/netip"
	"strings"

	"github.com/gin-gonic/gin"
)

// ClientAddress is the address of the client that sent the request, as the nearest trusted
// proxy saw it (Config.TrustedProxyHops); the per-address sign-in limit keys on it. It is
// worked out on first use, once per request. Outside a Server's engine (no middleware ran) it
// is the connection's address.
func ClientAddress(c *gin.Context) string {
	r := requestOf(c)
	if r == nil {
		return connectionAddress(c.Request)
	}
	if r.clientAddress == "" {
		r.clientAddress = clientAddress(c.Request, r.trustedProxyHops)
	}
	return r.clientAddress
}

// clientAddress reads X-Forwarded-For from the RIGHT. Each proxy that appends adds the address
// it saw at the end, so the last trustedProxyHops entries were written by our proxies and the
// entry trustedProxyHops from the right is the address the outermost of them saw. Anything to
// its left came from the client and may be forged; taking the first entry (as we once did) let
// a client behind an appending proxy pick its own rate-limit bucket.
//
//   - 0 hops: no proxy is trusted; the header is ignored and the connection's address is used.
//   - Fewer entries than hops: the leftmost one. A proxy that overwrites the header (ingress-nginx
//     by default, the local nginx) leaves one entry, the address it saw, whatever the hop count.
//   - The chosen entry is not an address (e.g. "unknown"): the connection's address.
//
// Every X-Forwarded-For line counts, in order: a proxy may append a line instead of extending
// the last one, and its entry is then only in that line.
func clientAddress(r *http.Request, trustedProxyHops int) string {
	if trustedProxyHops <= 0 {
		return connectionAddress(r)
	}
	var entries []string
	for _, line := range r.Header.Values("X-Forwarded-For") {
		for _, entry := range strings.Split(line, ",") {
			entries = append(entries, strings.TrimSpace(entry))
		}
	}
	if len(entries) == 0 {
		return connectionAddress(r)
	}
	chosen := max(len(entries)-trustedProxyHops, 0)
	if addr, ok := parseAddress(entries[chosen]); ok {
		return addr
	}
	return connectionAddress(r)
}

// connectionAddress is the TCP peer: the client itself, or the nearest proxy.
func connectionAddress(r *http.Request) string {
	if addr, ok := parseAddress(r.RemoteAddr); ok {
		return addr
	}
	return r.RemoteAddr
}

// parseAddress accepts an IP with or without a port (some load balancers write ip:port) and
// returns it in one canonical form, so that one client is one key: IPv4-mapped IPv6 as IPv4,
// IPv6 compressed, no zone.
func parseAddress(s string) (string, bool) {
	addr, err := netip.ParseAddr(s)
	if err != nil {
		addrPort, errPort := netip.ParseAddrPort(s)
		if errPort != nil {
			return "", false
		}
		addr = addrPort.Addr()
	}
	return addr.Unmap().WithZone("").String(), true
}
