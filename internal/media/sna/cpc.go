package sna

// The Amstrad CPC's SNA snapshot: a header of 256 bytes holding every
// register the format knows, then the RAM, whole, by the RAM's own
// addresses: the base 64K first, then a 6128's second 64K.
//
// Versions 1, 2 and 3 are read and version 1 is written, after "Snapshot
// file format", Kevin Thacker's cpctech
// (https://cpctech.cpcwiki.de/docs/snapshot.html) (cpctech SNA), cited
// below by its notes; the memory chunks of version 3 after the format's
// later description on CPCWiki, "Format:SNA snapshot file format" (CPCWiki
// SNA). One byte is written against the format's notes, as the
// specification asks ("Saving a machine"): at &5A, an unselected PSG is
// written as its selected register plus 16.
//
// What is read of version 2: the CPC type at &6D. The interrupt number and
// the six "multimode" bytes at &6E to &74 are CPCEMU's shortcut for an
// interrupt timing it did not emulate, which the format asks exact
// emulators to ignore, and are not read. What is read of version 3: every
// field of its header (CPCSnapshotV3), and the chunks after the memory
// named MEM0 and MEM1, which carry the base and the second 64K compressed.
// Every other chunk is passed over, as the format asks of a chunk a reader
// does not support, and named in Skipped: CPC+ (a Plus's ASIC, which no
// machine here has), the disc paths DSCA and DSCB, the ROM list and the
// debuggers' breakpoints and symbols. MEM2 to MEM8, RAM past 128K, which
// no machine here has, are refused.

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
)

// Sizes of a CPC snapshot.
const (
	CPCHeaderSize = 256
	// CPCMaxFileSize is the longest CPC snapshot read: "than 8MB for a CPC,
	// whose version 3 may carry chunks after its memory" (spec, "The files
	// a machine is built from").
	CPCMaxFileSize = 8 << 20
)

// cpcIdentifier opens every CPC snapshot (cpctech SNA, offset &00).
var cpcIdentifier = []byte("MV - SNA")

// Where each field of the header stands (cpctech SNA, version 1 and the
// additions of versions 2 and 3).
const (
	cpcAtIdentifier = 0x00 // 8 bytes
	cpcAtVersion    = 0x10
	cpcAtF          = 0x11
	cpcAtA          = 0x12
	cpcAtC          = 0x13
	cpcAtB          = 0x14
	cpcAtE          = 0x15
	cpcAtD          = 0x16
	cpcAtL          = 0x17
	cpcAtH          = 0x18
	cpcAtR          = 0x19
	cpcAtI          = 0x1A
	cpcAtIFF1       = 0x1B // the format's IFF0 (note 2)
	cpcAtIFF2       = 0x1C // the format's IFF1 (note 2)
	cpcAtIX         = 0x1D // low byte first (note 5)
	cpcAtIY         = 0x1F
	cpcAtSP         = 0x21
	cpcAtPC         = 0x23
	cpcAtIM         = 0x25
	cpcAtF_         = 0x26
	cpcAtA_         = 0x27
	cpcAtC_         = 0x28
	cpcAtB_         = 0x29
	cpcAtE_         = 0x2A
	cpcAtD_         = 0x2B
	cpcAtL_         = 0x2C
	cpcAtH_         = 0x2D
	cpcAtPen        = 0x2E
	cpcAtInks       = 0x2F // 17: pens 0 to 15, then the border (note 11)
	cpcAtMultiConf  = 0x40
	cpcAtRAMConf    = 0x41
	cpcAtCRTCSelect = 0x42
	cpcAtCRTCRegs   = 0x43 // 18
	cpcAtUpperROM   = 0x55
	cpcAtPPIA       = 0x56
	cpcAtPPIB       = 0x57
	cpcAtPPIC       = 0x58
	cpcAtPPIControl = 0x59
	cpcAtPSGSelect  = 0x5A
	cpcAtPSGRegs    = 0x5B // 16
	cpcAtDumpSize   = 0x6B // in kilobytes, low byte first
	cpcAtModel      = 0x6D // version 2 on

	// Version 3.
	cpcAtFDCMotor     = 0x9C
	cpcAtFDDTracks    = 0x9D // 4
	cpcAtPrinter      = 0xA1
	cpcAtCRTCType     = 0xA4
	cpcAtCRTCC0       = 0xA9
	cpcAtCRTCC4       = 0xAB
	cpcAtCRTCC9       = 0xAC
	cpcAtCRTCAdjust   = 0xAD
	cpcAtCRTCHSync    = 0xAE
	cpcAtCRTCVSync    = 0xAF
	cpcAtCRTCFlags    = 0xB0 // 2
	cpcAtGAVSyncDelay = 0xB2
	cpcAtGAR52        = 0xB3
	cpcAtIntRequest   = 0xB4
)

