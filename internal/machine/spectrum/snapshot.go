package spectrum

import (
	"fmt"

	"colophon/internal/media/sna"
)

// Snapshot returns the machine as a 48K .sna [SNA]: the registers, the
// border and the RAM, with the program counter pushed where a PUSH would
// put it, so that the file's SP is two below the machine's. The machine
// itself is not touched: the two bytes under its stack keep what they held
// in it, and lose it only in the file (SNA-5).
//
// The format has no room for a chain of prefixes under way, nor for IFF1
// apart from IFF2, WZ, the ULA's place in its frame, or the keys held; a
// machine loaded from it starts a frame with interrupts as IFF2 says.
func (s *Spectrum) Snapshot() ([]byte, error) {
	c := &s.CPU
	if c.Prefix != 0 {
		return nil, fmt.Errorf("spectrum48: a snapshot cannot be taken inside a chain of prefixes, which no instruction has finished")
	}
	sp := c.SP - 2
	if sp < ROMSize || sp+1 < ROMSize {
		return nil, fmt.Errorf("spectrum48: the stack pointer is &%04X, so the program counter would be pushed into the ROM, where a snapshot cannot keep it", c.SP)
	}
	f := &sna.Spectrum48Snapshot{
		I:      c.I,
		HL_:    pair(c.H_, c.L_),
		DE_:    pair(c.D_, c.E_),
		BC_:    pair(c.B_, c.C_),
		AF_:    pair(c.A_, c.F_),
		HL:     pair(c.H, c.L),
		DE:     pair(c.D, c.E),
		BC:     pair(c.B, c.C),
		IY:     c.IY,
		IX:     c.IX,
		IFF2:   c.IFF2,
		R:      c.R,
		AF:     pair(c.A, c.F),
		SP:     sp,
		IM:     c.IM,
		Border: s.ULA.Border,
	}
	copy(f.RAM[:], s.mem[ROMSize:])
	f.RAM[sp-ROMSize] = uint8(c.PC)
	f.RAM[sp+1-ROMSize] = uint8(c.PC >> 8)
	return sna.WriteSpectrum48(f), nil
}

// Load returns a Spectrum with the given firmware, stood up from a 48K
// .sna: its registers, RAM and border as the file holds them, the program
// counter popped from its stack, and IFF1 as IFF2, as the RETN that
// restarts such a snapshot would leave it. The machine's tick starts at 0,
// at the start of a frame (T-3).
func Load(rom, snapshot []byte) (*Spectrum, error) {
	f, err := sna.ReadSpectrum48(snapshot)
	if err != nil {
		return nil, fmt.Errorf("spectrum48 snapshot: %w", err)
	}
	s, err := New(rom)
	if err != nil {
		return nil, err
	}
	c := &s.CPU
	c.I = f.I
	c.H_, c.L_ = split(f.HL_)
	c.D_, c.E_ = split(f.DE_)
	c.B_, c.C_ = split(f.BC_)
	c.A_, c.F_ = split(f.AF_)
	c.H, c.L = split(f.HL)
	c.D, c.E = split(f.DE)
	c.B, c.C = split(f.BC)
	c.IY, c.IX = f.IY, f.IX
	c.IFF1, c.IFF2 = f.IFF2, f.IFF2
	c.R = f.R
	c.A, c.F = split(f.AF)
	c.IM = f.IM
	copy(s.mem[ROMSize:], f.RAM[:])
	s.markAll()
	c.PC = f.PC()
	c.SP = f.SP + 2
	c.WZ = c.PC // as the RETN that restarts it would leave it (MEMPTR)
	s.ULA.Border = f.Border & 7
	return s, nil
}

func pair(hi, lo uint8) uint16 { return uint16(hi)<<8 | uint16(lo) }

func split(v uint16) (hi, lo uint8) { return uint8(v >> 8), uint8(v) }
