// Package psg is the General Instrument AY-3-8912 programmable sound
// generator, as far as its register model and its one I/O port: the
// registers a program writes and reads, the address latch that chooses
// among them, and port A, which on a CPC carries the keyboard.
//
// The chip is driven through its bus control lines. BC2 is tied high
// wherever a CPC or a Spectrum fits the chip, so BDIR and BC1 choose one of
// four functions (Function). A board puts a byte on the data bus and calls
// Access with the function its lines give, or Latch, Write and Read
// directly; the chip answers a read with the byte it drives, if it drives
// one.
//
// Registers are numbered 0 to 15, as SOFT 968 numbers them; GI's data
// manual numbers the same sixteen R0 to R17 in octal.
//
// Sources cited at the lines that depend on them:
//   - General Instrument, "AY-3-8910/8912 Programmable Sound Generator Data
//     Manual" (GI): the bus control decode (BDIR, BC2, BC1), the register
//     array and the width of each register, the high address bits as a
//     chip select, the I/O port directions in R7, and /RESET.
//   - The die model of the AY-3-8910 by deathsoft and lvd (die model), as
//     the specification (spec/colophon-mcp.txt, "Stopping and watching")
//     reads it: an address byte above 15 leaves the chip unselected, and
//     so does a reset.
//   - Kevin Thacker's cpctech, "AY-3-8912 Additional information"
//     (https://cpctech.cpc-live.com/docs/psgnotes.htm) (psgnotes): the bits
//     each register keeps as read back from a CPC's chip, and the I/O port
//     registers' answers by direction; and "AY-3-8912 PSG" (docs/psg.html)
//     for the CPC's wiring, port C bit 7 to BDIR and bit 6 to BC1.
//
// Not modelled: sound. The tone, noise and envelope generators and the
// mixer's outputs are not run; their registers are kept, and read back, as
// the chip keeps them.
package psg

import "fmt"

// Function is what BDIR and BC1 ask of the chip, with BC2 high (GI, "Bus
// control decode"). Its value is BDIR<<1 | BC1, so a CPC's board reads it
// from port C as Function(c >> 6): bit 7 is BDIR and bit 6 BC1 (cpctech,
// "AY-3-8912 PSG").
type Function uint8

// The four functions (GI, "Bus control decode": BDIR BC2 BC1).
const (
	Inactive Function = 0 // 0 1 0: the data bus is left alone
	Read     Function = 1 // 0 1 1: the chip drives the selected register
	Write    Function = 2 // 1 1 0: the chip takes the bus into it
	Latch    Function = 3 // 1 1 1: the chip takes the bus as a register address
)

func (f Function) String() string {
	switch f & 3 {
	case Read:
		return "READ"
	case Write:
		return "WRITE"
	case Latch:
		return "LATCH ADDRESS"
	}
	return "INACTIVE"
}

// Registers that the register model itself depends on.
const (
	Mixer = 7  // R7, "Enable": bits 7 and 6 are the directions of ports B and A
	PortA = 14 // R16 in GI's octal: I/O port A's data
	PortB = 15 // R17 in GI's octal: I/O port B's data, which the 8912 does not bond out
)

// Bits of R7 that set the I/O ports' directions: set is an output, clear an
// input (GI, R7's I/O enable bits; psgnotes).
const (
	PortAOutput = 0x40
	PortBOutput = 0x80
)

// Masks gives the bits each register keeps. A register narrower than eight
// bits keeps the low ones and reads back zero above them (GI, register
// array: coarse tone periods are 4 bits, the noise period 5, the
// amplitudes 5 with bit 4 the envelope mode, the envelope shape 4; psgnotes
// measures the same on a CPC).
var Masks = [16]byte{
	0xFF, 0x0F, // R0 R1: channel A tone period, fine and coarse
	0xFF, 0x0F, // R2 R3: channel B
	0xFF, 0x0F, // R4 R5: channel C
	0x1F,       // R6: noise period
	0xFF,       // R7: enable (mixer and I/O directions)
	0x1F,       // R8: channel A amplitude (R10 octal)
	0x1F,       // R9: channel B amplitude (R11 octal)
	0x1F,       // R10: channel C amplitude (R12 octal)
	0xFF, 0xFF, // R11 R12: envelope period, fine and coarse (R13 R14 octal)
	0x0F, // R13: envelope shape (R15 octal)
	0xFF, // R14: I/O port A (R16 octal)
	0xFF, // R15: I/O port B (R17 octal)
}

