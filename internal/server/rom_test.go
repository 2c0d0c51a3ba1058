package server

import (
	"strings"
	"testing"

	"colophon/internal/host"
)

// lowSeven reads hex pairs as text on their low seven bits, as the
// firmware ends a name by setting its last character's bit 7.
func lowSeven(t *testing.T, pairs string) string {
	t.Helper()
	var b strings.Builder
	for _, p := range strings.Fields(pairs) {
		var v byte
		for _, c := range p {
			v = v<<4 | byte(strings.IndexRune("0123456789ABCDEF", c))
		}
		b.WriteByte(v & 0x7F)
	}
	return b.String()
}

// TestROMsByNumber reads a 6128's upper ROMs by number whatever the Gate
// Array holds (issue 18): ROM 7, AMSDOS, and ROM 0, BASIC, each from its
// header at &C000, whose word at &C004 points at the names it logs (SOFT
// 968, "Expansion ROMs": the ROM's name table), CPM ROM and BASIC; a
// number with no ROM fitted answered by ROM 0; "BASIC 1.1" found in ROM 0;
// AMSDOS's jump table at &C006 listed; and the Gate Array and the ROM
// select the same after every read.
func TestROMsByNumber(t *testing.T) {
	w := machineWire(t)
	h := w.boot("cpc6128")
	var before any
	w.tool("inspect", args{"handle": h, "path": "gate_array"}, &before)
	var selected any
	w.tool("inspect", args{"handle": h, "path": "upper_rom"}, &selected)
	for _, state := range []map[string]any{
		{"gate_array.upper_rom": false, "gate_array.lower_rom": false, "upper_rom": 0},
		{"gate_array.upper_rom": true, "gate_array.lower_rom": true, "upper_rom": 7},
		{"gate_array.upper_rom": true, "gate_array.lower_rom": false, "upper_rom": 0},
	} {
		w.tool("set", args{"handle": h, "values": state}, nil)
		var gaBefore any
		w.tool("inspect", args{"handle": h, "path": "gate_array"}, &gaBefore)

		for _, rom := range []struct {
			sel   any
			name  string
			names string
		}{{7, "upper 7", "CPM ROM"}, {"0", "upper 0", "BASIC"}, {5, "upper 0", "BASIC"}, {255, "upper 0", "BASIC"}} {
			var p host.Peeked
			w.tool("peek", args{"handle": h, "address": "&C004", "length": 2, "rom": rom.sel}, &p)
			if p.ROM != rom.name || p.RAMAt != "" {
				t.Errorf("rom %v: %+v", rom.sel, p)
			}
			f := strings.Fields(p.Bytes)
			w.tool("peek", args{"handle": h, "address": "&" + f[1] + f[0], "length": len(rom.names), "rom": rom.sel}, &p)
			if got := lowSeven(t, p.Bytes); got != rom.names {
				t.Errorf("rom %v (%v): the first name reads %q, want %q", rom.sel, state, got, rom.names)
			}
		}
		var found host.Found
		w.tool("find", args{"handle": h, "text": "BASIC 1.1", "rom": 0}, &found)
		if found.Total != 1 || found.Matches[0].Address != "&C034" || found.Matches[0].ROM != "upper 0" {
			t.Errorf("find BASIC 1.1 in ROM 0: %+v", found)
		}
		var d host.Disassembled
		w.tool("disassemble", args{"handle": h, "address": "&C006", "count": 2, "rom": 7}, &d)
		if d.ROM != "upper 7" || d.Instructions[0].Text != "JP &C1BC" || d.Instructions[1].Text != "JP &C1B2" {
			t.Errorf("AMSDOS's jump table: %+v", d)
		}
		w.tool("disassemble", args{"handle": h, "address": "&0000", "count": 1, "rom": "lower"}, &d)
		if d.ROM != "lower" || d.Instructions[0].Text != "LD BC,&7F89" {
			t.Errorf("the lower ROM's first instruction: %+v", d)
		}
		var gaAfter any
		w.tool("inspect", args{"handle": h, "path": "gate_array"}, &gaAfter)
		if mustJSON(t, gaAfter) != mustJSON(t, gaBefore) {
			t.Errorf("reading ROMs by number changed the Gate Array: %v, then %v", gaBefore, gaAfter)
		}
	}
}

