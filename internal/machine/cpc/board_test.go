package cpc

import (
	"colophon/internal/machine"
	"testing"

	"colophon/internal/chip/crtc"
	"colophon/internal/chip/ppi"
)

// program puts code in RAM at &4000, with both ROMs off and interrupts
// disabled, and points the processor at it.
func program(m *CPC, code ...byte) {
	m.GA.LowerROM, m.GA.UpperROM = false, false
	m.remap()
	copy(m.RAM[0x4000:], code)
	m.CPU.PC = 0x4000
	m.CPU.IFF1, m.CPU.IFF2 = false, false
	m.CPU.SP = 0xBFF0
}

// TestRAMConfigurations holds the 6128's PAL to its eight configurations
// (cpctech, "Amstrad CPC Ram Paging"; Grim, "The Gate Array", MMR): which
// 16K of RAM, by its own address, answers each quarter. A 64K machine has
// no PAL and stays in configuration 0.
func TestRAMConfigurations(t *testing.T) {
	blocks := [8][4]uint32{
		{0, 1, 2, 3}, {0, 1, 2, 7}, {4, 5, 6, 7}, {0, 3, 2, 7},
		{0, 4, 2, 3}, {0, 5, 2, 3}, {0, 6, 2, 3}, {0, 7, 2, 3},
	}
	m := boot(t, CPC6128)
	m.GA.LowerROM, m.GA.UpperROM = false, false
	for cfg := range 8 {
		m.ioWrite(0x7F00, 0xC0|byte(cfg), m.CPU.Tick)
		for q := range 4 {
			addr := uint16(q*0x4000 + 0x123)
			want := blocks[cfg][q]*0x4000 + 0x123
			if s := m.SourceOf(addr); s.ROM || s.RAM != want {
				t.Errorf("configuration %d: &%04X answered by %v, want RAM &%05X", cfg, addr, s, want)
			}
			m.Poke(addr, byte(cfg*4+q))
			if m.RAM[want] != byte(cfg*4+q) {
				t.Errorf("configuration %d: a write to &%04X missed RAM &%05X", cfg, addr, want)
			}
		}
	}
	m464 := boot(t, CPC464)
	m464.GA.LowerROM, m464.GA.UpperROM = false, false
	m464.remap()
	m464.ioWrite(0x7F00, 0xC2, 0)
	if s := m464.SourceOf(0xC000); s.RAM != 0xC000 {
		t.Errorf("a 464 given configuration 2 answers &C000 from %v", s)
	}
}

// TestROMs holds the ROMs to the spec's "Stopping and watching" and
// cpctech's "Expansion ROM Selection": an enabled ROM answers reads and a
// write beneath it lands in the RAM; a number with no ROM fitted is
// answered by ROM 0; AMSDOS is ROM 7 on the 664 and 6128 and absent on
// the 464.
func TestPR3ROMs(t *testing.T) {
	for _, model := range []Model{CPC464, CPC664, CPC6128} {
		m := boot(t, model)
		if s := m.SourceOf(0x0038); !s.ROM || !s.Lower {
			t.Errorf("%s: &0038 at power-on answered by %v, want the lower ROM", model, s)
		}
		rom := m.Peek(0x0038)
		m.Poke(0x0038, rom^0xFF)
		if m.Peek(0x0038) != rom || m.RAM[0x0038] != rom^0xFF {
			t.Errorf("%s: a write under the lower ROM did not land in the RAM beneath", model)
		}
		m.ioWrite(0x7F00, 0x84, 0) // RMR: lower ROM off, upper on
		if m.Peek(0x0038) != rom^0xFF {
			t.Errorf("%s: the lower ROM turned off still answers", model)
		}
		for _, c := range []struct {
			n    byte
			want byte
		}{{0, 0}, {3, 0}, {7, 7}, {255, 0}} {
			m.ioWrite(0xDF00, c.n, 0)
			want := c.want
			if !model.DiscInterface() {
				want = 0
			}
			if s := m.SourceOf(0xC000); !s.ROM || s.Lower || s.Num != want {
				t.Errorf("%s: ROM %d selected, &C000 answered by %v, want upper ROM %d", model, c.n, s, want)
			}
		}
	}
}

