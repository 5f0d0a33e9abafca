package grupos

import (
	"errors"
	"net/http"
	"strconv"

	"prode/platform/apierror"
	"prode/scoring/internal/store"
)

// The answers of the leagues' refusals: stable codes, Spanish messages.
var (
	errNoGrupo = &apierror.Error{Status: http.StatusNotFound, Code: "grupo_no_encontrado",
		Mensaje: "El grupo no existe."}
	errNoMiembro = &apierror.Error{Status: http.StatusForbidden, Code: "no_es_miembro",
		Mensaje: "Solo quienes integran el grupo pueden ver su tabla."}
	errSoloDueno = &apierror.Error{Status: http.StatusForbidden, Code: "solo_dueno",
		Mensaje: "Solo quien creó el grupo puede hacer esto."}
	errInvitacion = &apierror.Error{Status: http.StatusNotFound, Code: "invitacion_invalida",
		Mensaje: "El enlace de invitación no es válido o fue revocado."}
	errDuenoSale = apierror.Conflict("dueno_no_puede_salir", "Quien creó el grupo no puede salir: puede borrarlo.")
	errNoEsta    = apierror.NotFound("Esa persona no integra el grupo.")
	errNombre    = apierror.Invalid("El nombre del grupo tiene que tener de 1 a 60 caracteres visibles, sin saltos de línea ni caracteres invisibles.")
	errSinTorneo = apierror.NotFound("Todavía no hay un torneo en juego.")
)

// errLleno and errDemasiados name the configured maximum.
func errLleno(max int64) *apierror.Error {
	return apierror.Conflict("grupo_lleno", "El grupo llegó al máximo de "+strconv.FormatInt(max, 10)+" integrantes.")
}

func errDemasiados(max int64) *apierror.Error {
	return apierror.Conflict("demasiados_grupos", "Ya estás en "+strconv.FormatInt(max, 10)+" grupos, el máximo.")
}

// answer turns the store's refusals into their answers; other errors pass unchanged.
func (s *Service) answer(err error) error {
	switch {
	case errors.Is(err, store.ErrNoGrupo):
		return errNoGrupo
	case errors.Is(err, store.ErrNotMember):
		return errNoMiembro
	case errors.Is(err, store.ErrNotOwner):
		return errSoloDueno
	case errors.Is(err, store.ErrNoInvitacion):
		return errInvitacion
	case errors.Is(err, store.ErrGrupoLleno):
		return errLleno(s.limites.Miembros)
	case errors.Is(err, store.ErrDemasiadosGrupos):
		return errDemasiados(s.limites.PorJugador)
	case errors.Is(err, store.ErrNoSuchMember):
		return errNoEsta
	case errors.Is(err, store.ErrOwnerLeaves):
		return errDuenoSale
	}
	return err
}

// Reason is the metrics label of a refused join: the answer's code, or "error".
func Reason(err error) string {
	var e *apierror.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return "error"
}
