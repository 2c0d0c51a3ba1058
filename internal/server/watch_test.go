package server

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"colophon/internal/firmware"
	"colophon/internal/host"
	"colophon/internal/shared"
)

// TestConditionsOnTheWire holds run's and call's conditions as a client
// sends them (CB-1, A-5): a stop at until, a gathering, a count by range
// and a refusal naming the argument at fault, and the answers' JSON the
// text and the structured content alike.
func TestConditionsOnTheWire(t *testing.T) {
	w := machineWire(t)
	h := w.boot("spectrum48")
	var mv host.Moved
	w.tool("run", args{"handle": h, "frames": 5, "until": []any{args{"kind": "exec", "address": "&0038"}}}, &mv)
	if mv.Stop != "until" || mv.Until.Address != "&0038" || mv.Until.Kind != "exec" {
		t.Errorf("until: %s", mustJSON(t, mv))
	}
	mv = host.Moved{}
	w.tool("run", args{"handle": h, "frames": 1, "gather": []any{args{"kind": "write", "address": "&5C78", "address_to": 23674, "value": "0x00", "value_to": 255}}}, &mv)
	if len(mv.Gathered) == 0 || mv.Gathered[0].PC == "" {
		t.Errorf("gather: %s", mustJSON(t, mv))
	}
	// CL-LINE clearing the bottom line: its eight rows of the bitmap, 256
	// bytes apart, and its attributes.
	mv = host.Moved{}
	w.tool("call", args{"handle": h, "address": "&0E44", "values": args{"cpu.b": 1}, "count": []any{args{"kind": "write", "address": "&4000", "address_to": "&5AFF"}}, "count_by": "range"}, &mv)
	if mv.Stop != "done" || mv.Ranges.Ranges != 9 || mv.Ranges.Writes[8].Address != "&5AE0" {
		t.Errorf("call with count by range: %s", mustJSON(t, mv))
	}
	if why := w.refused("run", args{"handle": h, "frames": 1, "gather": []any{args{"kind": "psg"}}}); !strings.Contains(why, `"gather[0].kind" is psg`) {
		t.Errorf("psg on a Spectrum refused: %s", why)
	}
	if why := w.refused("run", args{"handle": h, "frames": 1, "until": []any{args{"kind": "exec", "adress": "&0038"}}}); !strings.Contains(why, "adress") {
		t.Errorf("an unknown member of a condition refused: %s", why)
	}
}

// TestProgressAndCancel holds what a client sees of a long run: progress
// notifications for the progress token its request carries, about once a
// second (here, as the host is told, much more often), and a
// notifications/cancelled that stops the run between instructions, which
// the journal enters as the run it was.
func TestProgressAndCancel(t *testing.T) {
	hst := host.New(host.Options{Firmware: firmware.Loader{Dirs: []string{shared.TestPath(t, "roms")}}, Build: testBuild, ProgressEvery: 5 * time.Millisecond})
	w := dial(t, New(Options{Build: testBuild, Host: hst}))
	mustResult(t, "initialize", w.initialize("2025-11-25"))
	h := w.open("cpc6128")
	w.nextID++
	id := w.nextID
	w.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"run","arguments":{"handle":%q,"frames":1500},"_meta":{"progressToken":"p1"}}}`, id, h))
	var told []float64
	for len(told) < 3 {
		var n struct {
			Method string `json:"method"`
			Params struct {
				Token    any     `json:"progressToken"`
				Progress float64 `json:"progress"`
				Total    float64 `json:"total"`
			} `json:"params"`
		}
		line := w.recv()
		if err := json.Unmarshal([]byte(line), &n); err != nil || n.Method != "notifications/progress" {
			t.Fatalf("before the run's answer the server sent %s", line)
		}
		if n.Params.Token != "p1" || n.Params.Total != 2*1500*79872 || len(told) > 0 && n.Params.Progress <= told[len(told)-1] {
			t.Fatalf("progress %s", line)
		}
		told = append(told, n.Params.Progress)
	}
	w.send(fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":%d,"reason":"enough"}}`, id))
	// Whatever the server answers the cancelled request, the journal then
	// enters the run as the ticks it ran.
	w.nextID++
	jid := w.nextID
	w.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"journal","arguments":{"handle":%q}}}`, jid, h))
	var page host.JournalPage
	for {
		line := w.recv()
		r := decodeReply(t, line)
		if r.ID != float64(jid) {
			continue
		}
		b, _ := json.Marshal(r.Result["structuredContent"])
		if err := json.Unmarshal(b, &page); err != nil {
			t.Fatal(err)
		}
		break
	}
	last := page.Entries[len(page.Entries)-1]
	var run struct {
		Frames *uint64 `json:"frames"`
		Ticks  *uint64 `json:"ticks"`
	}
	json.Unmarshal(last.Arguments, &run)
	if last.Tool != "run" || run.Frames != nil || run.Ticks == nil || *run.Ticks >= 1500*79872 || *run.Ticks < uint64(told[2]) {
		t.Fatalf("the cancelled run is journaled %s", last.Arguments)
	}
	if tick := w.tick(h); tick != last.Tick+*run.Ticks {
		t.Errorf("the machine stands at %d; the journal's run took it from %d for %d", tick, last.Tick, *run.Ticks)
	}
}
