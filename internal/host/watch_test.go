package host

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"colophon/internal/shared"
	"colophon/internal/watch"
)

// ldir is a program copying five bytes with LDIR from src to dst, then
// waiting in JR $, at addr; the LDIR is its 11th byte.
func ldir(addr, src, dst uint16) []byte {
	return []byte{
		0xF3,                            // DI
		0x21, byte(src), byte(src >> 8), // LD HL,src
		0x11, byte(dst), byte(dst >> 8), // LD DE,dst
		0x01, 0x05, 0x00, // LD BC,5
		0xED, 0xB0, // LDIR
		0x18, 0xFE, // JR $
	}
}

// machines are where the tests of both machines put a short program: in
// RAM, clear of a CPC's ROMs and a Spectrum's screen.
var machines = []struct {
	name     string
	code     uint16 // where a test program goes
	src, dst uint16 // free RAM
}{
	{"spectrum48", 0x8000, 0x9000, 0xA000},
	{"cpc6128", 0x4000, 0x5000, 0x6000},
}

// TestCB6LDIRMatchesEachRepeat holds CB-6: an LDIR that copies five bytes
// begins again at its own address each time it repeats, so an exec
// condition on it matches five times, and its five writes are made by it.
// Each repeat takes 21 T-states on a Spectrum's uncontended RAM (UM0080,
// LDIR: 21 T-states while BC is not 0).
func TestCB6LDIRMatchesEachRepeat(t *testing.T) {
	for _, m := range machines {
		r := newRig(t, m.name)
		r.program(m.code, ldir(m.code, m.src, m.dst)...)
		at := watch.Address(uint32(m.code + 10))
		mv := r.runTicks(2000, Conditions{Gather: []Condition{
			execAt(at), writeIn(watch.Address(uint32(m.dst)), watch.Address(uint32(m.dst+4))),
		}})
		var execs, writes []watch.Match
		for _, g := range mv.Gathered {
			if g.Kind == "exec" {
				execs = append(execs, g)
			} else {
				writes = append(writes, g)
			}
		}
		if len(execs) != 5 || len(writes) != 5 {
			t.Fatalf("%s: %d exec matches and %d writes of the LDIR, want 5 and 5: %s", m.name, len(execs), len(writes), asJSON(mv.Gathered))
		}
		for i, w := range writes {
			if w.PC != at || w.Address != watch.Address(uint32(m.dst)+uint32(i)) || w.Byte != "&00" {
				t.Errorf("%s: write %d is %s", m.name, i, asJSON(w))
			}
			if execs[i].Tick > w.Tick || i > 0 && w.Tick < execs[i].Tick {
				t.Errorf("%s: repeat %d begins at %d, after its write at %d", m.name, i, execs[i].Tick, w.Tick)
			}
		}
		if m.name == "spectrum48" {
			for i := 1; i < 5; i++ {
				if d := execs[i].Tick - execs[i-1].Tick; d != 21 {
					t.Errorf("repeat %d begins %d ticks after the one before, want 21", i, d)
				}
			}
		}
		// until stops at each repeat in turn, before it, and then no more
		// (CB-3, CB-4, CB-5).
		r = newRig(t, m.name)
		r.program(m.code, ldir(m.code, m.src, m.dst)...)
		for i := range 5 {
			mv := r.runTicks(2000, Conditions{Until: []Condition{execAt(at)}})
			if mv.Stop != stopUntil || asJSON(mv.Until) != asJSON(execs[i]) || r.num("cpu.pc") != uint64(m.code+10) || r.tick() != execs[i].Tick {
				t.Fatalf("%s: until run %d stopped %s at %s, PC &%04X tick %d; want before repeat %d, %s",
					m.name, i, mv.Stop, asJSON(mv.Until), r.num("cpu.pc"), r.tick(), i, asJSON(execs[i]))
			}
		}
		if mv := r.runTicks(2000, Conditions{Until: []Condition{execAt(at)}}); mv.Stop != "done" {
			t.Errorf("%s: after five repeats until stopped again: %s", m.name, asJSON(mv))
		}
	}
}