// TestIODecode holds the decode to cpctech's "I/O port allocation": each
// device takes a write where its own address bit is low, so one write to
// &0000 reaches the PAL, the 6845's address register, the upper ROM
// select, the PPI's port A and the disc drives' motor at once; and &7Fxx
// reaches the Gate Array alone.
func TestIODecode(t *testing.T) {
	m := boot(t, CPC6128)
	m.Motor = true
	m.ioWrite(0x0000, 0xC4, 0)
	if m.MMR != 0xC4 || m.CRTC.Selected != 0x04 || m.UpperROM != 0xC4 || m.PPI.Output[ppi.PortA] != 0xC4 || m.Motor {
		t.Errorf("OUT &0000,&C4 left MMR &%02X, CRTC register %d, ROM %d, PPI A &%02X, motor %v",
			m.MMR, m.CRTC.Selected, m.UpperROM, m.PPI.Output[ppi.PortA], m.Motor)
	}
	m.ioWrite(0x7FFF, 0x4C, 0) // INKR to pen 0: the Gate Array alone
	if m.GA.Inks[0] != 0x0C || m.CRTC.Registers[0] != 0 || m.UpperROM != 0xC4 {
		t.Errorf("OUT &7FFF reached more than the Gate Array")
	}
}

// TestLinks holds PPI port B to cpctech's "8255 PPI": the 50 Hz link on
// bit 4, the manufacturer, 7 for Amstrad, on bits 3-1, and the 6845's
// VSYNC on bit 0; a 60 Hz machine reads bit 4 low (spec: "50 Hz by
// default, 60 Hz on request").
func TestLinks(t *testing.T) {
	for _, sixty := range []bool{false, true} {
		m := boot(t, CPC464)
		m.FiftyHz = !sixty
		v := m.ioRead(0xF500, 0, 0)
		want := byte(0x5E)
		if sixty {
			want = 0x4E
		}
		if v&0xFE != want {
			t.Errorf("60 Hz %v: port B reads &%02X, want &%02X with VSYNC", sixty, v, want)
		}
	}
}

// TestCRTCWriteTiming holds where the 6845 takes a write within the
// instruction making it (Compendium ch. 4.4.4; spec "Stopping and
// watching"): an OUT (C),r in its 3rd µs on types 0, 1 and 2 and its 4th
// on types 3 and 4; an OUT (n),A in its 3rd on every type; an OUTI in its
// 5th. Each instruction follows a NOP, which leaves it beginning where a
// run of itself would.
func TestCRTC6WriteTiming(t *testing.T) {
	for _, c := range []struct {
		name string
		code []byte
		us   [crtc.Types]int
	}{
		{"OUT (C),C", []byte{0x01, 0x0C, 0xBD, 0x00, 0xED, 0x49}, [crtc.Types]int{3, 3, 3, 4, 4}},
		{"OUT (n),A", []byte{0x3E, 0xBD, 0x00, 0xD3, 0x0C}, [crtc.Types]int{3, 3, 3, 3, 3}},
		{"OUTI", []byte{0x01, 0x00, 0xBE, 0x21, 0x00, 0x80, 0x00, 0xED, 0xA3}, [crtc.Types]int{5, 5, 5, 5, 5}},
	} {
		for ty := range crtc.Type(crtc.Types) {
			m := boot(t, CPC6128)
			m.CRTC.Reset(ty)
			program(m, c.code...)
			m.RAM[0x8000] = 0x0C
			at := uint16(0x4000 + len(c.code) - 2) // the last instruction, two bytes
			var start, took uint64
			m.Observe(func(e *machine.Access) {
				if e.Kind == machine.Fetch && e.Addr == at && start == 0 {
					start = e.Tick
				}
				if e.Kind == machine.CRTC && took == 0 {
					took = e.Tick
				}
			})
			m.Step(4)
			if start == 0 || took == 0 {
				t.Fatalf("%s type %v: no write seen", c.name, ty)
			}
			if us := int(took-start)/4 + 1; us != c.us[ty] {
				t.Errorf("%s, type %v: the 6845 took the write in µs %d, want %d", c.name, ty, us, c.us[ty])
			}
		}
	}
}

// TestINWritesCRTC holds an IN from the 6845's select and write ports to
// the spec's "Stopping and watching": it selects or writes too, with the
// top half of the port's address, A for IN A,(n).
func TestCRTC2INWrites(t *testing.T) {
	m := boot(t, CPC6128)
	program(m,
		0x3E, 0xBC, // LD A,&BC
		0xDB, 0x00, // IN A,(&00): selects register &BC, 28
		0x01, 0x0C, 0xBC, // LD BC,&BC0C
		0xED, 0x49, // OUT (C),C: select R12
		0x3E, 0xBD, // LD A,&BD
		0xDB, 0x00, // IN A,(&00): writes &BD to R12
	)
	m.Step(3)
	if m.CRTC.Selected != 28 {
		t.Errorf("IN A,(n) with A=&BC selected %d, want 28", m.CRTC.Selected)
	}
	m.Step(4)
	if m.CRTC.Registers[12] != 0xBD&0x3F {
		t.Errorf("IN A,(n) with A=&BD left R12 &%02X, want &%02X", m.CRTC.Registers[12], 0xBD&0x3F)
	}
}

