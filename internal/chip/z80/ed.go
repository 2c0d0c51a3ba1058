package z80

// ed runs an instruction of the ED table. Its opcode is fetched by a second
// M1, which counts R. An opcode the table does not define does nothing in
// those 8 T-states, a DD, FD, CB or ED among them (UZD, "ED prefix").
// A DD or FD before ED is forgotten: the ED instructions use HL, never IX or
// IY.
func (c *CPU) ed() {
	op := c.fetch()
	switch op {
	case 0x40: // IN B,(C)
		c.B = c.inC()
	case 0x48: // IN C,(C)
		c.C = c.inC()
	case 0x50: // IN D,(C)
		c.D = c.inC()
	case 0x58: // IN E,(C)
		c.E = c.inC()
	case 0x60: // IN H,(C)
		c.H = c.inC()
	case 0x68: // IN L,(C)
		c.L = c.inC()
	case 0x70: // IN (C), also IN F,(C): flags only (UZD)
		c.inC()
	case 0x78: // IN A,(C)
		c.A = c.inC()

	case 0x41: // OUT (C),B
		c.outC(c.B)
	case 0x49: // OUT (C),C
		c.outC(c.C)
	case 0x51: // OUT (C),D
		c.outC(c.D)
	case 0x59: // OUT (C),E
		c.outC(c.E)
	case 0x61: // OUT (C),H
		c.outC(c.H)
	case 0x69: // OUT (C),L
		c.outC(c.L)
	case 0x71: // OUT (C),0: an NMOS Z80 puts 0 on the bus (UZD)
		c.outC(0)
	case 0x79: // OUT (C),A
		c.outC(c.A)

	case 0x42: // SBC HL,BC: 7 T-states of 16-bit arithmetic
		c.internal(c.ir(), 7)
		c.setHL(c.sbc16(c.hl(), c.bc()))
	case 0x52: // SBC HL,DE
		c.internal(c.ir(), 7)
		c.setHL(c.sbc16(c.hl(), c.de()))
	case 0x62: // SBC HL,HL
		c.internal(c.ir(), 7)
		c.setHL(c.sbc16(c.hl(), c.hl()))
	case 0x72: // SBC HL,SP
		c.internal(c.ir(), 7)
		c.setHL(c.sbc16(c.hl(), c.SP))
	case 0x4a: // ADC HL,BC
		c.internal(c.ir(), 7)
		c.setHL(c.adc16(c.hl(), c.bc()))
	case 0x5a: // ADC HL,DE
		c.internal(c.ir(), 7)
		c.setHL(c.adc16(c.hl(), c.de()))
	case 0x6a: // ADC HL,HL
		c.internal(c.ir(), 7)
		c.setHL(c.adc16(c.hl(), c.hl()))
	case 0x7a: // ADC HL,SP
		c.internal(c.ir(), 7)
		c.setHL(c.adc16(c.hl(), c.SP))

	case 0x43: // LD (nn),BC
		c.storeLoad(c.bc(), true)
	case 0x53: // LD (nn),DE
		c.storeLoad(c.de(), true)
	case 0x63: // LD (nn),HL, the ED form (UZD)
		c.storeLoad(c.hl(), true)
	case 0x73: // LD (nn),SP
		c.storeLoad(c.SP, true)
	case 0x4b: // LD BC,(nn)
		c.setBC(c.storeLoad(0, false))
	case 0x5b: // LD DE,(nn)
		c.setDE(c.storeLoad(0, false))
	case 0x6b: // LD HL,(nn), the ED form
		c.setHL(c.storeLoad(0, false))
	case 0x7b: // LD SP,(nn)
		c.SP = c.storeLoad(0, false)

	case 0x44, 0x4c, 0x54, 0x5c, 0x64, 0x6c, 0x74, 0x7c: // NEG, and its copies (UZD)
		v := c.A
		c.A = 0
		c.A = c.sub8(v, 0)

	case 0x45, 0x4d, 0x55, 0x5d, 0x65, 0x6d, 0x75, 0x7d:
		// RETN, RETI (4D) and their copies. Each copies IFF2 to IFF1, RETI
		// too (UZD, "RETI/RETN").
		c.IFF1 = c.IFF2
		c.PC = c.pop()
		c.WZ = c.PC

	case 0x46, 0x4e, 0x66, 0x6e: // IM 0, and the undefined 4E and 6E (UZD)
		c.IM = 0
	case 0x56, 0x76: // IM 1
		c.IM = 1
	case 0x5e, 0x7e: // IM 2
		c.IM = 2

	case 0x47: // LD I,A
		c.internal(c.ir(), 1)
		c.I = c.A
	case 0x4f: // LD R,A: all 8 bits, bit 7 included
		c.internal(c.ir(), 1)
		c.R = c.A
	case 0x57: // LD A,I
		c.internal(c.ir(), 1)
		c.ldAIR(c.I)
	case 0x5f: // LD A,R
		c.internal(c.ir(), 1)
		c.ldAIR(c.R)

	case 0x67: // RRD: (HL)'s low digit to A, A's to its high, its high to its low
		a := c.hl()
		v := c.read(a)
		c.internal(a, 4)
		c.write(a, c.A<<4|v>>4)
		c.A = c.A&0xf0 | v&0x0f
		c.setF(c.F&FlagC | sz53p[c.A])
		c.WZ = a + 1
	case 0x6f: // RLD
		a := c.hl()
		v := c.read(a)
		c.internal(a, 4)
		c.write(a, v<<4|c.A&0x0f)
		c.A = c.A&0xf0 | v>>4
		c.setF(c.F&FlagC | sz53p[c.A])
		c.WZ = a + 1

	case 0xa0: // LDI
		c.ldi(1)
	case 0xa8: // LDD
		c.ldi(0xffff)
	case 0xb0: // LDIR
		c.ldir(1)
	case 0xb8: // LDDR
		c.ldir(0xffff)
	case 0xa1: // CPI
		c.cpi(1)
	case 0xa9: // CPD
		c.cpi(0xffff)
	case 0xb1: // CPIR
		c.cpir(1)
	case 0xb9: // CPDR
		c.cpir(0xffff)
	case 0xa2: // INI
		c.ini(1)
	case 0xaa: // IND
		c.ini(0xffff)
	case 0xb2: // INIR
		c.inir(1)
	case 0xba: // INDR
		c.inir(0xffff)
	case 0xa3: // OUTI
		c.outi(1)
	case 0xab: // OUTD
		c.outi(0xffff)
	case 0xb3: // OTIR
		c.otir(1)
	case 0xbb: // OTDR
		c.otir(0xffff)
	}
}

