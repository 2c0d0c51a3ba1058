package psg

import (
	"fmt"
	"testing"
)

// TestPSG4ResetUnselected: the chip is reset, and so unselected, at
// power-on, and takes no write until an address from 0 to 15 is latched
// (spec "Stopping and watching"; GI /RESET clears every register).
func TestPSG4ResetUnselected(t *testing.T) {
	var p PSG
	p.Registers[3] = 0x0A
	p.Selected = 9
	p.ChipSelected = true
	p.PortAInput = 0x12
	p.Reset()
	if p.Registers != [16]byte{} {
		t.Errorf("registers after reset = % X, want all zero", p.Registers)
	}
	if p.ChipSelected || p.Selected != 0 {
		t.Errorf("after reset: selected %d, chip selected %v; want 0, false", p.Selected, p.ChipSelected)
	}
	if p.PortAInput != 0xFF {
		t.Errorf("port A pins after reset = &%02X, want &FF (floating high)", p.PortAInput)
	}
	if reg, ok := p.Write(0x55); ok {
		t.Errorf("a write before any address was latched reached register %d", reg)
	}
	if v, ok := p.Read(); ok {
		t.Errorf("an unselected chip drove &%02X on a read", v)
	}
	if p.Registers != [16]byte{} {
		t.Errorf("registers changed by a write to an unselected chip: % X", p.Registers)
	}
	p.Latch(0)
	if reg, ok := p.Write(0x55); !ok || reg != 0 || p.Registers[0] != 0x55 {
		t.Errorf("after latching 0: Write = (%d, %v), R0 = &%02X; want (0, true), &55", reg, ok, p.Registers[0])
	}
}

// TestPSG2AddressLatch holds every address byte to GI's chip select: the
// low four bits name the register and the high four must be 0000, so a
// byte above 15 selects no register and leaves the chip unselected
// (PSG-2, PSG-3).
func TestPSG2AddressLatch(t *testing.T) {
	for addr := 0; addr < 256; addr++ {
		var p PSG
		p.Reset()
		p.Latch(0x07) // a selected chip first, so that a bad byte is seen to unselect it
		p.Latch(byte(addr))
		wantSelected := addr < 16
		if p.ChipSelected != wantSelected || p.Selected != byte(addr&15) {
			t.Errorf("Latch(&%02X): chip selected %v, register %d; want %v, %d",
				addr, p.ChipSelected, p.Selected, wantSelected, addr&15)
		}
		_, wrote := p.Write(0x01)
		if wrote != wantSelected {
			t.Errorf("Latch(&%02X) then Write: wrote %v, want %v", addr, wrote, wantSelected)
		}
	}
}

// TestPSG7RegisterWidths holds each register's read-back to the width GI's
// register array gives it, which psgnotes measured on a CPC: registers 1,
// 3, 5 and 13 keep four bits, 6, 8, 9 and 10 five, the rest eight.
func TestPSG7RegisterWidths(t *testing.T) {
	tests := []struct {
		reg  int
		name string // GI's name, with its octal number
		bits int
	}{
		{0, "R0 channel A tone period, fine", 8},
		{1, "R1 channel A tone period, coarse", 4},
		{2, "R2 channel B tone period, fine", 8},
		{3, "R3 channel B tone period, coarse", 4},
		{4, "R4 channel C tone period, fine", 8},
		{5, "R5 channel C tone period, coarse", 4},
		{6, "R6 noise period", 5},
		{7, "R7 enable", 8},
		{8, "R10 channel A amplitude", 5},
		{9, "R11 channel B amplitude", 5},
		{10, "R12 channel C amplitude", 5},
		{11, "R13 envelope period, fine", 8},
		{12, "R14 envelope period, coarse", 8},
		{13, "R15 envelope shape", 4},
		{14, "R16 I/O port A", 8},
		{15, "R17 I/O port B", 8},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%d %s", tt.reg, tt.name), func(t *testing.T) {
			mask := byte(1<<tt.bits - 1)
			if Masks[tt.reg] != mask {
				t.Errorf("Masks[%d] = &%02X, want &%02X", tt.reg, Masks[tt.reg], mask)
			}
			for _, v := range []byte{0xFF, 0xA5, 0x5A, 0x00} {
				var p PSG
				p.Reset()
				p.Latch(Mixer)
				p.Write(PortAOutput | PortBOutput) // both ports outputs, so 14 and 15 read their latches
				p.Latch(byte(tt.reg))
				reg, ok := p.Write(v)
				if !ok || reg != tt.reg {
					t.Fatalf("Write(&%02X) = (%d, %v), want (%d, true)", v, reg, ok, tt.reg)
				}
				got, driven := p.Read()
				if !driven || got != v&mask {
					t.Errorf("wrote &%02X, read back (&%02X, %v), want (&%02X, true)", v, got, driven, v&mask)
				}
			}
		})
	}
}

