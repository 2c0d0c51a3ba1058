package psg_test

import (
	"testing"

	"colophon/internal/chip/ppi"
	"colophon/internal/chip/psg"
	"colophon/internal/cpckeys"
)

// board is the least of a CPC that joins the PPI, the PSG and the
// keyboard, wired as cpctech's "8255 PPI" wires them: port A is the PSG's
// data bus, port C's bits 7 and 6 its BDIR and BC1 and bits 3-0 the
// keyboard line, and a pin the PPI does not drive is pulled high. It runs
// the PSG after every access to the PPI, by port C as the access leaves it,
// as the specification has the emulator do ("Stopping and watching").
type board struct {
	ppi    ppi.PPI
	psg    psg.PSG
	keys   cpckeys.Matrix
	writes []write
}

type write struct {
	reg  int
	data byte
}

func newBoard() *board {
	b := &board{}
	b.ppi.Reset()
	b.psg.Reset()
	b.keys.Reset()
	b.ppi.SetInput(ppi.PortA, 0xFF)
	b.ppi.SetInput(ppi.PortB, 0xFF)
	b.settle()
	return b
}

func (b *board) pins(port int) byte {
	levels, driven := b.ppi.Pins(port)
	return levels | ^driven
}

func (b *board) settle() {
	c := b.pins(ppi.PortC)
	b.psg.PortAInput = b.keys.Line(int(c & 0x0F))
	f := psg.Function(c >> 6)
	switch f {
	case psg.Latch:
		b.psg.Latch(b.pins(ppi.PortA))
	case psg.Write:
		data := b.pins(ppi.PortA)
		if reg, ok := b.psg.Write(data); ok {
			b.writes = append(b.writes, write{reg, data})
		}
	}
	// What is on port A's pins for the processor's next read: the PSG's
	// answer while it is asked for one, else the pull-ups.
	v, driven := byte(0xFF), false
	if f == psg.Read {
		v, driven = b.psg.Read()
	}
	if !driven {
		v = 0xFF
	}
	b.ppi.SetInput(ppi.PortA, v)
}

func (b *board) out(port uint16, v byte) {
	b.ppi.Write(int(port>>8), v)
	b.settle()
}

func (b *board) in(port uint16) byte {
	v, _ := b.ppi.Read(int(port >> 8))
	b.settle()
	return v
}

// writeRegister is cpctech's routine for writing a PSG register ("AY-3-8912
// PSG"), one OUT at a time.
func (b *board) writeRegister(reg, data byte) {
	b.out(0xF400, reg)  // LD B,&F4 : OUT (C),C
	b.out(0xF6C0, 0xC0) // LD BC,&F6C0 : OUT (C),C  select the register
	b.out(0xF600, 0x00) // LD BC,&F600 : OUT (C),C  inactive
	b.out(0xF400, data) // LD B,&F4 : OUT (C),A
	b.out(0xF680, 0x80) // LD BC,&F680 : OUT (C),C  write
	b.out(0xF600, 0x00) // LD BC,&F600 : OUT (C),C  inactive
}

// readLine is the keyboard scan cpctech's "Reading the keyboard and
// Joysticks" gives: select register 14, turn port A to an input, ask the
// PSG to read with the line on port C, and read port A.
func (b *board) readLine(line byte) byte {
	b.out(0xF40E, 0x0E) // register 14
	b.out(0xF6C0, 0xC0) // select it
	b.out(0xF600, 0x00) // inactive
	b.out(0xF792, 0x92) // port A an input
	b.out(0xF640, 0x40|line)
	v := b.in(0xF400)
	b.out(0xF782, 0x82) // port A an output again
	b.out(0xF600, 0x00)
	return v
}

// TestPSG4PowerOn: after reset the PPI's ports are inputs, so the PSG's
// lines float high, which is LATCH ADDRESS with &FF on the bus: the chip
// stays unselected, and a WRITE reaches no register until an address from
// 0 to 15 is latched (PSG-4).
func TestPSG4PowerOn(t *testing.T) {
	b := newBoard()
	if b.psg.ChipSelected {
		t.Fatalf("the PSG is selected at power-on (register %d)", b.psg.Selected)
	}
	b.out(0xF782, 0x82)
	b.out(0xF400, 0x3F)
	b.out(0xF680, 0x80) // WRITE, with no register latched since reset
	b.out(0xF600, 0x00)
	if len(b.writes) != 0 || b.psg.Registers != [16]byte{} {
		t.Errorf("an unselected PSG took writes: %v, registers % X", b.writes, b.psg.Registers)
	}
	b.writeRegister(7, 0x3F)
	if want := []write{{7, 0x3F}}; len(b.writes) != 1 || b.writes[0] != want[0] {
		t.Errorf("writes = %v, want %v", b.writes, want)
	}
}