// CPCSnapshot is what a CPC snapshot holds, field by field, for a board to
// fill before Write and to take up after ReadCPC. Bytes are as the format
// stores them; the notes are cpctech SNA's.
type CPCSnapshot struct {
	// Version is the version read, 1 to 3. WriteCPC writes version 1
	// whatever it holds.
	Version byte

	CPU CPCProcessor

	GateArray CPCGateArray
	// RAMConfig is the RAM configuration, bits 5-0 (note 13).
	RAMConfig byte
	// UpperROM is the last byte written to the upper ROM select port,
	// &DFxx (note 16).
	UpperROM byte

	CRTC CPCCRTC
	PPI  CPCPPI
	PSG  CPCPSG

	// RAM is the whole RAM by its own addresses: 64K, or 128K with a
	// 6128's second 64K after the base (note 18).
	RAM []byte

	// Model is the CPC the snapshot was taken of, from version 2 on: 0
	// CPC464, 1 CPC664, 2 CPC6128, 3 unknown, and in version 3 4 6128
	// Plus, 5 464 Plus, 6 GX4000. A version 1 snapshot has none, and reads
	// as 3, unknown.
	Model byte

	// V3 holds the fields only version 3 has, or is nil.
	V3 *CPCSnapshotV3

	// Skipped names the version 3 chunks passed over, in file order.
	Skipped []string
}

// CPCProcessor is the Z80's registers, named as the z80 package names
// them. IFF1 and IFF2 are the format's IFF0 and IFF1 (note 2).
type CPCProcessor struct {
	A, F, B, C, D, E, H, L         byte
	A_, F_, B_, C_, D_, E_, H_, L_ byte
	IX, IY, SP, PC                 uint16
	I, R                           byte
	IFF1, IFF2                     bool
	IM                             byte
}

// CPCGateArray is the Gate Array as the format keeps it.
type CPCGateArray struct {
	// Pen is the last pen selection written: 0 to 15, or bit 4 set for the
	// border (note 10).
	Pen byte
	// Inks are the hardware colour codes of pens 0 to 15 and the border,
	// bits 4-0 (note 11).
	Inks [17]byte
	// MultiConfig is the last byte written to the mode and ROM enable
	// register, &80 to &9F (note 12).
	MultiConfig byte
}

// CPCCRTC is the 6845's selected register and its registers R0 to R17
// (notes 14 and 15).
type CPCCRTC struct {
	Selected  byte
	Registers [18]byte
}

// CPCPPI is the 8255 as the format keeps it: ports A and B as their inputs
// and port C as its outputs, whatever each port's direction (notes 6 to
// 8), and the mode word, whose bit 7 is set (note 9).
type CPCPPI struct {
	A, B, C byte
	Control byte
}

// CPCPSG is the AY-3-8912's address latch and registers. The format's
// byte at &5A is Selected, 0 to 15, for a chip selected, and Selected plus
// 16 for one unselected, which the format's note 17 does not allow for
// and the specification asks for.
type CPCPSG struct {
	Selected     byte
	ChipSelected bool
	Registers    [16]byte
}

// CPCSnapshotV3 is what only a version 3 header holds (cpctech SNA,
// "Changes and additions in Version 3").
type CPCSnapshotV3 struct {
	FDCMotor  byte    // &9C: the disc drives' motor, 0 off, 1 on
	FDDTracks [4]byte // &9D: each drive's current physical track
	Printer   byte    // &A1: the last byte written to the printer port
	CRTCType  byte    // &A4: 0 HD6845S/UM6845, 1 UM6845R, 2 MC6845, 3 and 4 the ASICs
	CRTCC0    byte    // &A9: horizontal character counter
	CRTCC4    byte    // &AB: character-line counter
	CRTCC9    byte    // &AC: raster-line counter
	// CRTCAdjust, CRTCHSync and CRTCVSync are the counters of the vertical
	// total adjust and of the two syncs' widths (&AD to &AF), meaningful
	// only while CRTCFlags says the chip is in them.
	CRTCAdjust byte
	CRTCHSync  byte
	CRTCVSync  byte
	// CRTCFlags: bit 0 VSYNC, bit 1 HSYNC, bit 7 vertical total adjust,
	// each active when set (&B0, two bytes).
	CRTCFlags    uint16
	GAVSyncDelay byte // &B2: HSYNCs since VSYNC began, 0 (inactive) to 2
	GAR52        byte // &B3: the Gate Array's interrupt line counter, 0 to 51
	IntRequest   byte // &B4: 1 while an interrupt is requested and not acknowledged
}

