package watch

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"

	"reflect"
	"slices"
	"strings"
	"testing"

	"colophon/internal/chip/z80"
	"colophon/internal/machine"
	"colophon/internal/machine/cpc"
	"colophon/internal/machine/spectrum"
	"colophon/internal/shared"
)

// newCPC builds a 6128 at power-on from the shared firmware.
func newCPC(tb testing.TB) *cpc.CPC {
	tb.Helper()
	fw := shared.ReadFile(tb, "roms", "cpc6128.rom")
	amsdos := shared.ReadFile(tb, "roms", "amsdos.rom")
	m, err := cpc.New(cpc.Config{Model: cpc.CPC6128, Firmware: fw, AMSDOS: amsdos})
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

// newSpectrum builds a Spectrum at power-on.
func newSpectrum(tb testing.TB) *spectrum.Spectrum {
	tb.Helper()
	s, err := spectrum.New(shared.ReadFile(tb, "roms", "spectrum48.rom"))
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// watched is a machine an engine can watch.
type watched interface {
	machine.Machine
	machine.Watchable
	Machine
}

// everything are conditions that watch all a machine does.
func everything() Options {
	all := func(k Kind) Condition { return Condition{Kind: k, Lo: 0, Hi: 0xFFFF} }
	return Options{
		Gather: []Condition{all(Exec), all(Read), all(Write), {Kind: In}, {Kind: Out}},
		Count:  []Condition{all(Exec), all(Read), all(Write), {Kind: In}, {Kind: Out}, {Kind: PSG, Hi: 15}, {Kind: CRTC, Hi: 31}},
		Last:   true, File: true,
	}
}

// TestWatchingChangesNothing runs two of each machine from power-on, one
// watched by conditions on everything it does, its video brought up to
// each match for the beam, and finds them the same at the end: watching
// is no part of the machine.
func TestWatchingChangesNothing(t *testing.T) {
	for _, pair := range [][2]watched{{newCPC(t), newCPC(t)}, {newSpectrum(t), newSpectrum(t)}} {
		a, b := pair[0], pair[1]
		e := New(b, everything())
		b.Watch(e.Watch())
		ra := a.RunTicks(150 * a.StandardFrame())
		rb := b.RunTicks(150 * b.StandardFrame())
		// And by frames, where a CPC keeps its video up wherever the
		// monitor could retrace.
		fa, fb := a.RunFrames(7), b.RunFrames(7)
		b.Watch(nil)
		if ra != rb || fa != fb {
			t.Errorf("%s: watched %+v %+v, unwatched %+v %+v", a.Name(), rb, fb, ra, fa)
		}
		ca, cb := *a.Processor(), *b.Processor()
		ca.Bus, cb.Bus = nil, nil // each its own board
		if ca != cb {
			t.Errorf("%s: the processors differ", a.Name())
		}
		for addr := range 0x10000 {
			if a.Peek(uint16(addr)) != b.Peek(uint16(addr)) {
				t.Fatalf("%s: memory differs at &%04X", a.Name(), addr)
			}
		}
		if pa, pb := a.Picture(), b.Picture(); !bytes.Equal(pa.Pix, pb.Pix) || pa.BeamX != pb.BeamX || pa.BeamY != pb.BeamY {
			t.Errorf("%s: the pictures differ", a.Name())
		}
		if e.count.places < 1000 || len(e.recs) == 0 {
			t.Errorf("%s: the watch found %d places and kept %d matches", a.Name(), e.count.places, len(e.recs))
		}
	}
}

// flatBus is 64K of memory with no waits, for the processor alone.
type flatBus struct{ mem [0x10000]byte }

func (b *flatBus) Fetch(a uint16) byte          { return b.mem[a] }
func (b *flatBus) Read(a uint16) byte           { return b.mem[a] }
func (b *flatBus) Write(a uint16, v byte)       { b.mem[a] = v }
func (b *flatBus) In(uint16) byte               { return 0xFF }
func (b *flatBus) Out(uint16, byte)             {}
func (b *flatBus) Internal(uint16, int)         {}
func (b *flatBus) Acknowledge() byte            { return 0xFF }
func (b *flatBus) Peek(a uint16) byte           { return b.mem[a] }
func (b *flatBus) Source(uint16) machine.Source { return machine.Source{} }

// countingBus counts the bytes an instruction fetches: its M1s and its
// operand reads (z80.CPU.Operand).
type countingBus struct {
	flatBus
	cpu     *z80.CPU
	fetched int
}

func (b *countingBus) Fetch(a uint16) byte { b.fetched++; return b.mem[a] }
func (b *countingBus) Read(a uint16) byte {
	if b.cpu.Operand {
		b.fetched++
	}
	return b.mem[a]
}

// lengthOf answers instructionLength over a bus's memory.
type memOnly struct{ b *flatBus }

func (m memOnly) Peek(a uint16) uint8          { return m.b.mem[a] }
func (m memOnly) Source(uint16) machine.Source { return machine.Source{} }
func (m memOnly) Beam(uint64) (int, int)       { return 0, 0 }
func (m memOnly) Processor() *z80.CPU          { return nil }

// TestInstructionLength holds the length a count gives an instruction
// (CNT-6, RNG-4) to the bytes the processor fetches for it, M1s and
// operands, over random memory and over every chain of prefixes: a chain
// of DD and FD is one instruction with the one after it.
func TestInstructionLength(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	try := func(code []byte) {
		b := &countingBus{}
		copy(b.mem[0x8000:], code)
		c := &z80.CPU{}
		c.Reset()
		c.Bus = b
		b.cpu = c
		c.PC, c.SP = 0x8000, 0x2000
		c.Exec()
		for c.Prefix != 0 {
			c.Exec()
		}
		if got := instructionLength(memOnly{&b.flatBus}, 0x8000); got != b.fetched {
			t.Errorf("% X: length %d, the processor fetched %d bytes", code, got, b.fetched)
		}
	}
	for range 20000 {
		code := make([]byte, 8)
		for i := range code {
			code[i] = byte(rng.Uint32())
		}
		// Prefixes often, so that chains come.
		for i := range 3 {
			if rng.IntN(3) == 0 {
				code[i] = []byte{0xDD, 0xFD, 0xED, 0xCB}[rng.IntN(4)]
			}
		}
		if code[0] == 0x76 || slices.Index(code, 0x76) == 1 && (code[0] == 0xDD || code[0] == 0xFD) {
			continue // HALT fetches again and again
		}
		try(code)
	}
}

// TestFold holds the folding of places into ranges (RNG-2 to RNG-6) to
// hand-made places: neighbours in address and in memory join; a gap, a
// change of memory or of the mapping between them parts them; an
// instruction covers its contiguous bytes, and one run from inside
// another's belongs to it.
func TestFold(t *testing.T) {
	var c counter
	c.init(nil, Options{By: ByRange})
	add := func(k Kind, addr uint16, key uint32, cover uint8) {
		p, _ := c.lists[k].find(key)
		p.kind, p.addr, p.first, p.count, p.cover = k, addr, addr, 1, cover
	}
	add(Exec, 0x3FFE, 0x23FFE, 2) // the lower ROM's last instruction
	add(Exec, 0x4000, 0x4000, 1)  // RAM's first: apart
	add(Exec, 0x4001, 0x4001, 3)  // 4001-4003
	add(Exec, 0x4002, 0x4002, 1)  // inside the one before
	add(Exec, 0x4004, 0x4004, 1)  // follows on
	add(Exec, 0x4006, 0x4006, 1)  // after a gap
	add(Exec, 0x8000, 0x10000, 1) // block 4 at &8000? another mapping
	add(Exec, 0x8001, 0x8001, 1)  // the base 64K's: another mapping
	var got []string
	for _, s := range c.fold(Exec) {
		got = append(got, fmt.Sprintf("%04X-%04X/%d", s.first.addr, s.last.addr, s.places))
	}
	want := []string{"3FFE-3FFE/1", "4000-4004/4", "4006-4006/1", "8000-8000/1", "8001-8001/1"}
	if !slices.Equal(got, want) {
		t.Errorf("folded %v, want %v", got, want)
	}
	add(PSG, 0, 0, 0)
	add(PSG, 1, 1, 0)
	add(PSG, 3, 3, 0)
	got = nil
	for _, s := range c.fold(PSG) {
		got = append(got, fmt.Sprintf("%d-%d", s.first.addr, s.last.addr))
	}
	if want := []string{"0-1", "3-3"}; !slices.Equal(got, want) {
		t.Errorf("registers folded %v, want %v", got, want)
	}
}

// TestAnswersAsJSON holds the answers' hand-written JSON to their types:
// every member written is a field the type declares, so that the schema
// inferred from the type describes it, and a register 0 is written.
func TestAnswersAsJSON(t *testing.T) {
	check := func(v any, b []byte) {
		t.Helper()
		var m map[string]json.RawMessage
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		names := map[string]bool{}
		ty := reflect.TypeOf(v)
		for i := range ty.NumField() {
			names[strings.Split(ty.Field(i).Tag.Get("json"), ",")[0]] = true
		}
		for k := range m {
			if !names[k] {
				t.Errorf("%s writes %q, which %s does not declare", b, k, ty)
			}
		}
	}
	m := Match{Tick: 5, Kind: "psg", Register: 0, Byte: "&3F", PC: "&087D", PCROM: "lower", Captured: Captured{CPU: json.RawMessage(`{"cpu.a":1}`), Memory: []Memory{{Address: "&BFF0", Bytes: "01 02", ROM: "upper 0"}}}}
	b, _ := json.Marshal(m)
	check(m, b)
	if !strings.Contains(string(b), `"register":0`) {
		t.Errorf("a match of register 0: %s", b)
	}
	var back Match
	if json.Unmarshal(b, &back); !reflect.DeepEqual(back, m) {
		t.Errorf("%s reads back as %+v", b, back)
	}
	p := Place{Register: 0, Count: 3, Tick: 9, PC: "&4000", Bytes: ""}
	b, _ = json.Marshal(p)
	check(p, b)
	if !strings.Contains(string(b), `"register":0`) {
		t.Errorf("a place of register 0: %s", b)
	}
	r := Range{Port: "&BC00", Kind: "out", Last: "&BC03", Places: 4, Count: 4}
	b, _ = json.Marshal(r)
	check(r, b)
	r = Range{Register: 0, LastRegister: 2, Places: 3, Count: 3}
	b, _ = json.Marshal(r)
	check(r, b)
	if !strings.Contains(string(b), `"register":0,"last_register":2`) {
		t.Errorf("a range of registers: %s", b)
	}
}

// TestPortReadByte holds CB-8: a port read's match gives the byte the
// processor took, as IN A,(C) leaves it in A: MC WAIT FLYBACK's read of
// PPI port B at &07B8 in the 6128's listing (Machine.asm).
func TestPortReadByte(t *testing.T) {
	m := newCPC(t)
	m.RunTicks(100 * cpc.TicksPerFrame)
	// CALL &BD19, MC WAIT FLYBACK's jumpblock, and wait.
	for i, b := range []byte{0xCD, 0x19, 0xBD, 0x18, 0xFE} {
		m.Poke(0x4000+uint16(i), b)
	}
	m.CPU.PC = 0x4000
	e := New(m, Options{Gather: []Condition{{Kind: In, Port: 0xF500, Mask: 0x0B00, Capture: &Capture{CPU: []string{"cpu.a", "cpu.pc"}}}}, File: true, CPC: true})
	m.Watch(e.Watch())
	m.RunTicks(20 * cpc.TicksPerFrame)
	m.Watch(nil)
	ms := e.Gathered()
	n := 0
	for _, g := range ms {
		var cpu map[string]int
		json.Unmarshal(g.Captured.CPU, &cpu)
		if g.PC == "&07B8" {
			n++
			if fmt.Sprintf("&%02X", cpu["cpu.a"]) != g.Byte {
				t.Errorf("IN A,(C) at &07B8 took %s, and left A &%02X", g.Byte, cpu["cpu.a"])
			}
		}
	}
	if n == 0 {
		t.Errorf("no reads of port B at &07B8 among %d", len(ms))
	}
}

// TestResponseIsNoInstruction holds RD-2 and CNT-8: the return address an
// interrupt's response pushes names no instruction, and a count by pc
// leaves it out.
func TestResponseIsNoInstruction(t *testing.T) {
	s := newSpectrum(t)
	s.RunTicks(90 * 69888)
	stack := Condition{Kind: Write, Lo: 0xFF00, Hi: 0xFFFF}
	e := New(s, Options{Gather: []Condition{stack}, Count: []Condition{stack}, By: ByPC, File: true})
	s.Watch(e.Watch())
	s.RunTicks(3 * 69888)
	s.Watch(nil)
	var responses uint64
	for _, g := range e.Gathered() {
		if g.Response {
			responses++
			if g.PC != "" {
				t.Errorf("a response's write names an instruction: %+v", g)
			}
		}
	}
	var counted, gathered uint64
	for _, p := range e.Counted().Writes {
		counted += p.Count
	}
	gathered = uint64(len(e.Gathered()))
	if responses == 0 || counted != gathered-responses {
		t.Errorf("%d writes gathered, %d of them a response's; %d counted by pc", gathered, responses, counted)
	}
}
