package live

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
)

// EventName is the SSE event type of a standings event.
const EventName = "posiciones"

// data is an event's JSON, on the wire and on the Redis channel.
type data struct {
	Torneo  int64 `json:"torneo"`
	Version int64 `json:"version"`
}

func payload(e Event) string {
	return `{"torneo":` + strconv.FormatInt(e.Torneo, 10) + `,"version":` + strconv.FormatInt(e.ID, 10) + `}`
}

func parsePayload(raw string) (Event, bool) {
	var d data
	if err := json.Unmarshal([]byte(raw), &d); err != nil || d.Version <= 0 {
		return Event{}, false
	}
	return Event{ID: d.Version, Torneo: d.Torneo}, true
}

// wire is an event as the stream carries it.
func wire(e Event) []byte {
	return []byte("id: " + strconv.FormatInt(e.ID, 10) + "\nevent: " + EventName + "\ndata: " + payload(e) + "\n\n")
}

// heartbeat is a comment, which EventSource ignores.
var heartbeat = []byte(": ping\n\n")

// Head is the HTTP/1.1 response head of a stream, with the headers already in h (the
// middleware's: request id, security headers) and the stream's own: text/event-stream,
// no-store, X-Accel-Buffering: no (nginx passes each event on at once instead of buffering)
// and Connection: close. The body is neither chunked nor sized: it ends when the connection
// closes, which HTTP/1.1 allows (RFC 9112, 6.3) and the proxies pass on as a stream.
func Head(h http.Header) []byte {
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	h.Set("Connection", "close")
	h.Del("Content-Length")
	h.Del("Transfer-Encoding")
	var b bytes.Buffer
	b.WriteString("HTTP/1.1 200 OK\r\n")
	_ = h.Write(&b) // sorted, values sanitised
	b.WriteString("\r\n")
	return b.Bytes()
}
