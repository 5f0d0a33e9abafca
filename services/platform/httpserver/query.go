package httpserver

import (
	"fmt"
	"strconv"

	"github.com/gin-gonic/gin"

	"prode/platform/apierror"
)

// The query parameters that several services read the same way: a match, and a page of a
// list. On a bad one the reader answers the 400 itself and returns false.

// MaxPorPagina bounds ?por_pagina= on every paginated route.
const MaxPorPagina = 100

var (
	errPartido   = apierror.Invalid("Indicá el partido con ?partido=<número>.")
	errPagina    = apierror.NotWhole("La página", 1)
	errPorPagina = apierror.Invalid(fmt.Sprintf("Las filas por página tienen que ser un número entero de 1 a %d.", MaxPorPagina))
)

// IntQuery reads an optional integer query parameter within [lo, hi]: def when it is absent,
// false when it is not such an integer (the caller says what is wrong).
func IntQuery(c *gin.Context, name string, def, lo, hi int) (int, bool) {
	raw, present := c.GetQuery(name)
	if !present {
		return def, true
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < lo || n > hi {
		return 0, false
	}
	return n, true
}

// MatchQuery reads the required ?partido=<id>, a positive integer.
func MatchQuery(c *gin.Context) (int64, bool) {
	id, err := strconv.ParseInt(c.Query("partido"), 10, 64)
	if err != nil || id < 1 {
		Fail(c, errPartido)
		return 0, false
	}
	return id, true
}

// PageQuery reads ?pagina= (from 1; 1 when absent) and ?por_pagina= (1 to MaxPorPagina;
// porPagina when absent).
func PageQuery(c *gin.Context, porPagina int) (pagina, n int, ok bool) {
	if pagina, ok = IntQuery(c, "pagina", 1, 1, 1<<31-1); !ok {
		Fail(c, errPagina)
		return 0, 0, false
	}
	if n, ok = IntQuery(c, "por_pagina", porPagina, 1, MaxPorPagina); !ok {
		Fail(c, errPorPagina)
		return 0, 0, false
	}
	return pagina, n, true
}
