package z80

// Interruptible reports whether an interrupt would be accepted now, between
// instructions: never inside a chain of prefixes, which is no instruction
// yet; an NMI whenever one is latched; the maskable interrupt while INT is
// held and IFF1 is set, except right after EI (UM0080, "Interrupt
// Response", EI).
func (c *CPU) Interruptible() bool {
	return c.Prefix == 0 && (c.NMI || c.INT && c.IFF1 && !c.EI)
}

// Interrupt runs the response to the interrupt Interruptible accepts: the
// NMI if one is latched, else the maskable interrupt in the current mode.
// It does nothing when Interruptible is false.
//
// A response leaves HALT first, moving PC past the HALT opcode, so that the
// address it pushes is the instruction after it (UM0080, HALT). On an NMOS
// Z80 a response right after LD A,I or LD A,R clears the P/V flag that
// instruction set (UM0080, LD A,I).
func (c *CPU) Interrupt() {
	if !c.Interruptible() {
		return
	}
	c.LeaveHalt()
	if c.P {
		c.F &^= FlagPV
		c.P = false
	}
	c.EI = false
	c.InstrPC = c.PC
	c.Responding = true
	if c.NMI {
		c.nmi()
	} else {
		c.irq()
	}
	c.Responding = false
}

// nmi is the response to a non-maskable interrupt, 11 T-states: an M1 at PC
// whose byte is ignored and a T-state more, then PC pushed and a jump to
// &0066. IFF1 is cleared; IFF2 keeps what IFF1 was, for RETN (UM0080,
// "Non-Maskable Interrupt Response").
func (c *CPU) nmi() {
	c.NMI = false
	c.IFF1 = false
	c.Bus.Fetch(c.PC)
	c.refresh()
	c.Tick += 4
	c.internal(c.ir(), 1)
	c.push(c.PC)
	c.PC = 0x0066
	c.WZ = c.PC
}

// irq is the response to a maskable interrupt. Both flip-flops are cleared.
// The acknowledge is an M1 of 6 T-states whose refresh counts R, and a
// T-state more follows it before PC is pushed (UM0080, "Interrupt
// Response"):
//
//   - Mode 0: the byte the device gives is executed; this package executes
//     it when it is an RST and RST &38 otherwise (see the package doc):
//     13 T-states.
//   - Mode 1: RST &38 whatever the byte: 13 T-states.
//   - Mode 2: the byte is the low half of a vector whose high half is I;
//     PC is loaded from the word the vector points to: 19 T-states. The
//     byte is used whole, bit 0 included: the Zilog manual asks the device
//     for an even byte, but the processor does not force it.
//
// WZ takes the address jumped to (MEMPTR).
func (c *CPU) irq() {
	c.IFF1, c.IFF2 = false, false
	v := c.Bus.Acknowledge()
	c.refresh()
	c.Tick += 6
	c.internal(c.ir(), 1)
	c.push(c.PC)
	switch c.IM {
	case 0:
		if v&0xc7 == 0xc7 { // 11ppp111: RST p
			c.PC = uint16(v & 0x38)
		} else {
			c.PC = 0x0038
		}
	case 1:
		c.PC = 0x0038
	default:
		vec := uint16(c.I)<<8 | uint16(v)
		lo := c.read(vec)
		hi := c.read(vec + 1)
		c.PC = uint16(hi)<<8 | uint16(lo)
	}
	c.WZ = c.PC
}
