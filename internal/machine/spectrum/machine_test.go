package spectrum

import (
	"slices"
	"strings"
	"testing"

	"colophon/internal/chip/ula"
	"colophon/internal/chip/z80"
	"colophon/internal/machine"
)

// TestObserve checks that every access is seen with its tick, address,
// byte, the memory that answered and the instruction that made it, and
// where the beam stood (ARCHITECTURE.md, principle 4): LD A,(HL) from the
// ROM at 14331, whose read of &4000 is held 6 ticks to 14341 [SW-CM], then
// OUT (&FE),A, whose operand is read as the instruction's own byte.
func TestObserve(t *testing.T) {
	s := bench(t, []byte{0x7E, 0xD3, 0xFE}, 0x0100, 14331, hl(0x4000))
	s.Poke(0x4000, 0x05)
	var seen []machine.Access
	s.Observe(func(a *machine.Access) { seen = append(seen, *a) })
	s.Step(2)
	rom := machine.Source{ROM: true}
	want := []machine.Access{
		{Kind: machine.Fetch, Tick: 14331, Addr: 0x0100, Value: 0x7E, Before: 0x7E, After: 0x7E, InstrPC: 0x0100, Source: rom},
		{Kind: machine.Read, Tick: 14341, Addr: 0x4000, Value: 0x05, Before: 0x05, After: 0x05, InstrPC: 0x0100, Source: machine.Source{RAM: 0x4000}},
		{Kind: machine.Fetch, Tick: 14344, Addr: 0x0101, Value: 0xD3, Before: 0xD3, After: 0xD3, InstrPC: 0x0101, Source: rom},
		{Kind: machine.Read, Tick: 14348, Addr: 0x0102, Value: 0xFE, Before: 0xFE, After: 0xFE, Operand: true, InstrPC: 0x0101, Source: rom},
		{Kind: machine.Out, Tick: 14351, Addr: 0x05FE, Value: 0x05, Before: 0x05, After: 0x05, InstrPC: 0x0101},
	}
	if !slices.Equal(seen, want) {
		t.Errorf("seen:\n%+v\nwant:\n%+v", seen, want)
	}
	if x, y := s.Beam(14341); x != 58 || y != 36 {
		t.Errorf("the read at 14341 has the beam at (%d,%d); want (58,36), 5 ticks into the first screen line", x, y)
	}
	if s.ULA.Border != 5 {
		t.Errorf("border %d after OUT (&FE),A with A=5", s.ULA.Border)
	}

	s.Observe(nil)
	n := len(seen)
	s.Step(1)
	if len(seen) != n {
		t.Error("an observer set to nil was still told")
	}
}

// TestObservingChangesNothing runs two machines, one watched, and finds
// them the same: watching is no part of the machine.
func TestObservingChangesNothing(t *testing.T) {
	a, b := boot(t), boot(t)
	var fetches, others uint64
	b.Observe(func(x *machine.Access) {
		if x.Kind == machine.Fetch {
			fetches++
		} else {
			others++
		}
	})
	ra := cliFrames(a, 130)
	rb := cliFrames(b, 130)
	if ra != rb || a.CPU.PC != b.CPU.PC || !slices.Equal(a.RAM(), b.RAM()) {
		t.Errorf("watched and unwatched machines differ: %+v and %+v", ra, rb)
	}
	if fetches < rb.Instructions || others == 0 {
		t.Errorf("%d fetches for %d instructions, %d other accesses", fetches, rb.Instructions, others)
	}
}

// TestPR5ROMIsReadOnly checks that a write below &4000 changes nothing, by the
// processor or by Poke (PR-5, VC-7, PP-1), though the write is seen.
func TestPR5ROMIsReadOnly(t *testing.T) {
	s := bench(t, []byte{0x77}, 0x0100, 0, func(c *z80.CPU) { hl(0x0010)(c); c.A = 0xAA }) // LD (HL),A
	var wrote bool
	s.Observe(func(a *machine.Access) {
		wrote = wrote || a.Kind == machine.Write && a.Addr == 0x0010 && a.Value == 0xAA
	})
	s.Step(1)
	s.Poke(0x0011, 0xAA)
	if s.Peek(0x0010) != 0 || s.Peek(0x0011) != 0 {
		t.Errorf("the ROM holds &%02X &%02X after writes of &AA", s.Peek(0x0010), s.Peek(0x0011))
	}
	if !wrote {
		t.Error("the write to the ROM was not seen")
	}
	s.Poke(0x4000, 0xAA)
	if s.Peek(0x4000) != 0xAA {
		t.Error("a poke to the RAM did not land")
	}
}

