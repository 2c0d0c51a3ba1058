package host

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"colophon/internal/watch"
)

// clLine calls the 48K ROM's CL-LINE (&0E44) to clear the whole screen,
// 24 lines, after the machine has booted.
func clLine(t *testing.T, c Conditions) Moved {
	r := newRig(t, "spectrum48")
	r.frames(90)
	// TV_FLAG (&5C3C, IY+2) with bit 0 clear: the main screen, whose
	// attribute is ATTR_P, so CL-LINE jumps over &0E7D.
	r.poke(0x5C3C, 0x00)
	mv := r.call(CallArgs{Address: "&0E44", Values: []byte(`{"cpu.b": 24}`), Conditions: c})
	if mv.Stop != stopDone {
		t.Fatalf("CL-LINE: %s", asJSON(mv))
	}
	return mv
}

// TestCNT9ScreenClearByPC holds CNT-1, CNT-6, CNT-8 and CNT-9: a count by
// pc of the writes to the screen while the 48K ROM's CL-LINE clears it
// finds the four instructions The Complete Spectrum ROM Disassembly names
// (LD (HL),&00 and LDIR for the bitmap, LD (HL),A and LDIR for the
// attributes), each first writing where the disassembly's arithmetic puts
// it: the bitmap's first byte and the one after, the attributes' first
// byte and the one after; and their counts make the whole screen.
func TestCNT9ScreenClearByPC(t *testing.T) {
	mv := clLine(t, Conditions{Count: []Condition{writeIn("&4000", "&5AFF")}, CountBy: "pc"})
	rows := romRows(t)
	var got []string
	var total uint64
	for _, p := range mv.Count.Writes {
		got = append(got, fmt.Sprintf("%s %s %s", p.PC, rows[uint32(parseHex(p.PC))].Text, p.Address))
		total += p.Count
	}
	want := []string{"&0E59 LD (HL),$00 &4000", "&0E5C LDIR &4001", "&0E80 LD (HL),A &5800", "&0E82 LDIR &5801"}
	if !same(got, want) || total != 0x1B00 || mv.Count.By != "pc" || mv.Count.Places != 4 {
		t.Errorf("CL-LINE's writes by pc: %v, %d bytes; want %v, 6912 bytes", got, total, want)
	}
}

// TestRNG12ScreenClearByRange holds RNG-4, RNG-7 and RNG-12: counted by
// range, CL-LINE's instructions are the two stretches of code its
// disassembly lays out, &0E44 to the JR Z at &0E7B and &0E80 to the RET at
// &0E87, with the LD A,(&5C48) at &0E7D between them jumped over (TV_FLAG's
// bit 0 clear); and the screen it clears is one range.
func TestRNG12ScreenClearByRange(t *testing.T) {
	mv := clLine(t, Conditions{Count: []Condition{execIn("&0E44", "&0E87"), writeIn("&4000", "&5AFF")}, CountBy: "range"})
	got := func(rs []watch.Range) []string {
		var out []string
		for _, r := range rs {
			out = append(out, fmt.Sprintf("%s-%s %d", r.Address, r.Last, r.Places))
		}
		return out
	}
	rows := romRows(t)
	if !strings.HasPrefix(rows[0x0E7B].Text, "JR Z,$0E80") || !strings.HasPrefix(rows[0x0E7D].Text, "LD A,($5C48)") || rows[0x0E87].Text != "RET" {
		t.Fatalf("the disassembly's CL-LINE is not as the test reads it")
	}
	// The disassembly lists 37 instructions from &0E44 to &0E7B, and six
	// from &0E80 to &0E87.
	n := 0
	for a := uint32(0x0E44); a <= 0x0E7B; a++ {
		if _, ok := rows[a]; ok {
			n++
		}
	}
	if e := got(mv.Ranges.Executes); !same(e, []string{fmt.Sprintf("&0E44-&0E7B %d", n), "&0E80-&0E87 6"}) {
		t.Errorf("CL-LINE's code by range: %v", e)
	}
	if w := got(mv.Ranges.Writes); !same(w, []string{"&4000-&5AFF 6912"}) {
		t.Errorf("the screen by range: %v", w)
	}
	if mv.Ranges.Ranges != 3 {
		t.Errorf("%d ranges, want 3", mv.Ranges.Ranges)
	}
}

// rangesOf runs a program at pc for ticks, counting by range.
func rangesOf(t *testing.T, r *rig, pc uint16, code []byte, ticks uint64, c ...Condition) watch.Ranged {
	t.Helper()
	r.program(pc, code...)
	return r.runTicks(ticks, Conditions{Count: c, CountBy: "range"}).Ranges
}

