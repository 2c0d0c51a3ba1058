package server

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestMachineListEmpty: before any machine is stood up, machine_list says
// none stands, in every revision.
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

// TestW10MachineList: machine_list names the machines standing in the
// order they were stood up, each with its tick once what was asked of it
// before is done, and an empty list of states; a machine put away is gone.
func TestW10MachineList(t *testing.T) {
	w := machineWire(t)
	spectrum := w.open("spectrum48")
	cpc := w.open("cpc6128")
	w.tool("run", args{"handle": cpc, "ticks": 79872 * 78}, nil)
	w.tool("run", args{"handle": spectrum, "ticks": 69888}, nil)
	text := w.tool("machine_list", nil, nil)
	// The Spectrum's run ends on the first end of an instruction at or
	// past its ticks, as the CPC's does; their ticks are what run said.
	var list MachineList
	json.Unmarshal([]byte(text), &list)
	if len(list.Machines) != 2 || list.Machines[0].Handle != spectrum || list.Machines[1].Handle != cpc {
		t.Fatalf("machine_list answered %s, want %s then %s", text, spectrum, cpc)
	}
	if m := list.Machines[0]; m.Machine != "spectrum48" || m.Tick < 69888 || m.Tick > 69888+23 || !reflect.DeepEqual(m.States, []string{}) {
		t.Errorf("the Spectrum is listed as %+v", m)
	}
	if m := list.Machines[1]; m.Machine != "cpc6128" || m.Tick < 79872*78 || m.Tick > 79872*78+24 {
		t.Errorf("the CPC is listed as %+v", m)
	}
	w.tool("machine_close", args{"handle": spectrum}, nil)
	w.tool("machine_list", nil, &list)
	if len(list.Machines) != 1 || list.Machines[0].Handle != cpc {
		t.Errorf("after closing %s, machine_list answered %+v", spectrum, list)
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
