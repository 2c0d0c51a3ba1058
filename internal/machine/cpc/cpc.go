// Package cpc is the Amstrad CPC 464, 664 and 6128 board: the one place
// that knows which chips are soldered together, how the memory is mapped,
// how the I/O ports are decoded, and how the clock is shared between the
// processor and the video.
//
// The processor runs machine cycle by machine cycle (internal/chip/z80); the
// video chips, which run on the microsecond, are caught up lazily to the
// tick of each access that can see or change them, and to the end of each
// instruction, where the processor samples its interrupt line. What the
// machine does is therefore what a board stepped a tick at a time would do;
// it is only done later.
//
// Sources cited at the lines that depend on them:
//   - Kevin Thacker's cpctech (https://cpctech.cpcwiki.de/docs/): "I/O port
//     allocation" (iopord.html) for the decode by single address bits;
//     "Amstrad CPC Ram Paging" (rampage.html) for the 6128's eight RAM
//     configurations; "Expansion ROM Selection" (exprom.html) for the upper
//     ROM number at &DFxx and an unfitted number answered by ROM 0; "8255
//     PPI" (8255cpc.html) for what the PPI's ports carry; "Screen memory
//     addresses" (scraddr.html) for how the 6845's MA and RA reach the RAM;
//     "Floppy disc controller and Floppy disc drives" (fdc.html) for the disc
//     interface's decode.
//   - Grim, "The Gate Array": the MMR table and that an enabled ROM answers
//     reads while writes land in the RAM beneath.
//   - Longshot, "The Amstrad CPC CRTC Compendium" v1.11 (Compendium), ch.
//     4.4.4: the Gate Array "continually generate[s] 3 Tw followed by a 'no
//     Tw' cycle", which rounds every machine cycle to the microsecond; an
//     OUT (C),r reaches the 6845 on its 3rd µs behind a Gate Array and on its
//     4th on the ASICs (types 3 and 4), and an OUTI on its 5th on every type;
//     ch. 27.7.1 for where the acknowledge is heard.
//   - Zilog, "Z80 CPU User Manual" UM0080: the T-state at which each kind of
//     machine cycle samples WAIT, and /IORQ falling in T2 of an I/O cycle.
package cpc

import (
	"fmt"

	"colophon/internal/chip/crtc"
	"colophon/internal/chip/gatearray"
	"colophon/internal/chip/monitor"
	"colophon/internal/chip/ppi"
	"colophon/internal/chip/psg"
	"colophon/internal/chip/upd765"
	"colophon/internal/chip/z80"
	"colophon/internal/cpckeys"
	"colophon/internal/machine"
	"colophon/internal/media/tape"
)

// Model is which of the three machines a board is.
type Model uint8

const (
	CPC464 Model = iota
	CPC664
	CPC6128
)

func (m Model) String() string {
	switch m {
	case CPC464:
		return "cpc464"
	case CPC664:
		return "cpc664"
	case CPC6128:
		return "cpc6128"
	}
	return "unknown"
}

// ModelNamed returns the model the command line names name.
func ModelNamed(name string) (Model, bool) {
	for _, m := range []Model{CPC464, CPC664, CPC6128} {
		if m.String() == name {
			return m, true
		}
	}
	return 0, false
}

// TicksPerFrame is a standard frame: 312 lines of 64 µs at 4 ticks each,
// as the command line counts its frames (spec, "Time").
const TicksPerFrame = 312 * 64 * 4

// ROMSize is the size of one ROM, and of one block of RAM.
const ROMSize = 0x4000

// AMSDOSSlot is the upper ROM number the disc interface's ROM answers
// (spec, "Stopping and watching": "ROM 7, where AMSDOS answers").
const AMSDOSSlot = 7

// Amstrad is the manufacturer's number on the links PPI port B reads
// (cpctech, "8255 PPI": bits 3-1, 7 for Amstrad).
const Amstrad = 7

// Config says how to build a machine.
type Config struct {
	Model Model
	// CRTC is the 6845's type, 0 to 4 as the Compendium numbers them.
	CRTC crtc.Type
	// Firmware is the model's 32K image: the operating system, which is the
	// lower ROM, followed by BASIC, which is upper ROM 0.
	Firmware []byte
	// AMSDOS is the disc interface's ROM, fitted as upper ROM 7 on the 664
	// and 6128. The 464 has no disc interface and takes none.
	AMSDOS []byte
	// SixtyHz wires the refresh link for 60 Hz; the default is 50 Hz.
	SixtyHz bool
}