func rangeText(rs []watch.Range) []string {
	var out []string
	for _, r := range rs {
		switch {
		case r.Port != "":
			out = append(out, fmt.Sprintf("%s %s-%s", r.Kind, r.Port, r.Last))
		case r.Address != "":
			out = append(out, strings.TrimSpace(fmt.Sprintf("%s-%s %s%s", r.Address, r.Last, r.ROM, r.RAM)))
		default:
			out = append(out, fmt.Sprintf("%d-%d", r.Register, r.LastRegister))
		}
	}
	return out
}

// TestRNG11RangesSplit holds RNG-2, RNG-3 and RNG-11: ranges keep apart
// where either machine's ROM ends at &3FFF, between a 6128's blocks where
// the processor reads them apart, and where an instruction runs on into a
// block paged in; where the processor reads a block's next byte next to
// it, the range goes on.
func TestRNG11RangesSplit(t *testing.T) {
	// LDIR of 16 bytes from &3FF8, the end of the ROM, to &C000.
	copyAcross := []byte{0xF3, 0x21, 0xF8, 0x3F, 0x11, 0x00, 0xC0, 0x01, 0x10, 0x00, 0xED, 0xB0, 0x18, 0xFE}
	s := newRig(t, "spectrum48")
	if got := rangeText(rangesOf(t, s, 0x8000, copyAcross, 1000, readIn("&3FF0", "&400F")).Reads); !same(got, []string{"&3FF8-&3FFF", "&4000-&4007"}) {
		t.Errorf("a Spectrum's reads across &4000: %v", got)
	}
	c := newRig(t, "cpc6128")
	if got := rangeText(rangesOf(t, c, 0x8000, copyAcross, 1000, readIn("&3FF0", "&400F")).Reads); !same(got, []string{"&3FF8-&3FFF lower", "&4000-&4007"}) {
		t.Errorf("a CPC's reads across &4000 with the lower ROM on: %v", got)
	}
	// Block 4 at &4000 (configuration 4: &7FC4), then the base 64K's
	// block 2 at &8000: the copy from &7FF8 reads them apart.
	c = newRig(t, "cpc6128")
	blocks := append([]byte{0xF3, 0x01, 0xC4, 0x7F, 0xED, 0x49}, 0x21, 0xF8, 0x7F, 0x11, 0x00, 0xC0, 0x01, 0x10, 0x00, 0xED, 0xB0, 0x18, 0xFE)
	if got := rangeText(rangesOf(t, c, 0x8000, blocks, 1000, readIn("&7FF0", "&800F")).Reads); !same(got, []string{"&7FF8-&7FFF &13FF8", "&8000-&8007"}) {
		t.Errorf("reads from block 4 into block 2: %v", got)
	}
	// Block 7's last byte at &7FFF (configuration 7) and block... the next
	// RAM byte, block 4's first... is not reachable next to it: &13FFF
	// read at &7FFF in configuration 4, &14000 at &4000 in configuration
	// 5: neighbours in the RAM, apart for the processor.
	c = newRig(t, "cpc6128")
	apart := []byte{0xF3, 0x01, 0xC4, 0x7F, 0xED, 0x49, 0x3A, 0xFF, 0x7F, 0x01, 0xC5, 0x7F, 0xED, 0x49, 0x3A, 0x00, 0x40, 0x18, 0xFE}
	if got := rangeText(rangesOf(t, c, 0x8000, apart, 1000, readIn("&4000", "&7FFF")).Reads); !same(got, []string{"&4000-&4000 &14000", "&7FFF-&7FFF &13FFF"}) {
		t.Errorf("RAM neighbours read apart: %v", got)
	}
	// LD HL,&1234 at &7FFE runs into &8000: in configuration 0 the RAM
	// there follows on, and the JR $ after it at &8001 joins its range;
	// with block 4 at &4000 its third byte is the base 64K's, so it covers
	// two bytes and the JR begins a range of its own.
	for _, cfg := range []struct {
		mmr  int
		want []string
	}{{0xC0, []string{"&7FFE-&8001"}}, {0xC4, []string{"&7FFE-&7FFE &13FFE", "&8001-&8001"}}} {
		c = newRig(t, "cpc6128")
		c.set(fmt.Sprintf(`{"mmr": %d, "cpu.iff1": false}`, cfg.mmr))
		c.poke(0x7FFE, 0x21, 0x34)
		c.poke(0x8000, 0x12, 0x18, 0xFE)
		c.set(`{"cpu.pc": "&7FFE"}`)
		mv := c.runTicks(200, Conditions{Count: []Condition{execIn("&7FF0", "&800F")}, CountBy: "range"})
		if got := rangeText(mv.Ranges.Executes); !same(got, cfg.want) {
			t.Errorf("configuration &%02X: an instruction into &8000: %v, want %v", cfg.mmr, got, cfg.want)
		}
	}
}

