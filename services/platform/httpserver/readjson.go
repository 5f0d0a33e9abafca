package httpserver

import "github.com/gin-gonic/gin"

// ReadJSON reads a body of at most MaxBody into v, as strictly as DecodeJSON. On a bad one it
// answers the error itself and returns false, like the query readers; a handler that counts
// its refusals calls DecodeJSON.
func ReadJSON(c *gin.Context, v any) bool {
	if err := DecodeJSON(c, v, MaxBody); err != nil {
		Fail(c, err)
		return false
	}
	return true
}
