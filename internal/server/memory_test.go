package server

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"colophon/internal/host"
)

// TestPeekAddressForms holds W-20 and W-21: an address may be given as
// &hex, #hex, 0xhex, decimal digits or a number, and where peek reads,
// as cpu.sp or cpu.pc; every answer writes it after &.
func TestPeekAddressForms(t *testing.T) {
	w := machineWire(t)
	h := w.boot("spectrum48")
	w.tool("poke", args{"handle": h, "address": "&C000", "bytes": "01 02 03 04"}, nil)
	for _, addr := range []any{"&C000", "$C000", "#C000", "0xC000", "0XC000", "49152", 49152, "&c000"} {
		var p host.Peeked
		w.tool("peek", args{"handle": h, "address": addr, "length": 4}, &p)
		if p.Address != "&C000" || p.Bytes != "01 02 03 04" || p.Length != 4 {
			t.Errorf("peek %v answered %+v", addr, p)
		}
	}
	w.tool("set", args{"handle": h, "values": map[string]any{"cpu.sp": "&C001", "cpu.pc": "&C002"}}, nil)
	var p host.Peeked
	w.tool("peek", args{"handle": h, "address": "cpu.sp", "length": 2}, &p)
	if p.Address != "&C001" || p.Bytes != "02 03" {
		t.Errorf("peek cpu.sp answered %+v", p)
	}
	w.tool("peek", args{"handle": h, "address": "cpu.pc", "length": 1}, &p)
	if p.Address != "&C002" || p.Bytes != "03" {
		t.Errorf("peek cpu.pc answered %+v", p)
	}
	// 16 bytes when no length is given.
	w.tool("peek", args{"handle": h, "address": 0}, &p)
	if p.Length != 16 || len(hexBytes(t, p.Bytes)) != 16 {
		t.Errorf("peek with no length answered %+v", p)
	}
	for _, tt := range []struct {
		args args
		want string
	}{
		{args{"address": "&10000"}, `argument "address" is &10000, past &FFFF, the last address here`},
		{args{"address": 65536}, `argument "address" is &10000, past &FFFF`},
		{args{"address": -1}, `argument "address" is -1; it must be at least 0`},
		{args{"address": 1.5}, `argument "address" is a number (1.5); it must be a string or an integer`},
		{args{"address": "&GG00"}, `argument "address" is "&GG00", which is no address: write &BB06, $BB06, #BB06, 0xBB06 or decimal digits`},
		{args{"address": "cpu.hl"}, `argument "address" is "cpu.hl", which is no address`},
		{args{"address": "&"}, `which is no address`},
		{args{"address": true}, `argument "address" is a boolean; it must be a string or an integer`},
		{args{"address": 0, "length": 0}, `argument "length" is 0; it must be from 1 to 4096`},
		{args{"address": 0, "length": 4097}, `argument "length" is 4097; it must be from 1 to 4096`},
		{args{"address": 0, "ram": true}, `argument "ram": a Spectrum's RAM has no addresses of its own`},
		{args{}, `missing argument "address": peek requires "handle" and "address"`},
	} {
		a := args{"handle": h}
		for k, v := range tt.args {
			a[k] = v
		}
		if got := w.refused("peek", a); !strings.Contains(got, tt.want) {
			t.Errorf("peek %s refused as %q, want %q", mustJSON(t, tt.args), got, tt.want)
		}
	}
}

// TestPeekWraps holds PP-5: from an address given, nothing past &FFFF is
// read; from where SP or PC points, the read runs on to &0000.
func TestPeekWraps(t *testing.T) {
	w := machineWire(t)
	h := w.boot("spectrum48")
	w.tool("poke", args{"handle": h, "address": "&FFFE", "bytes": "AA BB"}, nil)
	var p host.Peeked
	w.tool("peek", args{"handle": h, "address": "&FFFE", "length": 4}, &p)
	if p.Length != 2 || p.Bytes != "AA BB" {
		t.Errorf("peek &FFFE of 4 answered %+v, want the two bytes to &FFFF", p)
	}
	rom := w.peek(h, 0, 2)
	w.tool("set", args{"handle": h, "values": map[string]any{"cpu.sp": "&FFFE"}}, nil)
	w.tool("peek", args{"handle": h, "address": "cpu.sp", "length": 4}, &p)
	if want := "AA BB " + strings.TrimSpace(formatPairs(rom)); p.Length != 4 || p.Bytes != want || p.Address != "&FFFE" {
		t.Errorf("peek cpu.sp at &FFFE of 4 answered %+v, want %s", p, want)
	}
}

func formatPairs(b []byte) string {
	var s strings.Builder
	for _, v := range b {
		fmt.Fprintf(&s, "%02X ", v)
	}
	return s.String()
}

