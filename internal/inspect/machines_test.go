package inspect_test

import (
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"colophon/internal/chip/ula"
	"colophon/internal/chip/z80"
	"colophon/internal/inspect"
	"colophon/internal/machine/spectrum"
	"colophon/internal/shared"
)

// The machines that exist are held to what inspect needs of them: every
// exported field named or hidden, and their own Validate beside the fields
// it guards.

func TestMachinesCheck(t *testing.T) {
	for _, root := range []any{&z80.CPU{}, &ula.ULA{}, &spectrum.Spectrum{}} {
		if err := inspect.Check(root); err != nil {
			t.Errorf("%T: %v", root, err)
		}
	}
}

// TestZ80 holds the processor's fields to their datasheet names
// (ARCHITECTURE.md, principle 3), with the bus and the response latch
// hidden.
func TestZ80(t *testing.T) {
	var c z80.CPU
	c.Reset()
	c.PC, c.SP, c.WZ, c.IM, c.R, c.I = 0x1234, 0xFFF0, 0x5678, 2, 0x7F, 0x3F
	c.A_, c.IFF1, c.Tick = 0x42, true, 1<<40
	want := map[string]any{
		"pc": uint64(0x1234), "sp": uint64(0xFFF0), "wz": uint64(0x5678), "im": uint64(2),
		"r": uint64(0x7F), "i": uint64(0x3F), "a_": uint64(0x42), "iff1": true, "iff2": false,
		"tick": uint64(1 << 40), "a": uint64(0xFF),
	}
	got, err := inspect.Get(&c, "")
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, m := range got.(inspect.Object) {
		names[m.Name] = true
		if w, ok := want[m.Name]; ok && m.Value != w {
			t.Errorf("%s = %#v; want %#v", m.Name, m.Value, w)
		}
	}
	for name := range want {
		if !names[name] {
			t.Errorf("the CPU has no field %q", name)
		}
	}
	for _, hidden := range []string{"bus", "responding"} {
		if names[hidden] {
			t.Errorf("the CPU shows %q, which is no register", hidden)
		}
	}
	if _, err := inspect.Get(&c, "bus"); err == nil || !strings.Contains(err.Error(), `no field "bus"`) {
		t.Errorf("Get(bus) = %v; want it refused", err)
	}
}

func newSpectrum(t testing.TB) *spectrum.Spectrum {
	t.Helper()
	s, err := spectrum.New(make([]byte, spectrum.ROMSize))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestSpectrumSet sets the processor of a real machine through its paths,
// and holds a refusal by z80.CPU's Validate to "the machine stands as it
// was" (IS-6, IS-9).
func TestSpectrumSet(t *testing.T) {
	s := newSpectrum(t)
	if err := inspect.Set(s, "cpu.pc", "&8000"); err != nil {
		t.Fatal(err)
	}
	if s.CPU.PC != 0x8000 {
		t.Errorf("cpu.pc = &%04X after set &8000", s.CPU.PC)
	}
	if v, err := inspect.Get(s, "cpu.pc"); err != nil || v != uint64(0x8000) {
		t.Errorf("Get(cpu.pc) = %v, %v; want 32768", v, err)
	}

	refused := []struct {
		set  []inspect.Field
		want string
	}{
		{[]inspect.Field{{Path: "cpu.im", Value: 3}}, "cpu: z80: im = &03: must be 0, 1 or 2"},
		{[]inspect.Field{{Path: "cpu.im", Value: 256}}, "cpu.im: 256 is out of range: a uint8 holds 0 to 255"},
		{[]inspect.Field{{Path: "cpu.pc", Value: "&10000"}}, `cpu.pc: "&10000" is out of range: a uint16 holds 0 to 65535 (&0000 to &FFFF)`},
		{[]inspect.Field{{Path: "cpu.prefix", Value: "&CB"}}, "cpu: z80: prefix = &CB: must be 0, &DD or &FD"},
		{[]inspect.Field{{Path: "cpu.halted", Value: true}, {Path: "cpu.prefix", Value: "&DD"}}, "cpu: z80: halted = &01: must be 0 while prefix is set"},
		{[]inspect.Field{{Path: "cpu.pc", Value: 0}, {Path: "cpu.iff1", Value: "yes"}}, "cpu.iff1: a string given; it wants true or false"},
		{[]inspect.Field{{Path: "cpu.pcc", Value: 0}}, `cpu.pcc: no field "pcc" in cpu; nearest: pc`},
		{[]inspect.Field{{Path: "ula.keys[8]", Value: 0}}, "ula.keys[8]: index 8 is out of range: ula.keys has 8 elements, [0] to [7]"},
	}
	for _, tt := range refused {
		before := s.CPU
		ulaBefore, _ := inspect.Fields(s)
		err := inspect.SetMany(s, tt.set)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("SetMany(%v) = %v; want it refused with %q", tt.set, err, tt.want)
		}
		var ie *inspect.Error
		if !errors.As(err, &ie) {
			t.Errorf("SetMany(%v): %T is no *inspect.Error", tt.set, err)
		}
		if s.CPU != before {
			t.Errorf("SetMany(%v) refused, but the CPU changed: %+v", tt.set, s.CPU)
		}
		if after, _ := inspect.Fields(s); !slices.Equal(after, ulaBefore) {
			t.Errorf("SetMany(%v) refused, but the machine changed", tt.set)
		}
	}
	var fe *z80.FieldError
	if err := inspect.Set(s, "cpu.im", 3); !errors.As(err, &fe) || fe.Field != "im" {
		t.Errorf("Set(cpu.im, 3) = %v; want the z80.FieldError within", err)
	}
}