// TestRNG10ShortProgram holds RNG-4, RNG-6 and RNG-10: a short program's
// ranges follow its instructions' lengths, a jump over bytes ending one;
// ports and registers follow one another by number.
func TestRNG10ShortProgram(t *testing.T) {
	c := newRig(t, "cpc6128")
	p := prog{at: 0x8000}
	p.emit(0xF3)             // &8000
	p.emit(0x3E, 0x01)       // LD A,1
	p.emit(0x18, 0x03)       // JR over three bytes
	p.emit(0xAA, 0xBB, 0xCC) //
	p.out(0xBC00)            // &8008: select R0
	p.out(0xBC01)            //
	p.out(0xBC02)            //
	p.out(0xBC05)            //
	p.out(0xBC0C)            // R12
	p.out(0xBD30)            // R12 written
	p.out(0xBC0D)            // R13
	p.out(0xBD00)            // R13 written
	p.out(0xF782)            // the PPI, for the PSG
	for _, reg := range []uint16{0, 1, 2, 5} {
		p.out(0xF400 | reg) // register
		p.out(0xF6C0)       // select
		p.out(0xF600)       //
		p.out(0xF680)       // write
		p.out(0xF600)       //
	}
	end := p.emit(0x18, 0xFE)
	mv := c.runTicks(3000, Conditions{CountBy: "range", Count: []Condition{
		execIn("&8000", "&BFFF"),
		{Kind: "out", Port: "&BC00", Mask: "&FF00"},
		{Kind: "crtc"}, {Kind: "psg"},
	}})
	c.program(0x8000, p.code...)
	mv = c.runTicks(3000, Conditions{CountBy: "range", Count: []Condition{
		execIn("&8000", "&BFFF"),
		{Kind: "out", Port: "&BC00", Mask: "&FF00"},
		{Kind: "crtc"}, {Kind: "psg"},
	}})
	r := mv.Ranges
	if got, want := rangeText(r.Executes), []string{"&8000-&8003", fmt.Sprintf("&8008-%s", hexes(end)[0])}; !same(got, want) {
		t.Errorf("the program's code: %v, want %v", got, want)
	}
	if got, want := rangeText(r.Ports), []string{"out &BC00-&BC02", "out &BC05-&BC05", "out &BC0C-&BC0D"}; !same(got, want) {
		t.Errorf("its ports: %v, want %v", got, want)
	}
	if got, want := rangeText(r.CRTC), []string{"12-13"}; !same(got, want) {
		t.Errorf("its 6845 registers: %v, want %v", got, want)
	}
	if got, want := rangeText(r.PSG), []string{"0-2", "5-5"}; !same(got, want) {
		t.Errorf("its PSG registers: %v, want %v", got, want)
	}
	// An instruction's own bytes are never reads (RD-1): the program reads
	// no data at all.
	c = newRig(t, "cpc6128")
	c.program(0x8000, p.code...)
	if mv := c.runTicks(3000, Conditions{Count: []Condition{readIn("&8000", "&BFFF")}}); len(mv.Count.Reads) != 0 {
		t.Errorf("the program's own bytes counted as reads: %s", asJSON(mv.Count.Reads))
	}
	// By address, the instructions' bytes are as fetched.
	c = newRig(t, "cpc6128")
	c.program(0x8000, p.code...)
	byAddr := c.runTicks(3000, Conditions{Count: []Condition{execIn("&8000", "&8009")}})
	got := field2p(byAddr.Count.Executes)
	if want := []string{"&8000 F3", "&8001 3E 01", "&8003 18 03", "&8008 01 00 BC"}; !same(got, want) {
		t.Errorf("the program's first instructions: %v, want %v", got, want)
	}
}

func field2p(ps []watch.Place) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Address+" "+p.Bytes)
	}
	return out
}

