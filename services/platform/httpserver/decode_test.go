package httpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/gin-gonic/gin"

	"prode/platform/apierror"
)

// decodeAs runs DecodeJSON on body sent with contentType ("" sends no Content-Type).
func decodeAs(contentType string, body []byte, v any) error {
	gin.SetMode(gin.ReleaseMode)
	c, _ := gin.CreateTestContext(httptest.NewRecorder())
	c.Request = httptest.NewRequest("POST", "/", bytes.NewReader(body))
	if contentType != "" {
		c.Request.Header.Set("Content-Type", contentType)
	}
	return DecodeJSON(c, v, MaxBody)
}

// refusedWith fails unless err is the API error with status and code.
func refusedWith(t *testing.T, what string, err error, status int, code string) {
	t.Helper()
	var e *apierror.Error
	if !errors.As(err, &e) || e.Status != status || e.Code != code || e.Mensaje == "" {
		t.Errorf("%s: %v, want %d %s with a message", what, err, status, code)
	}
}

// A prediction as the web app sends it.
type entrada struct {
	Partido    *int64 `json:"partido"`
	GolesLocal *int   `json:"goles_local"`
}

const validBody = `{"partido": 7, "goles_local": 2}`

// What a browser's form on another site can send, and what a client may label a body with:
// only JSON in UTF-8 is read. A cross-site form (text/plain, form-encoded, multipart) is
// refused before its body is read, whatever it holds.
func TestDecodeJSONTakesOnlyJSONInUTF8(t *testing.T) {
	for _, ct := range []string{"application/json", "application/json; charset=utf-8",
		"application/json;charset=UTF-8", "Application/JSON"} {
		var v entrada
		if err := decodeAs(ct, []byte(validBody), &v); err != nil || *v.Partido != 7 || *v.GolesLocal != 2 {
			t.Errorf("Content-Type %q: %v %+v, want it read", ct, err, v)
		}
	}
	for _, ct := range []string{"", "text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded",
		"multipart/form-data; boundary=x", "application/jsonx", "application/json-patch+json", "json",
		"application/json; charset=utf-16", "application/json; charset=UTF-16LE", "application/json; charset=iso-8859-1",
		"application/json; charset="} {
		var v entrada
		refusedWith(t, "Content-Type "+ct, decodeAs(ct, []byte(validBody), &v), http.StatusUnsupportedMediaType, "tipo_no_soportado")
		if v != (entrada{}) {
			t.Errorf("Content-Type %q: the body was read anyway: %+v", ct, v)
		}
	}
	// The same JSON encoded as UTF-16, as labelled: refused, not misread.
	var utf16Body bytes.Buffer
	for _, u := range utf16.Encode([]rune(validBody)) {
		utf16Body.Write([]byte{byte(u), byte(u >> 8)})
	}
	refusedWith(t, "UTF-16 body", decodeAs("application/json; charset=utf-16", utf16Body.Bytes(), &entrada{}),
		http.StatusUnsupportedMediaType, "tipo_no_soportado")
}