// RAMSize reports a model's RAM: 64K on the 464 and 664, 128K on the 6128.
func (m Model) RAMSize() int {
	if m == CPC6128 {
		return 0x20000
	}
	return 0x10000
}

// DiscInterface reports whether the model has the disc interface built in.
func (m Model) DiscInterface() bool { return m != CPC464 }

// Source names the memory that answers an address.
type Source struct {
	ROM   bool   // a ROM answers; else the RAM
	Lower bool   // the lower ROM (with ROM)
	Num   byte   // the upper ROM's number (with ROM and not Lower)
	RAM   uint32 // the RAM's own address (without ROM): &00000-&1FFFF
}

func (s Source) String() string {
	switch {
	case s.ROM && s.Lower:
		return "lower ROM"
	case s.ROM:
		return fmt.Sprintf("upper ROM %d", s.Num)
	}
	return fmt.Sprintf("RAM &%05X", s.RAM)
}

// page is one 16K quarter of the processor's address space as the banking
// leaves it.
type page struct {
	read  *[ROMSize]byte // what a read finds: the RAM block, or a ROM over it
	write *[ROMSize]byte // where a write lands: always the RAM block
	rom   bool           // read is a ROM
	lower bool           // the lower ROM
	num   byte           // the upper ROM's number
	ram   uint32         // the RAM block's own address
}

// CPC is one machine.
type CPC struct {
	Model   Model               `inspect:"model,fixed"`
	CPU     z80.CPU             `inspect:"cpu"`
	CRTC    crtc.CRTC           `inspect:"crtc"`
	GA      gatearray.GateArray `inspect:"gate_array"`
	PPI     ppi.PPI             `inspect:"ppi"`
	PSG     psg.PSG             `inspect:"psg"`
	FDC     upd765.FDC          `inspect:"fdc"` // on the 664 and 6128's disc interface
	Monitor *monitor.Monitor    `inspect:"monitor"`

	// RAM is the RAM by its own addresses: &00000-&0FFFF, and on a 6128
	// &10000-&1FFFF for the second 64K. It is read here and written
	// through Poke and PokeRAM, which mark what they write for a host
	// keeping states (machine.Dirty).
	RAM []byte `inspect:"-"`
	// video is the base 64K, all the video reads.
	video *[0x10000]byte
	// MMR is the 6128's PAL's register; bits 2-0 choose one of the eight
	// RAM configurations (cpctech, "Amstrad CPC Ram Paging").
	MMR byte `inspect:"mmr"`
	// UpperROM is the upper ROM number last selected at &DFxx.
	UpperROM byte `inspect:"upper_rom"`
	// Keyboard is the key matrix the PSG's port A reads.
	Keyboard cpckeys.Matrix `inspect:"keyboard"`
	// FiftyHz and Manufacturer are the links PPI port B reads.
	FiftyHz      bool `inspect:"fifty_hz"`
	Manufacturer byte `inspect:"manufacturer"`
	// Motor is the disc drives' motor line (&FA7E bit 0).
	Motor bool `inspect:"motor"`
	// Tape is the cassette deck: its motor on PPI port C bit 4, its data
	// on port B bit 7.
	Tape tape.Deck `inspect:"tape"`
	// PrinterPort is the last byte written to the printer port (printer.go).
	PrinterPort byte `inspect:"printer_port"`

	lowerROM []byte
	upperROM [256][]byte
	disc     bool

	// View is how Picture cuts the monitor's picture (--full-raster,
	// --no-double).
	View monitor.View `inspect:"-"`

	// observe is told of every access while it is set (Observe).
	observe machine.Observer

	// marks are the pages of the buffers written since a host last looked
	// (dirty.go), behind a pointer, which a copy of the machine shares.
	marks *marks
	// devices are what is plugged in from outside (printer.go), shared too.
	devices *devices

	// Handlers is the account of the interrupt handlers the processor is
	// inside, kept at each acknowledge and opcode fetch (bus.go), for a
	// host's clean stop. A state and a state file keep it with the board;
	// a snapshot, which holds no such thing, starts it empty.
	Handlers machine.Handlers `inspect:"handlers"`

	// What follows is the board's machinery for running the video behind
	// the processor. None of it is state of its own: between calls it is
	// worked out again from the exported fields, as AfterSet does after a
	// set or a restore (derive), or it holds nothing from one call to the
	// next. So everything a machine needs to go on exactly from where it
	// stands is what inspect reads, the RAM and the monitor's raster.
	pages    [4]page // the memory map: MMR, the ROM enables, UpperROM
	nextChar uint64  // the tick of the next character clock
	actAt    uint64  // the tick the Gate Array's due action is done at, or never
	raisedAt uint64  // the tick its last action raised the interrupt
	// quietUntil is a tick before which the interrupt line cannot change,
	// and in a run by frames the monitor cannot retrace, for
	// endInstruction to skip the video; 0, which asks it to look, is
	// always right.
	quietUntil uint64
	// These are set and cleared within one call: inside a run by frames;
	// the monitor retraced since run last looked.
	watchFrames bool
	frameEnd    bool

	// access is what observe is told, reused; watch and control are a
	// host's (machine.Watch, machine.Control). They come last, clear of
	// the fields each instruction reads.
	access  machine.Access
	watch   *machine.Watch
	control *machine.Control
}