// TestCB5RunBegunWhereItStopped holds CB-4 and CB-5: a run stopped before
// an instruction leaves the machine standing at it unrun, and the next run
// runs it first; a run that begins on an instruction it was not stopped
// before stops there at once.
func TestCB5RunBegunWhereItStopped(t *testing.T) {
	r := newRig(t, "spectrum48")
	code := []byte{0xF3, 0x3E, 0x05, 0x32, 0x00, 0x90, 0x18, 0xFB} // DI; LD A,5; LD (&9000),A; JR back to the LD (&9000),A
	r.program(0x8000, code...)
	until := Conditions{Until: []Condition{execAt("&8003")}}
	mv := r.runTicks(1000, until)
	if mv.Stop != stopUntil || r.num("cpu.pc") != 0x8003 || r.peek("&9000", 1).Bytes != "00" {
		t.Fatalf("first run: %s, PC &%04X, &9000 holds %s; want a stop before LD (&9000),A, unrun", asJSON(mv), r.num("cpu.pc"), r.peek("&9000", 1).Bytes)
	}
	mv = r.runTicks(1000, until)
	// LD (&9000),A 13 and JR 12 (UM0080): the loop is 25 ticks.
	if mv.Stop != stopUntil || mv.Ticks != 25 || r.peek("&9000", 1).Bytes != "05" {
		t.Errorf("second run: %s, &9000 holds %s; want the instruction run first, and a stop 25 ticks on", asJSON(mv), r.peek("&9000", 1).Bytes)
	}
	// A machine set to stand at the instruction, at another tick, was not
	// stopped before it: the run stops at once.
	r.run(RunArgs{Ticks: ptr(uint64(5))})
	r.set(`{"cpu.pc": "&8003"}`)
	if mv := r.runTicks(1000, until); mv.Stop != stopUntil || mv.Ticks != 0 {
		t.Errorf("a run begun at the instruction, not stopped before it: %s; want a stop at once", asJSON(mv))
	}
}

// TestCB9GatherFillsAndGoesOn holds CB-9, CB-10, A-7 and CB-11 over a
// stretch with interrupts on both machines: a gathering fills at 128
// matches, keeping the rest of the instruction that made the 128th and the
// response taken at its end, and stops between instructions; the next run
// gathers on with nothing lost; and the matches are those the stops of
// one until at a time make, each stop standing where the first match of
// an instruction, or of a response, puts it.
func TestCB9GatherFillsAndGoesOn(t *testing.T) {
	for _, c := range []struct {
		machine string
		conds   []Condition
	}{
		// The frame interrupt's entry, the system variables FRAMES and
		// the keyboard's, and the ULA's port.
		{"spectrum48", []Condition{execAt("&0038"), writeIn("&5C00", "&5C7F"), readIn("&5C00", "&5C0F"), {Kind: "out", Port: "&00FE", Mask: "&0001"}}},
		// The interrupt entry, the firmware's interrupt work in its RAM,
		// the Gate Array, and the PPI's port C.
		{"cpc6128", []Condition{execAt("&0038"), writeIn("&B800", "&B8FF"), {Kind: "out", Port: "&7F00", Mask: "&C000"}, {Kind: "in", Port: "&F400", Mask: "&0B00"}}},
	} {
		r := newRig(t, c.machine)
		r.frames(90)
		twin := r.twin()
		start := r.tick()
		var all []watch.Match
		for range 6 {
			mv := r.runTicks(30*79872, Conditions{Gather: c.conds})
			if mv.Stop != stopFull || len(mv.Gathered) < watch.AnswerMatches {
				t.Fatalf("%s: a gathering stopped %s with %d matches; want it full at 128", c.machine, mv.Stop, len(mv.Gathered))
			}
			last := mv.Gathered[len(mv.Gathered)-1]
			for _, g := range mv.Gathered[watch.AnswerMatches:] {
				// Past the 128th come only the rest of its instruction and
				// of a response: matches within the instruction's ticks.
				if g.Tick >= r.tick() {
					t.Errorf("%s: a match at %d past the stop at %d", c.machine, g.Tick, r.tick())
				}
			}
			if last.Tick >= r.tick() {
				t.Errorf("%s: the last match at %d, the run stopped at %d", c.machine, last.Tick, r.tick())
			}
			all = append(all, mv.Gathered...)
		}
		// The twin stops at one match at a time.
		end := r.tick()
		var stops []stop
		for twin.tick() < end {
			mv := twin.runTicks(end-twin.tick(), Conditions{Until: c.conds})
			if mv.Stop != stopUntil {
				break
			}
			stops = append(stops, stop{mv.Until, twin.tick()})
		}
		if twin.tick() != end {
			t.Fatalf("%s: the twin ended at %d, the gathering at %d", c.machine, twin.tick(), end)
		}
		checkStops(t, c.machine, start, all, stops)
	}
}