// TestPSG1WriteRoutine writes registers through cpctech's routine and
// finds each write once, with the full byte given and the register keeping
// its width (PSG-1, PSG-7).
func TestPSG1WriteRoutine(t *testing.T) {
	b := newBoard()
	b.out(0xF782, 0x82)
	b.writeRegister(1, 0xF3)
	b.writeRegister(8, 0xFF)
	b.writeRegister(13, 0x0E)
	want := []write{{1, 0xF3}, {8, 0xFF}, {13, 0x0E}}
	if len(b.writes) != len(want) {
		t.Fatalf("writes = %v, want %v", b.writes, want)
	}
	for i := range want {
		if b.writes[i] != want[i] {
			t.Errorf("write %d = %v, want %v", i, b.writes[i], want[i])
		}
	}
	if b.psg.Registers[1] != 0x03 || b.psg.Registers[8] != 0x1F || b.psg.Registers[13] != 0x0E {
		t.Errorf("R1 &%02X R8 &%02X R13 &%02X, want &03 &1F &0E",
			b.psg.Registers[1], b.psg.Registers[8], b.psg.Registers[13])
	}
}

// TestPSG5EveryAccessWhileWrite: each access to the PPI that leaves port C
// giving WRITE to a selected chip is a write, an IN from the PPI and a bit
// set/reset among them, the same byte to the same register again (PSG-5).
func TestPSG5EveryAccessWhileWrite(t *testing.T) {
	b := newBoard()
	b.out(0xF782, 0x82)
	b.out(0xF400, 0x09)
	b.out(0xF6C0, 0xC0)
	b.out(0xF600, 0x00)
	b.out(0xF400, 0x0C)
	b.out(0xF680, 0x80) // the write
	b.in(0xF500)        // IN from port B, WRITE still given: again
	b.out(0xF709, 0x09) // bit set/reset: bit 4, the motor, on; still WRITE: again
	b.out(0xF708, 0x08) // and off again: again
	b.out(0xF600, 0x00) // INACTIVE: no more
	b.in(0xF500)
	want := []write{{9, 0x0C}, {9, 0x0C}, {9, 0x0C}, {9, 0x0C}}
	if len(b.writes) != len(want) {
		t.Fatalf("writes = %v, want %v", b.writes, want)
	}
	for i := range want {
		if b.writes[i] != want[i] {
			t.Errorf("write %d = %v, want %v", i, b.writes[i], want[i])
		}
	}
}

// TestPSG3UnselectedByAddress: an address above 15 latched through the PPI
// unselects the chip, and the writes that follow land nowhere (PSG-2,
// PSG-3).
func TestPSG3UnselectedByAddress(t *testing.T) {
	b := newBoard()
	b.out(0xF782, 0x82)
	b.writeRegister(0x1E, 0x55)
	if len(b.writes) != 0 || b.psg.ChipSelected || b.psg.Selected != 0x0E {
		t.Errorf("after address &1E: writes %v, chip selected %v, register %d; want none, false, 14",
			b.writes, b.psg.ChipSelected, b.psg.Selected)
	}
	if b.psg.Registers[14] != 0 {
		t.Errorf("R14 = &%02X, want untouched", b.psg.Registers[14])
	}
}

// TestKeyboardThroughPSG reads the matrix the way cpctech's keyboard scan
// does: each line through port A of the PSG, a held key a clear bit, and
// SHIFT beside a letter on its own line.
func TestKeyboardThroughPSG(t *testing.T) {
	b := newBoard()
	b.out(0xF782, 0x82)
	b.writeRegister(7, 0x3F) // port A an input, as the firmware keeps it
	b.keys.Press(cpckeys.Space)
	b.keys.Press(cpckeys.Shift)
	b.keys.Press(cpckeys.JoyFire2)
	for line := byte(0); line < 10; line++ {
		want := b.keys.Line(int(line))
		if got := b.readLine(line); got != want {
			t.Errorf("line %d read &%02X, want &%02X", line, got, want)
		}
	}
	if got := b.readLine(5); got != 0x7F {
		t.Errorf("line 5 with SPACE held = &%02X, want &7F", got)
	}
	if got := b.readLine(2); got != 0xDF {
		t.Errorf("line 2 with SHIFT held = &%02X, want &DF", got)
	}
	if got := b.readLine(9); got != 0xEF {
		t.Errorf("line 9 with (FIRE 2) held = &%02X, want &EF", got)
	}
	if got := b.readLine(12); got != 0xFF {
		t.Errorf("line 12, which the decoder does not have, = &%02X, want &FF", got)
	}
}