// ReadCPC reads a CPC snapshot of version 1, 2 or 3.
func ReadCPC(b []byte) (*CPCSnapshot, error) {
	if len(b) > CPCMaxFileSize {
		return nil, fmt.Errorf("CPC snapshot of %d bytes is longer than the %d bytes (8MB) read", len(b), CPCMaxFileSize)
	}
	if len(b) < CPCHeaderSize {
		return nil, fmt.Errorf("CPC snapshot of %d bytes is shorter than its %d-byte header", len(b), CPCHeaderSize)
	}
	if !bytes.Equal(b[cpcAtIdentifier:cpcAtIdentifier+8], cpcIdentifier) {
		return nil, fmt.Errorf("not a CPC snapshot: it begins %q where \"MV - SNA\" is expected", b[cpcAtIdentifier:cpcAtIdentifier+8])
	}
	s := &CPCSnapshot{Version: b[cpcAtVersion], Model: 3}
	if s.Version < 1 || s.Version > 3 {
		return nil, fmt.Errorf("CPC snapshot of version %d: versions 1, 2 and 3 are read", s.Version)
	}

	s.CPU = CPCProcessor{
		A: b[cpcAtA], F: b[cpcAtF], B: b[cpcAtB], C: b[cpcAtC], D: b[cpcAtD], E: b[cpcAtE], H: b[cpcAtH], L: b[cpcAtL],
		A_: b[cpcAtA_], F_: b[cpcAtF_], B_: b[cpcAtB_], C_: b[cpcAtC_], D_: b[cpcAtD_], E_: b[cpcAtE_], H_: b[cpcAtH_], L_: b[cpcAtL_],
		IX: cpcLE16(b, cpcAtIX), IY: cpcLE16(b, cpcAtIY), SP: cpcLE16(b, cpcAtSP), PC: cpcLE16(b, cpcAtPC),
		I: b[cpcAtI], R: b[cpcAtR],
		// Bit 0 alone is significant (note 2).
		IFF1: b[cpcAtIFF1]&1 != 0, IFF2: b[cpcAtIFF2]&1 != 0,
		IM: b[cpcAtIM],
	}
	if s.CPU.IM > 2 {
		return nil, fmt.Errorf("CPC snapshot gives interrupt mode %d at &%02X: the Z80 has modes 0, 1 and 2", s.CPU.IM, cpcAtIM)
	}
	s.GateArray.Pen = b[cpcAtPen]
	copy(s.GateArray.Inks[:], b[cpcAtInks:])
	s.GateArray.MultiConfig = b[cpcAtMultiConf]
	s.RAMConfig = b[cpcAtRAMConf]
	s.UpperROM = b[cpcAtUpperROM]
	s.CRTC.Selected = b[cpcAtCRTCSelect]
	copy(s.CRTC.Registers[:], b[cpcAtCRTCRegs:])
	s.PPI = CPCPPI{A: b[cpcAtPPIA], B: b[cpcAtPPIB], C: b[cpcAtPPIC], Control: b[cpcAtPPIControl]}
	// A byte above 15 opens as a chip unselected, with the register in
	// its low four bits (spec, "Saving a machine").
	sel := b[cpcAtPSGSelect]
	s.PSG.Selected = sel & 0x0F
	s.PSG.ChipSelected = sel <= 15
	copy(s.PSG.Registers[:], b[cpcAtPSGRegs:])

	if s.Version >= 2 {
		s.Model = b[cpcAtModel]
	}
	if s.Version >= 3 {
		s.V3 = &CPCSnapshotV3{
			FDCMotor:     b[cpcAtFDCMotor],
			Printer:      b[cpcAtPrinter],
			CRTCType:     b[cpcAtCRTCType],
			CRTCC0:       b[cpcAtCRTCC0],
			CRTCC4:       b[cpcAtCRTCC4],
			CRTCC9:       b[cpcAtCRTCC9],
			CRTCAdjust:   b[cpcAtCRTCAdjust],
			CRTCHSync:    b[cpcAtCRTCHSync],
			CRTCVSync:    b[cpcAtCRTCVSync],
			CRTCFlags:    cpcLE16(b, cpcAtCRTCFlags),
			GAVSyncDelay: b[cpcAtGAVSyncDelay],
			GAR52:        b[cpcAtGAR52],
			IntRequest:   b[cpcAtIntRequest],
		}
		copy(s.V3.FDDTracks[:], b[cpcAtFDDTracks:])
	}

	// The uncompressed dump, in kilobytes: 64 or 128 (note 18), or in
	// version 3 none, where MEM chunks carry the memory (CPCWiki SNA).
	kb := int(cpcLE16(b, cpcAtDumpSize))
	dump := kb * 1024
	switch {
	case kb == 64 || kb == 128:
	case kb == 0 && s.Version == 3:
	default:
		return nil, fmt.Errorf("CPC snapshot declares a memory dump of %dK at &%02X: 64K and 128K are read", kb, cpcAtDumpSize)
	}
	if len(b) < CPCHeaderSize+dump {
		return nil, fmt.Errorf("CPC snapshot of %d bytes is cut short: its header and %dK of memory need %d",
			len(b), kb, CPCHeaderSize+dump)
	}
	s.RAM = make([]byte, dump)
	copy(s.RAM, b[CPCHeaderSize:])

	if s.Version == 3 {
		if err := s.readChunks(b[CPCHeaderSize+dump:], CPCHeaderSize+dump); err != nil {
			return nil, err
		}
	}
	if len(s.RAM) == 0 {
		return nil, errors.New("CPC snapshot holds no memory: no dump after its header and no MEM0 chunk")
	}
	return s, nil
}

