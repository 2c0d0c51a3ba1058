package z80

import "math/bits"

// Flag tables, built once from first principles: for each possible result
// byte, the flags that depend on the byte alone.
var (
	// sz53 holds S (bit 7 of the result), Z (the result is 0) and the
	// undocumented Y and X, copies of the result's bits 5 and 3 (UZD,
	// "Flags").
	sz53 [256]byte
	// sz53p adds P/V as parity: set when the result has an even number of
	// bits set (UM0080, "Flag Register", P/V).
	sz53p [256]byte
)

func init() {
	for i := range 256 {
		v := byte(i)
		f := v & (FlagS | FlagY | FlagX)
		if v == 0 {
			f |= FlagZ
		}
		sz53[i] = f
		if bits.OnesCount8(v)%2 == 0 {
			f |= FlagPV
		}
		sz53p[i] = f
	}
}

// setF writes the flags an instruction computed, and Q with them (Rak 2018).
func (c *CPU) setF(f byte) {
	c.F = f
	c.Q = f
}

// add8 adds v and a carry in to A: ADD, ADC. H is the carry out of bit 3,
// P/V the signed overflow: both operands of one sign and the result of the
// other (UM0080, ADD A,r).
func (c *CPU) add8(v, carry byte) {
	a := c.A
	r := uint16(a) + uint16(v) + uint16(carry)
	res := byte(r)
	c.A = res
	c.setF(sz53[res] | byte(r>>8) | (a^v^res)&FlagH | ((a^v^0x80)&(a^res)&0x80)>>5)
}

// sub8 computes A-v-carry and its flags: SUB, SBC, NEG, and CP with X and Y
// fixed after. H is the borrow into bit 4, P/V the signed overflow:
// operands of different signs and a result of the subtrahend's sign.
func (c *CPU) sub8(v, carry byte) byte {
	a := c.A
	r := uint16(a) - uint16(v) - uint16(carry)
	res := byte(r)
	c.setF(sz53[res] | FlagN | byte(r>>8)&FlagC | (a^v^res)&FlagH | ((a^v)&(a^res)&0x80)>>5)
	return res
}

// cp compares v with A. X and Y come from the operand, not the result
// (UZD, "CP").
func (c *CPU) cp(v byte) {
	c.sub8(v, 0)
	c.setF(c.F&^(FlagX|FlagY) | v&(FlagX|FlagY))
}

func (c *CPU) and(v byte) {
	c.A &= v
	c.setF(sz53p[c.A] | FlagH) // AND sets H (UM0080, AND s)
}

func (c *CPU) xor(v byte) {
	c.A ^= v
	c.setF(sz53p[c.A])
}

func (c *CPU) or(v byte) {
	c.A |= v
	c.setF(sz53p[c.A])
}

// inc8 is INC on a byte: C is kept, P/V is set on overflow to &80.
func (c *CPU) inc8(v byte) byte {
	r := v + 1
	f := c.F&FlagC | sz53[r]
	if r&0x0f == 0 {
		f |= FlagH
	}
	if r == 0x80 {
		f |= FlagPV
	}
	c.setF(f)
	return r
}

// dec8 is DEC on a byte: C is kept, P/V is set on overflow to &7F.
func (c *CPU) dec8(v byte) byte {
	r := v - 1
	f := c.F&FlagC | FlagN | sz53[r]
	if v&0x0f == 0 {
		f |= FlagH
	}
	if r == 0x7f {
		f |= FlagPV
	}
	c.setF(f)
	return r
}

// The rotates of A alone keep S, Z and P/V, clear H and N, and copy X and Y
// from the new A (UM0080, RLCA; UZD).

func (c *CPU) rlca() {
	c.A = c.A<<1 | c.A>>7
	c.setF(c.F&(FlagS|FlagZ|FlagPV) | c.A&(FlagY|FlagX|FlagC))
}

func (c *CPU) rrca() {
	carry := c.A & 1
	c.A = c.A>>1 | c.A<<7
	c.setF(c.F&(FlagS|FlagZ|FlagPV) | c.A&(FlagY|FlagX) | carry)
}

func (c *CPU) rla() {
	carry := c.A >> 7
	c.A = c.A<<1 | c.F&FlagC
	c.setF(c.F&(FlagS|FlagZ|FlagPV) | c.A&(FlagY|FlagX) | carry)
}

func (c *CPU) rra() {
	carry := c.A & 1
	c.A = c.A>>1 | c.F<<7
	c.setF(c.F&(FlagS|FlagZ|FlagPV) | c.A&(FlagY|FlagX) | carry)
}

