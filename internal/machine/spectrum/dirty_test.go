package spectrum

import (
	"testing"

	"colophon/internal/inspect"
	"colophon/internal/machine"
	"colophon/internal/machine/machinetest"
)

// TestDirtyMarksEveryWrite holds a Spectrum's marks to every way its
// memory and its picture are written: after each, every page that differs
// from what it held when the marks were cleared is marked. With nothing
// done, or only a write to the ROM, which lands nowhere, nothing is
// marked.
func TestDirtyMarksEveryWrite(t *testing.T) {
	s := boot(t)
	cliFrames(s, 128) // to the copyright message
	// halted stands the processor in a HALT with interrupts off, at
	// &8001, where each of its idle fetches takes 4 ticks, uncontended,
	// and the ULA at frame tick 36736, screen line 100 (14336 + 100*224:
	// [LS] top_left_pixel, 224 ticks a line).
	halted := func() {
		s.Poke(0x8000, 0xF3) // DI
		s.Poke(0x8001, 0x76) // HALT
		s.CPU.PC = 0x8000
		s.RunTicks(100)
		s.SetFrameTick(36736)
		s.Picture()
	}
	// again pokes the screen's line 98 and has stand put the processor
	// and the ULA 1000 ticks back, then runs them on to where they stood.
	again := func(stand func(t0 uint64)) {
		t0, u := s.CPU.Tick, s.ULA
		s.Poke(0x4A80, ^s.Peek(0x4A80)) // line 98: third 1, row 4, line 2 [SVM]
		stand(t0)
		s.RunTicks(1000)
		if s.CPU.Tick != t0 || s.ULA != u {
			t.Fatalf("the run ended at tick %d, not %d where it stood, or the ULA elsewhere", s.CPU.Tick, t0)
		}
	}
	for _, c := range []struct {
		what  string
		still bool   // nothing changes, and nothing may be marked
		setup func() // before the marks are cleared
		do    func()
	}{
		{"nothing", true, nil, func() {}},
		{"a poke into the ROM", true, nil, func() { s.Poke(0x1234, ^s.Peek(0x1234)) }},
		{"a frame", false, nil, func() { s.RunFrames(1) }},
		{"typing", false, nil, func() {
			if _, err := s.Type("p2+2\n"); err != nil {
				t.Fatal(err)
			}
		}},
		{"pokes into the screen and the top of RAM", false, nil, func() {
			s.Poke(0x4000, ^s.Peek(0x4000))
			s.Poke(0xFFFF, ^s.Peek(0xFFFF))
		}},
		{"an attribute poked, and a frame painting it", false, nil, func() {
			s.Poke(0x5800, ^s.Peek(0x5800))
			s.RunFrames(1)
			s.Picture()
		}},
		// The ULA stood back 1000 ticks, with the processor, and run
		// on to where it stood, repaints a screen byte poked meanwhile:
		// it stands as it stood when cleaned, and yet has painted.
		{"frame_tick and the tick restored back, and a run to where they were", false, halted, func() {
			again(func(t0 uint64) {
				// Set may not move the tick (T-1); a state's restore
				// does.
				fs, err := inspect.Fields(s)
				if err != nil {
					t.Fatal(err)
				}
				for i := range fs {
					switch fs[i].Path {
					case "cpu.tick":
						fs[i].Value = t0 - 1000
					case "frame_tick":
						fs[i].Value = uint64(35736)
					}
				}
				if err := inspect.Restore(s, fs); err != nil {
					t.Fatal(err)
				}
			})
		}},
		{"the frame tick and the tick stood back, and a run to where they were", false, halted, func() {
			again(func(t0 uint64) {
				s.CPU.Tick = t0 - 1000
				s.SetFrameTick(35736)
			})
		}},
		{"the processor writing the screen and the top of RAM", false, func() {
			// At &8000, with interrupts off: &AA to the screen's first
			// byte and its attribute, and to &FF00.
			code := []byte{
				0xF3,       // DI
				0x3E, 0xAA, // LD A,&AA
				0x32, 0x00, 0x40, // LD (&4000),A
				0x32, 0x00, 0x58, // LD (&5800),A
				0x32, 0x00, 0xFF, // LD (&FF00),A
				0x18, 0xFE, // JR $
			}
			for i, v := range code {
				s.Poke(0x8000+uint16(i), v)
			}
			s.Poke(0xFF00, 0)
			s.CPU.PC, s.CPU.IFF1, s.CPU.IFF2, s.CPU.Halted = 0x8000, false, false, false
		}, func() {
			s.RunFrames(1)
			for _, a := range []uint16{0x4000, 0x5800, 0xFF00} {
				if s.Peek(a) != 0xAA {
					t.Errorf("the program left &%02X at &%04X", s.Peek(a), a)
				}
			}
		}},
	} {
		if c.setup != nil {
			c.setup()
		}
		before := machinetest.Cleaned(s)
		c.do()
		marked, changed := machinetest.HeldToMarks(t, c.what, s, before)
		switch {
		case c.still && marked+changed != 0:
			t.Errorf("%s marked %d pages and changed %d; want none", c.what, marked, changed)
		case !c.still && changed == 0:
			t.Errorf("%s changed nothing, which tests nothing", c.what)
		}
		t.Logf("%s: %d pages marked, %d changed", c.what, marked, changed)
	}
}

// TestDirtyMarksNewAndLoaded: a machine new, or loaded from a snapshot,
// marks every page of its memory and picture, as no host has seen them.
func TestDirtyMarksNewAndLoaded(t *testing.T) {
	s := boot(t)
	cliFrames(s, 128)
	snap, err := s.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	l, err := Load(rom(t), snap)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range []*Spectrum{boot(t), l} {
		for _, b := range x.Buffers() {
			for p := 0; p*machine.PageSize < len(b.Bytes); p++ {
				if b.Dirty[p/64]&(1<<(p%64)) == 0 {
					t.Errorf("page %d of the %s is not marked", p, b.Name)
				}
			}
		}
	}
}