// readChunks reads version 3's chunks: a four-character name, a length of
// four bytes, low byte first, and that many bytes of data, one after
// another to the end of the file (cpctech SNA, chunks). at is where rest
// begins in the file, for errors.
func (s *CPCSnapshot) readChunks(rest []byte, at int) error {
	for len(rest) > 0 {
		if len(rest) < 8 {
			return fmt.Errorf("CPC snapshot has %d stray bytes at &%X where a chunk's 8-byte header should be", len(rest), at)
		}
		name := string(rest[:4])
		n := binary.LittleEndian.Uint32(rest[4:8])
		if uint64(n) > uint64(len(rest)-8) {
			return fmt.Errorf("CPC snapshot's chunk %q at &%X claims %d bytes, but %d follow", name, at, n, len(rest)-8)
		}
		data := rest[8 : 8+n]
		switch name {
		case "MEM0", "MEM1":
			bank := int(name[3] - '0')
			mem, err := unpackCPC(data)
			if err != nil {
				return fmt.Errorf("CPC snapshot's chunk %s at &%X: %w", name, at, err)
			}
			if need := (bank + 1) * 0x10000; len(s.RAM) < need {
				s.RAM = append(s.RAM, make([]byte, need-len(s.RAM))...)
			}
			// Compressed memory takes priority over the uncompressed
			// dump (CPCWiki SNA).
			copy(s.RAM[bank*0x10000:], mem)
		case "MEM2", "MEM3", "MEM4", "MEM5", "MEM6", "MEM7", "MEM8":
			return fmt.Errorf("CPC snapshot's chunk %s at &%X holds RAM past 128K, which no CPC here has", name, at)
		default:
			s.Skipped = append(s.Skipped, name)
		}
		rest = rest[8+n:]
		at += 8 + int(n)
	}
	return nil
}

