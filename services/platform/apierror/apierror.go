// Package apierror is the one place where errors become HTTP answers: a stable code for
// programs, a Spanish message for people and the request id, never a stack trace or SQL.
package apierror

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
)

// Error is an error a client is meant to see.
type Error struct {
	Status     int
	Code       string
	Mensaje    string
	RetryAfter int // seconds; set for 429 and 503
	cause      error
}

func (e *Error) Error() string {
	if e.cause != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Mensaje, e.cause)
	}
	return e.Code + ": " + e.Mensaje
}

func (e *Error) Unwrap() error { return e.cause }

// Body is the JSON error body of every service.
type Body struct {
	Error     string `json:"error"`
	Mensaje   string `json:"mensaje"`
	RequestID string `json:"request_id"`
}

func newError(status int, code, mensaje string) *Error {
	return &Error{Status: status, Code: code, Mensaje: mensaje}
}

// Wrap keeps the underlying cause for the logs.
func (e *Error) Wrap(cause error) *Error {
	c := *e
	c.cause = cause
	return &c
}

// Invalid is a 400 with a message that says what to fix.
func Invalid(mensaje string) *Error {
	return newError(http.StatusBadRequest, "datos_invalidos", mensaje)
}

// NotWhole is the 400 for a number that must be a whole number from lo up, as every id, page
// and version is: subject names it, article and all ("El grupo").
func NotWhole(subject string, lo int) *Error {
	return Invalid(fmt.Sprintf("%s tiene que ser un número entero desde %d.", subject, lo))
}

// Conflict is a 409 with its own code.
func Conflict(code, mensaje string) *Error { return newError(http.StatusConflict, code, mensaje) }

// NotFound is a 404.
func NotFound(mensaje string) *Error { return newError(http.StatusNotFound, "no_encontrado", mensaje) }

// Forbidden is a 403.
func Forbidden(mensaje string) *Error { return newError(http.StatusForbidden, "prohibido", mensaje) }

var (
	ErrUnauthenticated = newError(http.StatusUnauthorized, "no_autenticado", "Tenés que ingresar para hacer esto.")
	ErrBadCredential   = newError(http.StatusUnauthorized, "credencial_invalida", "No pudimos verificar tu cuenta de Google. Probá ingresar de nuevo.")
	ErrNotAdmin        = newError(http.StatusForbidden, "prohibido", "Solo los organizadores pueden hacer esto.")
	ErrOtherPlayer     = newError(http.StatusForbidden, "prohibido", "Solo podés ver y cambiar tus propias jugadas.")
	ErrCrossSite       = newError(http.StatusForbidden, "origen_no_permitido", "La solicitud vino de otro sitio y fue rechazada.")
	ErrTooLarge        = newError(http.StatusRequestEntityTooLarge, "cuerpo_demasiado_grande", "Los datos enviados son demasiado grandes.")
	ErrNotJSON         = newError(http.StatusUnsupportedMediaType, "tipo_no_soportado", "Los datos tienen que enviarse como JSON.")
	ErrNotFoundRoute   = newError(http.StatusNotFound, "no_encontrado", "No existe esa dirección.")
	ErrMethod          = newError(http.StatusMethodNotAllowed, "metodo_no_permitido", "Esa operación no está permitida en esta dirección.")
	ErrInternal        = newError(http.StatusInternalServerError, "error_interno", "Algo salió mal de nuestro lado. Probá de nuevo en un momento.")
	ErrUnavailable     = &Error{Status: http.StatusServiceUnavailable, Code: "servicio_no_disponible", Mensaje: "El servicio no está disponible en este momento. Probá de nuevo en unos segundos.", RetryAfter: 2}
	// ErrClientClosed is what a request whose client hung up before its answer is counted and
	// logged as (httpserver.Fail decides): nobody reads its body.
	ErrClientClosed = newError(StatusClientClosedRequest, "solicitud_cancelada", "La solicitud se canceló antes de terminar.")
)

// StatusClientClosedRequest is nginx's 499 "client closed request": the client hung up (a phone
// losing signal, a load generator stopping) before the answer. It is not a server error, so it
// stays out of the 5xx that the error-rate alert counts, and no client ever receives it.
const StatusClientClosedRequest = 499

// TooManyRequests is a 429 asking to wait retryAfter seconds.
func TooManyRequests(retryAfter int) *Error {
	return &Error{Status: http.StatusTooManyRequests, Code: "demasiadas_solicitudes",
		Mensaje: "Hiciste demasiadas solicitudes seguidas. Esperá unos segundos y probá de nuevo.", RetryAfter: retryAfter}
}

// From turns any error into the *Error to send; unknown errors are internal.
func From(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return ErrInternal.Wrap(err)
}

// Headers returns the headers an error answer carries (Retry-After).
func (e *Error) Headers() http.Header {
	h := http.Header{}
	if e.RetryAfter > 0 {
		h.Set("Retry-After", strconv.Itoa(e.RetryAfter))
	}
	return h
}
