package z80

// index runs the opcode after a DD or FD prefix, with xy the index register
// the prefix chose. Where the opcode names HL it means xy; where it names H
// or L, the halves of xy, the undocumented IXH, IXL, IYH and IYL; where it
// names (HL), (xy+d), with a displacement d read after the opcode. An
// instruction that names both (HL) and H or L keeps H and L. An opcode that
// names none of them runs as it does unprefixed, 4 T-states later (UZD,
// "DD and FD prefixes").
//
// (xy+d) costs 5 T-states after d, in which the processor adds it, with d's
// address on the bus (UM0080, LD r,(IX+d): 19 T-states); WZ takes the
// address (MEMPTR).
func (c *CPU) index(op byte, xy *uint16, q byte) {
	switch op {
	case 0x09: // ADD xy,BC
		c.internal(c.ir(), 7)
		*xy = c.add16(*xy, c.bc())
	case 0x19: // ADD xy,DE
		c.internal(c.ir(), 7)
		*xy = c.add16(*xy, c.de())
	case 0x29: // ADD xy,xy
		c.internal(c.ir(), 7)
		*xy = c.add16(*xy, *xy)
	case 0x39: // ADD xy,SP
		c.internal(c.ir(), 7)
		*xy = c.add16(*xy, c.SP)

	case 0x21: // LD xy,nn
		*xy = c.imm16()
	case 0x22: // LD (nn),xy
		a := c.imm16()
		c.write(a, byte(*xy))
		c.WZ = a + 1
		c.write(c.WZ, byte(*xy>>8))
	case 0x23: // INC xy
		c.internal(c.ir(), 2)
		*xy++
	case 0x2a: // LD xy,(nn)
		a := c.imm16()
		lo := c.read(a)
		c.WZ = a + 1
		hi := c.read(c.WZ)
		*xy = uint16(hi)<<8 | uint16(lo)
	case 0x2b: // DEC xy
		c.internal(c.ir(), 2)
		*xy--

	case 0x24: // INC xyH
		*xy = uint16(c.inc8(byte(*xy>>8)))<<8 | *xy&0xff
	case 0x25: // DEC xyH
		*xy = uint16(c.dec8(byte(*xy>>8)))<<8 | *xy&0xff
	case 0x26: // LD xyH,n
		*xy = uint16(c.imm())<<8 | *xy&0xff
	case 0x2c: // INC xyL
		*xy = *xy&0xff00 | uint16(c.inc8(byte(*xy)))
	case 0x2d: // DEC xyL
		*xy = *xy&0xff00 | uint16(c.dec8(byte(*xy)))
	case 0x2e: // LD xyL,n
		*xy = *xy&0xff00 | uint16(c.imm())

	case 0x34: // INC (xy+d)
		a := c.disp(*xy)
		v := c.read(a)
		c.internal(a, 1)
		c.write(a, c.inc8(v))
	case 0x35: // DEC (xy+d)
		a := c.disp(*xy)
		v := c.read(a)
		c.internal(a, 1)
		c.write(a, c.dec8(v))
	case 0x36: // LD (xy+d),n: d and n are read first, then 2 T-states to add
		d := c.imm()
		n := c.imm()
		c.internal(c.PC-1, 2)
		a := *xy + uint16(int8(d))
		c.WZ = a
		c.write(a, n)

	case 0x76: // HALT, unchanged
		c.halt()

	case 0xcb:
		c.indexCB(*xy)

	case 0xe1: // POP xy
		*xy = c.pop()
	case 0xe3: // EX (SP),xy
		*xy = c.exSP(*xy)
	case 0xe5: // PUSH xy
		c.internal(c.ir(), 1)
		c.push(*xy)
	case 0xe9: // JP (xy)
		c.PC = *xy
	case 0xf9: // LD SP,xy
		c.internal(c.ir(), 2)
		c.SP = *xy

	default:
		switch {
		case op >= 0x40 && op < 0x80:
			c.indexLD(op, xy)
		case op >= 0x80 && op < 0xc0:
			c.indexALU(op, xy)
		default:
			c.base(op, q)
		}
	}
}

// disp reads the displacement d at PC and returns xy+d, after the 5
// T-states of the addition, which hold d's address on the bus.
func (c *CPU) disp(xy uint16) uint16 {
	d := c.imm()
	c.internal(c.PC-1, 5)
	a := xy + uint16(int8(d))
	c.WZ = a
	return a
}

// xyReg is register r with H and L meaning the halves of xy.
func (c *CPU) xyReg(r byte, xy uint16) byte {
	switch r {
	case 4:
		return byte(xy >> 8)
	case 5:
		return byte(xy)
	}
	return c.reg(r)
}

func (c *CPU) setXYReg(r, v byte, xy *uint16) {
	switch r {
	case 4:
		*xy = uint16(v)<<8 | *xy&0xff
	case 5:
		*xy = *xy&0xff00 | uint16(v)
	default:
		c.setReg(r, v)
	}
}

// indexLD is LD r,r' (40-7F but 76) under a prefix.
func (c *CPU) indexLD(op byte, xy *uint16) {
	dst, src := op>>3&7, op&7
	switch {
	case src == 6: // LD r,(xy+d), r being H or L themselves
		a := c.disp(*xy)
		c.setReg(dst, c.read(a))
	case dst == 6: // LD (xy+d),r
		a := c.disp(*xy)
		c.write(a, c.reg(src))
	default:
		c.setXYReg(dst, c.xyReg(src, *xy), xy)
	}
}

// indexALU is the arithmetic and logic on A (80-BF) under a prefix.
func (c *CPU) indexALU(op byte, xy *uint16) {
	var v byte
	if src := op & 7; src == 6 {
		v = c.read(c.disp(*xy))
	} else {
		v = c.xyReg(src, *xy)
	}
	c.alu(op>>3&7, v)
}

// alu is the operation bits 5-3 of an 80-BF opcode choose, on A and v.
func (c *CPU) alu(k, v byte) {
	switch k {
	case 0:
		c.add8(v, 0)
	case 1:
		c.add8(v, c.F&FlagC)
	case 2:
		c.A = c.sub8(v, 0)
	case 3:
		c.A = c.sub8(v, c.F&FlagC)
	case 4:
		c.and(v)
	case 5:
		c.xor(v)
	case 6:
		c.or(v)
	case 7:
		c.cp(v)
	}
}

// indexCB is DD CB d op and FD CB d op. The displacement comes before the
// opcode, and both are plain reads, not M1s, so R counts only the two
// prefixes; two T-states after the opcode add d, with the opcode's address
// on the bus. Then the byte at (xy+d) is read, a T-state computes, and the
// result is written back (UM0080, RLC (IX+d): 23 T-states; BIT: 20, no
// write).
//
// Every opcode works on (xy+d). Where bits 2-0 name a register rather than
// (HL), the undocumented forms also load the result into that register,
// H and L themselves; BIT ignores them (UZD, "DDCB and FDCB").
func (c *CPU) indexCB(xy uint16) {
	d := c.imm()
	op := c.imm()
	c.internal(c.PC-1, 2)
	a := xy + uint16(int8(d))
	c.WZ = a
	v := c.read(a)
	c.internal(a, 1)
	n := op >> 3 & 7
	switch op >> 6 {
	case 0:
		v = c.rot(op, v)
	case 1:
		c.bit(n, v, byte(a>>8)) // X and Y from the address, which is WZ
		return
	case 2:
		v &^= 1 << n
	case 3:
		v |= 1 << n
	}
	c.write(a, v)
	if r := op & 7; r != 6 {
		c.setReg(r, v)
	}
}
