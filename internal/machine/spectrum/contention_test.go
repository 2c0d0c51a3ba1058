package spectrum

import (
	"testing"

	"colophon/internal/chip/z80"
	"colophon/internal/machine"
)

// bench stands a Spectrum whose ROM holds nothing but the code under test
// at &0100, or whose RAM holds it at at, with the processor there at tick
// start of the first frame, interrupts disabled. The tick is the frame's
// tick, the ULA's frame starting at 0.
func bench(t *testing.T, code []byte, at uint16, start uint64, regs func(c *z80.CPU)) *Spectrum {
	t.Helper()
	rom := make([]byte, ROMSize)
	if at < ROMSize {
		copy(rom[at:], code)
	}
	s, err := New(rom)
	if err != nil {
		t.Fatal(err)
	}
	if at >= ROMSize {
		for i, b := range code {
			s.Poke(at+uint16(i), b)
		}
	}
	c := &s.CPU
	c.PC = at
	c.SP = 0x8000
	c.Tick = start
	if regs != nil {
		regs(c)
	}
	return s
}

func hl(v uint16) func(*z80.CPU) { return func(c *z80.CPU) { c.H, c.L = uint8(v>>8), uint8(v) } }
func bc(v uint16) func(*z80.CPU) { return func(c *z80.CPU) { c.B, c.C = uint8(v>>8), uint8(v) } }

// TestContendedInstructions pins whole instructions' lengths to the worked
// examples of ../shared/testdata/spectrum/spectrum48-contention.md
// ("Worked examples"): [COL] test/spectrum_test.c, computed from [SW-CM]
// and [SW-IO]'s published rules (early timing; contention from 14335, the
// 6,5,4,3,2,1,0,0 pattern, 128 ticks of 224, the four port patterns) and
// recomputed there from those rules. Each row is an instruction begun at a
// tick of the frame and the ticks until the next instruction begins.
func TestContendedInstructions(t *testing.T) {
	const rom = 0x0100
	for _, c := range []struct {
		name  string
		code  []byte
		at    uint16
		regs  func(*z80.CPU)
		start uint64
		took  uint64
	}{
		// An opcode fetched from contended memory at the first
		// contended tick owes 6 [SW-CM]; the pattern runs down to 0 and
		// round again.
		{"NOP at &4000", []byte{0x00}, 0x4000, nil, 14335, 10},
		{"NOP at &4000", []byte{0x00}, 0x4000, nil, 14336, 9},
		{"NOP at &4000", []byte{0x00}, 0x4000, nil, 14341, 4},
		{"NOP at &4000", []byte{0x00}, 0x4000, nil, 14342, 4},
		{"NOP at &4000", []byte{0x00}, 0x4000, nil, 14343, 10},
		{"NOP at &4000", []byte{0x00}, 0x4000, nil, 0, 4},
		{"NOP in ROM", []byte{0x00}, rom, nil, 0, 4},
		{"NOP in ROM", []byte{0x00}, rom, nil, 14335, 4},
		// A read held at its T1: pc:4, hl:3.
		{"LD A,(HL) of &4000", []byte{0x7E}, rom, hl(0x4000), 14331, 13},
		{"LD A,(HL) of &4000", []byte{0x7E}, rom, hl(0x4000), 14332, 12},
		{"LD A,(HL) of &4000", []byte{0x7E}, rom, hl(0x4000), 14337, 7},
		{"LD A,(HL) of &4000", []byte{0x7E}, rom, hl(0x4000), 14338, 7},
		{"LD A,(HL) of &4000", []byte{0x7E}, rom, hl(0x4000), 14339, 13},
		{"LD A,(HL) of &4000", []byte{0x7E}, rom, hl(0x4000), 0, 7},
		{"LD A,(HL) of &8000", []byte{0x7E}, rom, hl(0x8000), 14331, 7},
		{"LD A,(HL) of &8000", []byte{0x7E}, rom, hl(0x8000), 14334, 7},
		{"LD A,(HL) of &8000", []byte{0x7E}, rom, hl(0x8000), 14338, 7},
		// The internal tick hl:1 is held too: the 48K ULA contends by
		// address, MREQ or none [SW-CM]: 11 + 6 at the read on 14335 +
		// 5 at the internal tick on 14344; the write on 14350 owes 0.
		{"INC (HL) of &4000", []byte{0x34}, rom, hl(0x4000), 14331, 22},
		// The writes to &7FFF and &7FFE fall on 14336 and 14344.
		{"PUSH BC to &7FFF", []byte{0xC5}, rom, nil, 14331, 21},
		// The last internal de:1 lands on 14335 and owes 6.
		{"LDI &8000 to &4000", []byte{0xED, 0xA0}, rom, func(c *z80.CPU) {
			hl(0x8000)(c)
			c.D, c.E = 0x40, 0x00
			c.B, c.C = 0, 1
		}, 14320, 22},
		// The four I/O patterns [SW-IO].
		{"IN A,(C) &00FE: N:1, C:3", []byte{0xED, 0x78}, rom, bc(0x00FE), 14331, 13},
		{"IN A,(C) &00FE: N:1, C:3", []byte{0xED, 0x78}, rom, bc(0x00FE), 14334, 18},
		{"IN A,(C) &00FE: N:1, C:3", []byte{0xED, 0x78}, rom, bc(0x00FE), 14335, 17},
		{"IN A,(C) &40FE: C:1, C:3", []byte{0xED, 0x78}, rom, bc(0x40FE), 14331, 14},
		{"IN A,(C) &40FE: C:1, C:3", []byte{0xED, 0x78}, rom, bc(0x40FE), 14334, 18},
		{"IN A,(C) &40FE: C:1, C:3", []byte{0xED, 0x78}, rom, bc(0x40FE), 14335, 18},
		{"IN A,(C) &40FF: C:1 x4", []byte{0xED, 0x78}, rom, bc(0x40FF), 14331, 20},
		{"IN A,(C) &40FF: C:1 x4", []byte{0xED, 0x78}, rom, bc(0x40FF), 14334, 24},
		{"IN A,(C) &40FF: C:1 x4", []byte{0xED, 0x78}, rom, bc(0x40FF), 14335, 24},
		{"IN A,(C) &00FF: N:4", []byte{0xED, 0x78}, rom, bc(0x00FF), 14331, 12},
		{"IN A,(C) &00FF: N:4", []byte{0xED, 0x78}, rom, bc(0x00FF), 14334, 12},
		{"IN A,(C) &00FF: N:4", []byte{0xED, 0x78}, rom, bc(0x00FF), 14335, 12},
	} {
		s := bench(t, c.code, c.at, c.start, c.regs)
		r := s.Step(1)
		if r.Ticks != c.took || r.Stop != machine.Done {
			t.Errorf("%s from %d took %d (%v), want %d", c.name, c.start, r.Ticks, r.Stop, c.took)
		}
	}
}

