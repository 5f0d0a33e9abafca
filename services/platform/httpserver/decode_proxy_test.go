package httpserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/gin-gonic/gin"
)

// A body over the limit gets the API's 413 even from a client that sends the whole body before
// reading the answer, as a proxy streaming it does (the ingress, Traefik): the service reads the
// rest of the body (up to drainLimit) before answering. Closing the connection with the rest
// unread resets it, and the client, still writing, never reads the 413: Traefik answered 502
// for it in the cluster test.
func TestATooLargeBodySentWholeIsA413(t *testing.T) {
	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	r.POST("/api/x", func(c *gin.Context) {
		var v map[string]any
		if err := DecodeJSON(c, &v, MaxBody); err != nil {
			Fail(c, err)
			return
		}
		c.Status(http.StatusNoContent)
	})
	service := httptest.NewServer(r)
	defer service.Close()

	body := bytes.Repeat([]byte("x"), 4<<20)
	conn, err := net.Dial("tcp", service.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = conn.Close() }()
	_ = conn.SetDeadline(time.Now().Add(20 * time.Second))
	request := fmt.Sprintf("POST /api/x HTTP/1.1\r\nHost: prode\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", len(body))
	if _, err := conn.Write(append([]byte(request), body...)); err != nil {
		t.Fatalf("sending the whole body: %v (the service closed the connection with it unread)", err)
	}
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("reading the answer: %v", err)
	}
	defer func() { _ = res.Body.Close() }()
	var answer struct {
		Error string `json:"error"`
	}
	_ = json.NewDecoder(res.Body).Decode(&answer)
	if res.StatusCode != http.StatusRequestEntityTooLarge || answer.Error != "cuerpo_demasiado_grande" {
		t.Fatalf("%d %q, want 413 cuerpo_demasiado_grande", res.StatusCode, answer.Error)
	}
}