// A body is read exactly as the JSON says or refused with a 400: never a key that encoding/json
// alone would have matched in its own way (repeated, in other capitals, folded), never a number
// that does not fit.
func TestDecodeJSONReadsOnlyWhatTheJSONSays(t *testing.T) {
	type equipo struct {
		Codigo string `json:"codigo"`
	}
	type cuerpo struct {
		Partido *int64          `json:"partido"`
		Goles   *int            `json:"goles_local"`
		Extra   map[string]int  `json:"extra"`
		Equipos []equipo        `json:"equipos"`
		Crudo   json.RawMessage `json:"crudo"`
	}
	for name, body := range map[string]string{
		"a byte order mark":                  "\uFEFF" + `{"partido": 1}`,
		"a key twice":                        `{"partido": 1, "partido": 2}`,
		"a key twice, the same value":        `{"partido": 1, "partido": 1}`,
		"a key twice in a map":               `{"extra": {"a": 1, "a": 2}}`,
		"a key twice in a list's object":     `{"equipos": [{"codigo": "ARG", "codigo": "BRA"}]}`,
		"a key twice in a raw value":         `{"crudo": {"x": 1, "x": 2}}`,
		"a key in capitals":                  `{"PARTIDO": 1}`,
		"a key in capitals beside the field": `{"goles_local": 1, "GOLES_LOCAL": 3}`,
		"a key with a long s":                `{"goleſ_local": 3}`,
		"a key in capitals after the field":  `{"equipos": [{"codigo": "ARG"}], "extra": {}, "partido": 1, "Partido": 2}`,
		"an unknown key":                     `{"partido": 1, "jugador": "x"}`,
		"a number past int64":                `{"partido": 99999999999999999999}`,
		"a number past float64":              `{"partido": 1e400}`,
		"an exponent for an integer":         `{"goles_local": 1e2}`,
		"a fraction for an integer":          `{"goles_local": 1.5}`,
		"a huge negative":                    `{"goles_local": -99999999999999999999999999}`,
		"deep nesting":                       `{"extra": ` + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + `}`,
		"deep nesting in a raw value":        `{"crudo": ` + strings.Repeat(`{"a":`, 1000) + `1` + strings.Repeat("}", 1000) + `}`,
		"no body":                            ``,
		"two values":                         `{"partido": 1} {"partido": 2}`,
	} {
		var v cuerpo
		refusedWith(t, name, decodeAs("application/json", []byte(body), &v), http.StatusBadRequest, "datos_invalidos")
	}

	// Kelvin sign (U+212A) folds into "k" for encoding/json.
	kelvin := struct {
		Kind string `json:"kind"`
	}{}
	refusedWith(t, "a key with the Kelvin sign", decodeAs("application/json", []byte(`{"\u212Aind": "x"}`), &kelvin),
		http.StatusBadRequest, "datos_invalidos")

	// What is accepted is exactly what was sent: keys that differ only in case are two keys of
	// a map, and a raw value keeps its own keys, unknown ones too.
	var v cuerpo
	body := `{"partido": 9007199254740993, "goles_local": 0, "extra": {"a": 1, "A": 2},
		"equipos": [{"codigo": "ARG"}, {"codigo": "ARG"}], "crudo": {"cualquiera": [1, {"y": null}]}}`
	if err := decodeAs("application/json", []byte(body), &v); err != nil {
		t.Fatalf("a valid body refused: %v", err)
	}
	want := cuerpo{Partido: ptr(int64(9007199254740993)), Goles: ptr(0), Extra: map[string]int{"a": 1, "A": 2},
		Equipos: []equipo{{"ARG"}, {"ARG"}}, Crudo: json.RawMessage(`{"cualquiera": [1, {"y": null}]}`)}
	if !reflect.DeepEqual(v, want) {
		t.Errorf("read %+v, want %+v", v, want)
	}
	// A raw body (the tournament import): any key, each once.
	var raw json.RawMessage
	if err := decodeAs("application/json", []byte(`{"name": "x", "Name": "y", "matches": []}`), &raw); err != nil {
		t.Errorf("a raw body with keys in two capitalisations: %v", err)
	}
	refusedWith(t, "a raw body with a key twice", decodeAs("application/json", []byte(`{"name": "x", "name": "y"}`), &raw),
		http.StatusBadRequest, "datos_invalidos")
}

// Untagged and embedded fields keep the names encoding/json gives them.
func TestDecodeJSONKnowsEveryFieldName(t *testing.T) {
	type Base struct {
		ID int `json:"id"`
	}
	var v struct {
		Base
		Nombre  string
		Oculto  string `json:"-"`
		Opcion  string `json:"opcion,omitempty"`
		privado string
	}
	if err := decodeAs("application/json", []byte(`{"id": 3, "Nombre": "a", "opcion": "b"}`), &v); err != nil ||
		v.ID != 3 || v.Nombre != "a" || v.Opcion != "b" {
		t.Errorf("%v %+v", err, v)
	}
	for _, body := range []string{`{"Oculto": "x"}`, `{"-": "x"}`, `{"privado": "x"}`, `{"Base": {}}`, `{"nombre": "a"}`} {
		refusedWith(t, body, decodeAs("application/json", []byte(body), &v), http.StatusBadRequest, "datos_invalidos")
	}
	_ = v.privado
}

func ptr[T any](v T) *T { return &v }
