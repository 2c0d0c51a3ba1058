package server

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// TestMachineListEmpty: with no host behind the server, no machine can be
// stood up, and machine_list says none stands, in every revision.
func TestMachineListEmpty(t *testing.T) {
	const want = `{"machines":[]}`
	for _, rev := range revisions {
		t.Run(rev, func(t *testing.T) {
			w := newWire(t)
			params := map[string]any{"name": "machine_list", "arguments": map[string]any{}}
			if rev == modern {
				params = withMeta(modern, params)
			} else {
				mustResult(t, "initialize", w.initialize(rev))
			}
			res := mustResult(t, "tools/call", w.call("tools/call", params))
			if res["isError"] == true {
				t.Fatalf("machine_list refused: %v", res)
			}
			got, _ := json.Marshal(res["structuredContent"])
			if string(got) != want {
				t.Errorf("structured content %s, want %s", got, want)
			}
			content, _ := res["content"].([]any)
			if len(content) != 1 || content[0].(map[string]any)["text"] != want {
				t.Errorf("content %v, want one text of %s", content, want)
			}
		})
	}
}

// TestMachineListFromHost: machine_list answers what the host lists, in its
// order, with an empty list of states where a machine has none, and says
// why when the host cannot list them.
func TestMachineListFromHost(t *testing.T) {
	machines := []MachineSummary{
		{Handle: "m2", Machine: "spectrum48", Tick: 69888 * 128, States: []string{"s1", "s2"}},
		{Handle: "m1", Machine: "cpc6128", Tick: 79872 * 78},
	}
	w := dial(t, New(Options{Build: testBuild, Machines: func(context.Context) ([]MachineSummary, error) {
		return machines, nil
	}}))
	mustResult(t, "initialize", w.initialize("2025-11-25"))
	res := mustResult(t, "tools/call", w.call("tools/call", map[string]any{"name": "machine_list"}))
	// The text is the answer's JSON as the server wrote it, in its order.
	got := res["content"].([]any)[0].(map[string]any)["text"]
	const want = `{"machines":[{"handle":"m2","machine":"spectrum48","tick":8945664,"states":["s1","s2"]},{"handle":"m1","machine":"cpc6128","tick":6230016,"states":[]}]}`
	if got != want {
		t.Errorf("machine_list answered %s, want %s", got, want)
	}
	var wantValue any
	json.Unmarshal([]byte(want), &wantValue)
	if !reflect.DeepEqual(res["structuredContent"], wantValue) {
		t.Errorf("structured content %v, want %s", res["structuredContent"], want)
	}

	w = dial(t, New(Options{Build: testBuild, Machines: func(context.Context) ([]MachineSummary, error) {
		return nil, errors.New("the host is closing")
	}}))
	mustResult(t, "initialize", w.initialize("2025-11-25"))
	res = mustResult(t, "tools/call", w.call("tools/call", map[string]any{"name": "machine_list"}))
	if text := refusalText(t, res); !strings.Contains(text, "the host is closing") {
		t.Errorf("machine_list refused with %q, which does not say why", text)
	}
}

// TestMachineListSchema: machine_list takes no arguments and says so in its
// schema, and its answer's schema requires what it always answers.
func TestMachineListSchema(t *testing.T) {
	w := newWire(t)
	mustResult(t, "initialize", w.initialize("2025-11-25"))
	list := mustResult(t, "tools/list", w.call("tools/list", nil))
	var tool map[string]any
	for _, t := range list["tools"].([]any) {
		if t.(map[string]any)["name"] == "machine_list" {
			tool = t.(map[string]any)
		}
	}
	if tool == nil {
		t.Fatalf("tools/list has no machine_list: %v", list)
	}
	in := tool["inputSchema"].(map[string]any)
	if len(in) != 2 || in["type"] != "object" || in["additionalProperties"] != false {
		t.Errorf("machine_list input schema %v, want an object with no properties", in)
	}
	out := tool["outputSchema"].(map[string]any)
	if req, _ := json.Marshal(out["required"]); string(req) != `["machines"]` {
		t.Errorf("machine_list output schema requires %s, want machines", req)
	}
	item := out["properties"].(map[string]any)["machines"].(map[string]any)["items"].(map[string]any)
	if req, _ := json.Marshal(item["required"]); string(req) != `["handle","machine","tick","states"]` {
		t.Errorf("a machine's schema requires %s", req)
	}
	if ann := tool["annotations"].(map[string]any); ann["readOnlyHint"] != true {
		t.Errorf("machine_list is not marked read-only: %v", ann)
	}
}
