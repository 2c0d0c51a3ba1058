package z80_test

import (
	"testing"

	"colophon/internal/chip/z80"
)

// The opcodes the ED table leaves undefined do nothing in two M1s, 8
// T-states: "any instruction not listed has no effect (same as 2 NOPs)"
// (UZD, "ED prefix"). Neither FUSE nor the SingleStepTests sample covers
// them all, so every one is run here: two fetches, R counted twice, and no
// register, flag or byte of memory changed.
func TestUndefinedED(t *testing.T) {
	defined := func(op byte) bool {
		switch {
		case op >= 0x40 && op <= 0x7f:
			return op != 0x77 && op != 0x7f // LD I,A and the rest; 77 and 7F are NOPs
		case op&0xe4 == 0xa0: // A0-A3, A8-AB, B0-B3, B8-BB
			return true
		}
		return false
	}
	n := 0
	for op := range 256 {
		if defined(byte(op)) {
			continue
		}
		n++
		c, b := newLogCPU()
		c.A, c.F, c.B, c.C, c.D, c.E, c.H, c.L = 1, 2, 3, 4, 5, 6, 7, 8
		b.load(0x1234, 0xed, byte(op))
		before := *c
		mem := b.mem
		c.Step()
		want := lines("0 fetch 1234", "4 fetch 1235")
		if got := b.log(); got != want {
			t.Errorf("ED %02X: bus\n%s\nwant\n%s", op, got, want)
		}
		after := *c
		before.PC, before.R, before.Tick, before.InstrPC = 0x1236, 0x12, 8, 0x1234
		if after != before {
			t.Errorf("ED %02X: state\n%+v\nwant\n%+v", op, after, before)
		}
		if b.mem != mem {
			t.Errorf("ED %02X changed memory", op)
		}
	}
	// 256 less the 62 defined opcodes of 40-7F and the 16 block ones.
	if n != 256-62-16 {
		t.Errorf("%d undefined ED opcodes tested, want %d", n, 256-62-16)
	}
}

// What a prefix does to the instruction after it (UZD, "DD and FD
// prefixes"): the last of a chain decides; an ED instruction ignores it;
// EX DE,HL and EXX keep HL; an instruction with (IX+d) keeps H and L for its
// register; each prefix costs an M1 of 4 T-states and counts R.
func TestPrefixSemantics(t *testing.T) {
	tests := []struct {
		name  string
		code  []byte
		ix    uint16
		ticks uint64
		r     byte // R after, from &10
		check func(c *z80.CPU) bool
	}{
		{"DD FD 21: the last prefix decides", []byte{0xdd, 0xfd, 0x21, 0x34, 0x12}, 0xffff, 18, 0x13,
			func(c *z80.CPU) bool { return c.IY == 0x1234 && c.IX == 0xffff }},
		{"FD DD 21", []byte{0xfd, 0xdd, 0x21, 0x34, 0x12}, 0xffff, 18, 0x13,
			func(c *z80.CPU) bool { return c.IX == 0x1234 && c.IY == 0 }}, // IY as it powered up
		{"DD ED 6B: LD HL,(nn) ignores the prefix", []byte{0xdd, 0xed, 0x6b, 0x00, 0x40}, 0xffff, 24, 0x13,
			func(c *z80.CPU) bool { return c.H == 0xbe && c.L == 0xef && c.IX == 0xffff }},
		{"DD EB: EX DE,HL keeps HL", []byte{0xdd, 0xeb}, 0xffff, 8, 0x12,
			func(c *z80.CPU) bool { return c.H == 0x11 && c.L == 0x22 && c.IX == 0xffff }},
		{"DD D9: EXX keeps HL", []byte{0xdd, 0xd9}, 0xffff, 8, 0x12,
			func(c *z80.CPU) bool { return c.H_ == 0x33 && c.L_ == 0x44 && c.IX == 0xffff }},
		{"DD 66: LD H,(IX+d) loads H itself", []byte{0xdd, 0x66, 0x01}, 0x3fff, 19, 0x12,
			func(c *z80.CPU) bool { return c.H == 0xef && c.IX == 0x3fff }},
		{"DD 26, DD 6C: LD IXH,n and LD IXL,IXH", []byte{0xdd, 0x26, 0x55, 0xdd, 0x6c}, 0xffff, 11 + 8, 0x14,
			func(c *z80.CPU) bool { return c.IX == 0x5555 && c.H == 0x33 }},
		{"DD 00: a prefix before NOP", []byte{0xdd, 0x00}, 0xffff, 8, 0x12,
			func(c *z80.CPU) bool { return c.IX == 0xffff }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, b := newLogCPU()
			c.H, c.L, c.D, c.E, c.IX = 0x33, 0x44, 0x11, 0x22, tc.ix
			b.mem[0x4000], b.mem[0x4001] = 0xef, 0xbe
			b.load(0x1234, tc.code...)
			for c.PC < 0x1234+uint16(len(tc.code)) {
				c.Step()
			}
			if c.Tick != tc.ticks || c.R != tc.r || c.Prefix != 0 {
				t.Errorf("Tick %d R %02x Prefix %02x; want %d %02x 00", c.Tick, c.R, c.Prefix, tc.ticks, tc.r)
			}
			if !tc.check(c) {
				t.Errorf("wrong result: %+v", *c)
			}
		})
	}
}
