package server

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// probeArgs are the arguments of a tool the tests add, shaped as the
// machine tools' will be: a handle and a count required, a byte and lists
// optional, and a list of objects with requirements of their own.
type probeArgs struct {
	Handle string           `json:"handle" jsonschema:"the machine"`
	Frames int              `json:"frames" jsonschema:"how many frames"`
	Pen    uint8            `json:"pen,omitempty"`
	Keys   []string         `json:"keys,omitempty"`
	Until  []probeCondition `json:"until,omitempty"`
	Ram    *bool            `json:"ram,omitempty"`
}

type probeCondition struct {
	Kind    string `json:"kind"`
	Address uint16 `json:"address"`
}

// oneArg is a tool that requires one argument.
type oneArg struct {
	Handle string `json:"handle"`
}

type echo struct {
	Args any `json:"args"`
}

// probeServer is a server with the test tools beside its own.
func probeServer(t *testing.T) *wire {
	t.Helper()
	s := New(Options{Build: testBuild})
	addTool(s.mcp, &mcp.Tool{Name: "probe", Description: "a test tool"},
		func(_ context.Context, in probeArgs) (echo, error) { return echo{Args: in}, nil })
	addTool(s.mcp, &mcp.Tool{Name: "one", Description: "a test tool with one argument"},
		func(_ context.Context, in oneArg) (echo, error) { return echo{Args: in}, nil })
	w := dial(t, s)
	mustResult(t, "initialize", w.initialize("2025-11-25"))
	return w
}

// callTool calls a tool with raw JSON arguments and returns its result.
func callTool(t *testing.T, w *wire, name, args string) map[string]any {
	t.Helper()
	params := map[string]any{"name": name}
	if args != "" {
		params["arguments"] = json.RawMessage(args)
	}
	return mustResult(t, "tools/call "+name, w.call("tools/call", params))
}

// refusalText fails unless res is a tool's refusal, and returns its text.
func refusalText(t *testing.T, res map[string]any) string {
	t.Helper()
	if res["isError"] != true {
		t.Fatalf("want a refusal, got %v", res)
	}
	content, _ := res["content"].([]any)
	if len(content) != 1 {
		t.Fatalf("refusal with %d content items: %v", len(content), res)
	}
	text, _ := content[0].(map[string]any)["text"].(string)
	return text
}

// TestArgumentsRefused holds W-26 and W-27: an argument of the wrong kind is
// refused with its name, and a request missing arguments lists every
// argument the tool requires where it requires more than one, and names the
// one where it requires one. Every fault is told, in the schema's
// order.
func TestArgumentsRefused(t *testing.T) {
	tests := []struct {
		name, tool, args, want string
	}{
		{"none of two", "probe", `{}`,
			`missing arguments "handle" and "frames": probe requires "handle" and "frames"`},
		{"no arguments at all", "probe", ``,
			`missing arguments "handle" and "frames": probe requires "handle" and "frames"`},
		{"null arguments", "probe", `null`,
			`missing arguments "handle" and "frames": probe requires "handle" and "frames"`},
		{"one of two", "probe", `{"handle":"m1"}`,
			`missing argument "frames": probe requires "handle" and "frames"`},
		{"the only one", "one", `{}`,
			`missing argument "handle"`},
		{"string for integer", "probe", `{"handle":"m1","frames":"ten"}`,
			`argument "frames" is a string ("ten"); it must be an integer`},
		{"fraction for integer", "probe", `{"handle":"m1","frames":2.5}`,
			`argument "frames" is a number (2.5); it must be an integer`},
		{"integer for string", "probe", `{"handle":7,"frames":1}`,
			`argument "handle" is an integer (7); it must be a string`},
		{"null for string", "probe", `{"handle":null,"frames":1}`,
			`argument "handle" is null; it must be a string`},
		{"byte too big", "probe", `{"handle":"m1","frames":1,"pen":300}`,
			`argument "pen" is 300; it must be from 0 to 255`},
		{"byte negative", "probe", `{"handle":"m1","frames":1,"pen":-1}`,
			`argument "pen" is -1; it must be from 0 to 255`},
		{"list item", "probe", `{"handle":"m1","frames":1,"keys":["A",5]}`,
			`argument "keys[1]" is an integer (5); it must be a string`},
		{"object for list", "probe", `{"handle":"m1","frames":1,"keys":{"A":true}}`,
			`argument "keys" is an object; it must be an array`},
		{"nested missing", "probe", `{"handle":"m1","frames":1,"until":[{"kind":"exec"}]}`,
			`argument "until[0]" lacks "address": it requires "kind" and "address"`},
		{"nested kind", "probe", `{"handle":"m1","frames":1,"until":[{"kind":"exec","address":"&BB06"}]}`,
			`argument "until[0].address" is a string ("&BB06"); it must be an integer`},
		{"nested unknown", "probe", `{"handle":"m1","frames":1,"until":[{"kind":"exec","address":1,"adress":2}]}`,
			`unknown argument "until[0].adress": "until[0]" takes "kind" and "address"`},
		{"bool as string", "probe", `{"handle":"m1","frames":1,"ram":"yes"}`,
			`argument "ram" is a string ("yes"); it must be a boolean`},
		{"unknown", "probe", `{"handle":"m1","frames":1,"frame":2}`,
			`unknown argument "frame": probe takes "handle", "frames", "pen", "keys", "until" and "ram"`},
		{"unknown to a tool without arguments", "machine_list", `{"handle":"m1"}`,
			`unknown argument "handle": machine_list takes no arguments`},
		{"every fault, in order", "probe", `{"zz":1,"frames":"x","pen":256,"aa":2}`,
			`missing argument "handle": probe requires "handle" and "frames"; ` +
				`argument "frames" is a string ("x"); it must be an integer; ` +
				`argument "pen" is 256; it must be from 0 to 255; ` +
				`unknown argument "aa": probe takes "handle", "frames", "pen", "keys", "until" and "ram"; ` +
				`unknown argument "zz"`},
		{"not an object", "probe", `[1,2]`,
			`arguments must be a JSON object of named arguments, not an array`},
		{"too big for Go", "probe", `{"handle":"m1","frames":99999999999999999999}`,
			`argument "frames" cannot be number 99999999999999999999: it must be an integer that fits 64 signed bits`},
	}
	w := probeServer(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := refusalText(t, callTool(t, w, tt.tool, tt.args))
			if got != tt.want {
				t.Errorf("%s %s:\n got %s\nwant %s", tt.tool, tt.args, got, tt.want)
			}
		})
	}
}

