package cpc

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"colophon/internal/chip/crtc"
	"colophon/internal/chip/gatearray"
	"colophon/internal/inspect"
	"colophon/internal/machine"
)

// build makes a machine of a model and 6845 type at power-on.
func build(t *testing.T, model Model, ty crtc.Type) *CPC {
	t.Helper()
	cfg := config(t, model)
	cfg.CRTC = ty
	m, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// kept keeps a machine as a state file does (spec, "Keeping a machine"):
// its fields as inspect reads them, through the JSON of the file's first
// line, then the buffers beside them, the RAM and the monitor's raster;
// and builds a machine alike from them, at power-on, its fields written
// back by inspect.Restore through every check set makes.
func kept(t *testing.T, m *CPC) *CPC {
	t.Helper()
	fs, err := inspect.Fields(m)
	if err != nil {
		t.Fatal(err)
	}
	line, err := inspect.MarshalFields(fs)
	if err != nil {
		t.Fatal(err)
	}
	read, err := inspect.UnmarshalFields(line)
	if err != nil {
		t.Fatal(err)
	}
	n := build(t, m.Model, m.CRTC.Type)
	if err := inspect.Restore(n, read); err != nil {
		t.Fatal(err)
	}
	copy(n.RAM, m.RAM)
	copy(n.Monitor.Raster, m.Monitor.Raster)
	return n
}

// differences lists the fields two machines hold differently, by the
// paths inspect names them by, with both values.
func differences(t *testing.T, a, b *CPC) map[string]string {
	t.Helper()
	fa, err := inspect.Fields(a)
	if err != nil {
		t.Fatal(err)
	}
	fb, err := inspect.Fields(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(fa) != len(fb) {
		t.Fatalf("the machines have %d and %d fields", len(fa), len(fb))
	}
	d := map[string]string{}
	for i := range fa {
		if fa[i] != fb[i] {
			d[fa[i].Path] = fmt.Sprintf("%v and %v", fa[i].Value, fb[i].Value)
		}
	}
	return d
}

// same holds b to a: every field, every byte of RAM, every pixel of the
// picture, but for the differences allowed: a path, or every path under
// one ending in a dot.
func same(t *testing.T, what string, a, b *CPC, allowed ...string) {
	t.Helper()
	d := differences(t, a, b)
	for _, p := range allowed {
		delete(d, p)
		if strings.HasSuffix(p, ".") {
			for q := range d {
				if strings.HasPrefix(q, p) {
					delete(d, q)
				}
			}
		}
	}
	if len(d) > 0 {
		var s []string
		for p, v := range d {
			s = append(s, p+": "+v)
		}
		t.Errorf("%s: %d fields differ:\n%s", what, len(d), strings.Join(s, "\n"))
	}
	if !bytes.Equal(a.RAM, b.RAM) {
		t.Errorf("%s: the RAM differs", what)
	}
	if !bytes.Equal(a.Picture().Pix, b.Picture().Pix) {
		t.Errorf("%s: the picture differs", what)
	}
}

// runOn runs a machine on 50 frames with typing: ?2+2 and RETURN, which
// BASIC answers, held 3 frames and let go 3 each (30 frames), then 20
// frames by the monitor.
func runOn(t *testing.T, m *CPC) {
	t.Helper()
	if _, err := m.Type("?2+2\n"); err != nil {
		t.Fatal(err)
	}
	m.RunFrames(20)
}

// TestStateKeepsEverything keeps machines at ticks that fall anywhere, in a
// frame, a line and a character: mid-boot and at BASIC's prompt, on each
// model, with 6845s of types 1 and 3, inside a chain of prefixes, and with
// the Gate Array's interrupt generator about to act. Each is built again
// from its fields, RAM and raster, as a state file would build it, and is
// held to the machine it was kept from, field for field, byte for byte and
// pixel for pixel: at once, a third of a frame on, and after both run on
// 50 frames with typing. What the board keeps unexported is worked out
// again from the fields (derive), so this is what says that nothing the
// machine needs is missing from them.
func TestStateKeepsEverything(t *testing.T) {
	for _, c := range []struct {
		name   string
		model  Model
		ty     crtc.Type
		frames uint64 // standard frames from power-on, then
		ticks  uint64 // ticks more
		prefix bool   // then into a chain of prefixes
		due    bool   // then on to where the Gate Array has an action due
	}{
		{"6128 booting", CPC6128, crtc.HD6845S, 3, 1001, false, false},
		{"6128 at the prompt", CPC6128, crtc.HD6845S, 90, 54321, false, false},
		{"464 at the prompt", CPC464, crtc.HD6845S, 80, 777, false, false},
		{"664 type 1", CPC664, crtc.UM6845R, 85, 40001, false, false},
		{"6128 type 3", CPC6128, crtc.AMS40489, 60, 31337, false, false},
		{"6128 in a chain of prefixes", CPC6128, crtc.HD6845S, 80, 0, true, false},
		{"6128 with an action due", CPC6128, crtc.HD6845S, 80, 0, false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := build(t, c.model, c.ty)
			m.RunTicks(c.frames*TicksPerFrame + c.ticks)
			if c.prefix {
				// A loop of prefixed instructions in RAM, with the
				// firmware's interrupts running: INC IX behind a chain
				// of three prefixes, and JR back to it.
				copy(m.RAM[0x4000:], []byte{0xDD, 0xFD, 0xDD, 0x23, 0x18, 0xFA})
				m.CPU.PC = 0x4000
				for i := 0; m.RunTicks(1).Stop != machine.Unsettled; i++ {
					if i == 100 {
						t.Fatal("no run of a tick stopped inside the chain")
					}
				}
				if m.CPU.Prefix == 0 {
					t.Fatal("an unsettled stop outside a chain of prefixes")
				}
			}
			if c.due {
				// An HSYNC ended in the character before the tick, and
				// the interrupt generator acts a quarter into the next.
				for i := 0; ; i++ {
					if i == 200000 {
						t.Fatal("no instruction ended with an action due")
					}
					m.Step(1)
					m.BeforeInspect()
					if m.GA.Due != gatearray.None {
						break
					}
				}
			}
			n := kept(t, m)
			same(t, "kept", m, n)
			for _, x := range []*CPC{m, n} {
				x.RunTicks(TicksPerFrame / 3)
			}
			same(t, "a third of a frame on", m, n)
			runOn(t, m)
			runOn(t, n)
			same(t, "run on", m, n)
			if m.Frames() < c.frames+50 {
				t.Errorf("the machine kept ran %d frames in all", m.Frames())
			}
		})
	}
}

// TestIS6Ranges holds set to the ranges the spec names in "What a machine
// holds" (checklist IS-6, IS-8): what the core indexes by without checking
// is refused past its range, with the range that would do, and the
// machine stands as it was. The processor here counts no cycles under
// way, running an instruction whole, so it has no such count to guard.
func TestIS6Ranges(t *testing.T) {
	for _, c := range []struct {
		model Model
		path  string
		value any
		want  string // in the refusal
	}{
		{CPC6128, "gate_array.pen", 17, "pens 0 to 15 and the border, 16"},
		{CPC6128, "gate_array.hsyncs_to_go", 3, "0 to 2"},
		{CPC6128, "psg.selected", 16, "0 to 15"},
		{CPC6128, "psg.registers[1]", "&10", "bits of &0F"},
		{CPC6128, "fdc.taken", 9, "taken runs 0 to 8"},
		{CPC6128, "fdc.results", 8, "results 0 to 7"},
		{CPC6128, "fdc.given", 1, "given 0 to results"},
		{CPC6128, "monitor.beam_x", 1025, "x 0 to 1024"},
		{CPC6128, "monitor.beam_y", 312, "y 0 to 311"},
		{CPC6128, "crtc.type", "UM6845R", "fixed at \"HD6845S\""},
		{CPC6128, "crtc.type", 4, "fixed at \"HD6845S\""},
		{CPC6128, "crtc.selected", 32, "0 to 31"},
		{CPC6128, "crtc.registers[4]", "&80", "bits of &7F"},
		{CPC6128, "ppi.control", "&12", "&80 to &FF"},
		{CPC6128, "manufacturer", 8, "0 to 7"},
		{CPC6128, "model", "cpc464", "fixed"},
		{CPC464, "mmr", "&C2", "configuration is 0 alone"},
		{CPC664, "mmr", "&01", "configuration is 0 alone"},
	} {
		m := boot(t, c.model)
		m.RunTicks(20*TicksPerFrame + 123)
		before, err := inspect.Fields(m)
		if err != nil {
			t.Fatal(err)
		}
		ram := bytes.Clone(m.RAM)
		src := [4]Source{m.SourceOf(0), m.SourceOf(0x4000), m.SourceOf(0x8000), m.SourceOf(0xC000)}
		err = inspect.Set(m, c.path, c.value)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: set %s %v = %v; want it refused with %q", c.model, c.path, c.value, err, c.want)
			continue
		}
		after, _ := inspect.Fields(m)
		if d := fmt.Sprint(before) != fmt.Sprint(after); d || !bytes.Equal(ram, m.RAM) ||
			src != [4]Source{m.SourceOf(0), m.SourceOf(0x4000), m.SourceOf(0x8000), m.SourceOf(0xC000)} {
			t.Errorf("%s: set %s %v refused, but the machine changed", c.model, c.path, c.value)
		}
	}

	// The edges of each range are taken.
	m := boot(t, CPC6128)
	m.RunTicks(20 * TicksPerFrame)
	for _, f := range []inspect.Field{
		{Path: "gate_array.pen", Value: 16}, {Path: "psg.selected", Value: 15},
		{Path: "crtc.type", Value: "HD6845S"}, {Path: "crtc.selected", Value: 31},
		{Path: "monitor.beam_x", Value: 1024}, {Path: "manufacturer", Value: 7},
	} {
		if err := inspect.Set(m, f.Path, f.Value); err != nil {
			t.Errorf("set %s %v: %v", f.Path, f.Value, err)
		}
	}
	m464 := boot(t, CPC464)
	if err := inspect.Set(m464, "mmr", "&C0"); err != nil {
		t.Errorf("464: set mmr &C0 (configuration 0): %v", err)
	}
}

