//go:build !(linux || darwin || freebsd || netbsd || openbsd)

package live

import "net"

// peerClosed cannot look here: a closed client is found when a write to it fails.
func peerClosed(net.Conn) bool { return false }
