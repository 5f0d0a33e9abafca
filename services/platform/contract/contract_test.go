package contract

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestDocumentIsValidOpenAPI(t *testing.T) {
	if _, err := NewChecker(); err != nil {
		t.Fatal(err)
	}
}

func TestCheckerRefusesWhatTheDocumentDoesNotSay(t *testing.T) {
	c, err := NewChecker()
	if err != nil {
		t.Fatal(err)
	}
	respond := func(status int, body string) *http.Response {
		return &http.Response{StatusCode: status, Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(strings.NewReader(body))}
	}
	req := httptest.NewRequest(http.MethodGet, "/api/posiciones", nil)
	good := `{"torneo":1,"version":3,"pagina":1,"por_pagina":100,"total":1,"posiciones":[{"posicion":1,"id":7,"nombre":"Ana","puntaje":10,"exactos":1,"aciertos":1,"posicion_anterior":null,"bonus":0}]}`
	if err := c.CheckResponse(req, respond(200, good)); err != nil {
		t.Fatalf("a valid page was refused: %v", err)
	}
	missingRank := `{"torneo":1,"version":3,"pagina":1,"por_pagina":100,"total":1,"posiciones":[{"id":7,"nombre":"Ana","puntaje":10,"exactos":1,"aciertos":1,"posicion_anterior":null,"bonus":0}]}`
	if err := c.CheckResponse(req, respond(200, missingRank)); err == nil {
		t.Fatal("a row without posicion was accepted")
	}
	withEmail := `{"torneo":1,"version":3,"pagina":1,"por_pagina":100,"total":1,"posiciones":[{"posicion":1,"id":7,"nombre":"Ana","email":"a@b.c","puntaje":10,"exactos":1,"aciertos":1,"posicion_anterior":null,"bonus":0}]}`
	if err := c.CheckResponse(req, respond(200, withEmail)); err == nil {
		t.Fatal("a row with an e-mail address was accepted")
	}
	if err := c.CheckResponse(req, respond(418, `{}`)); err == nil {
		t.Fatal("an undocumented status was accepted")
	}
}