// TestIS10MapAfterSet holds the memory map to every write set makes
// (spec: "A CPC's memory map is worked out again after every write"): the
// 6128's RAM configuration, the Gate Array's ROM enables and the upper ROM
// number each move what answers an address at once.
func TestIS10MapAfterSet(t *testing.T) {
	m := boot(t, CPC6128)
	m.RunTicks(80 * TicksPerFrame)
	for _, c := range []struct {
		path  string
		value any
		addr  uint16
		want  Source
	}{
		{"gate_array.upper_rom", true, 0xC123, Source{ROM: true, Num: 0}},
		{"mmr", "&C4", 0x4000, Source{RAM: 0x10000}},
		{"mmr", "&C2", 0xC123, Source{ROM: true, Num: 0}}, // BASIC over block 7
		{"gate_array.upper_rom", false, 0xC123, Source{RAM: 0x1C123}},
		{"mmr", "&C0", 0xC123, Source{RAM: 0xC123}},
		{"gate_array.lower_rom", true, 0x0038, Source{ROM: true, Lower: true}},
		{"gate_array.lower_rom", false, 0x0038, Source{RAM: 0x0038}},
		{"gate_array.upper_rom", true, 0xC000, Source{ROM: true, Num: 0}},
		{"upper_rom", 7, 0xC000, Source{ROM: true, Num: 7}},
		{"upper_rom", 3, 0xC000, Source{ROM: true, Num: 0}}, // none fitted: BASIC
	} {
		if err := inspect.Set(m, c.path, c.value); err != nil {
			t.Fatalf("set %s %v: %v", c.path, c.value, err)
		}
		if got := m.SourceOf(c.addr); got != c.want {
			t.Errorf("after set %s %v, &%04X is answered by %v, want %v", c.path, c.value, c.addr, got, c.want)
		}
		if got := m.Peek(c.addr); c.want.ROM == false && got != m.RAM[c.want.RAM] {
			t.Errorf("after set %s %v, peek &%04X gives &%02X, the RAM there &%02X", c.path, c.value, c.addr, got, m.RAM[c.want.RAM])
		}
	}

	// The video stands where the tick a state's restore puts it (set may
	// not move it: T-1), and runs on from there a frame at a time, rather
	// than catching up on the ticks between.
	fs, err := inspect.Fields(m)
	if err != nil {
		t.Fatal(err)
	}
	for i := range fs {
		if fs[i].Path == "cpu.tick" {
			fs[i].Value = uint64(1) << 40
		}
	}
	if err := inspect.Restore(m, fs); err != nil {
		t.Fatal(err)
	}
	r := m.RunFrames(2)
	if r.Frames != 2 || r.Ticks > 3*TicksPerFrame {
		t.Errorf("two frames from tick 2^40 ran %d ticks, %d frames", r.Ticks, r.Frames)
	}
}