// TestCNT4Places holds CNT-2, CNT-4, CNT-5 and CNT-10: a place in memory
// is a byte of it, so a 6128's RAM byte reached at two addresses is one
// place, told by the address of its first match, and the base 64K's byte
// at one of those addresses another; the lower ROM's &0038 and the RAM's
// are two places; and a port is counted by the whole of its address.
func TestCNT4Places(t *testing.T) {
	c := newRig(t, "cpc6128")
	c.program(0x8000,
		0xF3,
		0x01, 0xC1, 0x7F, 0xED, 0x49, // configuration 1: block 7 at &C000
		0x3E, 0x11, 0x32, 0x00, 0xC0, // LD (&C000),A: RAM &1C000
		0x01, 0xC7, 0x7F, 0xED, 0x49, // configuration 7: block 7 at &4000
		0x3E, 0x22, 0x32, 0x00, 0x40, // LD (&4000),A: RAM &1C000 again
		0x01, 0xC0, 0x7F, 0xED, 0x49, // configuration 0
		0x3E, 0x33, 0x32, 0x00, 0x40, // LD (&4000),A: RAM &4000
		0x18, 0xFE)
	mv := c.runTicks(300, Conditions{Count: []Condition{writeIn("&4000", "&FFFF")}})
	var got []string
	for _, p := range mv.Count.Writes {
		got = append(got, fmt.Sprintf("%s %s %d", p.Address, p.RAM, p.Count))
	}
	if want := []string{"&4000  1", "&C000 &1C000 2"}; !same(got, want) {
		t.Errorf("writes by place: %v, want %v", got, want)
	}

	r := newRig(t, "cpc6128")
	r.frames(100)
	// Waiting on HALT for an interrupt with the ROMs off, then with the
	// lower ROM on, the firmware's configuration kept in C'.
	r.program(0x4000,
		0xF3, 0xFB, // DI; EI
		0xD9, 0x01, 0x8D, 0x7F, 0xED, 0x49, 0xD9, 0x76, // EXX; LD BC,&7F8D; OUT (C),C; EXX; HALT
		0xD9, 0x01, 0x89, 0x7F, 0xED, 0x49, 0xD9, 0x76, // the same with &89
		0x18, 0xEE) // JR &4002
	mv = r.run(RunArgs{Frames: ptr(uint64(30)), Conditions: Conditions{Count: []Condition{execAt("&0038")}}})
	got = nil
	for _, p := range mv.Count.Executes {
		got = append(got, p.Address+" "+p.ROM)
	}
	if !same(got, []string{"&0038 ", "&0038 lower"}) {
		t.Errorf("&0038 by place: %v; want the RAM's and the lower ROM's", got)
	}

	s := newRig(t, "spectrum48")
	s.program(0x8000, 0xF3, 0x3E, 0x01, 0xD3, 0xFE, 0x3C, 0xD3, 0xFE, 0x3C, 0xD3, 0xFE, 0x18, 0xFE) // OUT (&FE),A with A 1, 2, 3
	mv = s.runTicks(200, Conditions{Count: []Condition{{Kind: "out", Port: "&00FE", Mask: "&0001"}}})
	got = nil
	for _, p := range mv.Count.Ports {
		got = append(got, p.Port+" "+p.Kind)
	}
	if !same(got, []string{"&01FE out", "&02FE out", "&03FE out"}) {
		t.Errorf("OUT (&FE),A counted at %v; want one place for each A on the address bus", got)
	}
}

// TestCNT11CountFills holds CNT-11: a count fills at 256 places, keeps the
// rest of the instruction that filled it, and stops the run where a full
// gathering does; the next run counts afresh.
func TestCNT11CountFills(t *testing.T) {
	r := newRig(t, "cpc6128")
	all := Conditions{Count: []Condition{execIn("&0000", "&FFFF"), writeIn("&0000", "&BFFF")}}
	mv := r.runTicks(100*69888, all)
	n := len(mv.Count.Executes) + len(mv.Count.Writes)
	if mv.Stop != stopFull || mv.Count.Places != n || n < watch.AnswerPlaces || n > watch.AnswerPlaces+4 {
		t.Errorf("a count stopped %s with %d places", mv.Stop, n)
	}
	next := r.runTicks(100*69888, all)
	if next.Stop != stopFull || next.Count.Executes[0].Tick < r.tick()-next.Ticks {
		t.Errorf("the next count: %s, first at %d", next.Stop, next.Count.Executes[0].Tick)
	}
}

// readLines reads a JSON Lines file into values of T.
func readLines[T any](t *testing.T, path string, skip, n int) []T {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	var out []T
	for _, l := range lines[skip : skip+n] {
		var v T
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		out = append(out, v)
	}
	return out
}