// TestArgumentsRefusedAlike: the same bad request is refused in the same
// words every time, however many faults it has (the SDK's own validator
// visits properties in map order).
func TestArgumentsRefusedAlike(t *testing.T) {
	w := probeServer(t)
	const args = `{"handle":1,"frames":"x","pen":"y","keys":3,"until":4,"ram":5}`
	first := refusalText(t, callTool(t, w, "probe", args))
	for range 20 {
		if again := refusalText(t, callTool(t, w, "probe", args)); again != first {
			t.Fatalf("refused as\n%s\nthen as\n%s", first, again)
		}
	}
	for _, name := range []string{"handle", "frames", "pen", "keys", "until", "ram"} {
		if !strings.Contains(first, `"`+name+`"`) {
			t.Errorf("the refusal %q does not name %q", first, name)
		}
	}
}

// TestArgumentsTaken: good arguments reach the handler decoded, and its
// answer comes back as structured content and as the same JSON in text.
func TestArgumentsTaken(t *testing.T) {
	w := probeServer(t)
	res := callTool(t, w, "probe", `{"handle":"m1","frames":50,"pen":255,"keys":["SPACE"],"until":[{"kind":"exec","address":65535}],"ram":true}`)
	if res["isError"] == true {
		t.Fatalf("refused: %v", res)
	}
	want := `{"args":{"handle":"m1","frames":50,"pen":255,"keys":["SPACE"],"until":[{"kind":"exec","address":65535}],"ram":true}}`
	structured, err := json.Marshal(res["structuredContent"])
	if err != nil {
		t.Fatal(err)
	}
	var wantValue any
	json.Unmarshal([]byte(want), &wantValue)
	if !reflect.DeepEqual(res["structuredContent"], wantValue) {
		t.Errorf("structured content %s, want %s", structured, want)
	}
	content, _ := res["content"].([]any)
	if len(content) != 1 || content[0].(map[string]any)["text"] != want {
		t.Errorf("content %v, want one text of %s", content, want)
	}
}

// TestNoFormat holds W-28: no tool's schema, as tools/list gives it, names
// a format.
func TestNoFormat(t *testing.T) {
	w := probeServer(t)
	list := mustResult(t, "tools/list", w.call("tools/list", nil))
	tools, _ := list["tools"].([]any)
	if len(tools) < 3 {
		t.Fatalf("tools/list gave %d tools: %v", len(tools), list)
	}
	for _, tool := range tools {
		tool := tool.(map[string]any)
		for _, which := range []string{"inputSchema", "outputSchema"} {
			schema, ok := tool[which]
			if !ok {
				t.Errorf("%s has no %s", tool["name"], which)
				continue
			}
			walkSchemas(schema, "#", func(path string, s map[string]any) {
				if f, ok := s["format"]; ok {
					t.Errorf("%s %s names format %v at %s", tool["name"], which, f, path)
				}
			})
		}
	}
}

