// Package ppi is the Intel 8255A programmable peripheral interface, in
// mode 0, basic input and output, the only mode a CPC's programs select.
//
// The chip has three eight-bit ports and a control register. Ports A and B
// take their direction whole; port C takes it a nibble at a time, and its
// bits can also be set and cleared one by one through the control register.
// The chip knows no machine: a board presents the levels on its input pins
// (Input, SetInput) and reads what it drives on its output pins (Pins).
//
// # Pins
//
//	D7-D0    data bus to the processor
//	/RD /WR  read and write strobes
//	/CS      chip select
//	A1 A0    choose port A (00), B (01), C (10) or the control register (11)
//	RESET    clears the control register and makes every port an input
//	PA7-PA0  port A
//	PB7-PB0  port B
//	PC7-PC4  port C, upper nibble (group A)
//	PC3-PC0  port C, lower nibble (group B)
//
// # How a CPC wires it
//
// This is the board's business, and is set down here only so that a reader
// of the chip knows what its ports will carry. After cpctech's "8255 PPI"
// (Kevin Thacker, https://cpctech.cpcwiki.de/docs/8255cpc.html) and its "I/O
// port allocation": /CS is A11, A1 A0 are A9 A8 (so &F4xx, &F5xx, &F6xx,
// &F7xx); port A is the PSG's data bus; port B reads, from bit 7 down, the
// cassette's read data, the printer's BUSY, the expansion port's /EXP, the
// 50/60 Hz link (1 is 50 Hz), three manufacturer links and the 6845's VSYNC;
// port C drives the PSG's BDIR (bit 7) and BC1 (bit 6), the cassette write
// data (bit 5), the cassette motor (bit 4) and the keyboard line (bits 3-0).
//
// Sources cited at the lines that depend on them:
//   - Intel, "8255A/8255A-5 Programmable Peripheral Interface" datasheet
//     (8255A): "Basic Operation" (the A1 A0 table), "Mode Selection" (the
//     mode definition format, and that changing the mode resets every
//     output register), "Single Bit Set/Reset Feature", and RESET.
//   - cpctech, "8255 PPI", above: that programs use mode 0 alone.
//
// Not modelled: modes 1 and 2, strobed and bidirectional. A control word
// that asks for them is kept in Control, and its direction bits are obeyed
// as mode 0 would obey them.
package ppi

import "fmt"

// The registers A1 and A0 choose (8255A, "Basic Operation").
const (
	PortA   = 0
	PortB   = 1
	PortC   = 2
	Control = 3
)

// Bits of a mode definition word (8255A, "Mode Selection", mode definition
// format). A direction bit set makes its port an input.
const (
	ModeSet     = 0x80 // D7: 1 defines the mode; 0 sets or resets one bit of port C
	GroupAMode  = 0x60 // D6 D5: group A's mode, 0, 1 or 2 (only 0 is modelled)
	AInput      = 0x10 // D4: port A
	CUpperInput = 0x08 // D3: port C's upper nibble
	GroupBMode  = 0x04 // D2: group B's mode, 0 or 1 (only 0 is modelled)
	BInput      = 0x02 // D1: port B
	CLowerInput = 0x01 // D0: port C's lower nibble
)

// ResetControl is the mode word the chip holds after RESET: mode 0 with
// every port an input. The datasheet says RESET "clears the control
// register" and sets every port to input (8255A, RESET), which as a mode
// word is &9B, since a cleared word would read as every port an output.
const ResetControl = ModeSet | AInput | CUpperInput | BInput | CLowerInput

// PPI is the chip's state. A board keeps one by value and calls Reset at
// power-on.
type PPI struct {
	// Output holds the output latches of ports A, B and C: what the
	// processor last wrote, which the pins show while the port (or, for
	// port C, its nibble) is an output.
	Output [3]byte `inspect:"output"`
	// Input holds the levels the board presents on each port's pins,
	// which a read returns while the port is an input.
	Input [3]byte `inspect:"input"`
	// Control is the last mode definition word. A bit set/reset does not
	// change it.
	Control byte `inspect:"control"`
}

