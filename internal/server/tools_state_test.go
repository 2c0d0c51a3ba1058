package server

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"colophon/internal/host"
)

// TestStateTools holds state_keep, state_restore and state_drop as a
// client meets them: the names the server gives, machine_list naming the
// states held, a restore that puts the machine back and drops none, and
// the refusals, each naming the state, with the machine as it was.
func TestStateTools(t *testing.T) {
	w := machineWire(t)
	h := w.boot("cpc6128")
	booted := w.tick(h)
	var k1, k2 host.StateKept
	w.tool("state_keep", args{"handle": h}, &k1)
	w.tool("type", args{"handle": h, "text": "PRINT 6*7\n"}, nil)
	w.tool("state_keep", args{"handle": h}, &k2)
	if k1.State != "s1" || k2.State != "s2" || k1.Tick != booted || k2.Tick <= k1.Tick || !slices.Equal(k2.States, []string{"s1", "s2"}) {
		t.Errorf("state_keep answered %+v, then %+v", k1, k2)
	}
	if k1.Bytes <= 0 || k2.Bytes <= 0 || k2.Bytes >= 0x20000 {
		t.Errorf("the states say they take %d and %d bytes; the second shares all but what typing changed", k1.Bytes, k2.Bytes)
	}
	var list MachineList
	w.tool("machine_list", nil, &list)
	if len(list.Machines) != 1 || !slices.Equal(list.Machines[0].States, []string{"s1", "s2"}) {
		t.Errorf("machine_list answered %+v", list)
	}

	at2 := w.peek(h, "&C000", 4096)
	var r host.StateRestored
	w.tool("state_restore", args{"handle": h, "state": "s1"}, &r)
	if r.State != "s1" || r.Tick != k1.Tick || r.Journal != 2 || !slices.Equal(r.States, []string{"s1", "s2"}) {
		t.Errorf("state_restore answered %+v", r)
	}
	if w.tick(h) != k1.Tick {
		t.Errorf("restored, the machine stands at tick %d", w.tick(h))
	}
	w.tool("state_restore", args{"handle": h, "state": "s2"}, &r)
	if got := w.peek(h, "&C000", 4096); string(got) != string(at2) || r.Journal != 3 {
		t.Errorf("restored to s2, the screen's first 4K differs from what s2 kept, or the journal holds %d", r.Journal)
	}

	var d host.StateDropped
	w.tool("state_drop", args{"handle": h, "state": "s1"}, &d)
	if d.State != "s1" || !slices.Equal(d.States, []string{"s2"}) {
		t.Errorf("state_drop answered %+v", d)
	}
	before := mustJSON(t, w.inspect(h, ""))
	for _, c := range []struct {
		tool string
		args args
		want string
	}{
		{"state_restore", args{"handle": h, "state": "s1"}, `state "s1" of machine m1 was let go by state_drop; it holds s2`},
		{"state_drop", args{"handle": h, "state": "s1"}, `state "s1" of machine m1 was let go by state_drop; it holds s2`},
		{"state_restore", args{"handle": h, "state": "s7"}, `machine m1 holds no state "s7"; it holds s2`},
		{"state_restore", args{"handle": h}, `"state"`},
		{"state_restore", args{"state": "s2"}, `"handle"`},
		{"state_restore", args{"handle": h, "state": 2}, `"state"`},
		{"state_keep", args{"handle": "m5"}, `no machine is called "m5"`},
		{"state_drop", args{"handle": "m5", "state": "s2"}, `no machine is called "m5"`},
	} {
		if got := w.refused(c.tool, c.args); !strings.Contains(got, c.want) {
			t.Errorf("%s %v was refused with %q; want %q", c.tool, c.args, got, c.want)
		}
	}
	if after := mustJSON(t, w.inspect(h, "")); after != before {
		t.Error("the refusals changed the machine")
	}
	w.tool("machine_list", nil, &list)
	if !slices.Equal(list.Machines[0].States, []string{"s2"}) {
		t.Errorf("after the refusals, machine_list answered %+v", list)
	}
}

// TestStateToolsSchemas: state_restore and state_drop require the handle
// and the state, state_keep the handle alone, and each description says
// how states are named and what the journal does.
func TestStateToolsSchemas(t *testing.T) {
	w := newWire(t)
	mustResult(t, "initialize", w.initialize("2025-11-25"))
	list := mustResult(t, "tools/list", w.call("tools/list", nil))
	want := map[string]string{
		"state_keep":    `["handle"]`,
		"state_restore": `["handle","state"]`,
		"state_drop":    `["handle","state"]`,
	}
	for _, tool := range list["tools"].([]any) {
		tool := tool.(map[string]any)
		name, _ := tool["name"].(string)
		req, ok := want[name]
		if !ok {
			continue
		}
		delete(want, name)
		got, _ := json.Marshal(tool["inputSchema"].(map[string]any)["required"])
		if string(got) != req {
			t.Errorf("%s requires %s, want %s", name, got, req)
		}
		desc, _ := tool["description"].(string)
		if !strings.Contains(desc, "s1, s2 and on") || !strings.Contains(desc, "journal") {
			t.Errorf("%s's description does not say how states are named and what the journal does", name)
		}
	}
	if len(want) > 0 {
		t.Errorf("tools/list lacks %v", want)
	}
}

// TestJ6ReplayWithABranch is the spec's test of the journal with a branch
// a restore left behind (J-6): the journal's requests, made again in order
// in another server, make a machine that stands as the first stands.
func TestJ6ReplayWithABranch(t *testing.T) {
	w := machineWire(t)
	for _, machine := range []string{"spectrum48", "cpc6128"} {
		t.Run(machine, func(t *testing.T) {
			h := w.boot(machine)
			text, other := "PRINT 6*7\n", "PRINT 1\n"
			if machine == "spectrum48" {
				text, other = "p6*7\n", "p1\n"
			}
			w.tool("poke", args{"handle": h, "address": "&9000", "bytes": "01 02 03"}, nil)
			var k host.StateKept
			w.tool("state_keep", args{"handle": h}, &k)
			// The branch left behind.
			w.tool("type", args{"handle": h, "text": other}, nil)
			w.tool("set", args{"handle": h, "values": map[string]any{"cpu.b": 7}}, nil)
			w.tool("state_keep", args{"handle": h}, nil)
			w.tool("state_restore", args{"handle": h, "state": k.State}, nil)
			// The branch taken.
			w.tool("type", args{"handle": h, "text": text}, nil)
			w.tool("run", args{"handle": h, "frames": 3}, nil)

			var tools []string
			for _, e := range w.journalOf(h) {
				tools = append(tools, e.Tool)
			}
			if got := strings.Join(tools, " "); got != "machine_open run poke type run" {
				t.Errorf("the journal enters %s", got)
			}
			replay := machineWire(t)
			var handle string
			for _, e := range w.journalOf(h) {
				var a map[string]any
				if err := json.Unmarshal(e.Arguments, &a); err != nil {
					t.Fatal(err)
				}
				if e.Tool == "machine_open" {
					var o host.Opened
					replay.tool("machine_open", a, &o)
					handle = o.Handle
					continue
				}
				a["handle"] = handle
				replay.tool(e.Tool, a, nil)
			}
			sameMachine(t, w, h, replay, handle)
		})
	}
}
