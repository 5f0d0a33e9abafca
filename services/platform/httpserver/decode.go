package httpserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"

	"github.com/gin-gonic/gin"

	"prode/platform/apierror"
)

// MaxBody is the largest JSON body a route accepts unless it says otherwise.
const MaxBody = 16 << 10

// DecodeJSON reads a strict JSON body into v: JSON content type, at most limit bytes, no
// unknown fields, one value. Its errors are *apierror.Error with Spanish messages.
func DecodeJSON(c *gin.Context, v any, limit int64) error {
	mediaType, _, err := mime.ParseMediaType(c.GetHeader("Content-Type"))
	if err != nil || mediaType != "application/json" {
		return apierror.ErrNotJSON
	}
	body := http.MaxBytesReader(c.Writer, c.Request.Body, limit)
	dec := json.NewDecoder(body)
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