// TestSchemaWithFormatRefused: a type whose schema would name a format is
// refused before it reaches a client, and a property called format is not
// taken for the keyword.
func TestSchemaWithFormatRefused(t *testing.T) {
	type when struct {
		At string `json:"at"`
	}
	type hasWhen struct {
		When when `json:"when"`
	}
	typeSchemas[reflect.TypeFor[when]()] = &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{
		"at": {Type: "string", Format: "date-time"},
	}}
	defer delete(typeSchemas, reflect.TypeFor[when]())
	if _, err := schemaFor[hasWhen](); err == nil || !strings.Contains(err.Error(), "#/properties/when/properties/at") {
		t.Errorf("schemaFor a type with a format: err %v, want one naming #/properties/when/properties/at", err)
	}

	type named struct {
		Format string `json:"format"`
	}
	if _, err := schemaFor[named](); err != nil {
		t.Errorf("schemaFor a type with a property called format: %v", err)
	}
}

// A machineName and an address are typed as later tools will type them, by
// schemas of their own: a name from a list, and an address given as a
// number or as text.
type (
	machineName string
	pickArgs    struct {
		Machine machineName `json:"machine"`
		At      address     `json:"at,omitempty"`
		Note    string      `json:"note,omitempty"`
	}
)

func TestArgumentsOwnSchemas(t *testing.T) {
	typeSchemas[reflect.TypeFor[machineName]()] = &jsonschema.Schema{
		Type: "string",
		Enum: []any{"cpc464", "cpc664", "cpc6128", "spectrum48"},
	}
	typeSchemas[reflect.TypeFor[address]()] = &jsonschema.Schema{AnyOf: []*jsonschema.Schema{
		{Type: "integer", Minimum: jsonschema.Ptr(0.0), Maximum: jsonschema.Ptr(65535.0)},
		{Type: "string", MaxLength: jsonschema.Ptr(6)},
	}}
	defer delete(typeSchemas, reflect.TypeFor[machineName]())
	defer delete(typeSchemas, reflect.TypeFor[address]())

	s := New(Options{Build: testBuild})
	addTool(s.mcp, &mcp.Tool{Name: "pick", Description: "a test tool"},
		func(_ context.Context, in pickArgs) (echo, error) { return echo{Args: in}, nil })
	w := dial(t, s)
	mustResult(t, "initialize", w.initialize("2025-06-18"))

	tests := []struct{ args, want string }{
		{`{"machine":"cpc9"}`, `argument "machine" is "cpc9"; it must be one of "cpc464", "cpc664", "cpc6128", "spectrum48"`},
		{`{"machine":6128}`, `argument "machine" is an integer (6128); it must be a string`},
		{`{"machine":"cpc6128","at":true}`, `argument "at" is a boolean; it must be an integer or a string`},
		// A value of a kind one branch takes is held to that branch.
		{`{"machine":"cpc6128","at":70000}`, `argument "at" is 70000; it must be from 0 to 65535`},
		{`{"machine":"cpc6128","at":"&12345678"}`, `argument "at" is 9 characters long; it may be at most 6`},
		// What was sent is quoted 80 characters at most, with its length.
		{`{"machine":"` + strings.Repeat("é", 100) + `"}`,
			`argument "machine" is "` + strings.Repeat("é", 79) + `… (102 characters); it must be one of "cpc464", "cpc664", "cpc6128", "spectrum48"`},
		// A number is held to its type's digits before it is read.
		{`{"machine":"cpc6128","at":` + strings.Repeat("9", 1000000) + `}`,
			`argument "at" is a number of 1000000 digits, ` + strings.Repeat("9", 80) + `… (1000000 characters); it must be from 0 to 65535`},
	}
	for _, tt := range tests {
		if got := refusalText(t, callTool(t, w, "pick", tt.args)); got != tt.want {
			t.Errorf("pick %s:\n got %s\nwant %s", tt.args, got, tt.want)
		}
	}
	for _, args := range []string{`{"machine":"spectrum48","at":49152}`, `{"machine":"cpc464","at":"&C000"}`} {
		if res := callTool(t, w, "pick", args); res["isError"] == true {
			t.Errorf("pick %s: refused: %v", args, res)
		}
	}
	// A name in another case is the name, decoded as the schema spells it
	// (issue 19, item 9).
	res := callTool(t, w, "pick", `{"machine":"CPC6128","at":"&C000"}`)
	if res["isError"] == true || !strings.Contains(fmt.Sprint(res["structuredContent"]), "machine:cpc6128") {
		t.Errorf("pick CPC6128: %v; want it taken as cpc6128", res)
	}
}

// An address is kept as the JSON it was given in, a number or a string.
type address struct{ json.RawMessage }

func (a *address) UnmarshalJSON(b []byte) error {
	a.RawMessage = append(json.RawMessage(nil), b...)
	return nil
}