// TestPokeSpectrum holds PP-1 and W-19 on a Spectrum: a poke writes as the
// processor does, into its ROM not at all; bytes are pairs of hex digits,
// and a poke that would run past &FFFF, or whose bytes are not pairs, is
// refused whole.
func TestPokeSpectrum(t *testing.T) {
	w := machineWire(t)
	h := w.open("spectrum48")
	var p host.Poked
	w.tool("poke", args{"handle": h, "address": 0x8000, "bytes": "3e01c9"}, &p)
	if p.Address != "&8000" || p.Length != 3 || p.Written != 3 || p.ROM != "" || p.RAMAt != "" {
		t.Errorf("poke answered %+v", p)
	}
	if got := w.peek(h, "&8000", 3); !bytes.Equal(got, []byte{0x3E, 0x01, 0xC9}) {
		t.Errorf("&8000 holds % X", got)
	}
	rom := w.peek(h, "&3FFE", 4)
	w.tool("poke", args{"handle": h, "address": "&3FFE", "bytes": "00 00 11 22"}, &p)
	if p.Written != 2 || p.Length != 4 {
		t.Errorf("a poke across the ROM's end answered %+v, want 2 of 4 written", p)
	}
	if got := w.peek(h, "&3FFE", 4); !bytes.Equal(got, append(rom[:2:2], 0x11, 0x22)) {
		t.Errorf("&3FFE holds % X, want the ROM's % X then 11 22", got, rom[:2])
	}
	before := w.peek(h, "&FFF0", 16)
	for _, tt := range []struct {
		args args
		want string
	}{
		{args{"address": "&FFFF", "bytes": "01 02"}, `argument "bytes": 2 bytes from &FFFF run to &10000, past &FFFF, the end of memory here; nothing was written`},
		{args{"address": "&FFF0", "bytes": "3"}, `argument "bytes" has an odd number of hex digits`},
		{args{"address": "&FFF0", "bytes": "3 E01"}, `argument "bytes" splits a pair of hex digits at "3"`},
		{args{"address": "&FFF0", "bytes": "ZZ"}, `argument "bytes": "ZZ" is not a pair of hex digits`},
		{args{"address": "&FFF0", "bytes": "  "}, `argument "bytes" holds no bytes`},
		{args{"address": "cpu.sp", "bytes": "00"}, `argument "address" is "cpu.sp", which is no address`},
		{args{"address": "&FFF0", "bytes": "00", "ram": true}, `a Spectrum's RAM has no addresses of its own`},
		{args{"address": "&FFF0"}, `missing argument "bytes": poke requires "handle", "address" and "bytes"`},
	} {
		a := args{"handle": h}
		for k, v := range tt.args {
			a[k] = v
		}
		if got := w.refused("poke", a); !strings.Contains(got, tt.want) {
			t.Errorf("poke %s refused as %q, want %q", mustJSON(t, tt.args), got, tt.want)
		}
	}
	if got := w.peek(h, "&FFF0", 16); !bytes.Equal(got, before) {
		t.Errorf("refused pokes changed &FFF0: % X, was % X", got, before)
	}
}

// TestInspectSet holds IS-1, IS-2, IS-5, IS-9, W-24 and W-25: inspect reads
// by C-expression paths and set writes by them, every value or none, with
// hexadecimal for an unsigned field; set answers what the fields now hold,
// and a refused set leaves the machine as it was.
func TestInspectSet(t *testing.T) {
	w := machineWire(t)
	h := w.boot("spectrum48")
	var a host.SetAnswer
	w.tool("set", args{"handle": h, "values": map[string]any{"cpu.a": 65, "cpu.ix": "&C000", "cpu.iff2": true, "ula.border": "#5"}}, &a)
	// The answer keeps the order given; maps are sorted by the client
	// library, so read it back from the wire's text.
	if string(a.Values) != `{"cpu.a":65,"cpu.iff2":true,"cpu.ix":49152,"ula.border":5}` {
		t.Errorf("set answered %s", a.Values)
	}
	if w.inspect(h, "cpu.ix") != float64(0xC000) || w.inspect(h, "ula.border") != 5.0 {
		t.Errorf("set did not write what it answered")
	}
	cpu := w.inspect(h, "cpu").(map[string]any)
	if cpu["a"] != 65.0 || cpu["iff2"] != true {
		t.Errorf("inspect cpu answered %v", cpu)
	}
	whole := w.inspect(h, "").(map[string]any)
	if _, ok := whole["frame_tick"]; !ok || whole["ula"] == nil || whole["cpu"] == nil {
		t.Errorf("inspect of the whole machine answered %v", whole)
	}

	before := w.inspect(h, "")
	for _, tt := range []struct {
		values any
		want   string
	}{
		{map[string]any{"cpu.a": 1, "cpu.b": 256}, "cpu.b"},
		{map[string]any{"cpu.a": 1, "cpu.im": 3}, "im"},
		{map[string]any{"cpu.a": 1, "cpu.pcc": 0}, "cpu.pcc"},
		{map[string]any{"cpu.a": "10"}, "cpu.a"},
		{map[string]any{"cpu.a": 1, "frame_tick": 69888}, "frame_tick is 69888; a Spectrum's frame has ticks 0 to 69887"},
		{map[string]any{}, `argument "values" is empty`},
		{[]any{1}, `argument "values" is an array; it must be an object`},
	} {
		got := w.refused("set", args{"handle": h, "values": tt.values})
		if !strings.Contains(got, tt.want) {
			t.Errorf("set %s refused as %q, want %q", mustJSON(t, tt.values), got, tt.want)
		}
	}
	if after := w.inspect(h, ""); mustJSON(t, after) != mustJSON(t, before) {
		t.Errorf("refused sets changed the machine:\n%s\n%s", mustJSON(t, before), mustJSON(t, after))
	}
	if got := w.refused("inspect", args{"handle": h, "path": "cpu.hl"}); !strings.Contains(got, `argument "path"`) || !strings.Contains(got, "cpu.hl") {
		t.Errorf("inspect cpu.hl refused as %q", got)
	}
}

