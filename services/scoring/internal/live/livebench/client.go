package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"time"
)

// sseClient is one stream, read line by line.
type sseClient struct {
	conn net.Conn
	r    *bufio.Reader
}

func openStream(addr, path string) (*sseClient, error) {
	conn, err := net.DialTimeout("tcp", addr, 10*time.Second)
	if err != nil {
		return nil, err
	}
	if _, err := io.WriteString(conn, "GET "+path+" HTTP/1.1\r\nHost: livebench\r\n\r\n"); err != nil {
		conn.Close()
		return nil, err
	}
	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	r := bufio.NewReaderSize(conn, 256)
	status, err := r.ReadString('\n')
	if err != nil || !strings.HasPrefix(status, "HTTP/1.1 200") {
		conn.Close()
		return nil, fmt.Errorf("status %q: %v", status, err)
	}
	for { // the head, then the retry field and its blank line
		line, err := r.ReadString('\n')
		if err != nil {
			conn.Close()
			return nil, err
		}
		if strings.HasPrefix(line, "retry:") {
			break
		}
	}
	_ = conn.SetReadDeadline(time.Time{})
	return &sseClient{conn: conn, r: r}, nil
}

// read calls onEvent with each event's id until the stream ends.
func (c *sseClient) read(onEvent func(id int64)) {
	defer c.conn.Close()
	for {
		line, err := c.r.ReadSlice('\n')
		if err != nil {
			return
		}
		if rest, ok := bytes.CutPrefix(line, []byte("id: ")); ok {
			id, _ := strconv.ParseInt(string(bytes.TrimSpace(rest)), 10, 64)
			onEvent(id)
		}
	}
}
