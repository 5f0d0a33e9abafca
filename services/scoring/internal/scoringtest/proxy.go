package scoringtest

import (
	"net"
	"sync"
	"testing"
)

// Proxy is a TCP relay to a Redis that a test can take away and bring back on the same
// address, as when Redis is stopped and restarted.
type Proxy struct {
	t      testing.TB
	target string
	Addr   string
	mu     sync.Mutex
	ln     net.Listener
	conns  map[net.Conn]struct{}
}

// NewProxy relays 127.0.0.1:<free port> to target (host:port) and starts up.
func NewProxy(t testing.TB, target string) *Proxy {
	p := &Proxy{t: t, target: target, conns: map[net.Conn]struct{}{}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p.Addr = ln.Addr().String()
	p.serve(ln)
	t.Cleanup(p.Stop)
	return p
}

// Stop closes the listener and every relayed connection: Redis is gone.
func (p *Proxy) Stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		p.ln.Close()
		p.ln = nil
	}
	for c := range p.conns {
		c.Close()
	}
	clear(p.conns)
}

// Start listens again on the same address: Redis is back.
func (p *Proxy) Start() {
	ln, err := net.Listen("tcp", p.Addr)
	if err != nil {
		p.t.Fatal(err)
	}
	p.serve(ln)
}

func (p *Proxy) serve(ln net.Listener) {
	p.mu.Lock()
	p.ln = ln
	p.mu.Unlock()
	go func() {
		for {
			client, err := ln.Accept()
			if err != nil {
				return
			}
			server, err := net.Dial("tcp", p.target)
			if err != nil {
				client.Close()
				continue
			}
			p.mu.Lock()
			if p.ln != ln { // stopped meanwhile
				p.mu.Unlock()
				client.Close()
				server.Close()
				return
			}
			p.conns[client], p.conns[server] = struct{}{}, struct{}{}
			p.mu.Unlock()
			go relay(client, server)
			go relay(server, client)
		}
	}()
}

func relay(dst, src net.Conn) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				break
			}
		}
		if err != nil {
			break
		}
	}
	dst.Close()
	src.Close()
}
