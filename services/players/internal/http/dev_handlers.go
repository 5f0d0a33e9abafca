package http

import (
	"embed"
	"html/template"
	"net/http"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"prode/platform/apierror"
	"prode/players/internal/identity"
)

//go:embed devchooser
var devFiles embed.FS

var devPages = template.Must(template.ParseFS(devFiles, "devchooser/*.html"))

// DevHandlers serve the local account chooser that stands in for Google's popup when no
// Google client is configured. Its script and style are files, not inline, so the web's CSP
// ('self' only) and this page's own CSP both allow them.
type DevHandlers struct {
	Provider *identity.DevProvider
}

const devCSP = "default-src 'none'; script-src 'self'; style-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

func (h *DevHandlers) page(c *gin.Context, status int, name string, data any) {
	c.Header("Content-Security-Policy", devCSP)
	c.Header("Cache-Control", "no-store")
	c.Header("Content-Type", "text/html; charset=utf-8")
	c.Status(status)
	_ = devPages.ExecuteTemplate(c.Writer, name, data)
}

type chooserData struct {
	Accounts []identity.DevAccount
	Error    string
	Nombre   string
	Email    string
}

func (h *DevHandlers) chooser(c *gin.Context) {
	h.page(c, http.StatusOK, "chooser.html", chooserData{Accounts: identity.DevAccounts})
}

func (h *DevHandlers) choose(c *gin.Context) {
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, 4096)
	var account identity.DevAccount
	if i, err := strconv.Atoi(c.PostForm("cuenta")); err == nil && i >= 0 && i < len(identity.DevAccounts) {
		account = identity.DevAccounts[i]
	} else {
		nombre, email := c.PostForm("nombre"), c.PostForm("email")
		var err error
		if account, err = identity.NewDevAccount(nombre, email); err != nil {
			// The page shows the form again with what was typed; html/template escapes it, and
			// strings.ToValidUTF8 keeps bytes that are not text out of the page.
			h.page(c, http.StatusBadRequest, "chooser.html", chooserData{
				Accounts: identity.DevAccounts, Nombre: strings.ToValidUTF8(nombre, ""), Email: strings.ToValidUTF8(email, ""),
				Error: apierror.From(err).Mensaje,
			})
			return
		}
	}
	h.page(c, http.StatusOK, "done.html", map[string]string{"Code": h.Provider.Code(account), "Nombre": account.Nombre})
}

func (h *DevHandlers) script(c *gin.Context) {
	h.file(c, "devchooser/chooser.js", "text/javascript; charset=utf-8")
}
func (h *DevHandlers) style(c *gin.Context) {
	h.file(c, "devchooser/chooser.css", "text/css; charset=utf-8")
}

func (h *DevHandlers) file(c *gin.Context, name, contentType string) {
	b, _ := devFiles.ReadFile(name)
	c.Header("Cache-Control", "no-cache")
	c.Data(http.StatusOK, contentType, b)
}