// TestSpectrumState keeps the fields of a Spectrum that has run its own ROM
// for a while, through their JSON, and restores them into a machine at
// power-on: every field inspect reads comes back. (What the state file
// keeps beyond the fields, the RAM, is not inspect's.)
func TestSpectrumState(t *testing.T) {
	rom, err := os.ReadFile(shared.TestPath(t, "roms", "spectrum48.rom"))
	if err != nil {
		t.Fatal(err)
	}
	a, err := spectrum.New(rom)
	if err != nil {
		t.Fatal(err)
	}
	a.RunFrames(60)
	if err := a.Hold([]string{"Q"}); err != nil {
		t.Fatal(err)
	}
	kept, err := inspect.Fields(a)
	if err != nil {
		t.Fatal(err)
	}
	line, err := inspect.MarshalFields(kept)
	if err != nil {
		t.Fatal(err)
	}
	read, err := inspect.UnmarshalFields(line)
	if err != nil {
		t.Fatal(err)
	}
	b, err := spectrum.New(rom)
	if err != nil {
		t.Fatal(err)
	}
	if err := inspect.Restore(b, read); err != nil {
		t.Fatal(err)
	}
	got, err := inspect.Fields(b)
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := inspect.MarshalFields(got); string(again) != string(line) {
		t.Errorf("restored:\n%s\nkept:\n%s", again, line)
	}
	if b.CPU.PC != a.CPU.PC || b.CPU.Tick != a.CPU.Tick || b.ULA.Keys != a.ULA.Keys {
		t.Errorf("restored pc &%04X tick %d keys %v; kept &%04X %d %v",
			b.CPU.PC, b.CPU.Tick, b.ULA.Keys, a.CPU.PC, a.CPU.Tick, a.ULA.Keys)
	}
	if a.CPU.Tick < 60*ula.TicksPerFrame {
		t.Errorf("the machine kept ran only %d ticks", a.CPU.Tick)
	}
}

// BenchmarkGetPC is inspect's answer to the commonest question.
func BenchmarkGetPC(b *testing.B) {
	s := newSpectrum(b)
	for b.Loop() {
		if _, err := inspect.Get(s, "cpu.pc"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGetKey reaches an element of an array of a chip.
func BenchmarkGetKey(b *testing.B) {
	s := newSpectrum(b)
	for b.Loop() {
		if _, err := inspect.Get(s, "ula.keys[7]"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGetMachine answers the whole machine, as an Object.
func BenchmarkGetMachine(b *testing.B) {
	s := newSpectrum(b)
	for b.Loop() {
		if _, err := inspect.Get(s, ""); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFields reads every leaf of a Spectrum, as state_save does.
func BenchmarkFields(b *testing.B) {
	s := newSpectrum(b)
	for b.Loop() {
		if _, err := inspect.Fields(s); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSetPC writes one register through every check.
func BenchmarkSetPC(b *testing.B) {
	s := newSpectrum(b)
	for b.Loop() {
		if err := inspect.Set(s, "cpu.pc", "&8000"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRestore writes every field of a Spectrum back, as machine_open
// does with a state file's.
func BenchmarkRestore(b *testing.B) {
	s := newSpectrum(b)
	fs, err := inspect.Fields(s)
	if err != nil {
		b.Fatal(err)
	}
	line, err := inspect.MarshalFields(fs)
	if err != nil {
		b.Fatal(err)
	}
	read, err := inspect.UnmarshalFields(line)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := inspect.Restore(s, read); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(fs)), "fields")
}

// BenchmarkStateLine writes a Spectrum's fields as a state file's JSON and
// reads them back.
func BenchmarkStateLine(b *testing.B) {
	s := newSpectrum(b)
	fs, err := inspect.Fields(s)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		line, err := inspect.MarshalFields(fs)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := inspect.UnmarshalFields(line); err != nil {
			b.Fatal(err)
		}
	}
}