// TestROMsByNumberRefused holds the rom argument's refusals: a Spectrum,
// rom with ram, an address outside the ROM's 16K, and no ROM by the name.
func TestROMsByNumberRefused(t *testing.T) {
	w := machineWire(t)
	c := w.open("cpc6128")
	s := w.open("spectrum48")
	for _, tt := range []struct {
		tool string
		args args
		want string
	}{
		{"peek", args{"handle": s, "address": 0, "rom": "lower"}, "Spectrum"},
		{"find", args{"handle": s, "text": "a", "rom": 0}, "Spectrum"},
		{"disassemble", args{"handle": s, "address": 0, "rom": 0}, "Spectrum"},
		{"peek", args{"handle": c, "address": 0, "rom": "lower", "ram": true}, `"rom" and "ram"`},
		{"peek", args{"handle": c, "address": "&4000", "rom": "lower"}, "outside ROM lower"},
		{"peek", args{"handle": c, "address": "&BFFF", "rom": 7}, "outside ROM upper 7"},
		{"disassemble", args{"handle": c, "address": "&0038", "rom": 0}, "outside ROM upper 0"},
		{"find", args{"handle": c, "text": "a", "from": "&1000", "rom": 0}, "outside ROM upper 0"},
		{"peek", args{"handle": c, "address": 0, "rom": "upper"}, `"rom" is "upper"`},
		{"peek", args{"handle": c, "address": 0, "rom": 256}, "rom"},
		{"peek", args{"handle": c, "address": 0, "rom": "-1"}, `"rom" is "-1"`},
	} {
		if got := w.refused(tt.tool, tt.args); !strings.Contains(got, tt.want) {
			t.Errorf("%s %v: %q, want it to say %q", tt.tool, tt.args, got, tt.want)
		}
	}
	// A read to the ROM's end stops there.
	var p host.Peeked
	w.tool("peek", args{"handle": c, "address": "&3FFE", "length": 16, "rom": "lower"}, &p)
	if p.Length != 2 {
		t.Errorf("a peek of the lower ROM from &3FFE: %+v", p)
	}
}

// TestROMHintForBASIC looks for a BASIC program where the 6128's BASIC
// keeps it, from &0170, and finds the answer saying the lower ROM answered
// there, while ram reads the program's first line: its length, its number
// 10 and PRINT's token, &BF (issue 18: the hint where the banking hides
// data).
func TestROMHintForBASIC(t *testing.T) {
	w := machineWire(t)
	h := w.boot("cpc6128")
	w.tool("type", args{"handle": h, "text": "10 PRINT \"HI\"\n"}, nil)
	var p host.Peeked
	w.tool("peek", args{"handle": h, "address": "&0170", "length": 5}, &p)
	if p.ROM != "lower" {
		t.Errorf("peek at &0170 through the banking: %+v", p)
	}
	var r host.Peeked
	w.tool("peek", args{"handle": h, "address": "&0170", "length": 5, "ram": true}, &r)
	if f := strings.Fields(r.Bytes); r.ROM != "" || f[2] != "0A" || f[3] != "00" || f[4] != "BF" {
		t.Errorf("peek at &0170 of the RAM: %+v", r)
	}
}

// TestRestartTargetsLive lists a booted 6128's jumpblock and finds each
// restart's target where its word sends it: TXT OUTPUT's LOW JUMP in the
// lower ROM at &13FE, where the firmware listing's routine begins, and the
// FAR CALL AMSDOS patches CAS IN OPEN with, into ROM 7 at the address its
// far address holds (issue 18).
func TestRestartTargetsLive(t *testing.T) {
	w := machineWire(t)
	h := w.boot("cpc6128")
	var d host.Disassembled
	w.tool("disassemble", args{"handle": h, "address": "&BB5A", "count": 1}, &d)
	if in := d.Instructions[0]; in.Word != "DEFW &93FE" || in.Target != (host.Target{Address: "&13FE", In: "lower"}) {
		t.Errorf("TXT OUTPUT: %+v", in)
	}
	var far host.Disassembled
	w.tool("disassemble", args{"handle": h, "address": "&BC77", "count": 1}, &far)
	in := far.Instructions[0]
	if in.Text != "RST &18" || in.Entry != "CAS IN OPEN" {
		t.Fatalf("CAS IN OPEN after AMSDOS has patched it: %+v", in)
	}
	var p host.Peeked
	w.tool("peek", args{"handle": h, "address": "&" + in.Word[len("DEFW &"):], "length": 3}, &p)
	f := strings.Fields(p.Bytes)
	if want := (host.Target{Address: "&" + f[1] + f[0], In: "upper " + map[string]string{"07": "7"}[f[2]]}); in.Target != want {
		t.Errorf("CAS IN OPEN's FAR CALL, far address %s: target %+v, want %+v", p.Bytes, in.Target, want)
	}
	// Without a word, no target.
	var plain host.Disassembled
	w.tool("disassemble", args{"handle": h, "address": "&C006", "count": 1, "rom": 0}, &plain)
	if plain.Instructions[0].Target != (host.Target{}) {
		t.Errorf("LD SP,&C000 has a target: %+v", plain.Instructions[0])
	}
}
