package ppi

import (
	"fmt"
	"testing"
)

// TestReset holds RESET to the datasheet: "clears the control register and
// all ports (A, B, C) are set to the input mode" (8255A, RESET), with the
// output latches clear.
func TestReset(t *testing.T) {
	var p PPI
	p.Output = [3]byte{0x12, 0x34, 0x56}
	p.Control = 0x80
	p.Input = [3]byte{0xAA, 0xBB, 0xCC}
	p.Reset()
	if p.Control != 0x9B {
		t.Errorf("Control after reset = &%02X, want &9B (mode 0, every port an input)", p.Control)
	}
	if p.Output != [3]byte{} {
		t.Errorf("Output after reset = % X, want all zero", p.Output)
	}
	if p.Input != [3]byte{0xAA, 0xBB, 0xCC} {
		t.Errorf("reset changed the board's input levels: % X", p.Input)
	}
	for port := PortA; port <= PortC; port++ {
		if m := p.InputMask(port); m != 0xFF {
			t.Errorf("port %d input mask after reset = &%02X, want &FF", port, m)
		}
		if levels, driven := p.Pins(port); levels != 0 || driven != 0 {
			t.Errorf("port %d pins after reset = (&%02X, &%02X), want nothing driven", port, levels, driven)
		}
	}
}

// TestModeZeroPortDefinitions holds every mode 0 control word to the
// datasheet's "Mode 0 Port Definition" table: the sixteen words &80 to &9B
// and which of port A, port C upper, port B and port C lower each makes an
// input.
func TestModeZeroPortDefinitions(t *testing.T) {
	const in, out = true, false
	tests := []struct {
		word                 byte
		a, cUpper, b, cLower bool
	}{
		{0x80, out, out, out, out},
		{0x81, out, out, out, in},
		{0x82, out, out, in, out},
		{0x83, out, out, in, in},
		{0x88, out, in, out, out},
		{0x89, out, in, out, in},
		{0x8A, out, in, in, out},
		{0x8B, out, in, in, in},
		{0x90, in, out, out, out},
		{0x91, in, out, out, in},
		{0x92, in, out, in, out},
		{0x93, in, out, in, in},
		{0x98, in, in, out, out},
		{0x99, in, in, out, in},
		{0x9A, in, in, in, out},
		{0x9B, in, in, in, in},
	}
	mask := func(b bool, m byte) byte {
		if b {
			return m
		}
		return 0
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("&%02X", tt.word), func(t *testing.T) {
			var p PPI
			p.Reset()
			p.Write(Control, tt.word)
			if p.Control != tt.word {
				t.Errorf("Control = &%02X, want &%02X", p.Control, tt.word)
			}
			want := [3]byte{
				PortA: mask(tt.a, 0xFF),
				PortB: mask(tt.b, 0xFF),
				PortC: mask(tt.cUpper, 0xF0) | mask(tt.cLower, 0x0F),
			}
			for port := PortA; port <= PortC; port++ {
				if got := p.InputMask(port); got != want[port] {
					t.Errorf("port %d input mask = &%02X, want &%02X", port, got, want[port])
				}
			}
		})
	}
}

// TestModeSetClearsOutputs: "When the mode is changed, all output
// registers ... will be reset" (8255A, "Mode Selection").
func TestModeSetClearsOutputs(t *testing.T) {
	var p PPI
	p.Reset()
	p.Write(Control, 0x80)
	p.Write(PortA, 0x11)
	p.Write(PortB, 0x22)
	p.Write(PortC, 0x33)
	p.Write(Control, 0x80)
	if p.Output != [3]byte{} {
		t.Errorf("Output after a mode word = % X, want all zero", p.Output)
	}
}

// TestBitSetReset holds every bit set/reset word to the datasheet's
// "Single Bit Set/Reset Feature": D7 0, D3-D1 the bit of port C, D0 set
// (1) or reset (0), D6-D4 don't care; the control word itself stays.
func TestBitSetReset(t *testing.T) {
	for word := 0; word < 0x80; word++ {
		bit := byte(1) << (word >> 1 & 7)
		set := word&1 == 1
		t.Run(fmt.Sprintf("&%02X", word), func(t *testing.T) {
			var p PPI
			p.Reset()
			p.Write(Control, 0x80) // every port an output
			start := byte(0x5A)
			if set {
				start &^= bit
			} else {
				start |= bit
			}
			p.Write(PortC, start)
			p.Write(Control, byte(word))
			want := start | bit
			if !set {
				want = start &^ bit
			}
			if p.Output[PortC] != want {
				t.Errorf("port C = &%02X, want &%02X", p.Output[PortC], want)
			}
			if p.Control != 0x80 {
				t.Errorf("Control = &%02X: a bit set/reset must not change the mode word", p.Control)
			}
			if p.Output[PortA] != 0 || p.Output[PortB] != 0 {
				t.Errorf("a bit set/reset touched ports A or B: % X", p.Output)
			}
		})
	}
}