// TestSetFrameTick holds IS-10 on a Spectrum: set stands the ULA at the tick
// of the frame frame_tick names, from which the beam is reckoned.
func TestSetFrameTick(t *testing.T) {
	w := machineWire(t)
	h := w.boot("spectrum48")
	w.tool("set", args{"handle": h, "values": map[string]any{"frame_tick": 14336}}, nil)
	if ft := w.inspect(h, "frame_tick"); ft != 14336.0 {
		t.Errorf("frame_tick reads %v after set wrote 14336", ft)
	}
	var m host.Monitor
	w.tool("monitor", args{"handle": h}, &m)
	// 14336 is where the ULA starts the screen's first line (the 48K's
	// timing, spectrum48-contention.md), so the beam stands at the
	// screen's first pixel, below the picture's 36 lines of border and
	// right of its 48 pixels (package ula's picture).
	if m.Beam.X != 48 || m.Beam.Y != 36 || m.Whole {
		t.Errorf("at frame tick 14336 the beam stands at %+v, whole %v", m.Beam, m.Whole)
	}
	w.tool("set", args{"handle": h, "values": map[string]any{"cpu.a": 0}}, nil)
	if ft := w.inspect(h, "frame_tick"); ft != 14336.0 {
		t.Errorf("another field's set moved frame_tick to %v", ft)
	}
}

// TestInspectDescribed holds IS-4: the fields inspect's description names
// part by part are the machines' own, by those names.
func TestInspectDescribed(t *testing.T) {
	w := machineWire(t)
	paths := map[string][]string{
		"spectrum48": {"ula.border", "ula.mic", "ula.ear", "ula.ear_in", "ula.keys[7]", "ula.frames", "frame_tick"},
		"cpc6128": {"crtc.type", "crtc.registers[17]", "crtc.selected", "crtc.c0", "crtc.c4", "crtc.c9", "crtc.c3l", "crtc.c3h", "crtc.c5", "crtc.ma", "crtc.hsync", "crtc.vsync",
			"gate_array.pen", "gate_array.inks[16]", "gate_array.mode", "gate_array.mode_pending", "gate_array.lower_rom", "gate_array.upper_rom", "gate_array.r52", "gate_array.int",
			"psg.registers[15]", "psg.selected", "psg.chip_selected", "ppi.output[2]", "ppi.input[2]", "ppi.control",
			"fdc.command", "fdc.taken", "fdc.result", "fdc.given", "fdc.results", "fdc.phase", "fdc.stage", "fdc.unit", "fdc.count", "fdc.length",
			"fdc.pcn[3]", "fdc.units[0].head", "fdc.units[1].pulses", "fdc.units[0].write_protect", "fdc.units[1].written", "motor", "printer_port",
			"monitor.beam_x", "monitor.beam_y", "monitor.frames", "keyboard.lines[9]", "mmr", "upper_rom", "model"},
	}
	cpu := []string{"a", "f", "b", "c", "d", "e", "h", "l", "a_", "f_", "b_", "c_", "d_", "e_", "h_", "l_", "ix", "iy", "sp", "pc", "wz", "i", "r", "im",
		"iff1", "iff2", "halted", "prefix", "int", "nmi", "instr_pc", "ei", "p", "q", "tick"}
	for machine, ps := range paths {
		h := w.open(machine)
		for _, c := range cpu {
			ps = append(ps, "cpu."+c)
		}
		for _, p := range ps {
			if res := w.toolResult("inspect", args{"handle": h, "path": p}); res["isError"] == true {
				t.Errorf("%s: inspect %s: %v", machine, p, res["content"])
			}
			last := p[strings.LastIndex(p, ".")+1:]
			if i := strings.Index(last, "["); i >= 0 {
				last = last[:i]
			}
			if !strings.Contains(inspectDescription, last) {
				t.Errorf("inspect's description does not name %s", p)
			}
		}
	}
}
