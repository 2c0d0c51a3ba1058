package host

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"colophon/internal/watch"
)

// capturePaths are the processor's values the capture tests take: enough
// to tell one moment from another, and the flags an interrupt changes.
var capturePaths = []string{"cpu.a", "cpu.f", "cpu.b", "cpu.c", "cpu.h", "cpu.l", "cpu.sp", "cpu.pc", "cpu.iff1", "cpu.iff2", "cpu.halted", "cpu.tick"}

var captureAll = CaptureArgs{CPU: capturePaths, Memory: []SpanArg{{Address: "cpu.sp", Length: 4}, {Address: "cpu.pc", Length: 3}}}

// captured reads a match's capture: its values by path, and its spans.
func captured(t *testing.T, m watch.Match) (map[string]any, []string) {
	t.Helper()
	var cpu map[string]any
	if err := json.Unmarshal(m.Captured.CPU, &cpu); err != nil {
		t.Fatalf("capture %s: %v", m.Captured.CPU, err)
	}
	return cpu, field2(m.Captured.Memory)
}

func field2(ms []watch.Memory) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Address + " " + m.Bytes
	}
	return out
}

// standing reads the machine as a capture would: inspect and peek.
func (r *rig) standing() (map[string]any, []string) {
	r.t.Helper()
	cpu := map[string]any{}
	for _, p := range capturePaths {
		b, _ := json.Marshal(r.inspect(p))
		var v any
		json.Unmarshal(b, &v)
		cpu[p] = v
	}
	var mem []string
	for _, s := range captureAll.Memory {
		p := r.peek(string(s.Address), s.Length)
		mem = append(mem, p.Address+" "+p.Bytes)
	}
	return cpu, mem
}

// TestCAP10CapturesAreWhatAStopReads holds CAP-1 to CAP-7 and CAP-10 over a
// stretch with interrupts, on both machines: every capture a gathering
// takes is what inspect and peek read after a stop at its match, and what
// a twin gathering over the same stretch captures; where an interrupt is
// taken at the end of the instruction, the capture is the machine as the
// response begins, with the instruction's program counter and stack and
// IFF1 and IFF2 clear (both machines take INT there, in mode 1), and the
// stop runs on through the response to &0038; an access the response
// makes captures the machine at the response's end.
func TestCAP10CapturesAreWhatAStopReads(t *testing.T) {
	interrupts := 0
	for _, c := range []struct {
		machine string
		conds   []Condition
	}{
		{"spectrum48", []Condition{execAt("&0038"), writeIn("&5C00", "&5CFF"), writeIn("&FF00", "&FFFF")}},
		{"cpc6128", []Condition{execAt("&0038"), writeIn("&B800", "&B8FF"), writeIn("&BF00", "&BFFF")}},
	} {
		for i := range c.conds {
			c.conds[i].Capture = captureAll
		}
		r := newRig(t, c.machine)
		r.frames(90)
		a, b := r.twin(), r.twin()
		// Three frames, gathered into a file, which does not fill.
		all := gatherFile(t, r, 3*79872, c.conds)
		if twin := gatherFile(t, a, 3*79872, c.conds); asJSON(all) != asJSON(twin) {
			t.Errorf("%s: a twin's gathering captured otherwise", c.machine)
		}
		i, responses, interrupted := 0, 0, 0
		for b.tick() < r.tick() {
			mv := b.runTicks(r.tick()-b.tick(), Conditions{Until: c.conds})
			if mv.Stop != stopUntil {
				break
			}
			cpu, mem := b.standing()
			if asJSON(mv.Until) != asJSON(all[i]) {
				t.Fatalf("%s: stop %s, gathered %s", c.machine, asJSON(mv.Until), asJSON(all[i]))
			}
			for ; i < len(all) && (all[i].Tick < b.tick() || all[i].Kind == "exec" && all[i].Tick == b.tick() && asJSON(all[i]) == asJSON(mv.Until)); i++ {
				gc, gm := captured(t, all[i])
				if all[i].Response {
					responses++
				} else if gc["cpu.iff1"] == false && cpu["cpu.pc"] == float64(0x38) && gc["cpu.pc"] != float64(0x38) {
					// CAP-5: the interrupt taken at the instruction's end
					// was accepted before the capture and answered after
					// it. The stop stands at &0038, with the capture's PC
					// pushed.
					interrupted++
					pushed := fmt.Sprintf("&%04X %02X %02X", uint16(gc["cpu.sp"].(float64))-2, uint16(gc["cpu.pc"].(float64))&0xFF, uint16(gc["cpu.pc"].(float64))>>8)
					if gc["cpu.iff2"] != false || !strings.HasPrefix(mem[0], pushed) || cpu["cpu.sp"] != gc["cpu.sp"].(float64)-2 {
						t.Errorf("%s: a capture before INT's response %v; the stop after it %v %v", c.machine, gc, cpu, mem)
					}
					continue
				}
				if fmt.Sprint(gc) != fmt.Sprint(cpu) || !same(gm, mem) {
					t.Errorf("%s: match %s captured %v %v; a stop there reads %v %v", c.machine, asJSON(all[i]), gc, gm, cpu, mem)
				}
			}
		}
		if i != len(all) || responses == 0 {
			t.Errorf("%s: the stops covered %d of %d matches, %d of them before an interrupt's response, %d made by one", c.machine, i, len(all), interrupted, responses)
		}
		interrupts += interrupted
	}
	if interrupts == 0 {
		t.Error("no capture came before an interrupt's response")
	}
}

