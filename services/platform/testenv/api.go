package testenv

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"prode/platform/contract"
)

var (
	checkerOnce sync.Once
	checker     *contract.Checker
	checkerErr  error
)

// API sends requests to a service's handler and checks every response against the OpenAPI
// contract, failing the test on any mismatch.
type API struct {
	t       testing.TB
	handler http.Handler
}

// NewAPI wraps a service's HTTP handler.
func NewAPI(t testing.TB, handler http.Handler) *API {
	t.Helper()
	checkerOnce.Do(func() { checker, checkerErr = contract.NewChecker() })
	if checkerErr != nil {
		t.Fatalf("contract: %v", checkerErr)
	}
	return &API{t: t, handler: handler}
}

// Response is what a test reads of an answer.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// Decode unmarshals the body into v, failing the test on error.
func (r *Response) Decode(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("decode %s: %v", r.Body, err)
	}
}

// ErrorCode is the body's stable error code ("" when there is none).
func (r *Response) ErrorCode() string {
	var body struct {
		Error string `json:"error"`
	}
	_ = json.Unmarshal(r.Body, &body)
	return body.Error
}

// Refuses reports whether the answer is the contract's error of that status and code, with a
// message for the user.
func (r *Response) Refuses(status int, code string) bool {
	return r.Status == status && r.ErrorCode() == code && bytes.Contains(r.Body, []byte(`"mensaje":"`))
}

// Refusal is a GET a test expects refused: its URL, status and error code (Response.Refuses).
type Refusal struct {
	URL    string
	Status int
	Code   string
}

// Do sends a request. body is marshalled as JSON unless it is a string or []byte, sent as is.
// Options such as WithCookie and WithHeader adjust the request.
func (a *API) Do(method, path string, body any, opts ...func(*http.Request)) *Response {
	a.t.Helper()
	req := NewRequest(a.t, method, path, body, opts...)
	rec := httptest.NewRecorder()
	a.handler.ServeHTTP(rec, req)
	res := rec.Result()
	raw, _ := io.ReadAll(res.Body)
	res.Body = io.NopCloser(bytes.NewReader(raw))
	checkReq := NewRequest(a.t, method, path, body, opts...)
	if err := checker.CheckResponse(checkReq, res); err != nil {
		a.t.Errorf("%v\nbody: %s", err, raw)
	}
	return &Response{Status: res.StatusCode, Header: res.Header, Body: raw}
}

// NewRequest builds a request as Do sends it.
func NewRequest(t testing.TB, method, path string, body any, opts ...func(*http.Request)) *http.Request {
	t.Helper()
	var reader io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		reader = bytes.NewBufferString(b)
	case []byte:
		reader = bytes.NewReader(b)
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		reader = bytes.NewReader(raw)
	}
	req := httptest.NewRequest(method, path, reader)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for _, opt := range opts {
		opt(req)
	}
	return req
}

// WithCookie adds a cookie (a player's session).
func WithCookie(c *http.Cookie) func(*http.Request) {
	return func(r *http.Request) {
		if c != nil {
			r.AddCookie(c)
		}
	}
}

// WithHeader sets a header.
func WithHeader(k, v string) func(*http.Request) { return func(r *http.Request) { r.Header.Set(k, v) } }

// As signs the request in as p.
func As(p Player) func(*http.Request) { return WithCookie(p.Cookie) }
