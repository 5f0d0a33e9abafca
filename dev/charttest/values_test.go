package charttest

// values.yaml documents every value (DESIGN.md section 10): each setting has a comment, and
// values.schema.json knows every setting.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	yamlv3 "go.yaml.in/yaml/v3"
)

// The comments follow helm-docs: "# -- text" documents the setting below it (a whole block, such
// as resources, when the comment sits on its key). A key without one must be a section: a block
// mapping that values.schema.json gives properties, whose keys are checked in turn.
func TestEveryValueHasAComment(t *testing.T) {
	var schema map[string]any
	data, err := os.ReadFile(filepath.Join(chartDir, "values.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &schema); err != nil {
		t.Fatal(err)
	}
	defs, _ := schema["$defs"].(map[string]any)
	resolve := func(s map[string]any) map[string]any {
		if ref, ok := s["$ref"].(string); ok {
			def, _ := defs[strings.TrimPrefix(ref, "#/$defs/")].(map[string]any)
			return def
		}
		return s
	}

	var doc yamlv3.Node
	data, err = os.ReadFile(filepath.Join(chartDir, "values.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := yamlv3.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	settings := 0
	var walk func(path string, m *yamlv3.Node, s map[string]any)
	walk = func(path string, m *yamlv3.Node, s map[string]any) {
		props, _ := s["properties"].(map[string]any)
		for i := 0; i+1 < len(m.Content); i += 2 {
			key, val := m.Content[i], m.Content[i+1]
			name := strings.TrimPrefix(path+"."+key.Value, ".")
			sub, ok := props[key.Value].(map[string]any)
			if !ok {
				t.Errorf("values.yaml: %s is not in values.schema.json", name)
				continue
			}
			sub = resolve(sub)
			if strings.Contains(key.HeadComment, "# -- ") {
				settings++
				continue
			}
			if _, section := sub["properties"]; section && val.Kind == yamlv3.MappingNode && val.Style&yamlv3.FlowStyle == 0 {
				walk(name, val, sub)
				continue
			}
			t.Errorf("values.yaml: %s has no \"# -- \" comment", name)
		}
	}
	root := doc.Content[0]
	walk("", root, schema)
	if settings < 100 {
		t.Errorf("only %d settings found in values.yaml", settings)
	}
}