// TestCAP11BeforeTheResponse holds CAP-5 and CAP-11: a capture on an
// access whose instruction is followed by the response to INT has IFF1
// and IFF2 clear, and to an NMI written in with set IFF1 clear and IFF2 as
// it stood (UM0080, "Non-Maskable Interrupt Response"), each with the
// program counter of the instruction after it and the stack not yet
// pushed.
func TestCAP11BeforeTheResponse(t *testing.T) {
	r := newRig(t, "spectrum48")
	r.frames(90)
	// EI, then LD (&C000),A over and over.
	code := []byte{0xFB}
	for range 2000 {
		code = append(code, 0x32, 0x00, 0xC0)
	}
	code = append(code, 0xC3, 0x01, 0x80) // JP &8001
	r.program(0x8000, code...)
	conds := Conditions{Gather: []Condition{{Kind: "write", Address: "&C000", Capture: CaptureArgs{CPU: []string{"cpu.pc", "cpu.sp", "cpu.iff1", "cpu.iff2"}}}}}
	twin := r.twin()
	var ints int
	var sp any
	{
		for _, g := range gatherFile(t, r, 3*69888, conds.Gather) {
			cpu, _ := captured(t, g)
			pc := uint64(cpu["cpu.pc"].(float64))
			if next := parseHex(g.PC) + 3; pc != next && !(next == 0x8001+6000 && pc == 0x8001) {
				t.Errorf("a write of the instruction at %s captured PC &%04X, want &%04X", g.PC, pc, next)
			}
			if sp == nil {
				sp = cpu["cpu.sp"]
			}
			if cpu["cpu.sp"] != sp {
				t.Errorf("captured SP %v, want %v: not yet pushed", cpu["cpu.sp"], sp)
			}
			if cpu["cpu.iff1"] == false {
				ints++
				if cpu["cpu.iff2"] != false {
					t.Errorf("before INT's response: %v", cpu)
				}
			}
		}
	}
	if ints == 0 {
		t.Error("no capture came before the response to INT")
	}
	twin.run(RunArgs{Ticks: ptr(uint64(1000))})
	twin.set(`{"cpu.nmi": true}`)
	// Gather the write and stop where the response lands: the NMI's
	// restart address, &0066 (UM0080, "Non-Maskable Interrupt Response").
	both := conds
	both.Until = []Condition{execAt("&0066")}
	mv := twin.run(RunArgs{Ticks: ptr(uint64(40)), Conditions: both})
	if mv.Stop != "until" || len(mv.Gathered) != 1 {
		t.Fatalf("the NMI's response never reached &0066 after one write: %s", asJSON(mv))
	}
	cpu, _ := captured(t, mv.Gathered[0])
	if cpu["cpu.iff1"] != false || cpu["cpu.iff2"] != true {
		t.Errorf("before an NMI's response: %v; want IFF1 clear, IFF2 set as it stood", cpu)
	}
	// The response pushed the program counter the capture saw, the address
	// of the instruction after the write, onto the stack it saw, low byte
	// at the lower address (UM0080, "Non-Maskable Interrupt Response").
	pushed, stack := uint64(cpu["cpu.pc"].(float64)), uint64(cpu["cpu.sp"].(float64))
	if got := twin.num("cpu.pc"); got != 0x0066 {
		t.Errorf("after the NMI's response PC is &%04X, want &0066", got)
	}
	if got := twin.num("cpu.sp"); got != stack-2 {
		t.Errorf("after the NMI's response SP is &%04X, want &%04X, two below the captured &%04X", got, stack-2, stack)
	}
	if got, want := twin.peek("cpu.sp", 2).Bytes, fmt.Sprintf("%02X %02X", pushed&0xFF, pushed>>8); got != want {
		t.Errorf("the NMI's response pushed %s, want %s: the captured PC &%04X", got, want, pushed)
	}
	if got := twin.num("cpu.iff1")<<1 | twin.num("cpu.iff2"); got != 1 {
		t.Errorf("after the NMI's response IFF1,IFF2 = %02b, want 01: IFF2 keeps what IFF1 held", got)
	}
}