// inC is IN r,(C): the port is BC, the flags come from the byte with C
// kept, and WZ is BC plus one (UM0080, IN r,(C); MEMPTR).
func (c *CPU) inC() byte {
	port := c.bc()
	v := c.in(port)
	c.setF(c.F&FlagC | sz53p[v])
	c.WZ = port + 1
	return v
}

// outC is OUT (C),r.
func (c *CPU) outC(v byte) {
	port := c.bc()
	c.out(port, v)
	c.WZ = port + 1
}

// storeLoad is LD (nn),rr when store is set, else LD rr,(nn), which it
// returns. WZ is nn plus one (MEMPTR).
func (c *CPU) storeLoad(v uint16, store bool) uint16 {
	a := c.imm16()
	c.WZ = a + 1
	if store {
		c.write(a, byte(v))
		c.write(c.WZ, byte(v>>8))
		return v
	}
	lo := c.read(a)
	hi := c.read(c.WZ)
	return uint16(hi)<<8 | uint16(lo)
}

// ldAIR is LD A,I and LD A,R: P/V takes IFF2, and P marks the instruction
// for the NMOS quirk an interrupt accepted next applies (UM0080, LD A,I).
func (c *CPU) ldAIR(v byte) {
	c.A = v
	f := c.F&FlagC | sz53[v]
	if c.IFF2 {
		f |= FlagPV
	}
	c.setF(f)
	c.P = true
}

// The block instructions. step is +1 for the incrementing forms and -1
// (&FFFF) for the decrementing ones.
//
// A repeating form that repeats runs its instruction again from the start:
// PC goes back to the ED, WZ to PC+1, and 5 T-states more are spent with
// the last address used on the bus (UM0080, LDIR: 21 T-states, 16 on the
// last; MEMPTR). In those T-states the processor computes PC-2, and X and
// Y show bits 11 and 13 of the result (Banks 2018).

// repeat sends PC back to the instruction's start, after 5 T-states that
// hold addr, and sets X and Y from it.
func (c *CPU) repeat(addr uint16) {
	c.internal(addr, 5)
	c.PC -= 2
	c.WZ = c.PC + 1
	c.F = c.F&^(FlagY|FlagX) | byte(c.PC>>8)&(FlagY|FlagX)
	c.Q = c.F
}

