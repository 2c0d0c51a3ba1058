package server

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"colophon/internal/host"
)

// A routine that stores a byte and returns: LD A,&2A; LD (&9000),A; RET.
const storeRoutine = "3E 2A 32 00 90 C9"

// A routine that counts BC down from &2000 and returns, some 213000 ticks,
// three frames of either machine: LD BC,&2000; DEC BC; LD A,B; OR C;
// JR NZ,-5; RET.
const delayRoutine = "01 00 20 0B 78 B1 20 FB C9"

// TestCallReturns holds CALL-1, CALL-2 and CALL-4: the values are written
// first, as set writes them; the program counter is pushed where the stack
// pointer stands; and the call ends with the processor back at it and the
// stack pointer where it was, keeping what the routine left.
func TestCallReturns(t *testing.T) {
	w := machineWire(t)
	h := w.boot("spectrum48")
	w.tool("poke", args{"handle": h, "address": "&8000", "bytes": storeRoutine}, nil)
	pc, sp := w.inspect(h, "cpu.pc").(float64), w.inspect(h, "cpu.sp").(float64)
	var r host.Moved
	w.tool("call", args{"handle": h, "address": "&8000", "values": map[string]any{"cpu.b": "&07", "cpu.iff1": false}}, &r)
	if r.Stop != "done" || r.Instructions != 3 || r.Ticks != 7+13+10 || r.Tick != w.tick(h) {
		t.Errorf("the call answered %+v, want 3 instructions in 30 ticks", r)
	}
	if w.inspect(h, "cpu.pc") != pc || w.inspect(h, "cpu.sp") != sp {
		t.Errorf("after the call pc %v sp %v, want them where they stood, %v and %v", w.inspect(h, "cpu.pc"), w.inspect(h, "cpu.sp"), pc, sp)
	}
	if w.inspect(h, "cpu.a") != 42.0 || w.inspect(h, "cpu.b") != 7.0 || !bytes.Equal(w.peek(h, "&9000", 1), []byte{0x2A}) {
		t.Errorf("the routine's work is not left: a %v b %v", w.inspect(h, "cpu.a"), w.inspect(h, "cpu.b"))
	}
	// The return address was pushed below the stack pointer, high byte
	// first, as CALL pushes it.
	if got := w.peek(h, int(sp)-2, 2); !bytes.Equal(got, []byte{byte(int(pc)), byte(int(pc) >> 8)}) {
		t.Errorf("below the stack pointer lie % X, want the return address &%04X", got, int(pc))
	}
	// The journal keeps the values as given, and the address after &.
	j := w.journalOf(h)
	last := j[len(j)-1]
	if last.Tool != "call" || string(last.Arguments) != `{"address":"&8000","values":{"cpu.b":"&07","cpu.iff1":false}}` {
		t.Errorf("the call was journaled as %s %s", last.Tool, last.Arguments)
	}
}

// TestCallHaltedAgain holds CALL-3, the spec's own test: a processor halted
// on HALT before a call is halted there again once the routine has
// returned.
func TestCallHaltedAgain(t *testing.T) {
	w := machineWire(t)
	h := w.boot("spectrum48")
	w.tool("poke", args{"handle": h, "address": "&8000", "bytes": storeRoutine}, nil)
	// EI; HALT at &8100, run into: the processor waits on the HALT for
	// the next frame's interrupt.
	w.tool("poke", args{"handle": h, "address": "&8100", "bytes": "FB 76"}, nil)
	w.tool("set", args{"handle": h, "values": map[string]any{"cpu.pc": "&8100", "frame_tick": 1000}}, nil)
	var r host.Moved
	w.tool("run", args{"handle": h, "ticks": 100}, &r)
	if w.inspect(h, "cpu.halted") != true || w.inspect(h, "cpu.pc") != float64(0x8101) || r.Stop != "done" {
		t.Fatalf("the processor is not waiting on the HALT: %+v, pc %v", r, w.inspect(h, "cpu.pc"))
	}
	sp := w.inspect(h, "cpu.sp")
	w.tool("call", args{"handle": h, "address": "&8000"}, &r)
	if r.Stop != "done" || r.Instructions != 3 {
		t.Errorf("the call answered %+v", r)
	}
	if w.inspect(h, "cpu.halted") != true || w.inspect(h, "cpu.pc") != float64(0x8101) || w.inspect(h, "cpu.sp") != sp {
		t.Errorf("after the call: halted %v, pc %v, sp %v; want halted on the HALT at &8101 with sp %v",
			w.inspect(h, "cpu.halted"), w.inspect(h, "cpu.pc"), w.inspect(h, "cpu.sp"), sp)
	}
	// And it waits there for the interrupt as before.
	w.tool("run", args{"handle": h, "frames": 1}, &r)
	if w.inspect(h, "cpu.halted") == true {
		t.Errorf("a frame later the processor still waits on the HALT")
	}
}