// placeKey names a match's place as a count would: by address, by the
// memory and its offset; by pc, by the instruction's.
func placeKey(m watch.Match, byPC bool) string {
	if byPC {
		return fmt.Sprintf("%s %s %s %s", m.Kind, m.PC, m.PCROM, m.PCRAM)
	}
	return fmt.Sprintf("%s %s%s %s %s %d", m.Kind, m.Address, m.Port, m.ROM, m.RAM, m.Register)
}

// TestCNT12CountIsATally holds CNT-12 and PATH-4 on both machines: a count,
// by address and by pc, is a gathering over the same stretch tallied by
// place, each place told by its first match; a count to a file never
// fills.
func TestCNT12CountIsATally(t *testing.T) {
	for _, c := range []struct {
		machine string
		conds   []Condition
	}{
		{"spectrum48", []Condition{execIn("&0000", "&3FFF"), writeIn("&4000", "&FFFF"), readIn("&5C00", "&5CFF"), {Kind: "out", Port: "&00FE", Mask: "&0001"}, {Kind: "in", Port: "&00FE", Mask: "&0001"}}},
		{"cpc6128", []Condition{execIn("&0000", "&FFFF"), writeIn("&0000", "&FFFF"), readIn("&B000", "&BFFF"), {Kind: "out", Port: "&0000", Mask: "&0000"}, {Kind: "psg"}}},
	} {
		// From power-on, as the firmware starts: many places.
		r := newRig(t, c.machine)
		byAddr, byPC := r.twin(), r.twin()
		dir := t.TempDir()
		gathered := gatherFile(t, r, 10*69888, c.conds)
		for _, by := range []string{"address", "pc"} {
			twin := byAddr
			if by == "pc" {
				twin = byPC
			}
			path := filepath.Join(dir, by+".jsonl")
			mv := twin.runTicks(10*69888, Conditions{Count: c.conds, CountBy: by, Path: path})
			if mv.Stop != stopDone {
				t.Fatalf("%s: a count to a file stopped %s", c.machine, mv.Stop)
			}
			l := mv.File.Lines
			places := readLines[watch.Place](t, path, 0, l.Executes+l.Reads+l.Writes+l.Ports+l.PSG+l.CRTC)
			if by == "address" && len(places) <= watch.AnswerPlaces {
				t.Errorf("%s: %d places; the test wants more than an answer holds", c.machine, len(places))
			}
			// The gathering tallied.
			type tally struct {
				first watch.Match
				n     uint64
			}
			tallies := map[string]*tally{}
			var order []string
			for _, m := range gathered {
				pc := by == "pc" && m.Kind != "exec"
				if pc && m.Response {
					continue // the response is no instruction (CNT-8)
				}
				k := placeKey(m, pc)
				if tallies[k] == nil {
					tallies[k] = &tally{first: m}
					order = append(order, k)
				}
				tallies[k].n++
			}
			var want, got []string
			for _, k := range order {
				f := tallies[k].first
				want = append(want, fmt.Sprintf("%s %d %d %s %s%s%d", k, tallies[k].n, f.Tick, f.PC, f.Address, f.Port, f.Register))
			}
			var kinds []string
			for i, n := range []int{l.Executes, l.Reads, l.Writes, l.Ports, l.PSG, l.CRTC} {
				kinds = append(kinds, slices.Repeat([]string{[]string{"exec", "read", "write", "", "psg", "crtc"}[i]}, n)...)
			}
			for i, p := range places {
				kind := kinds[i]
				if kind == "" {
					kind = p.Kind
				}
				pc := by == "pc" && kind != "exec"
				m := watch.Match{Kind: kind, Address: p.Address, Port: p.Port, Register: p.Register, ROM: p.ROM, RAM: p.RAM, PC: p.PC, PCROM: p.PCROM, PCRAM: p.PCRAM}
				got = append(got, fmt.Sprintf("%s %d %d %s %s%s%d", placeKey(m, pc), p.Count, p.Tick, p.PC, p.Address, p.Port, p.Register))
			}
			if !same(sorted(got), sorted(want)) {
				t.Errorf("%s by %s: the count and the gathering tallied differ; %d places, %d tallies", c.machine, by, len(got), len(want))
				for i := range min(len(got), len(want)) {
					if sorted(got)[i] != sorted(want)[i] {
						t.Errorf("first difference: count %q, tally %q", sorted(got)[i], sorted(want)[i])
						break
					}
				}
			}
		}
	}
}