// TestInternalTicksOfIR checks the "IR in screen" shape of [SW-CM]'s
// instruction breakdown: with I at &40, the ticks an instruction spends
// with IR on the bus are contended one by one. ADD HL,BC is "4, then 1 x7
// (IR)" and INC BC "4, 1, 1": from 14331 in ROM, the fetch is free and
// each internal tick owes what the pattern says where it falls.
func TestInternalTicksOfIR(t *testing.T) {
	i40 := func(c *z80.CPU) { c.I = 0x40 }
	for _, c := range []struct {
		name  string
		code  []byte
		start uint64
		took  uint64
	}{
		// Internal ticks at 14335 (6), 14342 (0), 14343 (6), 14350 (0),
		// 14351 (6), 14358 (0), 14359 (6): 11 + 24.
		{"ADD HL,BC", []byte{0x09}, 14331, 35},
		// At 14335 (6) and 14342 (0): 6 + 6.
		{"INC BC", []byte{0x03}, 14331, 12},
		// Out of the screen's ticks, nothing is owed.
		{"ADD HL,BC", []byte{0x09}, 100, 11},
	} {
		s := bench(t, c.code, 0x0100, c.start, i40)
		if r := s.Step(1); r.Ticks != c.took {
			t.Errorf("%s with I=&40 from %d took %d, want %d", c.name, c.start, r.Ticks, c.took)
		}
	}
}

