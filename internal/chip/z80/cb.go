package z80

// cb runs an instruction of the CB table: rotates and shifts, BIT, RES and
// SET on a register or on (HL). Its opcode is fetched by a second M1, which
// counts R (UM0080, "Bit Set, Reset and Test Group").
//
// Bits 7-6 of the opcode choose the group (shift, BIT, RES, SET), bits 5-3
// the shift or the bit, bits 2-0 the operand, as reg numbers them.
func (c *CPU) cb() {
	op := c.fetch()
	r := op & 7
	n := op >> 3 & 7
	if r == 6 {
		// (HL): read, one T-state to compute with the address held, and a
		// write unless the instruction is BIT (UM0080: 15 and 12
		// T-states).
		a := c.hl()
		v := c.read(a)
		c.internal(a, 1)
		switch op >> 6 {
		case 0:
			v = c.rot(op, v)
		case 1:
			c.bit(n, v, byte(c.WZ>>8)) // X and Y leak from WZ (MEMPTR)
			return
		case 2:
			v &^= 1 << n
		case 3:
			v |= 1 << n
		}
		c.write(a, v)
		return
	}
	v := c.reg(r)
	switch op >> 6 {
	case 0:
		c.setReg(r, c.rot(op, v))
	case 1:
		c.bit(n, v, v)
	case 2:
		c.setReg(r, v&^(1<<n))
	case 3:
		c.setReg(r, v|1<<n)
	}
}