// TestCallHalts holds CALL-5: a routine that ends a HALT with interrupts
// disabled stops the call at once, and says so.
func TestCallHalts(t *testing.T) {
	w := machineWire(t)
	h := w.boot("spectrum48")
	w.tool("poke", args{"handle": h, "address": "&8000", "bytes": "F3 76 C9"}, nil)
	sp := w.inspect(h, "cpu.sp").(float64)
	var r host.Moved
	w.tool("call", args{"handle": h, "address": 32768}, &r)
	if r.Stop != "halted" || r.Instructions != 2 || r.Ticks != 8 || r.Frames != 0 {
		t.Errorf("a call into DI; HALT answered %+v, want it halted at once", r)
	}
	if w.inspect(h, "cpu.pc") != float64(0x8001) || w.inspect(h, "cpu.sp") != sp-2 {
		t.Errorf("the machine does not stand in the routine: pc %v sp %v", w.inspect(h, "cpu.pc"), w.inspect(h, "cpu.sp"))
	}
}

// TestCallRefused holds CALL-6 and the conventions: a call whose return
// address would be pushed under the ROM is refused, its values and all,
// and so is one with a bad address or bad values; the machine is left as
// it was.
func TestCallRefused(t *testing.T) {
	w := machineWire(t)
	h := w.boot("spectrum48")
	w.tool("poke", args{"handle": h, "address": "&8000", "bytes": storeRoutine}, nil)
	before := mustJSON(t, w.inspect(h, ""))
	for _, tt := range []struct {
		args args
		want string
	}{
		{args{"address": "&8000", "values": map[string]any{"cpu.sp": "&4001", "cpu.a": 9}},
			"the stack pointer is &4001, so the return address would be pushed at &3FFF, where the ROM answers reads: it would not read back"},
		{args{"address": "&8000", "values": map[string]any{"cpu.sp": 100, "cpu.halted": false}},
			"the stack pointer is &0064"},
		{args{"address": "&8000", "values": map[string]any{"cpu.a": 300}}, "cpu.a"},
		{args{"address": "&8000", "values": map[string]any{"cpu.prefix": 221}}, "leaves the processor inside a chain of prefixes"},
		{args{"address": "&10000"}, `argument "address" is &10000, past &FFFF`},
		{args{"address": "cpu.pc"}, `argument "address" is "cpu.pc", which is no address`},
		{args{}, `missing argument "address": call requires "handle" and "address"`},
	} {
		a := args{"handle": h}
		for k, v := range tt.args {
			a[k] = v
		}
		if got := w.refused("call", a); !strings.Contains(got, tt.want) {
			t.Errorf("call %s refused as %q, want %q", mustJSON(t, tt.args), got, tt.want)
		}
	}
	if after := mustJSON(t, w.inspect(h, "")); after != before {
		t.Errorf("refused calls changed the machine:\n%s\n%s", before, after)
	}
	// With the stack just above the ROM, the call is made.
	var r host.Moved
	w.tool("call", args{"handle": h, "address": "&8000", "values": map[string]any{"cpu.sp": "&4002"}}, &r)
	if r.Stop != "done" {
		t.Errorf("a call with the stack at &4002 answered %+v", r)
	}
}

// TestCallInterrupts holds CALL-9 and CALL-10, the spec's tests on both
// machines: a run by frames ends just past the retrace, inside the handler
// of the frame's interrupt with IFF1 clear, and a routine called there runs
// with no interrupt at all, though frames pass, unless interrupts are
// enabled for it. An interrupt's response would push its return address
// below the call's, so bytes marked there tell whether one came.
func TestCallInterrupts(t *testing.T) {
	w := machineWire(t)
	for _, machine := range []string{"spectrum48", "cpc6128"} {
		t.Run(machine, func(t *testing.T) {
			h := w.boot(machine)
			routine := "&8000"
			if machine != "spectrum48" {
				routine = "&4000" // the central RAM, beneath no ROM
			}
			w.tool("poke", args{"handle": h, "address": routine, "bytes": delayRoutine}, nil)
			var r host.Moved
			w.tool("run", args{"handle": h, "frames": 1}, &r)
			if w.inspect(h, "cpu.iff1") != false {
				t.Fatalf("a run by frames ended with IFF1 set, outside the frame interrupt's handler")
			}
			sp := int(w.inspect(h, "cpu.sp").(float64))
			mark := func() {
				w.tool("poke", args{"handle": h, "address": sp - 16, "bytes": strings.Repeat("A5 ", 14)}, nil)
			}
			marked := func() bool { return bytes.Equal(w.peek(h, sp-16, 14), bytes.Repeat([]byte{0xA5}, 14)) }

			mark()
			w.tool("call", args{"handle": h, "address": routine}, &r)
			if r.Stop != "done" || r.Frames < 2 {
				t.Fatalf("the delay answered %+v, want frames to pass", r)
			}
			if !marked() {
				t.Errorf("with IFF1 clear an interrupt's response was taken inside the routine")
			}
			if machine == "spectrum48" {
				// The ROM's handler is short and returns with EI; RET,
				// so the routine may be run with interrupts enabled.
				mark()
				w.tool("call", args{"handle": h, "address": routine, "values": map[string]any{"cpu.iff1": true, "cpu.iff2": true}}, &r)
				if r.Stop != "done" || marked() {
					t.Errorf("with IFF1 set no interrupt was taken inside the routine: %+v", r)
				}
			}
		})
	}
}