// A stop is where an until stopped: its match and the machine's tick.
type stop struct {
	m    watch.Match
	tick uint64
}

// checkStops holds a gathering to the stops of until, one at a time, over
// the same stretch (CB-11): each stop's match is the first gathered since
// the stop before; the matches after it, up to the stop's tick, are the
// rest of its instruction and of a response taken at its end; an exec
// stop stands at its match's tick, before the instruction.
func checkStops(t *testing.T, what string, start uint64, gathered []watch.Match, stops []stop) {
	t.Helper()
	checkStopsN(t, what, start, gathered, stops, 100)
}

// checkStopsN is checkStops over a stretch of at least least stops.
func checkStopsN(t *testing.T, what string, start uint64, gathered []watch.Match, stops []stop, least int) {
	t.Helper()
	i := 0
	for n, s := range stops {
		if i >= len(gathered) {
			t.Fatalf("%s: stop %d, %s, past the gathering's %d matches", what, n, asJSON(s.m), len(gathered))
		}
		if asJSON(gathered[i]) != asJSON(s.m) {
			t.Fatalf("%s: stop %d is %s; the gathering's match %d is %s", what, n, asJSON(s.m), i, asJSON(gathered[i]))
		}
		i++
		if s.m.Kind == "exec" {
			if s.tick != s.m.Tick {
				t.Errorf("%s: stop %d before an instruction at %d stands at %d", what, n, s.m.Tick, s.tick)
			}
			continue
		}
		for i < len(gathered) && gathered[i].Tick < s.tick {
			i++
		}
	}
	if i != len(gathered) {
		t.Errorf("%s: %d stops cover %d of %d gathered matches; the next is %s", what, len(stops), i, len(gathered), asJSON(gathered[i]))
	}
	if len(stops) < least {
		t.Errorf("%s: only %d stops; the stretch is to hold %d at least", what, len(stops), least)
	}
	_ = start
}