// ldi is LDI and LDD: copy (HL) to (DE), with two T-states on DE after the
// write. X and Y are bits 3 and 1 of the byte plus A; P/V is BC != 0
// (UZD, "Block instructions").
func (c *CPU) ldi(step uint16) (de uint16) {
	hl := c.hl()
	de = c.de()
	v := c.read(hl)
	c.write(de, v)
	c.internal(de, 2)
	c.setHL(hl + step)
	c.setDE(de + step)
	bc := c.bc() - 1
	c.setBC(bc)
	n := v + c.A
	f := c.F&(FlagS|FlagZ|FlagC) | n&FlagX | n<<4&FlagY
	if bc != 0 {
		f |= FlagPV
	}
	c.setF(f)
	return de
}

func (c *CPU) ldir(step uint16) {
	de := c.ldi(step)
	if c.F&FlagPV != 0 {
		c.repeat(de)
	}
}

// cpi is CPI and CPD: compare (HL) with A, with five T-states on HL after
// the read. S, Z and H are those of A-(HL); X and Y are bits 3 and 1 of
// A-(HL)-H; P/V is BC != 0; C is kept; WZ counts with HL (UZD; MEMPTR).
// It returns HL as it was and whether A equalled the byte.
func (c *CPU) cpi(step uint16) (hl uint16, equal bool) {
	hl = c.hl()
	v := c.read(hl)
	c.internal(hl, 5)
	c.setHL(hl + step)
	bc := c.bc() - 1
	c.setBC(bc)
	r := c.A - v
	h := (c.A ^ v ^ r) & FlagH
	n := r - h>>4
	f := c.F&FlagC | FlagN | sz53[r]&(FlagS|FlagZ) | h | n&FlagX | n<<4&FlagY
	if bc != 0 {
		f |= FlagPV
	}
	c.setF(f)
	c.WZ += step
	return hl, r == 0
}

func (c *CPU) cpir(step uint16) {
	hl, equal := c.cpi(step)
	if c.F&FlagPV != 0 && !equal {
		c.repeat(hl)
	}
}

// ini is INI and IND: a T-state, read port BC, write (HL), count B down
// (UM0080, INI: 16 T-states). WZ is BC plus or minus one, B as it was.
// It returns HL as it was.
func (c *CPU) ini(step uint16) (hl uint16) {
	c.internal(c.ir(), 1)
	port := c.bc()
	v := c.in(port)
	hl = c.hl()
	c.write(hl, v)
	c.WZ = port + step
	c.B--
	c.setHL(hl + step)
	c.blockIOFlags(v, uint16(v)+uint16(c.C+byte(step)))
	return hl
}

func (c *CPU) inir(step uint16) {
	hl := c.ini(step)
	if c.B != 0 {
		c.repeat(hl)
		c.blockIORepeat()
	}
}

// outi is OUTI and OUTD: a T-state, read (HL), count B down, write port BC
// with B counted (UM0080, OUTI: 16 T-states). WZ is the port plus or minus
// one. It returns the port.
func (c *CPU) outi(step uint16) (port uint16) {
	c.internal(c.ir(), 1)
	hl := c.hl()
	v := c.read(hl)
	c.B--
	port = c.bc()
	c.WZ = port + step
	c.out(port, v)
	c.setHL(hl + step)
	c.blockIOFlags(v, uint16(v)+uint16(c.L))
	return port
}

func (c *CPU) otir(step uint16) {
	port := c.outi(step)
	if c.B != 0 {
		c.repeat(port)
		c.blockIORepeat()
	}
}

// blockIOFlags sets the flags of INI, IND, OUTI and OUTD from the byte
// moved and k, that byte plus C±1 (IN) or plus L (OUT): S, Z, X, Y from B,
// N from the byte's bit 7, H and C from k's carry, P/V the parity of
// (k & 7) ^ B (UZD, "Block instructions", the I/O flags).
func (c *CPU) blockIOFlags(v byte, k uint16) {
	f := sz53[c.B] | v>>6&FlagN | sz53p[byte(k)&7^c.B]&FlagPV
	if k > 0xff {
		f |= FlagH | FlagC
	}
	c.setF(f)
}

// blockIORepeat amends P/V and H when INxR or OTxR repeats, as measured on
// real Z80s (Banks 2018): with a carry, they follow a further count of B,
// down if N is set and up if not, H telling whether it crossed a digit;
// without one, P/V follows B's own low bits.
func (c *CPU) blockIORepeat() {
	f := c.F
	var b byte
	if f&FlagC != 0 {
		if f&FlagN != 0 {
			b = c.B - 1
			f &^= FlagH
			if c.B&0x0f == 0 {
				f |= FlagH
			}
		} else {
			b = c.B + 1
			f &^= FlagH
			if c.B&0x0f == 0x0f {
				f |= FlagH
			}
		}
	} else {
		b = c.B
	}
	f ^= sz53p[b&7]&FlagPV ^ FlagPV
	c.setF(f)
}