// TestCallLimit: a routine that does not come back within the ticks of
// 1500 standard frames stops there, as a run would, and says so.
func TestCallLimit(t *testing.T) {
	w := machineWire(t)
	h := w.boot("spectrum48")
	w.tool("poke", args{"handle": h, "address": "&8000", "bytes": "18 FE"}, nil) // JR $
	var r host.Moved
	w.tool("call", args{"handle": h, "address": "&8000", "values": map[string]any{"cpu.iff1": false}}, &r)
	if r.Stop != "limit" || r.Ticks < 1500*69888 || r.Ticks > 1500*69888+12 {
		t.Errorf("an endless routine answered %+v", r)
	}
	if w.inspect(h, "cpu.pc") != float64(0x8000) {
		t.Errorf("the machine stands at %v, not in the routine", w.inspect(h, "cpu.pc"))
	}
}

// TestCallROMs holds CALL-8, the spec's test, with PP-1, PP-2 and IS-10 on
// a CPC: beneath the enabled lower ROM a call runs the ROM, not the RAM a
// poke wrote beneath it; with the ROM paged off by set, which works the
// memory map out again, the same call runs the RAM.
func TestCallROMs(t *testing.T) {
	w := machineWire(t)
	h := w.boot("cpc6128")
	rom := w.peek(h, "&0100", 4096)
	ret := bytes.IndexByte(rom, 0xC9)
	if ret < 0 {
		t.Fatal("no RET in the lower ROM from &0100")
	}
	at := 0x100 + ret
	var p host.Poked
	w.tool("poke", args{"handle": h, "address": at, "bytes": "3E 55 C9"}, &p)
	if p.ROM != "lower" || p.Written != 3 {
		t.Errorf("a poke under the lower ROM answered %+v", p)
	}
	if got := w.peek(h, at, 1); got[0] != 0xC9 {
		t.Errorf("the poke under the ROM shows through it: &%04X reads &%02X", at, got[0])
	}
	var ram host.Peeked
	w.tool("peek", args{"handle": h, "address": at, "length": 3, "ram": true}, &ram)
	if ram.Bytes != "3E 55 C9" || ram.Address != fmt.Sprintf("&%04X", at) {
		t.Errorf("the RAM beneath reads %+v", ram)
	}

	var r host.Moved
	w.tool("call", args{"handle": h, "address": at, "values": map[string]any{"cpu.a": 0}}, &r)
	if r.Instructions != 1 || w.inspect(h, "cpu.a") != 0.0 {
		t.Errorf("with the ROM enabled the call ran %d instructions and left a %v: it ran the RAM", r.Instructions, w.inspect(h, "cpu.a"))
	}
	w.tool("set", args{"handle": h, "values": map[string]any{"gate_array.lower_rom": false}}, nil)
	var peeked host.Peeked
	w.tool("peek", args{"handle": h, "address": at, "length": 1}, &peeked)
	if peeked.Bytes != "3E" || peeked.ROM != "" {
		t.Errorf("with the ROM paged off &%04X reads %+v", at, peeked)
	}
	w.tool("call", args{"handle": h, "address": at, "values": map[string]any{"cpu.a": 0}}, &r)
	if r.Instructions != 2 || w.inspect(h, "cpu.a") != float64(0x55) {
		t.Errorf("with the ROM paged off the call ran %d instructions and left a %v: it did not run the RAM", r.Instructions, w.inspect(h, "cpu.a"))
	}
	w.tool("set", args{"handle": h, "values": map[string]any{"gate_array.lower_rom": true}}, nil)
	// A stack beneath the enabled upper ROM refuses the call (CALL-6).
	if got := w.refused("call", args{"handle": h, "address": at, "values": map[string]any{"cpu.sp": "&C002", "gate_array.upper_rom": true}}); !strings.Contains(got, "upper ROM 0 answers reads") {
		t.Errorf("a call with its stack under BASIC was refused as %q", got)
	}
}
