package httpserver_test

import (
	"testing"

	"prode/platform/httpserver"
	"prode/platform/testenv"
)

// FuzzDecodeJSON: any body decodes or is refused with a 4xx *apierror.Error; never a panic.
// Seeds: testdata/fuzz/FuzzDecodeJSON.
func FuzzDecodeJSON(f *testing.F) {
	f.Fuzz(func(t *testing.T, body []byte) {
		var v struct {
			N    *int           `json:"n"`
			S    string         `json:"s"`
			L    []int64        `json:"l"`
			M    map[string]any `json:"m"`
			Flag bool           `json:"flag"`
		}
		if err := testenv.DecodeBody(body, &v, httpserver.MaxBody); err != nil {
			testenv.ClientError(t, err, body)
			return
		}
		if len(body) > httpserver.MaxBody {
			t.Fatalf("a body of %d bytes was accepted (limit %d)", len(body), httpserver.MaxBody)
		}
	})
}
