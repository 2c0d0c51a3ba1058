// Package tape reads cassette images, TZX (and the CPC's CDT, which is
// TZX by another name) and TAP, and plays them as pulses: stretches of
// time at one level, each in the T-states of the format's 3.5 MHz clock.
// A Deck (deck.go) turns those into the ticks of a machine's clock and
// drives the machine's cassette input with them.
//
// A Tape is the image as read, checked whole when it is opened and never
// written after, so a machine, and every state kept of it, can share one.
// A Reader is where the tape has played to: a plain value, comparable with
// ==, that a state keeps by copying it and a state file can reach again by
// playing the tape from its start, pulse by pulse, until the two are equal
// (spec, "Keeping a machine"; KEEP-13).
//
// Sources, cited at the lines that depend on them:
//   - [TZX] "TZX format", revision 1.20 (Tomaz Kac, Martijn van der Heide,
//     Ramsoft; World of Spectrum, TZXformat.html): the blocks, their
//     lengths and fields, and its section 2, "Rules and definitions", for
//     the levels.
//   - [CDT] Kevin Thacker, "Tape-Image (.CDT) file format" (cpctech,
//     cdtcpc.html): what a CPC does with the Spectrum's blocks.
//   - [CSW] Ramsoft, "CSW format" v2.00: the run lengths of a CSW
//     recording.
//   - [FAQ] World of Spectrum FAQ, "Emulator file formats": the .tap.
//   - [ROM] The 48K ROM's disassembly, SA-BYTES at &04C2 and LD-BYTES at
//     &0556 (../shared/testdata/spectrum-rom): what the ROM writes.
package tape

import (
	"fmt"
)

// TicksPerMillisecond is the format's clock: every time in a TZX is in
// T-states of a 3.5 MHz Spectrum, whatever machine the tape was made for
// ([TZX] section 2; [CDT]: "All timings are in Spectrum T-States").
const TicksPerMillisecond = 3500

// MaxSize is the longest image a machine reads (spec, "The files a
// machine is built from"; FILE-7: "a disc or a tape longer than 16MB").
const MaxSize = 16 << 20

// maxCSW is the most a tape's CSW recordings may hold once their
// compression is undone, all of them together: 64MB of run lengths, hours
// of tape at any sample rate a recording uses. It is what bounds the
// memory a small Z-RLE block could otherwise ask for.
const maxCSW = 64 << 20

// Format is the kind of image.
type Format uint8

const (
	// TZX is a .tzx or a .cdt: blocks that carry their own timings.
	TZX Format = iota
	// TAP is a .tap: bare blocks of bytes at the Spectrum ROM's timings.
	TAP
)

func (f Format) String() string {
	switch f {
	case TZX:
		return "TZX"
	case TAP:
		return "TAP"
	}
	return fmt.Sprintf("Format(%d)", uint8(f))
}

// A Tape is an image as read: its blocks, checked, and the bytes it was
// read from. Nothing writes it once it is open.
type Tape struct {
	format Format
	image  []byte  // the file as read, a copy of its own
	blocks []block // the blocks, in the order the file holds them
	csw    []byte  // the CSW recordings' run lengths, uncompressed
}

// Format says what kind of image the tape was read from.
func (t *Tape) Format() Format { return t.format }

// Blocks is the number of blocks the image holds.
func (t *Tape) Blocks() int { return len(t.blocks) }

// Image is the file the tape was read from, byte for byte. It is the
// tape's own and must not be written.
func (t *Tape) Image() []byte { return t.image }

// Open reads an image of the given format. Every block is checked now, so
// that a malformed image is refused whole, with the block, where it stands
// in the file and what is wrong (spec, "Discs and tapes").
func Open(format Format, b []byte) (*Tape, error) {
	if len(b) > MaxSize {
		return nil, fmt.Errorf("the image is %d bytes; a tape is at most %d (16MB)", len(b), MaxSize)
	}
	t := &Tape{format: format, image: append([]byte(nil), b...)}
	var err error
	switch format {
	case TZX:
		err = t.readTZX()
	case TAP:
		err = t.readTAP()
	default:
		err = fmt.Errorf("no tape format %d", format)
	}
	if err != nil {
		return nil, err
	}
	return t, nil
}

// The blocks a TZX defines, by their IDs ([TZX] section 3). A .tap's
// blocks are read as standard speed data blocks.
const (
	idStandard   = 0x10
	idTurbo      = 0x11
	idTone       = 0x12
	idPulses     = 0x13
	idPureData   = 0x14
	idDirect     = 0x15
	idC64ROM     = 0x16 // deprecated in 1.20
	idC64Turbo   = 0x17 // deprecated in 1.20
	idCSW        = 0x18
	idGeneral    = 0x19
	idPause      = 0x20
	idGroupStart = 0x21
	idGroupEnd   = 0x22
	idJump       = 0x23
	idLoopStart  = 0x24
	idLoopEnd    = 0x25
	idCall       = 0x26
	idReturn     = 0x27
	idSelect     = 0x28
	idStop48     = 0x2A
	idLevel      = 0x2B
	idText       = 0x30
	idMessage    = 0x31
	idArchive    = 0x32
	idHardware   = 0x33
	idEmulation  = 0x34 // deprecated in 1.20
	idCustom     = 0x35
	idSnapshot   = 0x40 // deprecated in 1.20
	idGlue       = 0x5A
)

// block is one block of an image, as much of it as playing needs. Which
// fields mean something depends on id.
type block struct {
	id     byte
	offset int // where the block's ID stands in the file

	// The data blocks, 0x10, 0x11 and 0x14: the lengths of the pilot's
	// pulses, of the two sync pulses and of the pulses of a 0 bit and a 1
	// bit, and the pilot's pulses. A tone, 0x12, is pilotPulses pulses of
	// pilot; a direct recording, 0x15, samples of zero T-states each.
	pilot, sync1, sync2, zero, one uint32
	pilotPulses                    uint32
	// data is the block's bytes: a data block's, a direct recording's
	// samples, a pulse sequence's lengths (0x13, two bytes each), or a
	// generalized data block's data stream.
	data []byte
	// bits is how many bits of data are played: every bit of every byte
	// but the last, and of the last the used bits.
	bits uint64
	// pause is the pause after the block, and a pause block's, in ms.
	pause uint32

	// Control: a jump's target and a loop's repetitions; a call's
	// targets; every target an index into the blocks, len(blocks) being
	// the end of the tape.
	target uint32
	calls  []uint32
	// level is what a 0x2B sets.
	level bool

	// A CSW recording, 0x18: its run lengths in the tape's csw, and its
	// sample rate.
	cswFrom, cswTo uint32
	rate           uint32

	// A generalized data block, 0x19.
	gdb *general
}

// general is a generalized data block's tables ([TZX] ID 19).
type general struct {
	pilotSyms []symbol // the pilot and sync alphabet
	prle      []repeat // the pilot and sync stream: symbols and repeats
	dataSyms  []symbol // the data alphabet
	totd      uint32   // the symbols in the data stream
	nb        uint8    // the bits each data symbol takes in the stream
}

// symbol is a symbol's definition: how its first pulse stands to the level
// before it, and its pulses, up to the first of no T-states, which ends a
// shorter symbol ([TZX] ID 19, SYMDEF).
type symbol struct {
	polarity uint8
	pulses   []uint16
}

// repeat is one entry of a pilot and sync stream ([TZX] ID 19, PRLE).
type repeat struct {
	symbol uint8
	count  uint16
}
