package httpserver

import "github.com/gin-gonic/gin"

// Reply answers what a handler's work gave: err as Fail answers it, or else v with status, and
// no body when v is nil (a 204).
func Reply(c *gin.Context, status int, v any, err error) {
	switch {
	case err != nil:
		Fail(c, err)
	case v == nil:
		c.Status(status)
	default:
		c.JSON(status, v)
	}
}