// never is a tick that does not come.
const never = ^uint64(0)

// New builds a machine at power-on.
func New(cfg Config) (*CPC, error) {
	if cfg.Model > CPC6128 {
		return nil, fmt.Errorf("cpc: no model %d", cfg.Model)
	}
	if int(cfg.CRTC) >= crtc.Types {
		return nil, fmt.Errorf("cpc: CRTC type %d: a 6845 is of type 0 to 4", cfg.CRTC)
	}
	if len(cfg.Firmware) != 2*ROMSize {
		return nil, fmt.Errorf("cpc: %s firmware is %d bytes, want %d (the OS then BASIC)", cfg.Model, len(cfg.Firmware), 2*ROMSize)
	}
	m := &CPC{Model: cfg.Model}
	m.RAM = make([]byte, cfg.Model.RAMSize())
	m.video = (*[0x10000]byte)(m.RAM)
	m.marks = &marks{}
	m.devices = &devices{}
	m.markRAM()
	m.lowerROM = append([]byte(nil), cfg.Firmware[:ROMSize]...)
	m.upperROM[0] = append([]byte(nil), cfg.Firmware[ROMSize:]...)
	if cfg.Model.DiscInterface() {
		if len(cfg.AMSDOS) != ROMSize {
			return nil, fmt.Errorf("cpc: %s needs the AMSDOS ROM of %d bytes, got %d", cfg.Model, ROMSize, len(cfg.AMSDOS))
		}
		m.upperROM[AMSDOSSlot] = append([]byte(nil), cfg.AMSDOS...)
		m.disc = true
	}
	m.FiftyHz = !cfg.SixtyHz
	m.Manufacturer = Amstrad
	m.Monitor = monitor.New()
	m.CRTC.Reset(cfg.CRTC)
	m.GA.Reset()
	m.PPI.Reset()
	m.PSG.Reset()
	m.Keyboard.Reset()
	m.FDC.Reset(Drives)
	m.CPU.Reset()
	m.CPU.Bus = (*bus)(m)
	m.derive()
	return m, nil
}

// derive works the board's machinery out again from what inspect reads, as
// it stands between calls, once the video has been brought up to the
// machine's tick (settle): the memory map; the next character clock, the
// first on or after the tick, the clock falling on the ticks 3, 7, 11 ...
// (firstChar); the Gate Array's due action, done a quarter into the
// character that made it due (char), so a quarter past the last clock the
// video ran; and the Gate Array's cached colours. No raise made so far can
// be the one an acknowledge still to come hears, and the interrupt line is
// looked at again at the next instruction's end. Writing cpu.tick so moves
// the video's clock with it, rather than running it to the new tick.
func (m *CPC) derive() {
	m.remap()
	t := m.CPU.Tick
	m.nextChar = t + (firstChar-t)&3
	m.actAt = never
	if m.GA.Due != gatearray.None {
		m.actAt = m.nextChar - 4 + 1
	}
	m.raisedAt = never
	m.quietUntil = 0
	m.GA.Invalidate()
}