// Reset is the RESET pin: mode 0, every port an input (8255A, RESET), and
// the output latches cleared, as any change of mode clears them (8255A,
// "Mode Selection"). The levels in Input are the board's and are left as
// they are.
func (p *PPI) Reset() {
	p.write(Control, ResetControl)
}

// inputMask gives the bits of a port that are inputs under the present
// control word.
func (p *PPI) inputMask(port int) byte {
	c := p.Control
	switch port {
	case PortA:
		if c&AInput != 0 {
			return 0xFF
		}
	case PortB:
		if c&BInput != 0 {
			return 0xFF
		}
	case PortC:
		var m byte
		if c&CUpperInput != 0 {
			m |= 0xF0
		}
		if c&CLowerInput != 0 {
			m |= 0x0F
		}
		return m
	}
	return 0
}

// InputMask reports which bits of port (PortA, PortB or PortC) are inputs.
// The control register has none.
func (p *PPI) InputMask(port int) byte {
	return p.inputMask(port & 3)
}

// Read is the processor reading the register A1 A0 choose (port is taken
// modulo 4). An input bit reads the level the board presents, an output
// bit its own latch. The control register cannot be read: the datasheet
// calls A1 A0 = 11 with /RD low an illegal condition, and the chip leaves
// the data bus floating, so driven is false and the board decides what the
// processor finds there.
func (p *PPI) Read(port int) (v byte, driven bool) {
	port &= 3
	if port == Control {
		return 0xFF, false
	}
	in := p.inputMask(port)
	return p.Input[port]&in | p.Output[port]&^in, true
}

// Write is the processor writing the register A1 A0 choose (port is taken
// modulo 4).
//
// A port's latch takes the byte whatever the port's direction; the pins
// show it only while the port is an output. A control word with bit 7 set
// defines the mode and clears every output latch (8255A, "Mode
// Selection": "all output registers ... will be reset"); with bit 7 clear
// it sets (bit 0 is 1) or resets (bit 0 is 0) the one bit of port C that
// bits 3-1 name (8255A, "Single Bit Set/Reset Feature").
func (p *PPI) Write(port int, v byte) {
	p.write(port&3, v)
}

func (p *PPI) write(port int, v byte) {
	if port != Control {
		p.Output[port] = v
		return
	}
	if v&ModeSet != 0 {
		p.Control = v
		p.Output = [3]byte{}
		return
	}
	bit := byte(1) << (v >> 1 & 7)
	if v&1 != 0 {
		p.Output[PortC] |= bit
	} else {
		p.Output[PortC] &^= bit
	}
}

// SetInput presents levels on the pins of port (PortA, PortB or PortC).
// Only the bits that are inputs are read; the rest wait there for the port
// to become one.
func (p *PPI) SetInput(port int, levels byte) {
	port &= 3
	if port != Control {
		p.Input[port] = levels
	}
}

// Pins reports what the chip drives on the pins of port (PortA, PortB or
// PortC): levels is the output latch on the bits the chip drives, and
// driven says which bits those are. Bits of an input port are high
// impedance (driven 0, levels 0), and what a device wired there sees on
// them is the board's to say, by its pull-ups or whatever else holds them.
func (p *PPI) Pins(port int) (levels, driven byte) {
	port &= 3
	if port == Control {
		return 0, 0
	}
	driven = ^p.inputMask(port)
	return p.Output[port] & driven, driven
}

// Validate refuses a control register without bit 7: it holds the last
// mode definition word, and a word without bit 7 is a bit set/reset, which
// never lands there (8255A, "Mode Selection").
func (p *PPI) Validate() error {
	if p.Control&ModeSet == 0 {
		return fmt.Errorf("control is &%02X; it holds a mode definition word, &80 to &FF", p.Control)
	}
	return nil
}
