package proxy

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMirrorableLeavesOutWhatTheSDKRefuses: a tool the window lists that
// the SDK would not take (no name, a schema that is no object, a header
// it refuses, a name twice) is left out, and the rest are kept as listed.
func TestMirrorableLeavesOutWhatTheSDKRefuses(t *testing.T) {
	var list struct{ Tools []*mcp.Tool }
	err := json.Unmarshal([]byte(`{"tools":[
		{"name":"peek","inputSchema":{"type":"object"}},
		{"name":"","inputSchema":{"type":"object"}},
		{"name":"array","inputSchema":{"type":"array"}},
		{"name":"none"},
		{"name":"text","inputSchema":"object"},
		{"name":"out","inputSchema":{"type":"object"},"outputSchema":[1]},
		{"name":"header","inputSchema":{"type":"object","properties":{"a":{"type":"object","x-mcp-header":"A"}}}},
		{"name":"peek","inputSchema":{"type":"object"}},
		{"name":"monitor","inputSchema":{"type":"object","properties":{"handle":{"type":"string"}}},"outputSchema":{"type":"object"}}
	]}`), &list)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range Mirrorable(list.Tools, nil) {
		names = append(names, tool.Name)
	}
	if len(names) != 2 || names[0] != "peek" || names[1] != "monitor" {
		t.Errorf("kept %q, want peek and monitor", names)
	}
}

// FuzzMirrorable feeds the proxy a window's tools/list answer of any bytes
// (testdata/fuzz/FuzzMirrorable holds its seeds): whatever it keeps, the
// SDK takes, and no name twice.
func FuzzMirrorable(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) {
		var list struct{ Tools []*mcp.Tool }
		if json.Unmarshal(b, &list) != nil {
			return
		}
		s := mcp.NewServer(&mcp.Implementation{Name: "fuzz", Version: "0"}, nil)
		seen := map[string]bool{}
		for _, tool := range Mirrorable(list.Tools, nil) {
			if seen[tool.Name] {
				t.Fatalf("%q kept twice", tool.Name)
			}
			seen[tool.Name] = true
			s.AddTool(tool, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return nil, nil })
		}
	})
}
