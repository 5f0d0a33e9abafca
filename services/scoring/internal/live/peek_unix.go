//go:build linux || darwin || freebsd || netbsd || openbsd

package live

import (
	"errors"
	"net"
	"syscall"
)

// peerClosed reports whether the client closed the connection (or reset it), looking without
// waiting and without taking anything: a stream has no reader goroutine, so a client that
// left is found here, at the heartbeat, before a write to it would fail.
func peerClosed(c net.Conn) bool {
	sc, ok := c.(syscall.Conn)
	if !ok {
		return false
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return true
	}
	closed := false
	var b [1]byte
	err = raw.Read(func(fd uintptr) bool {
		n, _, err := syscall.Recvfrom(int(fd), b[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
		switch {
		case errors.Is(err, syscall.EAGAIN), errors.Is(err, syscall.EWOULDBLOCK), errors.Is(err, syscall.EINTR):
			// nothing to read: still open
		case err != nil:
			closed = true
		case n == 0:
			closed = true // end of stream
		}
		return true // done: never wait for data
	})
	return closed || err != nil
}
