package httpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"prode/platform/apierror"
)

// MaxBody is the largest JSON body a route accepts unless it says otherwise.
const MaxBody = 16 << 10

// errNotUTF8 refuses a JSON body labelled with another charset: JSON is UTF-8 (RFC 8259), and
// reading UTF-16 bytes as UTF-8 would not be what the client sent.
var errNotUTF8 = &apierror.Error{Status: http.StatusUnsupportedMediaType, Code: apierror.ErrNotJSON.Code,
	Mensaje: "Los datos tienen que enviarse como JSON en UTF-8."}

// DecodeJSON reads a strict JSON body into v: JSON content type (UTF-8, the only charset JSON
// has), at most limit bytes, one value, every key an exact field name given once (decode_keys.go).
// Its errors are *apierror.Error with Spanish messages.
func DecodeJSON(c *gin.Context, v any, limit int64) error {
	if err := checkContentType(c.GetHeader("Content-Type")); err != nil {
		return err
	}
	body, err := io.ReadAll(http.MaxBytesReader(c.Writer, c.Request.Body, limit))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			drain(c.Request.Body)
		}
		return decodeError(err)
	}
	if err := checkKeys(body, v); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return decodeError(err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		if err != nil {
			return decodeError(err)
		}
		return apierror.Invalid("El cuerpo tiene que ser un único objeto JSON.")
	}
	return nil
}

// drainLimit bounds how much of a body over its limit is read and thrown away before the answer.
const drainLimit = 8 << 20

// drain reads the rest of a body refused as too large, up to drainLimit, so that the connection
// closes after the 413 with nothing unread. A client that sends the whole body before reading
// the answer, as a proxy streaming it does (the ingress), would otherwise be reset while still
// writing and never read the 413: Traefik answers 502 for it. Larger bodies are cut off; the
// server's ReadTimeout bounds the time.
func drain(body io.Reader) {
	_, _ = io.Copy(io.Discard, io.LimitReader(body, drainLimit))
}

// checkContentType accepts application/json, with no charset or UTF-8's. A browser's
// cross-site form can send only text/plain, form-encoded or multipart bodies, so this check is
// also what keeps a form on another site from writing, should its Origin not reach us.
func checkContentType(header string) error {
	mediaType, params, err := mime.ParseMediaType(header)
	if err != nil || mediaType != "application/json" {
		return apierror.ErrNotJSON
	}
	if charset, ok := params["charset"]; ok && !strings.EqualFold(charset, "utf-8") {
		return errNotUTF8
	}
	return nil
}

func decodeError(err error) error {
	var tooLarge *http.MaxBytesError
	var syntax *json.SyntaxError
	var typeErr *json.UnmarshalTypeError
	switch {
	case errors.As(err, &tooLarge):
		return apierror.ErrTooLarge
	case errors.As(err, &typeErr):
		return apierror.Invalid(fmt.Sprintf("El campo %q tiene un tipo incorrecto.", typeErr.Field)).Wrap(err)
	case errors.As(err, &syntax), errors.Is(err, io.ErrUnexpectedEOF):
		return apierror.Invalid("El cuerpo no es JSON válido.").Wrap(err)
	case errors.Is(err, io.EOF):
		return apierror.Invalid("Falta el cuerpo de la solicitud.")
	default:
		// encoding/json reports unknown fields as `json: unknown field "x"`.
		return apierror.Invalid("El cuerpo tiene campos desconocidos o inválidos.").Wrap(err)
	}
}