// daa adjusts A to BCD after an addition or subtraction, by the correction
// the half carry, the carry and the digits call for (UM0080, DAA; UZD,
// "DAA", which gives H as bit 4 of the change).
func (c *CPU) daa() {
	a := c.A
	var t, carry byte
	if c.F&FlagH != 0 || a&0x0f > 9 {
		t = 0x06
	}
	if c.F&FlagC != 0 || a > 0x99 {
		t |= 0x60
		carry = FlagC
	}
	r := a + t
	if c.F&FlagN != 0 {
		r = a - t
	}
	c.A = r
	c.setF(sz53p[r] | c.F&FlagN | (a^r)&FlagH | carry)
}

func (c *CPU) cpl() {
	c.A = ^c.A
	c.setF(c.F&(FlagS|FlagZ|FlagPV|FlagC) | FlagH | FlagN | c.A&(FlagY|FlagX))
}

// scf and ccf take X and Y from (Q^F)|A: from A alone after an instruction
// that computed the flags, from F|A after one that did not (Rak 2018).

func (c *CPU) scf(q byte) {
	c.setF(c.F&(FlagS|FlagZ|FlagPV) | ((q^c.F)|c.A)&(FlagY|FlagX) | FlagC)
}

func (c *CPU) ccf(q byte) {
	f := c.F&(FlagS|FlagZ|FlagPV) | ((q^c.F)|c.A)&(FlagY|FlagX)
	if c.F&FlagC != 0 {
		f |= FlagH // H takes the old carry (UM0080, CCF)
	} else {
		f |= FlagC
	}
	c.setF(f)
}

// add16 is ADD HL,ss and ADD IX/IY,ss: S, Z and P/V are kept, H is the
// carry out of bit 11, X and Y come from the result's high byte, and WZ is
// the first operand plus one (MEMPTR).
func (c *CPU) add16(a, b uint16) uint16 {
	r := uint32(a) + uint32(b)
	c.WZ = a + 1
	c.setF(c.F&(FlagS|FlagZ|FlagPV) | byte(r>>16) | byte((uint32(a)^uint32(b)^r)>>8)&FlagH | byte(r>>8)&(FlagY|FlagX))
	return uint16(r)
}

// adc16 is ADC HL,ss: every flag from the 16-bit result.
func (c *CPU) adc16(a, b uint16) uint16 {
	r := uint32(a) + uint32(b) + uint32(c.F&FlagC)
	res := uint16(r)
	f := byte(res>>8)&(FlagS|FlagY|FlagX) | byte(r>>16) | byte((uint32(a)^uint32(b)^r)>>8)&FlagH |
		byte(((a^b^0x8000)&(a^res)&0x8000)>>13)
	if res == 0 {
		f |= FlagZ
	}
	c.WZ = a + 1
	c.setF(f)
	return res
}

// sbc16 is SBC HL,ss.
func (c *CPU) sbc16(a, b uint16) uint16 {
	r := uint32(a) - uint32(b) - uint32(c.F&FlagC)
	res := uint16(r)
	f := byte(res>>8)&(FlagS|FlagY|FlagX) | FlagN | byte(r>>16)&FlagC | byte((uint32(a)^uint32(b)^r)>>8)&FlagH |
		byte(((a^b)&(a^res)&0x8000)>>13)
	if res == 0 {
		f |= FlagZ
	}
	c.WZ = a + 1
	c.setF(f)
	return res
}

// rot is the CB prefix's rotates and shifts, chosen by bits 5-3 of the
// opcode: RLC RRC RL RR SLA SRA SLL SRL. SLL, undocumented, shifts a 1 into
// bit 0 (UZD, "SLL"). S, Z, P from the result, H and N clear.
func (c *CPU) rot(op, v byte) byte {
	var r, carry byte
	switch op >> 3 & 7 {
	case 0: // RLC
		carry = v >> 7
		r = v<<1 | carry
	case 1: // RRC
		carry = v & 1
		r = v>>1 | carry<<7
	case 2: // RL
		carry = v >> 7
		r = v<<1 | c.F&FlagC
	case 3: // RR
		carry = v & 1
		r = v>>1 | c.F<<7
	case 4: // SLA
		carry = v >> 7
		r = v << 1
	case 5: // SRA
		carry = v & 1
		r = v>>1 | v&0x80
	case 6: // SLL
		carry = v >> 7
		r = v<<1 | 1
	case 7: // SRL
		carry = v & 1
		r = v >> 1
	}
	c.setF(sz53p[r] | carry)
	return r
}

// bit tests bit n of v. Z and P/V are set when the bit is clear, S only
// for bit 7 set, H always; X and Y come from xy: the register tested, or
// for a memory operand the high byte of WZ (UZD, "BIT n,(HL)"; MEMPTR).
func (c *CPU) bit(n, v, xy byte) {
	b := v & (1 << n)
	f := c.F&FlagC | FlagH | b&FlagS | xy&(FlagY|FlagX)
	if b == 0 {
		f |= FlagZ | FlagPV
	}
	c.setF(f)
}
