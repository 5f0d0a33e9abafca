package httpserver

import (
	"bytes"
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"

	"prode/platform/apierror"
)

// maxDepth bounds how deeply a body may nest objects and arrays. Ours nest three levels (a
// tournament file: matches, each with its teams); the walk below recurses once per level.
const maxDepth = 32

// checkKeys refuses what encoding/json would read in its own way, so that a body means the
// same to us as to any other reader of it (a proxy, a log, the organiser's own tools):
//   - a key given twice: encoding/json keeps the last, other parsers the first;
//   - a key that is not a field's exact name: encoding/json matches names regardless of case,
//     and folds "ſ" into "s" and the Kelvin sign into "k", so {"GOLES_LOCAL": 3} or
//     {"goleſ_local": 3} would set goles_local although the contract has no such field.
//
// Keys are checked against v's type wherever it is a struct; under a map any key is a name,
// and under a json.Unmarshaler or an interface (a file read later by its own rules, such as a
// tournament's) only repeated keys are refused.
func checkKeys(body []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber() // a number is never converted here: 1e400 is the decoder's to refuse
	if err := walkValue(dec, reflect.TypeOf(v), 0); err != nil {
		return err
	}
	return nil
}

func walkValue(dec *json.Decoder, t reflect.Type, depth int) error {
	tok, err := dec.Token()
	if err != nil {
		return decodeError(err)
	}
	delim, ok := tok.(json.Delim)
	if !ok {
		return nil // a scalar
	}
	if depth >= maxDepth {
		return apierror.Invalid("El cuerpo tiene demasiados niveles anidados.")
	}
	t = shapeOf(t)
	switch delim {
	case '{':
		fields := fieldsOf(t)
		seen := map[string]bool{}
		for dec.More() {
			keyTok, err := dec.Token()
			if err != nil {
				return decodeError(err)
			}
			key := keyTok.(string) // inside an object, the decoder gives only string keys here
			if seen[key] {
				return apierror.Invalid(fmt.Sprintf("El campo %s aparece más de una vez.", quoteKey(key)))
			}
			seen[key] = true
			next, known := fields.lookup(key)
			if !known {
				return apierror.Invalid(fmt.Sprintf("El cuerpo tiene un campo desconocido: %s.", quoteKey(key)))
			}
			if err := walkValue(dec, next, depth+1); err != nil {
				return err
			}
		}
	case '[':
		var elem reflect.Type
		if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
			elem = t.Elem()
		}
		for dec.More() {
			if err := walkValue(dec, elem, depth+1); err != nil {
				return err
			}
		}
	}
	if _, err := dec.Token(); err != nil { // the closing delimiter
		return decodeError(err)
	}
	return nil
}

// quoteKey names a key in a message, unless it is too long to be worth repeating.
func quoteKey(key string) string {
	if len(key) > 64 {
		return "(un nombre de más de 64 caracteres)"
	}
	return fmt.Sprintf("%q", key)
}

var (
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// shapeOf is the type whose structure a JSON value fills, or nil when its keys are not ours to
// judge: an interface, or a type that reads its own JSON (json.RawMessage, time.Time, ...).
func shapeOf(t reflect.Type) reflect.Type {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() == reflect.Interface ||
		t.Implements(jsonUnmarshaler) || reflect.PointerTo(t).Implements(jsonUnmarshaler) ||
		t.Implements(textUnmarshaler) || reflect.PointerTo(t).Implements(textUnmarshaler) {
		return nil
	}
	return t
}

// objectFields says which keys an object may have and what each one's value fills.
type objectFields struct {
	byName map[string]reflect.Type // a struct's fields by their exact JSON names
	anyKey bool                    // a map or an unknown shape: any key
	elem   reflect.Type            // a map's values
}

func (f objectFields) lookup(key string) (reflect.Type, bool) {
	if f.anyKey {
		return f.elem, true
	}
	t, ok := f.byName[key]
	return t, ok
}

var structFields sync.Map // reflect.Type -> map[string]reflect.Type

func fieldsOf(t reflect.Type) objectFields {
	switch {
	case t == nil:
		return objectFields{anyKey: true}
	case t.Kind() == reflect.Map:
		return objectFields{anyKey: true, elem: t.Elem()}
	case t.Kind() != reflect.Struct:
		// A JSON object for a number, a string or a list: encoding/json refuses it with its
		// type error after this walk; any key passes here.
		return objectFields{anyKey: true}
	}
	if cached, ok := structFields.Load(t); ok {
		return objectFields{byName: cached.(map[string]reflect.Type)}
	}
	byName := map[string]reflect.Type{}
	addFields(byName, t)
	structFields.Store(t, byName)
	return objectFields{byName: byName}
}

// addFields lists t's fields under the names encoding/json gives them: the tag's name, else
// the Go name; "-" is skipped; an untagged embedded struct lends its fields (the outer ones win).
func addFields(byName map[string]reflect.Type, t reflect.Type) {
	var embedded []reflect.Type
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		ft := f.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if f.Anonymous && name == "" && ft.Kind() == reflect.Struct {
			embedded = append(embedded, ft)
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		byName[name] = f.Type
	}
	for _, e := range embedded {
		inner := map[string]reflect.Type{}
		addFields(inner, e)
		for name, ft := range inner {
			if _, taken := byName[name]; !taken {
				byName[name] = ft
			}
		}
	}
}