// TestIS7EnumNames holds the enums a CPC's struct holds to the names
// inspect gives them (spec: "a C enum's value is its enumerator's name"):
// the 6845's type by its part, the Gate Array's queued actions, and the
// model; and set takes a name back.
func TestIS7EnumNames(t *testing.T) {
	for ty, want := range []string{"HD6845S", "UM6845R", "MC6845", "AMS40489", "AMS40226"} {
		m := build(t, CPC464, crtc.Type(ty))
		if v, err := inspect.Get(m, "crtc.type"); err != nil || v != want {
			t.Errorf("type %d: crtc.type reads %v (%v), want %q", ty, v, err, want)
		}
		if err := inspect.Set(m, "crtc.type", want); err != nil {
			t.Errorf("type %d: set crtc.type %q: %v", ty, want, err)
		}
	}
	m := boot(t, CPC6128)
	if v, _ := inspect.Get(m, "model"); v != "cpc6128" {
		t.Errorf("model reads %v", v)
	}
	// Find the Gate Array with an action queued: a character after an
	// HSYNC ends.
	seen := map[any]bool{}
	for range 2000 {
		m.Step(1)
		for _, p := range []string{"gate_array.last", "gate_array.due"} {
			v, err := inspect.Get(m, p)
			if err != nil {
				t.Fatal(err)
			}
			seen[v] = true
		}
	}
	for _, want := range []string{"none", "count_r52"} {
		if !seen[want] {
			t.Errorf("the Gate Array's queue never read %q; it read %v", want, seen)
		}
	}
	for v := range seen {
		if _, ok := v.(string); !ok {
			t.Errorf("the Gate Array's queue read %v, a number, not a name", v)
		}
	}
	if err := inspect.Set(m, "gate_array.due", "frame_check"); err != nil {
		t.Errorf("set gate_array.due frame_check: %v", err)
	}
}