// TestInterruptAccepted pins the moment the interrupt is taken. The ULA
// holds /INT for the first 32 ticks of the frame [LS], and the processor
// samples it on an instruction's last tick (UM0080), so an instruction
// catches it only if its last tick is one of the 32 ([COL]
// spectrum_interrupt_test.c, walk_the_edge): a NOP begun at 28 is taken
// at 32, and one begun at 29 misses the frame's interrupt.
func TestInterruptAccepted(t *testing.T) {
	ei := func(c *z80.CPU) { c.IM, c.IFF1, c.IFF2 = 1, true, true }
	for start := uint64(0); start <= 40; start++ {
		s := bench(t, []byte{0x00, 0x00}, 0x0100, start, ei)
		var acked []uint64
		s.Observe(func(a *machine.Access) {
			if a.Kind == machine.Acknowledge {
				acked = append(acked, a.Tick)
			}
		})
		r := s.Step(1)
		taken := start+4-1 < 32
		switch {
		case taken && (len(acked) != 1 || acked[0] != start+4 || r.Ticks != 4+13 || s.CPU.PC != 0x0038):
			t.Errorf("NOP from %d: acknowledged at %v, %d ticks, PC &%04X; want it acknowledged at %d, 17 ticks, PC &0038",
				start, acked, r.Ticks, s.CPU.PC, start+4)
		case !taken && (len(acked) != 0 || r.Ticks != 4):
			t.Errorf("NOP from %d: acknowledged at %v after %d ticks; its last tick is %d, so it misses the interrupt",
				start, acked, r.Ticks, start+3)
		}
	}
}

// TestInterruptFromReset follows [COL]'s worked example: IM 1; EI; HALT
// from power-on reaches an instruction boundary at 16, where the
// interrupt is taken; its acknowledge cycle begins at 16, and the
// response, 13 ticks in mode 1, pushes the address after the HALT and
// goes to &0038. The acknowledge falls in the top border, so nothing is
// owed, and nothing drives the bus: the byte is &FF.
func TestInterruptFromReset(t *testing.T) {
	s := bench(t, []byte{0xED, 0x56, 0xFB, 0x76}, 0x0000, 0, nil)
	var ack *machine.Access
	s.Observe(func(a *machine.Access) {
		if a.Kind == machine.Acknowledge {
			c := *a
			ack = &c
		}
	})
	s.Step(2)
	if r := s.Step(1); r.Ticks != 4+13 {
		t.Errorf("HALT and the response took %d ticks, want 17", r.Ticks)
	}
	if ack == nil || ack.Tick != 16 || ack.Value != 0xFF {
		t.Fatalf("acknowledge = %+v; want one at 16 reading &FF", ack)
	}
	if s.CPU.PC != 0x0038 || s.CPU.Tick != 29 || s.Peek(s.CPU.SP) != 0x04 || s.Peek(s.CPU.SP+1) != 0x00 {
		t.Errorf("after the response: PC &%04X at %d, pushed &%02X%02X; want &0038 at 29, &0004",
			s.CPU.PC, s.CPU.Tick, s.Peek(s.CPU.SP+1), s.Peek(s.CPU.SP))
	}
}

// TestInterruptMode2ReadsFF checks that a mode 2 vector is read at I:&FF,
// since nothing drives the bus during the acknowledge on a bare 48K
// (spectrum48-contention.md, "Interrupt"), and that it costs 19 ticks.
func TestInterruptMode2ReadsFF(t *testing.T) {
	s := bench(t, []byte{0x00}, 0x0100, 0, func(c *z80.CPU) { c.IM, c.IFF1, c.IFF2, c.I = 2, true, true, 0x80 })
	s.Poke(0x80FF, 0x21)
	s.Poke(0x8100, 0x43)
	if r := s.Step(1); r.Ticks != 4+19 || s.CPU.PC != 0x4321 {
		t.Errorf("mode 2: %d ticks to PC &%04X; want 23 to &4321", r.Ticks, s.CPU.PC)
	}
}

// TestFloatingBusRead reads an unattached port where the ULA is reading
// the screen: IN A,(&FF) from ROM, its port cycle N:4 sampling at its
// third tick ([FUSE] readport), so begun 3+7 ticks before 14338 it reads
// the bitmap byte at &4000, and a tick later its attribute [RS].
func TestFloatingBusRead(t *testing.T) {
	for _, c := range []struct {
		start uint64
		want  uint8
	}{
		{14338 - 10, 0x5A}, {14339 - 10, 0x38}, {14340 - 10, 0xC3}, {14341 - 10, 0x47},
		{14342 - 10, 0xFF}, {100, 0xFF},
	} {
		s := bench(t, []byte{0xDB, 0xFF}, 0x0100, c.start, func(c *z80.CPU) { c.A = 0 })
		s.Poke(0x4000, 0x5A)
		s.Poke(0x5800, 0x38)
		s.Poke(0x4001, 0xC3)
		s.Poke(0x5801, 0x47)
		s.Step(1)
		if s.CPU.A != c.want {
			t.Errorf("IN A,(&FF) from %d read &%02X, want &%02X", c.start, s.CPU.A, c.want)
		}
	}
}
