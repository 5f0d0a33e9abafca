// Package contract embeds the OpenAPI document of every route and checks real HTTP
// exchanges against it, so that the document cannot drift from the handlers.
package contract

import (
	_ "embed"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
)

// Document is openapi.yaml, the one API contract.
//
//go:embed openapi.yaml
var Document []byte

// Checker validates responses (and the requests that caused them) against Document.
type Checker struct {
	mu sync.Mutex // the validator caches compiled schemas and is not documented as safe for concurrent use
	v  validator.Validator
}

// NewChecker parses Document.
func NewChecker() (*Checker, error) {
	doc, err := libopenapi.NewDocument(Document)
	if err != nil {
		return nil, err
	}
	v, errs := validator.NewValidator(doc)
	if len(errs) > 0 {
		return nil, fmt.Errorf("openapi: %v", errs)
	}
	if ok, verrs := v.ValidateDocument(); !ok {
		return nil, fmt.Errorf("openapi document invalid: %s", describe(verrs))
	}
	return &Checker{v: v}, nil
}

// CheckResponse returns an error when resp (the answer to req) does not match the document:
// an undocumented path, method or status, or a body of the wrong shape.
func (c *Checker) CheckResponse(req *http.Request, resp *http.Response) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if ok, errs := c.v.ValidateHttpResponse(req, resp); !ok {
		return fmt.Errorf("%s %s -> %d does not match openapi.yaml: %s", req.Method, req.URL.Path, resp.StatusCode, describe(errs))
	}
	return nil
}

// CheckRequest returns an error when req does not match the document.
func (c *Checker) CheckRequest(req *http.Request) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if ok, errs := c.v.ValidateHttpRequest(req); !ok {
		return fmt.Errorf("%s %s does not match openapi.yaml: %s", req.Method, req.URL.Path, describe(errs))
	}
	return nil
}

func describe[E interface{ Error() string }](errs []E) string {
	parts := make([]string, 0, len(errs))
	for _, e := range errs {
		parts = append(parts, e.Error())
	}
	return strings.Join(parts, "; ")
}
