package server

import (
	"fmt"
	"strings"
	"testing"
)

// TestRequestsInOrder: requests to one machine run in the order they came,
// however many a client sends before it reads an answer; each read finds
// the machine as the requests before it left it.
func TestRequestsInOrder(t *testing.T) {
	w := machineWire(t)
	h := w.open("spectrum48")
	const pairs = 40
	lines := make(chan []string, 1)
	go func() {
		var got []string
		for range 2 * pairs {
			got = append(got, w.recv())
		}
		lines <- got
	}()
	for i := range pairs {
		w.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"run","arguments":{"handle":%q,"ticks":%d}}}`, 1000+2*i, h, 1000+i))
		w.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"inspect","arguments":{"handle":%q,"path":"cpu.tick"}}}`, 1001+2*i, h))
	}
	answers := map[float64]map[string]any{}
	for _, line := range <-lines {
		r := decodeReply(t, line)
		answers[r.ID.(float64)] = r.Result["structuredContent"].(map[string]any)
	}
	for i := range pairs {
		run, read := answers[float64(1000+2*i)], answers[float64(1001+2*i)]
		if run["tick"] != read["value"] {
			t.Fatalf("run %d answered tick %v, and the inspect asked after it read %v", i, run["tick"], read["value"])
		}
		if i > 0 && run["tick"].(float64)-run["ticks"].(float64) != answers[float64(1000+2*i-2)]["tick"] {
			t.Fatalf("run %d began at %v, not where run %d ended", i, run["tick"].(float64)-run["ticks"].(float64), i-1)
		}
	}
}

// TestMachinesAtOnce: different machines run at once: a peek of one is
// answered while a long run of another is still under way.
func TestMachinesAtOnce(t *testing.T) {
	w := machineWire(t)
	busy := w.open("cpc6128")
	idle := w.open("spectrum48")
	w.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":501,"method":"tools/call","params":{"name":"run","arguments":{"handle":%q,"frames":1500}}}`, busy))
	w.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":502,"method":"tools/call","params":{"name":"peek","arguments":{"handle":%q,"address":0}}}`, idle))
	first, second := decodeReply(t, w.recv()), decodeReply(t, w.recv())
	if first.ID != 502.0 || second.ID != 501.0 {
		t.Errorf("answered %v then %v: the peek of %s waited for the run of %s", first.ID, second.ID, idle, busy)
	}
}

// TestNullArguments: "arguments": null is no arguments, for a tool that
// takes none and for tools with optional ones, which the SDK (v1.8.0)
// would panic on were it to apply their defaults.
func TestNullArguments(t *testing.T) {
	w := machineWire(t)
	w.open("spectrum48")
	for _, tt := range []struct{ tool, want string }{
		{"machine_list", ""},
		{"run", `missing argument "handle"`},
		{"peek", `missing arguments "handle" and "address": peek requires "handle" and "address"`},
		{"journal", `missing argument "handle"`},
		{"machine_open", `missing argument "machine"`},
	} {
		res := mustResult(t, tt.tool, w.call("tools/call", map[string]any{"name": tt.tool, "arguments": nil}))
		if tt.want == "" {
			if res["isError"] == true {
				t.Errorf("%s with null arguments refused: %v", tt.tool, res)
			}
			continue
		}
		if got := refusalText(t, res); !strings.Contains(got, tt.want) {
			t.Errorf("%s with null arguments refused as %q, want %q", tt.tool, got, tt.want)
		}
	}
}

// TestUnknownHandle: every tool that takes a handle refuses one that names
// no machine, naming it and the machines that stand.
func TestUnknownHandle(t *testing.T) {
	w := machineWire(t)
	w.open("spectrum48")
	for _, tt := range []struct {
		tool string
		args args
	}{
		{"machine_close", args{}},
		{"run", args{"frames": 1}},
		{"step", args{"instructions": 1}},
		{"call", args{"address": 0}},
		{"inspect", args{}},
		{"set", args{"values": map[string]any{"cpu.a": 1}}},
		{"peek", args{"address": 0}},
		{"poke", args{"address": "&8000", "bytes": "00"}},
		{"type", args{"text": "a"}},
		{"monitor", args{}},
		{"journal", args{}},
	} {
		tt.args["handle"] = "m9"
		if got := w.refused(tt.tool, tt.args); got != `no machine is called "m9"; the machines standing are m1` {
			t.Errorf("%s of m9 refused as %q", tt.tool, got)
		}
	}
}