// TestCB13GatherLast holds CB-12 and CB-13: gather_last keeps the last
// 128 matches and runs on as though nothing filled, so that they are the
// tail of a gathering carried through many runs; and a call of the 48K
// ROM's CL-LINE (&0E44) with gather_last over every instruction ends with
// the routine's last instructions where The Complete Spectrum ROM
// Disassembly ends it: POP BC, LD C,&21, RET at &0E84, &0E85 and &0E87.
func TestCB13GatherLast(t *testing.T) {
	r := newRig(t, "spectrum48")
	r.frames(90)
	twin := r.twin()
	conds := []Condition{execAt("&0038"), writeIn("&5C00", "&5CFF")}
	kept := r.runTicks(60*69888, Conditions{GatherLast: conds})
	if kept.Stop != "done" || len(kept.Gathered) != watch.AnswerMatches {
		t.Fatalf("gather_last: %s with %d matches; want done with the last 128", kept.Stop, len(kept.Gathered))
	}
	var all []watch.Match
	for twin.tick() < r.tick() {
		mv := twin.runTicks(r.tick()-twin.tick(), Conditions{Gather: conds})
		all = append(all, mv.Gathered...)
	}
	tail := all[len(all)-watch.AnswerMatches:]
	if asJSON(tail) != asJSON(kept.Gathered) {
		t.Errorf("gather_last kept %s...; the gathering's tail is %s...", asJSON(kept.Gathered[0]), asJSON(tail[0]))
	}

	rows := romRows(t)
	mv := r.call(CallArgs{Address: "&0E44", Values: []byte(`{"cpu.b": 1}`), Conditions: Conditions{GatherLast: []Condition{execIn("&0000", "&3FFF")}}})
	if mv.Stop != stopDone {
		t.Fatalf("CL-LINE: %s", asJSON(mv))
	}
	g := mv.Gathered
	got := field(g[len(g)-3:], func(m watch.Match) string { return m.Address + " " + m.Byte })
	var want []string
	for _, a := range []uint32{0x0E84, 0x0E85, 0x0E87} {
		want = append(want, fmt.Sprintf("%s &%02X", watch.Address(a), rows[a].Bytes[0]))
		if !strings.HasPrefix(rows[a].Text, map[uint32]string{0x0E84: "POP BC", 0x0E85: "LD C,", 0x0E87: "RET"}[a]) {
			t.Fatalf("the disassembly has %q at &%04X", rows[a].Text, a)
		}
	}
	if !same(got, want) {
		t.Errorf("CL-LINE's last instructions are %v, want %v", got, want)
	}
}

// TestPR9ROMWalk holds PR-8, PR-9 and A-15 to the 6128's firmware: KL ROM
// WALK (&0326 in the listing, Bread80's CPC6128-Firmware-Source, Kernel.asm)
// counts C from 15 down, and KL INIT BACK (&0330) skips the foreground ROM,
// 0, selects each number and reads its class at &C000 (&033C), where an
// unfitted number is answered by ROM 0, BASIC; at 7 AMSDOS answers, a
// background ROM, and its initialisation at &C006 is called (&0346). BASIC
// itself was started at &C006 of ROM 0 (Start_BASIC_or_program, &007D),
// and walks the ROMs as it starts: so the listing supports reading (a) of
// A-15, BASIC's entry and then AMSDOS's, both at &C006, in that order.
func TestPR9ROMWalk(t *testing.T) {
	r := newRig(t, "cpc6128")
	mv := r.run(RunArgs{Frames: ptr(uint64(100)), Conditions: Conditions{Gather: []Condition{
		{Kind: "exec", Address: "&C006", From: "upper"},
		{Kind: "read", Address: "&C000", From: "upper"},
		{Kind: "out", Port: "&DF00", Mask: "&2000"}, // the upper ROM's number, A13 low (cpctech)
	}}})
	var got []string
	selected := -1
	for _, g := range mv.Gathered {
		switch g.Kind {
		case "out":
			var n int
			fmt.Sscanf(g.Byte, "&%X", &n)
			if n != 0 {
				selected = n
			}
		case "read":
			if g.PC != "&033C" || g.PCROM != "lower" {
				t.Errorf("a read of &C000 by %s %s, want KL INIT BACK's at &033C", g.PC, g.PCROM)
			}
			got = append(got, fmt.Sprintf("read %d:%s", selected, g.ROM))
		case "exec":
			got = append(got, "exec "+g.ROM)
		}
	}
	want := []string{"exec upper 0"}
	for n := 15; n >= 1; n-- {
		rom := "upper 0"
		if n == 7 {
			rom = "upper 7"
		}
		want = append(want, fmt.Sprintf("read %d:%s", n, rom))
		if n == 7 {
			want = append(want, "exec upper 7")
		}
	}
	if !same(got, want) {
		t.Errorf("the firmware started and walked its ROMs as\n%v\nwant\n%v", got, want)
	}
}