// TestT13Halted checks T-13 and T-14: a run stops at the end of a HALT with
// interrupts disabled, and one begun there runs all it is asked; T-15: an
// NMI wakes it; T-16: typing takes its ticks all the same.
func TestT13Halted(t *testing.T) {
	s := bench(t, []byte{0xF3, 0x76}, 0x0100, 0, nil) // DI; HALT
	r := s.RunTicks(1000)
	if r.Stop != machine.Halted || r.Ticks != 8 || s.CPU.PC != 0x0101 {
		t.Fatalf("DI; HALT: %+v at &%04X; want halted after 8 ticks on the HALT", r, s.CPU.PC)
	}
	r = s.RunTicks(1000)
	if r.Stop != machine.Done || r.Ticks != 1000 {
		t.Errorf("a run begun halted: %+v; want all 1000 ticks", r)
	}
	r = s.RunFrames(2)
	if r.Stop != machine.Done || r.Frames != 2 {
		t.Errorf("frames begun halted: %+v; want 2 frames", r)
	}
	r, err := s.Type("a")
	if err != nil || r.Ticks < 9*ula.TicksPerFrame || r.Stop != machine.Done {
		t.Errorf("typing while halted: %+v, %v; want all of 9 frames' ticks", r, err)
	}
	s.CPU.NMI = true
	r = s.Step(1)
	if s.CPU.Halted || s.CPU.PC != 0x0066 {
		t.Errorf("an NMI did not wake the processor: PC &%04X, halted %v", s.CPU.PC, s.CPU.Halted)
	}
}

// TestT12Unsettled checks T-12: a run that ends inside a chain of prefixes
// says so, and a step finishes the instruction.
func TestT12Unsettled(t *testing.T) {
	code := append(slices.Repeat([]byte{0xDD}, 10), 0x00) // ten DDs, then NOP
	s := bench(t, code, 0x0100, 0, nil)
	r := s.RunTicks(10)
	if r.Stop != machine.Unsettled || s.CPU.Prefix != 0xDD {
		t.Fatalf("%+v, prefix &%02X; want unsettled inside the chain", r, s.CPU.Prefix)
	}
	r = s.Step(1)
	if r.Stop != machine.Done || r.Instructions != 1 || s.CPU.PC != 0x010B {
		t.Errorf("step: %+v at &%04X; want the chain and its NOP done, at &010B", r, s.CPU.PC)
	}
}

// TestT7RunFramesLeavesAWholePicture checks T-7 and MON-5/6: a run by frames
// ends just past the retrace, with the picture whole; a run partway into
// a frame leaves the beam in the picture.
func TestT7RunFramesLeavesAWholePicture(t *testing.T) {
	s := boot(t)
	r := s.RunFrames(3)
	if r.Frames != 3 || s.FrameTick() > 32 {
		t.Errorf("%+v, at frame tick %d; want 3 frames, standing at the frame's start", r, s.FrameTick())
	}
	if p := s.Picture(); !p.Whole() {
		t.Errorf("after a run by frames the beam is at (%d,%d), partway", p.BeamX, p.BeamY)
	}
	s.RunTicks(30000)
	if p := s.Picture(); p.Whole() || p.BeamY != (int(s.FrameTick())+ula.TicksPerFrame-6248)%ula.TicksPerFrame/ula.TicksPerLine {
		t.Errorf("30000 ticks into a frame the picture says whole %v, beam row %d", p.Whole(), p.BeamY)
	}
	if r := s.RunFrames(1); r.Frames != 1 || r.Ticks > ula.TicksPerFrame {
		t.Errorf("the rest of the frame: %+v", r)
	}
}