// PSG is the chip's state. A board keeps one by value and calls Reset at
// power-on.
type PSG struct {
	// Registers holds each register as the chip keeps it, masked to its
	// width.
	Registers [16]byte `inspect:"registers"`
	// Selected is the register the address latch names: the low four bits
	// of the last address byte latched.
	Selected byte `inspect:"selected"`
	// ChipSelected says whether the last address byte's high four bits,
	// the chip select, matched the chip's own 0000 (GI: the high-order
	// address bits are compared with an address mask-programmed as 0000).
	// While it is false the chip takes no write and answers no read.
	ChipSelected bool `inspect:"chip_selected"`
	// PortAInput is the level the board presents on I/O port A's pins, read
	// through R14 while port A is an input. On a CPC it is the keyboard
	// line port C selects.
	PortAInput byte `inspect:"port_a_input"`
}

// Reset is /RESET: every register cleared (GI, the /RESET pin), and the
// chip left unselected, as the die model leaves it, so that no write lands
// until an address from 0 to 15 has been latched. Port A's pins float high
// until the board presents a level on them.
func (p *PSG) Reset() {
	*p = PSG{PortAInput: 0xFF}
}

// Latch takes an address byte. Its low four bits name the register; its
// high four are a chip select that the chip matches against its
// mask-programmed 0000 (GI, on the high-order address bits), so a byte
// above 15 selects no register and leaves the chip unselected (die model).
// The latch keeps the low four bits either way, which is what a CPC
// snapshot records of an unselected chip.
func (p *PSG) Latch(addr byte) {
	p.Selected = addr & 0x0F
	p.ChipSelected = addr&0xF0 == 0
}

// Write gives the selected register a byte, of which it keeps the bits
// Masks gives it. It reports the register written, or ok false when the
// chip is unselected and takes nothing.
func (p *PSG) Write(data byte) (reg int, ok bool) {
	if !p.ChipSelected {
		return 0, false
	}
	r := p.Selected & 0x0F
	p.Registers[r] = data & Masks[r]
	return int(r), true
}

// Read answers the selected register, or ok false when the chip is
// unselected and leaves its data bus floating.
//
// The I/O port registers answer by their direction (psgnotes): an output
// port reads back its latch; an input port reads its pins, which for port A
// are PortAInput and for port B, never bonded out on the 8912, are high.
func (p *PSG) Read() (v byte, ok bool) {
	if !p.ChipSelected {
		return 0xFF, false
	}
	r := p.Selected & 0x0F
	switch {
	case r == PortA && p.Registers[Mixer]&PortAOutput == 0:
		return p.PortAInput, true
	case r == PortB && p.Registers[Mixer]&PortBOutput == 0:
		return 0xFF, true
	}
	return p.Registers[r], true
}

// Access runs one bus function with bus on the chip's data lines. For Read
// it returns the byte the chip drives and driven true, if the chip is
// selected; for every other function it drives nothing. A board that needs
// to know which register a Write reached calls Write itself.
func (p *PSG) Access(f Function, bus byte) (out byte, driven bool) {
	switch f & 3 {
	case Latch:
		p.Latch(bus)
	case Write:
		p.Write(bus)
	case Read:
		return p.Read()
	}
	return 0xFF, false
}

// Validate refuses what set may not leave in the chip: a selected register
// past 15, which the address latch's four bits cannot hold and by which the
// registers are indexed, and a register holding bits its width does not
// keep (Masks).
func (p *PSG) Validate() error {
	if p.Selected > 15 {
		return fmt.Errorf("selected is %d; the address latch holds a register 0 to 15", p.Selected)
	}
	for r, v := range p.Registers {
		if v&^Masks[r] != 0 {
			return fmt.Errorf("registers[%d] is &%02X; it keeps only the bits of &%02X", r, v, Masks[r])
		}
	}
	return nil
}