// gatherFile gathers over ticks into a file, and reads its lines back.
func gatherFile(t *testing.T, r *rig, ticks uint64, conds []Condition) []watch.Match {
	t.Helper()
	path := filepath.Join(t.TempDir(), "gathered.jsonl")
	mv := r.runTicks(ticks, Conditions{Gather: conds, Path: path})
	if mv.Stop != stopDone || mv.File.Lines.Gathered == 0 {
		t.Fatalf("gathering into %s: %s", path, asJSON(mv))
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []watch.Match
	for _, line := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		var m watch.Match
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		out = append(out, m)
	}
	if len(out) != mv.File.Lines.Gathered {
		t.Fatalf("the file holds %d lines, the answer says %d", len(out), mv.File.Lines.Gathered)
	}
	return out
}

// parseHex reads &XXXX.
func parseHex(s string) uint64 {
	var v uint64
	fmt.Sscanf(s, "&%X", &v)
	return v
}

// TestCAP12TXTOutput holds CAP-12: TXT OUTPUT, at &13FE in the 6128's
// lower ROM as its listing gives it (Text.asm; the jumpblock's &BB5A goes
// there), is handed each character BASIC's PRINT prints, one call at a
// time, in A: the RETURN typed, HELLO, a new line, Ready and a new line.
func TestCAP12TXTOutput(t *testing.T) {
	r := newRig(t, "cpc6128")
	r.frames(100)
	if _, err := r.h.Type(r.ctx, TypeArgs{Handle: r.handle, Text: `PRINT "HELLO"`}); err != nil {
		t.Fatal(err)
	}
	mv := r.run(RunArgs{Frames: ptr(uint64(10)), Keys: []Key{KeyNamed("RETURN")}, Conditions: Conditions{Gather: []Condition{
		{Kind: "exec", Address: "&13FE", From: "lower", Capture: CaptureArgs{CPU: []string{"cpu.a"}}},
	}}})
	var text []byte
	for _, g := range mv.Gathered {
		cpu, _ := captured(t, g)
		text = append(text, byte(cpu["cpu.a"].(float64)))
	}
	if string(text) != "\r\nHELLO\r\nReady\r\n" {
		t.Errorf("TXT OUTPUT was handed %q", text)
	}
}

// TestCAP8CapturingFillsAt32 holds CAP-7 and CAP-8: a gathering any of
// whose conditions captures fills at 32, and gather_last keeps 32; a match
// of several conditions captures what each names, each value once.
func TestCAP8CapturingFillsAt32(t *testing.T) {
	r := newRig(t, "spectrum48")
	r.frames(90)
	twin := r.twin()
	conds := []Condition{
		{Kind: "write", Address: "&5C00", AddressTo: "&5CFF", Capture: CaptureArgs{CPU: []string{"cpu.a", "cpu.sp"}}},
		{Kind: "write", Address: "&5C78", Capture: CaptureArgs{CPU: []string{"cpu.sp", "cpu.hl"}, Memory: []SpanArg{{Address: "&5C78", Length: 3}}}},
		writeIn("&FF00", "&FFFF"),
	}
	conds[1].Capture.CPU = []string{"cpu.sp", "cpu.h"}
	mv := r.runTicks(100*69888, Conditions{Gather: conds})
	if mv.Stop != stopFull || len(mv.Gathered) < 32 || len(mv.Gathered) > 40 {
		t.Errorf("a capturing gathering stopped %s with %d matches; want full at 32", mv.Stop, len(mv.Gathered))
	}
	var both, plain int
	for _, g := range mv.Gathered {
		switch {
		case g.Address == "&5C78":
			both++
			if string(g.Captured.CPU) != fmt.Sprintf(`{"cpu.a":%s,"cpu.sp":%s,"cpu.h":%s}`, jsonOf(g, "cpu.a"), jsonOf(g, "cpu.sp"), jsonOf(g, "cpu.h")) || len(g.Captured.Memory) != 1 {
				t.Errorf("a match of two conditions captured %s %v", g.Captured.CPU, g.Captured.Memory)
			}
		case strings.HasPrefix(g.Address, "&FF"):
			plain++
			if len(g.Captured.CPU) != 0 || len(g.Captured.Memory) != 0 {
				t.Errorf("a match of a condition that captures nothing captured %s", asJSON(g.Captured))
			}
		}
	}
	if both == 0 || plain == 0 {
		t.Errorf("%d matches of two conditions, %d of none that captures", both, plain)
	}
	kept := twin.runTicks(100*69888, Conditions{GatherLast: conds})
	if kept.Stop != stopDone || len(kept.Gathered) != 32 {
		t.Errorf("a capturing gather_last: %s with %d", kept.Stop, len(kept.Gathered))
	}
}

// jsonOf is a value a match captured, as JSON.
func jsonOf(m watch.Match, path string) string {
	var cpu map[string]json.RawMessage
	json.Unmarshal(m.Captured.CPU, &cpu)
	return string(cpu[path])
}
