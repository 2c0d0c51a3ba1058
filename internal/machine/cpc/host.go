package cpc

import (
	"fmt"

	"colophon/internal/chip/ppi"
	"colophon/internal/chip/z80"
	"colophon/internal/machine"
	"colophon/internal/media/tape"
)

// Source names the memory a read of addr finds as the banking stands
// (PP-3).
func (m *CPC) Source(addr uint16) machine.Source {
	s := m.SourceOf(addr)
	if s.ROM {
		return machine.Source{ROM: true, Upper: !s.Lower, Number: s.Num}
	}
	return machine.Source{RAM: s.RAM}
}

// RAMBytes is the RAM by its own addresses: 64K, or 128K on a 6128 (PP-2).
func (m *CPC) RAMBytes() []byte { return m.RAM }

// PokeRAM writes the RAM at its own address.
func (m *CPC) PokeRAM(addr uint32, v uint8) {
	m.RAM[addr] = v
	m.marks.ram[0] |= 1 << (addr / machine.PageSize)
}

// Processor is the machine's Z80, for a host that drives it directly.
func (m *CPC) Processor() *z80.CPU { return &m.CPU }

// InspectRoot is the struct inspect reads and set writes: cpu.pc,
// crtc.registers[12], gate_array.r52.
func (m *CPC) InspectRoot() any { return m }

// BeforeInspect brings the video, the tape deck and the disc controller,
// which run behind the processor, up to the machine's tick.
func (m *CPC) BeforeInspect() {
	m.settle()
	m.Tape.Run(m.CPU.Tick)
	m.FDC.Run(m.CPU.Tick)
}

// Deck is how a CPC drives its deck: at its clock, 4 MHz, 8/7 of the
// format's; the tape moving only while the motor runs (DT-20); and by an
// Amstrad's rules, which pass over the blocks that stop a Spectrum's tape
// (DT-23).
var Deck = tape.Config{Machine: tape.Amstrad, Clock: 4000000, Motor: true}

// InsertTape puts a tape in the deck at the machine's tick, with the reel
// at rest and PLAY pressed; it moves once the motor has run 50 ms.
func (m *CPC) InsertTape(t *tape.Tape) {
	m.Tape.Insert(t, Deck, m.CPU.Tick, m.pins(ppi.PortC)&0x10 != 0)
}

// TapeDeck is the deck, run up to the machine's tick.
func (m *CPC) TapeDeck() *tape.Deck {
	m.Tape.Run(m.CPU.Tick)
	return &m.Tape
}

// Validate refuses what set may not leave in the board (IS-6): a RAM
// configuration other than 0 on a 64K machine, which has no PAL, and a
// manufacturer past the three links PPI port B reads it from (cpctech,
// "8255 PPI": bits 3-1).
func (m *CPC) Validate() error {
	if len(m.RAM) < 0x20000 && m.MMR&0x3F != 0 {
		return fmt.Errorf("mmr is &%02X; a %s has no PAL, and its RAM configuration is 0 alone: bits 5-0 clear, as in &00 or &C0", m.MMR, m.Model)
	}
	if m.Manufacturer > 7 {
		return fmt.Errorf("manufacturer is %d; three links give 0 to 7", m.Manufacturer)
	}
	return nil
}

// AfterSet works the board's machinery out again after every write of a
// set or a restore (IS-10): the memory map, the video's place against the
// tick, and the Gate Array's colours (derive).
// The motor flip-flop set turns the drives' motors with it.
func (m *CPC) AfterSet(path string) {
	m.derive()
	if path == "motor" {
		m.FDC.SetMotor(m.CPU.Tick, m.Motor)
	}
}

var (
	_ machine.Memory      = (*CPC)(nil)
	_ machine.RAM         = (*CPC)(nil)
	_ machine.Processor   = (*CPC)(nil)
	_ machine.Inspectable = (*CPC)(nil)
	_ machine.Dirty       = (*CPC)(nil)
	_ machine.TapeDeck    = (*CPC)(nil)
)