// TestReadsAndPins covers what the processor reads and what the pins carry
// for each direction: an input bit reads the level presented, an output
// bit its own latch and drives it; port C answers nibble by nibble; the
// control register is never driven (8255A, "Basic Operation": A1 A0 = 11
// with /RD low is illegal).
func TestReadsAndPins(t *testing.T) {
	tests := []struct {
		name       string
		control    byte
		port       int
		latch      byte
		input      byte
		read       byte
		pins, mask byte
	}{
		{"A output", 0x82, PortA, 0x3C, 0xF0, 0x3C, 0x3C, 0xFF},
		{"A input", 0x92, PortA, 0x3C, 0xF0, 0xF0, 0x00, 0x00},
		{"B input", 0x82, PortB, 0x3C, 0x5E, 0x5E, 0x00, 0x00},
		{"B output", 0x80, PortB, 0x3C, 0x5E, 0x3C, 0x3C, 0xFF},
		{"C output", 0x80, PortC, 0xC4, 0x21, 0xC4, 0xC4, 0xFF},
		{"C input", 0x89, PortC, 0xC4, 0x21, 0x21, 0x00, 0x00},
		{"C upper input", 0x88, PortC, 0xC4, 0x21, 0x24, 0x04, 0x0F},
		{"C lower input", 0x81, PortC, 0xC4, 0x21, 0xC1, 0xC0, 0xF0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var p PPI
			p.Reset()
			p.Write(Control, tt.control)
			p.Write(tt.port, tt.latch)
			p.SetInput(tt.port, tt.input)
			if v, driven := p.Read(tt.port); v != tt.read || !driven {
				t.Errorf("Read = (&%02X, %v), want (&%02X, true)", v, driven, tt.read)
			}
			if levels, mask := p.Pins(tt.port); levels != tt.pins || mask != tt.mask {
				t.Errorf("Pins = (&%02X, &%02X), want (&%02X, &%02X)", levels, mask, tt.pins, tt.mask)
			}
		})
	}
	var p PPI
	p.Reset()
	p.Write(Control, 0x82)
	if _, driven := p.Read(Control); driven {
		t.Error("reading the control register drove the data bus")
	}
}

// TestPortNumbersWrap: A1 A0 are two pins, so a board that hands over more
// bits of the address reaches the same four registers.
func TestPortNumbersWrap(t *testing.T) {
	var p PPI
	p.Reset()
	p.Write(4+Control, 0x80)
	p.Write(4+PortB, 0x77)
	if p.Control != 0x80 || p.Output[PortB] != 0x77 {
		t.Errorf("Control &%02X, port B &%02X after writes through ports 7 and 5", p.Control, p.Output[PortB])
	}
	if v, _ := p.Read(8 + PortB); v != 0x77 {
		t.Errorf("read through port 9 = &%02X, want port B's &77", v)
	}
}

// TestCPCSettings holds the two words a CPC's firmware uses to the ports
// cpctech's "8255 PPI" says they set: &82, port A an output to write the
// PSG, B an input, C an output; and &92, port A an input to read the PSG.
func TestCPCSettings(t *testing.T) {
	tests := []struct {
		word    byte
		a, b, c byte
	}{
		{0x82, 0x00, 0xFF, 0x00},
		{0x92, 0xFF, 0xFF, 0x00},
	}
	for _, tt := range tests {
		var p PPI
		p.Reset()
		p.Write(Control, tt.word)
		got := [3]byte{p.InputMask(PortA), p.InputMask(PortB), p.InputMask(PortC)}
		if got != [3]byte{tt.a, tt.b, tt.c} {
			t.Errorf("&%02X: input masks % X, want % X", tt.word, got, [3]byte{tt.a, tt.b, tt.c})
		}
	}
}

// TestValidate: the control register holds a mode definition word, which
// has bit 7 set (8255A, "Mode Selection"); a bit set/reset never lands
// there, so set may not leave one.
func TestValidate(t *testing.T) {
	var p PPI
	p.Reset()
	if err := p.Validate(); err != nil {
		t.Errorf("after reset: %v", err)
	}
	p.Write(Control, 0x0F) // a bit set/reset: Control keeps its mode word
	if err := p.Validate(); err != nil {
		t.Errorf("after a bit set/reset: %v", err)
	}
	p.Control = 0x12
	if err := p.Validate(); err == nil {
		t.Error("control &12 passed")
	}
}