// TestKeys checks the keyboard's names (KEY-2) and that a bad name
// changes nothing.
func TestKEY2Keys(t *testing.T) {
	s := boot(t)
	names := s.KeyNames()
	if len(names) != 40 || !slices.Contains(names, "CAPS") || !slices.Contains(names, "SYM") ||
		!slices.Contains(names, "ENTER") || !slices.Contains(names, "SPACE") {
		t.Errorf("KeyNames() = %q", names)
	}
	if err := s.Hold([]string{"sym", "Caps Shift", "q"}); err != nil {
		t.Fatal(err)
	}
	if got := s.Held(); !slices.Equal(got, []string{"CAPS", "Q", "SYM"}) {
		t.Errorf("Held() = %q", got)
	}
	// SYM is bit 1 of the half-row A15 selects; CAPS bit 0 of A8's; Q
	// bit 0 of A10's [KB].
	if s.ULA.Keys != [8]uint8{0x01, 0, 0x01, 0, 0, 0, 0, 0x02} {
		t.Errorf("the ULA's half-rows: %v", s.ULA.Keys)
	}
	err := s.Hold([]string{"A", "SHIFT"})
	if err == nil || !strings.Contains(err.Error(), `no key "SHIFT"`) {
		t.Errorf("Hold(SHIFT) = %v", err)
	}
	if got := s.Held(); !slices.Equal(got, []string{"CAPS", "Q", "SYM"}) {
		t.Errorf("a refused Hold changed the keys: %q", got)
	}
}

// TestKEY10TypeRefused checks KEY-9 and KEY-10: nothing happens to a machine
// given a text it cannot type.
func TestKEY10TypeRefused(t *testing.T) {
	s := boot(t)
	cliFrames(s, 1)
	tick := s.Tick()
	for _, text := range []string{"print ~", "a\tb", strings.Repeat("a", 167)} {
		if _, err := s.Type(text); err == nil {
			t.Errorf("Type(%q) was taken", text)
		}
	}
	if s.Tick() != tick || s.ULA.Keys != [8]uint8{} {
		t.Error("a refused text moved the machine or pressed a key")
	}
	if _, _, err := plan(strings.Repeat("a", 166)); err != nil {
		t.Errorf("166 characters refused: %v", err)
	}
}

// TestKEY7KeysForCharacters checks the keys typing presses: letters, capitals
// with CAPS, the red symbols with SYM, and ENTER for a newline (KEY-7).
func TestKEY7KeysForCharacters(t *testing.T) {
	for c, want := range map[byte][]string{
		'p': {"P"}, 'P': {"CAPS", "P"}, '2': {"2"}, '+': {"SYM", "K"}, '"': {"SYM", "P"},
		' ': {"SPACE"}, '\n': {"ENTER"}, ':': {"SYM", "Z"}, '^': {"SYM", "H"},
	} {
		if got := keysFor(c); !slices.Equal(got, want) {
			t.Errorf("keysFor(%q) = %q, want %q", c, got, want)
		}
	}
	for _, c := range []byte{'~', '[', '\\', '`', '\t', 0x1B, 0x08, '{'} {
		if got := keysFor(c); got != nil {
			t.Errorf("keysFor(%q) = %q; no key types it", c, got)
		}
	}
}

// TestRunInPiecesIsRunWhole checks that a machine's time does not depend
// on how it is asked to run: one request of five frames, and the same
// ticks asked for a few at a time, each request beginning where the last
// ended, leave two machines running a BASIC program exactly alike, the
// contention of every frame reckoned from that frame's start.
func TestRunInPiecesIsRunWhole(t *testing.T) {
	a, b := running(t), running(t)
	end := a.Tick() + 5*ula.TicksPerFrame
	a.RunTicks(end - a.Tick())
	for b.Tick() < end {
		b.RunTicks(min(97, end-b.Tick()))
	}
	ac, bc := a.CPU, b.CPU
	ac.Bus, bc.Bus = nil, nil
	if ac != bc || !slices.Equal(a.RAM(), b.RAM()) || a.FrameTick() != b.FrameTick() {
		t.Errorf("run whole: %+v\nin pieces: %+v", ac, bc)
	}
}
