package sna

// The ZX Spectrum 48K's .sna snapshot: a header of 27 bytes holding the
// processor's registers and the border, then the 48K of RAM from &4000 to
// &FFFF, whole. The format has no room for the program counter: it is
// pushed onto the machine's stack, so it is the word at SP, and the SP in
// the header is two below the running machine's (spec, "Saving a machine";
// checklist SNA-5).
//
// The layout is the one the format has always had, as the World of
// Spectrum FAQ's "SNA" entry and colophon-emulator's spectrum_snapshot.c
// lay it out field by field (SP48).

import (
	"encoding/binary"
	"fmt"
)

// Spectrum48Size is the length of a 48K .sna, and the only length it has
// (FILE-7; A-11: any other length is refused unread).
const Spectrum48Size = spectrum48Header + 0xC000

const spectrum48Header = 27

// Where each field of the header stands (SP48).
const (
	specAtI    = 0x00
	specAtHL_  = 0x01
	specAtDE_  = 0x03
	specAtBC_  = 0x05
	specAtAF_  = 0x07
	specAtHL   = 0x09
	specAtDE   = 0x0B
	specAtBC   = 0x0D
	specAtIY   = 0x0F
	specAtIX   = 0x11
	specAtIFF2 = 0x13 // bit 2 is IFF2; nothing holds IFF1
	specAtR    = 0x14
	specAtAF   = 0x15 // F, then A
	specAtSP   = 0x17
	specAtIM   = 0x19
	specAtBord = 0x1A

	specIFF2Bit = 0x04
)

// Spectrum48Snapshot is a 48K .sna as the file holds it.
type Spectrum48Snapshot struct {
	I                  byte
	HL_, DE_, BC_, AF_ uint16
	HL, DE, BC, IY, IX uint16
	IFF2               bool
	R                  byte
	AF                 uint16
	// SP is the stack pointer as the file holds it: the program counter
	// is the word it points at (see PC).
	SP uint16
	IM byte
	// Border is the border colour in its low 3 bits.
	Border byte
	// RAM is &4000 to &FFFF.
	RAM [0xC000]byte
}

// PC returns the program counter the snapshot carries: the word at SP.
func (s *Spectrum48Snapshot) PC() uint16 {
	return uint16(s.RAM[s.SP-0x4000]) | uint16(s.RAM[s.SP+1-0x4000])<<8
}

// ReadSpectrum48 reads a 48K .sna. It refuses a file of any length but
// 49179, an interrupt mode other than 0, 1 or 2, and a stack pointer under
// which no program counter can have been pushed: below &4000, in the ROM,
// or at &FFFF, where the word's high byte would be the ROM's.
func ReadSpectrum48(b []byte) (*Spectrum48Snapshot, error) {
	if len(b) != Spectrum48Size {
		return nil, fmt.Errorf("a 48K snapshot is %d bytes, and this is %d", Spectrum48Size, len(b))
	}
	s := &Spectrum48Snapshot{
		I:      b[specAtI],
		HL_:    specLE16(b, specAtHL_),
		DE_:    specLE16(b, specAtDE_),
		BC_:    specLE16(b, specAtBC_),
		AF_:    specLE16(b, specAtAF_),
		HL:     specLE16(b, specAtHL),
		DE:     specLE16(b, specAtDE),
		BC:     specLE16(b, specAtBC),
		IY:     specLE16(b, specAtIY),
		IX:     specLE16(b, specAtIX),
		IFF2:   b[specAtIFF2]&specIFF2Bit != 0,
		R:      b[specAtR],
		AF:     specLE16(b, specAtAF),
		SP:     specLE16(b, specAtSP),
		IM:     b[specAtIM],
		Border: b[specAtBord],
	}
	if s.IM > 2 {
		return nil, fmt.Errorf("the interrupt mode at &%02X is %d; it must be 0, 1 or 2", specAtIM, s.IM)
	}
	if s.SP < 0x4000 || s.SP == 0xFFFF {
		return nil, fmt.Errorf("the stack pointer at &%02X is &%04X, where no program counter can have been pushed (it must be &4000 to &FFFE)", specAtSP, s.SP)
	}
	copy(s.RAM[:], b[spectrum48Header:])
	return s, nil
}

// WriteSpectrum48 writes a 48K .sna.
func WriteSpectrum48(s *Spectrum48Snapshot) []byte {
	b := make([]byte, Spectrum48Size)
	b[specAtI] = s.I
	specPut16(b, specAtHL_, s.HL_)
	specPut16(b, specAtDE_, s.DE_)
	specPut16(b, specAtBC_, s.BC_)
	specPut16(b, specAtAF_, s.AF_)
	specPut16(b, specAtHL, s.HL)
	specPut16(b, specAtDE, s.DE)
	specPut16(b, specAtBC, s.BC)
	specPut16(b, specAtIY, s.IY)
	specPut16(b, specAtIX, s.IX)
	if s.IFF2 {
		b[specAtIFF2] = specIFF2Bit
	}
	b[specAtR] = s.R
	specPut16(b, specAtAF, s.AF)
	specPut16(b, specAtSP, s.SP)
	b[specAtIM] = s.IM
	b[specAtBord] = s.Border
	copy(b[spectrum48Header:], s.RAM[:])
	return b
}

func specLE16(b []byte, at int) uint16 { return binary.LittleEndian.Uint16(b[at:]) }

func specPut16(b []byte, at int, v uint16) { binary.LittleEndian.PutUint16(b[at:], v) }