// TestPR10InterruptEntryInROMAndRAM holds PR-2, PR-4, PR-6 and PR-10: the
// firmware copies its restarts to RAM (Setup_KERNEL_jumpblocks, &0044 in
// the 6128's listing), so the interrupt entry at &0038 runs from the lower
// ROM while it is enabled and from the copy while it is not; a condition
// on the RAM stops only at the copy.
func TestPR10InterruptEntryInROMAndRAM(t *testing.T) {
	r := newRig(t, "cpc6128")
	r.frames(100)
	// At BASIC's Ready the firmware waits for a key with its lower ROM
	// enabled; then a program of ours disables both ROMs (the Gate
	// Array's &8D: mode 1, ROMs off) and waits with interrupts enabled.
	mv := r.run(RunArgs{Frames: ptr(uint64(10)), Conditions: Conditions{Gather: []Condition{execAt("&0038")}}})
	r.program(0x4000, 0x01, 0x8D, 0x7F, 0xED, 0x49, 0xFB, 0x18, 0xFE) // LD BC,&7F8D; OUT (C),C; EI; JR $
	mv2 := r.run(RunArgs{Frames: ptr(uint64(10)), Conditions: Conditions{Gather: []Condition{execAt("&0038")}}})
	var rom, ram int
	for _, g := range append(mv.Gathered, mv2.Gathered...) {
		switch g.ROM {
		case "lower":
			rom++
		case "":
			ram++
		default:
			t.Errorf("&0038 run from %s", g.ROM)
		}
	}
	if rom == 0 || ram == 0 {
		t.Fatalf("&0038 ran %d times from the lower ROM and %d from RAM; want both", rom, ram)
	}
	// A condition on the RAM stops at the copy alone: never while the
	// program keeps the lower ROM on (&89), each time while it keeps it
	// off. The firmware keeps the Gate Array's configuration in C' and
	// writes it back as its interrupt handler returns (BC' is &7Fxx, SOFT
	// 968), so the program sets it there.
	for _, c := range []struct {
		ga    byte
		stops bool
	}{{0x89, false}, {0x8D, true}} {
		r := newRig(t, "cpc6128")
		r.frames(100)
		r.program(0x4000, 0xF3, 0xD9, 0x01, c.ga, 0x7F, 0xED, 0x49, 0xD9, 0xFB, 0x18, 0xFE) // DI; EXX; LD BC,&7Fxx; OUT (C),C; EXX; EI; JR $
		for range 6 {
			mv := r.run(RunArgs{Frames: ptr(uint64(2)), Conditions: Conditions{Until: []Condition{{Kind: "exec", Address: "&0038", From: "ram"}}}})
			switch {
			case !c.stops && mv.Stop != stopDone:
				t.Fatalf("until exec &0038 from ram, the lower ROM on: %s", asJSON(mv))
			case c.stops && (mv.Stop != stopUntil || mv.Until.ROM != "" || r.num("gate_array.lower_rom") != 0 || r.num("cpu.pc") != 0x38):
				t.Fatalf("until exec &0038 from ram, the lower ROM off: %s, lower ROM enabled %d", asJSON(mv), r.num("gate_array.lower_rom"))
			}
		}
	}
	// A Spectrum's ROM is below &4000 for good (PR-5).
	s := newRig(t, "spectrum48")
	mv = s.run(RunArgs{Frames: ptr(uint64(5)), Conditions: Conditions{Gather: []Condition{{Kind: "exec", Address: "&0000", AddressTo: "&FFFF", From: "ram"}}}})
	if len(mv.Gathered) != 0 {
		t.Errorf("a Spectrum booting ran %s from RAM", asJSON(mv.Gathered[0]))
	}
}

// romRows is the 48K ROM's disassembly by address.
func romRows(t *testing.T) map[uint32]shared.ROMRow {
	rows := map[uint32]shared.ROMRow{}
	for _, r := range shared.SpectrumROMRows(t) {
		rows[r.Addr] = r
	}
	return rows
}

// sorted lists strings in order.
func sorted(s []string) []string { s = slices.Clone(s); slices.Sort(s); return s }