// firstChar is the tick of the first character clock. The Gate Array
// lets the processor through on one tick in four (Compendium ch. 4.4.4),
// the tick on which the character clock also falls; counting from power-on
// at 0, those are the ticks 3, 7, 11 ...
const firstChar = 3

// Remap works the memory map out again from the PAL, the Gate Array's ROM
// enables and the upper ROM number; whatever sets those from outside (a
// snapshot, set) calls it after.
func (m *CPC) Remap() { m.remap() }

// banking gives, for each RAM configuration, the 16K block of RAM that
// answers each quarter of the address space: blocks 0-3 the base 64K,
// 4-7 the 6128's second (Grim, "The Gate Array", MMR; cpctech "Amstrad CPC
// Ram Paging").
var banking = [8][4]uint32{
	{0, 1, 2, 3}, {0, 1, 2, 7}, {4, 5, 6, 7}, {0, 3, 2, 7},
	{0, 4, 2, 3}, {0, 5, 2, 3}, {0, 6, 2, 3}, {0, 7, 2, 3},
}

func (m *CPC) remap() {
	cfg := m.MMR & 7
	if len(m.RAM) < 0x20000 {
		// A 64K machine has no PAL: its RAM is always configuration 0.
		cfg = 0
	}
	for q := range 4 {
		b := banking[cfg][q]
		blk := (*[ROMSize]byte)(m.RAM[b*ROMSize:])
		m.pages[q] = page{read: blk, write: blk, ram: b * ROMSize}
	}
	// An enabled ROM answers reads; writes still land in the RAM beneath
	// (Grim, "The Gate Array", ROM enables).
	if m.GA.LowerROM {
		m.pages[0].read, m.pages[0].rom, m.pages[0].lower = (*[ROMSize]byte)(m.lowerROM), true, true
	}
	if m.GA.UpperROM {
		n := m.UpperROM
		// A number with no ROM fitted is answered by ROM 0, BASIC
		// (cpctech, "Expansion ROM Selection").
		if m.upperROM[n] == nil {
			n = 0
		}
		m.pages[3].read, m.pages[3].rom, m.pages[3].num = (*[ROMSize]byte)(m.upperROM[n]), true, n
	}
}

// SourceOf reports which memory answers a read of addr as the banking
// stands.
func (m *CPC) SourceOf(addr uint16) Source {
	p := &m.pages[addr>>14]
	if p.rom {
		return Source{ROM: true, Lower: p.lower, Num: p.num}
	}
	return Source{RAM: p.ram + uint32(addr&0x3FFF)}
}

// Peek reads addr as the processor would, through the banking and the ROMs.
func (m *CPC) Peek(addr uint16) byte { return m.pages[addr>>14].read[addr&0x3FFF] }

// Poke writes addr as the processor would: under an enabled ROM the byte
// lands in the RAM beneath.
func (m *CPC) Poke(addr uint16, v byte) {
	p := &m.pages[addr>>14]
	p.write[addr&0x3FFF] = v
	m.marks.ram[0] |= 1 << ((p.ram + uint32(addr&0x3FFF)) / machine.PageSize)
}

// LowerROMBytes returns the lower ROM, which holds the firmware's font.
func (m *CPC) LowerROMBytes() []byte { return m.lowerROM }

// UpperROMBytes returns the upper ROM fitted as number n, or nil where none
// is.
func (m *CPC) UpperROMBytes(n byte) []byte { return m.upperROM[n] }

// UpperROMAnswering returns the upper ROM that answers number n when the Gate
// Array enables it, and the number of the ROM that does: n itself where a
// ROM is fitted there, or else 0, BASIC, as the board answers an unfitted
// number (remap). It touches nothing.
func (m *CPC) UpperROMAnswering(n byte) ([]byte, byte) {
	if m.upperROM[n] == nil {
		n = 0
	}
	return m.upperROM[n], n
}

// keyLine is what the keyboard puts on PSG port A for the line port C's
// low nibble selects.
func (m *CPC) keyLine(n byte) byte { return m.Keyboard.Line(int(n)) }
