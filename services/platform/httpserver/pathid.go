package httpserver

import (
	"strconv"

	"github.com/gin-gonic/gin"
)

// PathID reads the path parameter name, an id: a positive integer. On a bad one it answers bad
// itself (a 400 or a 404, as the route says) and returns false, like the query readers.
func PathID(c *gin.Context, name string, bad error) (int64, bool) {
	id, err := strconv.ParseInt(c.Param(name), 10, 64)
	if err != nil || id < 1 {
		Fail(c, bad)
		return 0, false
	}
	return id, true
}