// TestObservedSources holds what an observer is told of the memory that
// answered (spec, "Stopping and watching"): the lower ROM for the
// firmware's &0038 while it is enabled, upper ROM 7 for AMSDOS, and the
// RAM by its own address where a 6128's configuration pages it elsewhere.
func TestPR6ObservedSources(t *testing.T) {
	m := boot(t, CPC6128)
	var lower, amsdos bool
	m.Observe(func(e *machine.Access) {
		if e.Kind == machine.Fetch && e.Addr == 0x0038 && e.Source.ROM && !e.Source.Upper {
			lower = true
		}
		if e.Kind == machine.Fetch && e.Addr >= 0xC000 && e.Source.ROM && e.Source.Upper && e.Source.Number == 7 {
			amsdos = true
		}
	})
	m.RunTicks(78 * TicksPerFrame)
	if !lower || !amsdos {
		t.Errorf("booting, the firmware's &0038 seen from the lower ROM %v, AMSDOS from ROM 7 %v", lower, amsdos)
	}
	program(m, 0x3E, 0x55, 0x32, 0x00, 0x40) // LD A,&55; LD (&4000),A
	m.ioWrite(0x7F00, 0xC4, 0)               // block 4 at &4000
	copy(m.RAM[0x10000:], m.RAM[0x4000:0x4005])
	var got machine.Source
	m.Observe(func(e *machine.Access) {
		if e.Kind == machine.Write {
			got = e.Source
		}
	})
	m.Step(2)
	if got.ROM || got.RAM != 0x10000 || m.RAM[0x10000] != 0x55 {
		t.Errorf("a write to &4000 under configuration 4 seen at %v, want RAM &10000", got)
	}
}

// TestPSGPinsPulledUp holds the PSG's function and data lines to what the
// PPI drives, with an undriven line high: a port programmed as an input
// drives nothing (Intel 8255A, mode 0), and its lines read &FF (Kevin
// Thacker's note in MAME's 8255ppi.c: "When port is input, then data
// present on the ports outputs is 0xff"; cpctech, "8255 PPI", for the
// wiring: port A the PSG's data, port C bits 7-6 its BDIR and BC1).
func TestPSGPinsPulledUp(t *testing.T) {
	// selected7 latches register 7 the way cpctech's "AY-3-8912 PSG"
	// routine does, with ports A and C outputs.
	selected7 := func(m *CPC) {
		m.ioWrite(0xF782, 0x82, 0) // mode 0: A, C outputs; B an input
		m.ioWrite(0xF400, 0x07, 0) // port A: the register number
		m.ioWrite(0xF6C0, 0xC0, 0) // LATCH ADDRESS
		m.ioWrite(0xF600, 0x00, 0) // inactive
		if !m.PSG.ChipSelected || m.PSG.Selected != 7 {
			t.Fatalf("register 7 latched, the PSG has selected %d (chip selected %v)", m.PSG.Selected, m.PSG.ChipSelected)
		}
	}

	// Every port an input, as after RESET (&9B): BDIR and BC1 float high,
	// LATCH ADDRESS, with &FF on the data bus, which selects no register.
	m := boot(t, CPC6128)
	selected7(m)
	m.ioWrite(0xF79B, 0x9B, 0)
	if m.PSG.ChipSelected || m.PSG.Selected != 15 {
		t.Errorf("port C an input: the PSG has selected %d, chip selected %v; want &FF latched: 15, unselected",
			m.PSG.Selected, m.PSG.ChipSelected)
	}

	// Port A an input, port C an output giving WRITE: the data bus floats
	// high and register 7 takes &FF.
	m = boot(t, CPC6128)
	selected7(m)
	var writes []machine.Access
	m.Observe(func(e *machine.Access) {
		if e.Kind == machine.PSG {
			writes = append(writes, *e)
		}
	})
	m.ioWrite(0xF792, 0x92, 0) // mode 0: A and B inputs, C an output
	m.ioWrite(0xF680, 0x80, 0) // WRITE
	if m.PSG.Registers[7] != 0xFF || len(writes) != 1 || writes[0].Value != 0xFF {
		t.Errorf("port A an input, WRITE: register 7 holds &%02X, writes seen %v; want &FF", m.PSG.Registers[7], writes)
	}
}