// TestRNG9RangesAreTheCountFolded holds RNG-1, RNG-8 and RNG-9 on both
// machines: a count by range over a stretch is a twin's count by address
// over it, folded by the test: places of one kind joined where their
// addresses and the memory behind them follow on, an instruction covering
// the bytes it fetched.
func TestRNG9RangesAreTheCountFolded(t *testing.T) {
	for _, machine := range []string{"spectrum48", "cpc6128"} {
		r := newRig(t, machine)
		twin := r.twin()
		conds := []Condition{execIn("&0000", "&FFFF"), readIn("&0000", "&FFFF"), writeIn("&0000", "&FFFF")}
		dir := t.TempDir()
		// Booting, to BASIC's Ready.
		a := r.runTicks(130*69888, Conditions{Count: conds, Path: filepath.Join(dir, "a")})
		b := twin.runTicks(130*69888, Conditions{Count: conds, CountBy: "range", Path: filepath.Join(dir, "b")})
		la, lb := a.File.Lines, b.File.Lines
		places := readLines[watch.Place](t, filepath.Join(dir, "a"), 0, la.Executes+la.Reads+la.Writes)
		ranges := readLines[watch.Range](t, filepath.Join(dir, "b"), 0, lb.Executes+lb.Reads+lb.Writes)
		lists := [][]watch.Place{places[:la.Executes], places[la.Executes : la.Executes+la.Reads], places[la.Executes+la.Reads:]}
		var want []string
		for i, ps := range lists {
			want = append(want, foldPlaces(ps, i == 0, machine == "spectrum48")...)
		}
		var got []string
		for _, r := range ranges {
			got = append(got, fmt.Sprintf("%s-%s %s%s %d %d", r.Address, r.Last, r.ROM, r.RAM, r.Places, r.Count))
		}
		if !same(got, want) || len(got) < 20 {
			t.Errorf("%s: %d ranges; the count by address folds into %d", machine, len(got), len(want))
		}
		if b.Ranges.Ranges != 0 {
			t.Errorf("%s: an answer with a file lists ranges", machine)
		}
	}
}

// foldPlaces folds places of one kind as a count by range does, from what
// the places say: the memory behind each by rom and ram; an instruction's
// bytes followed to the end of the 16K they begin in.
func foldPlaces(ps []watch.Place, exec, spectrum bool) []string {
	type pl struct {
		addr, key, width int
		p                watch.Place
	}
	var all []pl
	for _, p := range ps {
		a := int(parseHex(p.Address))
		key := a
		switch {
		case p.RAM != "":
			key = int(parseHex(p.RAM))
		case p.ROM == "lower", spectrum && a < 0x4000:
			key = 0x20000 + a&0x3FFF
		case strings.HasPrefix(p.ROM, "upper "):
			var n int
			fmt.Sscanf(p.ROM, "upper %d", &n)
			key = 0x24000 + n*0x4000 + a&0x3FFF
		}
		w := 1
		if exec {
			w = (len(p.Bytes) + 1) / 3
		}
		all = append(all, pl{a, key, w, p})
	}
	region := func(k int) int {
		if k < 0x20000 {
			return 0
		}
		return 1 + (k-0x20000)/0x4000
	}
	slices.SortFunc(all, func(x, y pl) int {
		if d := region(x.key) - region(y.key); d != 0 {
			return d
		}
		if d := (x.key - x.addr) - (y.key - y.addr); d != 0 {
			return d
		}
		return x.addr - y.addr
	})
	type rg struct {
		first, last pl
		end, n      int
		count       uint64
	}
	var rs []rg
	for _, p := range all {
		if n := len(rs); n > 0 {
			s := &rs[n-1]
			if p.addr <= s.end+1 && region(p.key) == region(s.first.key) && p.key-p.addr == s.first.key-s.first.addr {
				s.last, s.end, s.n, s.count = p, max(s.end, p.addr+p.width-1), s.n+1, s.count+p.p.Count
				continue
			}
		}
		rs = append(rs, rg{first: p, last: p, end: p.addr + p.width - 1, n: 1, count: p.p.Count})
	}
	slices.SortStableFunc(rs, func(x, y rg) int {
		if d := x.first.addr - y.first.addr; d != 0 {
			return d
		}
		return x.first.key - y.first.key
	})
	var out []string
	for _, r := range rs {
		out = append(out, fmt.Sprintf("%s-%s %s%s %d %d", r.first.p.Address, r.last.p.Address, r.first.p.ROM, r.first.p.RAM, r.n, r.count))
	}
	return out
}
