package cpc

import (
	"testing"

	"colophon/internal/inspect"
	"colophon/internal/machine"
	"colophon/internal/machine/machinetest"
)

// TestDirtyMarksEveryWrite holds a 6128's marks to every way its RAM and
// its monitor's raster are written: after each, every page that differs
// from what it held when the marks were cleared is marked. With nothing
// done, nothing is marked; and a frame at BASIC's prompt, which repaints
// the whole raster with what it held but the cursor, marks little of it.
func TestDirtyMarksEveryWrite(t *testing.T) {
	m := boot(t, CPC6128)
	m.RunFrames(90) // to BASIC's prompt
	for _, c := range []struct {
		what  string
		setup func() // before the marks are cleared
		do    func()
	}{
		{"nothing", nil, func() {}},
		{"a frame at the prompt", nil, func() { m.RunFrames(1) }},
		{"typing", nil, func() {
			if _, err := m.Type("PRINT 2+2\n"); err != nil {
				t.Fatal(err)
			}
		}},
		{"a border set, and a frame", nil, func() {
			if err := inspect.Set(m, "gate_array.inks[16]", 6); err != nil {
				t.Fatal(err)
			}
			m.RunFrames(1)
		}},
		{"steps, and the video caught up for the picture", nil, func() {
			m.Step(300)
			m.Picture()
		}},
		{"a poke under the lower ROM", nil, func() {
			m.GA.LowerROM = true
			m.remap()
			m.Poke(0x0123, ^m.RAM[0x0123])
		}},
		{"a poke at &4000 with the second 64K's last 16K there", nil, func() {
			m.MMR = 0xC7
			m.remap()
			m.Poke(0x4567, ^m.RAM[0x1C567])
			m.MMR = 0xC0
			m.remap()
		}},
		{"a poke by the RAM's own address", nil, func() { m.PokeRAM(0x1ABCD, ^m.RAM[0x1ABCD]) }},
		{"a screen scrolling", nil, func() {
			if _, err := m.Type("10 PRINT I:I=I+1:GOTO 10\nRUN\n"); err != nil {
				t.Fatal(err)
			}
			m.RunFrames(40)
		}},
		// Last, since it leaves the firmware no way on.
		{"the processor writing beneath the lower ROM and into the second 64K", func() {
			// At &8000, with interrupts off: &5A to &0123 with the lower
			// ROM enabled (the byte lands in the RAM beneath), to &C123
			// in configuration 1, and to &4123 in configurations 4 to 7
			// (cpctech, "Amstrad CPC Ram Paging").
			code := []byte{
				0xF3,       // DI
				0x3E, 0x5A, // LD A,&5A
				0x01, 0x89, 0x7F, 0xED, 0x49, // OUT (&7F89): mode 1, lower ROM on
				0x32, 0x23, 0x01, // LD (&0123),A
				0x01, 0xC1, 0x7F, 0xED, 0x49, // configuration 1
				0x32, 0x23, 0xC1, // LD (&C123),A
			}
			for cfg := byte(0xC4); cfg <= 0xC7; cfg++ {
				code = append(code, 0x3C, 0x01, cfg, 0x7F, 0xED, 0x49, 0x32, 0x23, 0x41) // INC A; configuration; LD (&4123),A
			}
			code = append(code, 0x01, 0xC0, 0x7F, 0xED, 0x49, 0x18, 0xFE) // configuration 0; JR $
			for i, v := range code {
				m.PokeRAM(0x8000+uint32(i), v)
			}
			m.CPU.PC, m.CPU.IFF1, m.CPU.IFF2 = 0x8000, false, false
		}, func() {
			m.RunTicks(4000)
			for _, a := range []uint32{0x00123, 0x1C123, 0x10123, 0x14123, 0x18123} {
				if b := m.RAM[a]; b < 0x5A || b > 0x5E {
					t.Errorf("the program left &%02X at RAM &%05X", b, a)
				}
			}
		}},
	} {
		if c.setup != nil {
			c.setup()
		}
		before := machinetest.Cleaned(m)
		c.do()
		marked, changed := machinetest.HeldToMarks(t, c.what, m, before)
		switch {
		case c.what == "nothing" && marked != 0:
			t.Errorf("nothing done marked %d pages", marked)
		case c.what != "nothing" && changed == 0:
			t.Errorf("%s changed nothing, which tests nothing", c.what)
		case c.what == "a frame at the prompt" && marked > rasterPages/4:
			t.Errorf("a frame at the prompt marked %d pages; it repaints the raster as it was, but the cursor", marked)
		}
		t.Logf("%s: %d pages marked, %d changed", c.what, marked, changed)
	}
}

// TestDirtyMarksNewAndLoaded: a machine new, or loaded from a snapshot,
// marks every page of its RAM and raster, as no host has seen them.
func TestDirtyMarksNewAndLoaded(t *testing.T) {
	m := boot(t, CPC6128)
	m.RunFrames(90)
	snap, err := m.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	n, err := Load(config(t, CPC6128), snap)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range []*CPC{boot(t, CPC6128), n} {
		for _, b := range x.Buffers() {
			for p := 0; p*machine.PageSize < len(b.Bytes); p++ {
				if b.Dirty[p/64]&(1<<(p%64)) == 0 {
					t.Errorf("page %d of the %s is not marked", p, b.Name)
				}
			}
		}
	}
}
