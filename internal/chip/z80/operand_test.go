package z80_test

import (
	"fmt"
	"testing"

	"colophon/internal/chip/z80"
	"colophon/internal/disasm"
)

// operandBus is a flat 64K that records which addresses an instruction
// fetched by M1 and read as its own operands.
type operandBus struct {
	cpu  *z80.CPU
	mem  [0x10000]byte
	m1   []uint16
	own  []uint16 // reads with Operand set
	data []uint16 // reads without
}

func (b *operandBus) Fetch(a uint16) byte {
	b.m1 = append(b.m1, a)
	return b.mem[a]
}

func (b *operandBus) Read(a uint16) byte {
	if b.cpu.Operand {
		b.own = append(b.own, a)
	} else {
		b.data = append(b.data, a)
	}
	return b.mem[a]
}

func (b *operandBus) Write(a uint16, v byte) {
	if b.cpu.Operand {
		panic("Operand set during a write")
	}
	b.mem[a] = v
}

func (b *operandBus) In(uint16) byte {
	if b.cpu.Operand {
		panic("Operand set during an IN")
	}
	return 0xff
}

func (b *operandBus) Out(uint16, byte) {
	if b.cpu.Operand {
		panic("Operand set during an OUT")
	}
}

func (b *operandBus) Internal(uint16, int) {}
func (b *operandBus) Acknowledge() byte    { return 0xff }

// TestOperandReads holds CPU.Operand to the instruction set (spec,
// "Stopping and watching": "The bytes of an instruction are never" a read;
// RD-1): for every instruction, unprefixed and after CB, ED, DD, FD, DD CB
// and FD CB, the M1 fetches and the reads made with Operand set are
// exactly the bytes the disassembler, held to the ROM listings, gives the
// instruction, in order, each once; and no read of data is made with it.
// Data the instruction reads is put well away from its bytes, so that a
// data read at one of them would show.
func TestOperandReads(t *testing.T) {
	var d disasm.Disassembler
	const at = 0x8000
	check := func(code []byte) {
		t.Helper()
		c := &z80.CPU{}
		b := &operandBus{cpu: c}
		c.Reset()
		c.Bus = b
		// Registers point at &4000-&40FF, and the stack at &2000, so that
		// any data read or written lies far from the code at &8000.
		c.PC, c.SP = at, 0x2000
		c.B, c.C, c.D, c.E, c.H, c.L = 0x40, 0x10, 0x40, 0x20, 0x40, 0x30
		c.IX, c.IY = 0x4040, 0x4050
		copy(b.mem[at:], code)
		// Operands of &00 keep every absolute address and jump near the
		// registers' &40xx, or at &0000: neither touches the code.
		c.Exec()
		for c.Prefix != 0 {
			c.Exec()
		}
		in := d.Decode(func(a uint16) byte { return b.mem[a] }, at)
		var got []uint16
		m1, own := b.m1, b.own
		// The bytes in fetch order: the M1s and the operand reads are
		// interleaved only in DD CB d op, whose op is read after d.
		for len(m1) > 0 || len(own) > 0 {
			switch {
			case len(own) == 0 || len(m1) > 0 && m1[0] < own[0]:
				got, m1 = append(got, m1[0]), m1[1:]
			default:
				got, own = append(got, own[0]), own[1:]
			}
		}
		want := make([]uint16, in.Len())
		for i := range want {
			want[i] = at + uint16(i)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("% X (%s): instruction bytes fetched at %04X, want %04X", code, in.Text, got, want)
		}
		for _, a := range b.data {
			if a >= at && a < at+uint16(in.Len()) {
				t.Errorf("% X (%s): a read of data at its own byte %04X", code, in.Text, a)
			}
		}
	}
	for op := range 256 {
		check([]byte{byte(op), 0, 0, 0})
		check([]byte{0xcb, byte(op), 0, 0})
		check([]byte{0xed, byte(op), 0, 0})
		for _, p := range []byte{0xdd, 0xfd} {
			if op != 0xdd && op != 0xfd && op != 0xed {
				check([]byte{p, byte(op), 0, 0})
			}
			check([]byte{p, 0xcb, 0x05, byte(op)})
		}
	}
}