// unpackCPC expands a MEM chunk to its 64K. The chunks are run-length
// coded with &E5 as the control byte: &E5 n b is n copies of b, and &E5 0
// is a single &E5 (CPCWiki SNA).
func unpackCPC(data []byte) ([]byte, error) {
	const size = 0x10000
	out := make([]byte, 0, size)
	for i := 0; i < len(data); {
		c := data[i]
		if c != 0xE5 {
			out = append(out, c)
			i++
		} else {
			if i+1 >= len(data) {
				return nil, fmt.Errorf("its data ends inside a run at byte %d", i)
			}
			n := int(data[i+1])
			if n == 0 {
				out = append(out, 0xE5)
				i += 2
			} else {
				if i+2 >= len(data) {
					return nil, fmt.Errorf("its data ends inside a run at byte %d", i)
				}
				for range n {
					out = append(out, data[i+2])
				}
				i += 3
			}
		}
		if len(out) > size {
			return nil, fmt.Errorf("it unpacks to more than 64K")
		}
	}
	if len(out) != size {
		return nil, fmt.Errorf("it unpacks to %d bytes, not 64K", len(out))
	}
	return out, nil
}

// WriteCPC writes a CPC snapshot of version 1: the header, then the RAM,
// 64K or 128K, whole. The bytes the format leaves unused are zero, and the
// PSG's byte at &5A is its Selected, plus 16 if the chip is unselected
// (spec, "Saving a machine").
func WriteCPC(s *CPCSnapshot) ([]byte, error) {
	if n := len(s.RAM); n != 0x10000 && n != 0x20000 {
		return nil, fmt.Errorf("CPC snapshot RAM of %d bytes: the format writes 64K or 128K", n)
	}
	if s.PSG.Selected > 15 {
		return nil, fmt.Errorf("CPC snapshot PSG register %d: the PSG has registers 0 to 15", s.PSG.Selected)
	}
	if s.CPU.IM > 2 {
		return nil, fmt.Errorf("CPC snapshot interrupt mode %d: the Z80 has modes 0, 1 and 2", s.CPU.IM)
	}
	b := make([]byte, CPCHeaderSize+len(s.RAM))
	copy(b[cpcAtIdentifier:], cpcIdentifier)
	b[cpcAtVersion] = 1

	c := &s.CPU
	b[cpcAtA], b[cpcAtF], b[cpcAtB], b[cpcAtC], b[cpcAtD], b[cpcAtE], b[cpcAtH], b[cpcAtL] = c.A, c.F, c.B, c.C, c.D, c.E, c.H, c.L
	b[cpcAtA_], b[cpcAtF_], b[cpcAtB_], b[cpcAtC_], b[cpcAtD_], b[cpcAtE_], b[cpcAtH_], b[cpcAtL_] = c.A_, c.F_, c.B_, c.C_, c.D_, c.E_, c.H_, c.L_
	cpcPut16(b, cpcAtIX, c.IX)
	cpcPut16(b, cpcAtIY, c.IY)
	cpcPut16(b, cpcAtSP, c.SP)
	cpcPut16(b, cpcAtPC, c.PC)
	b[cpcAtI], b[cpcAtR] = c.I, c.R
	// 1 for a flip-flop set and 0 for one clear (note 2).
	b[cpcAtIFF1], b[cpcAtIFF2] = cpcBit(c.IFF1), cpcBit(c.IFF2)
	b[cpcAtIM] = c.IM

	b[cpcAtPen] = s.GateArray.Pen
	copy(b[cpcAtInks:], s.GateArray.Inks[:])
	b[cpcAtMultiConf] = s.GateArray.MultiConfig
	b[cpcAtRAMConf] = s.RAMConfig
	b[cpcAtUpperROM] = s.UpperROM
	b[cpcAtCRTCSelect] = s.CRTC.Selected
	copy(b[cpcAtCRTCRegs:], s.CRTC.Registers[:])
	b[cpcAtPPIA], b[cpcAtPPIB], b[cpcAtPPIC], b[cpcAtPPIControl] = s.PPI.A, s.PPI.B, s.PPI.C, s.PPI.Control
	b[cpcAtPSGSelect] = s.PSG.Selected
	if !s.PSG.ChipSelected {
		b[cpcAtPSGSelect] += 16
	}
	copy(b[cpcAtPSGRegs:], s.PSG.Registers[:])
	cpcPut16(b, cpcAtDumpSize, uint16(len(s.RAM)/1024))
	copy(b[CPCHeaderSize:], s.RAM)
	return b, nil
}

func cpcLE16(b []byte, at int) uint16 { return binary.LittleEndian.Uint16(b[at:]) }

func cpcPut16(b []byte, at int, v uint16) { binary.LittleEndian.PutUint16(b[at:], v) }

func cpcBit(v bool) byte {
	if v {
		return 1
	}
	return 0
}