// TestIOPorts holds R14 and R15 to their direction, set in R7 (bit 6 port
// A, bit 7 port B; set is an output): an output port reads back its
// latch, an input port its pins, port A's being what the board presents
// and port B's, not bonded out on the 8912, high (psgnotes).
func TestIOPorts(t *testing.T) {
	tests := []struct {
		name  string
		r7    byte
		reg   byte
		latch byte
		pins  byte
		want  byte
	}{
		{"A input", 0x3F, PortA, 0x12, 0xDF, 0xDF},
		{"A output", 0x7F, PortA, 0x12, 0xDF, 0x12},
		{"B input", 0x3F, PortB, 0x34, 0xDF, 0xFF},
		{"B output", 0xBF, PortB, 0x34, 0xDF, 0x34},
		{"A input, B output", 0x80, PortA, 0x56, 0x7E, 0x7E},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var p PSG
			p.Reset()
			p.Latch(Mixer)
			p.Write(tt.r7)
			p.Latch(tt.reg)
			p.Write(tt.latch)
			p.PortAInput = tt.pins
			if p.Registers[tt.reg] != tt.latch {
				t.Errorf("the port's latch = &%02X, want &%02X whatever the direction", p.Registers[tt.reg], tt.latch)
			}
			if v, ok := p.Read(); !ok || v != tt.want {
				t.Errorf("Read = (&%02X, %v), want (&%02X, true)", v, ok, tt.want)
			}
		})
	}
}

// TestFunctionFromPortC holds the decode of a CPC's port C top bits to the
// four functions, bit 7 BDIR and bit 6 BC1 (GI bus control decode; cpctech
// "AY-3-8912 PSG": &F600 inactive, &F640 read, &F680 write, &F6C0 select).
func TestFunctionFromPortC(t *testing.T) {
	tests := []struct {
		portC byte
		want  Function
		name  string
	}{
		{0x00, Inactive, "INACTIVE"},
		{0x40, Read, "READ"},
		{0x80, Write, "WRITE"},
		{0xC0, Latch, "LATCH ADDRESS"},
		{0x9F, Write, "WRITE"},
		{0x35, Inactive, "INACTIVE"},
	}
	for _, tt := range tests {
		f := Function(tt.portC >> 6)
		if f != tt.want || f.String() != tt.name {
			t.Errorf("port C &%02X: %v (%d), want %v (%d)", tt.portC, f, f, tt.name, tt.want)
		}
	}
}

// TestAccess runs each function through Access: latch, write and read
// reach the chip, and only a read of a selected chip drives the bus.
func TestAccess(t *testing.T) {
	var p PSG
	p.Reset()
	if _, driven := p.Access(Read, 0); driven {
		t.Error("an unselected chip drove a read")
	}
	p.Access(Latch, 8)
	p.Access(Write, 0xFF)
	if p.Registers[8] != 0x1F {
		t.Errorf("R8 = &%02X, want &1F", p.Registers[8])
	}
	if v, driven := p.Access(Read, 0); !driven || v != 0x1F {
		t.Errorf("read R8 = (&%02X, %v), want (&1F, true)", v, driven)
	}
	if _, driven := p.Access(Inactive, 0x42); driven || p.Registers[8] != 0x1F || p.Selected != 8 {
		t.Error("INACTIVE changed the chip or drove the bus")
	}
	if _, driven := p.Access(Write, 0x03); driven || p.Registers[8] != 0x03 {
		t.Errorf("WRITE: R8 = &%02X, driven %v; want &03, false", p.Registers[8], driven)
	}
}

// TestValidate holds the range checks set and a state file meet (spec,
// "What a machine holds"): the selected register is 0 to 15, as the
// address latch's four bits give it, and a register holds only the bits
// its width keeps (GI, register array).
func TestValidate(t *testing.T) {
	for _, c := range []struct {
		name string
		set  func(p *PSG)
		ok   bool
	}{
		{"reset", func(p *PSG) {}, true},
		{"selected 15", func(p *PSG) { p.Selected = 15 }, true},
		{"selected 16", func(p *PSG) { p.Selected = 16 }, false},
		{"R1 &0F", func(p *PSG) { p.Registers[1] = 0x0F }, true},
		{"R1 &10", func(p *PSG) { p.Registers[1] = 0x10 }, false},
		{"R13 &1F", func(p *PSG) { p.Registers[13] = 0x1F }, false},
		{"R14 &FF", func(p *PSG) { p.Registers[PortA] = 0xFF }, true},
	} {
		var p PSG
		p.Reset()
		c.set(&p)
		if err := p.Validate(); (err == nil) != c.ok {
			t.Errorf("%s: Validate() = %v, want ok %v", c.name, err, c.ok)
		}
	}
}
