package z80

// base runs an opcode without a prefix, or one after DD or FD that does not
// involve HL, H or L and so runs as though unprefixed (UZD, "DD and FD
// prefixes"). q is Q as the instruction before left it, for SCF and CCF.
// DD and FD never come here: Exec and execPrefixed take each prefix as it
// is fetched.
//
// Each instruction's machine cycles follow UM0080's instruction tables:
// after the M1, a 3 T-state read or write per byte moved, a 4 T-state I/O
// cycle per port access, and Internal for the T-states the processor spends
// inside itself, with the address it leaves on the bus as FUSE's MC events
// and the SingleStepTests bus samples show it: I:R after an M1, else the
// last address used.
func (c *CPU) base(op, q byte) {
	switch op {
	case 0x00: // NOP
	case 0x01: // LD BC,nn
		c.C = c.imm()
		c.B = c.imm()
	case 0x02: // LD (BC),A
		a := c.bc()
		c.write(a, c.A)
		c.WZ = uint16(c.A)<<8 | (a+1)&0xff // MEMPTR: A above the address's low byte plus one
	case 0x03: // INC BC
		c.internal(c.ir(), 2)
		c.setBC(c.bc() + 1)
	case 0x04: // INC B
		c.B = c.inc8(c.B)
	case 0x05: // DEC B
		c.B = c.dec8(c.B)
	case 0x06: // LD B,n
		c.B = c.imm()
	case 0x07: // RLCA
		c.rlca()
	case 0x08: // EX AF,AF'
		c.A, c.A_ = c.A_, c.A
		c.F, c.F_ = c.F_, c.F
	case 0x09: // ADD HL,BC
		c.internal(c.ir(), 7)
		c.setHL(c.add16(c.hl(), c.bc()))
	case 0x0a: // LD A,(BC)
		a := c.bc()
		c.A = c.read(a)
		c.WZ = a + 1
	case 0x0b: // DEC BC
		c.internal(c.ir(), 2)
		c.setBC(c.bc() - 1)
	case 0x0c: // INC C
		c.C = c.inc8(c.C)
	case 0x0d: // DEC C
		c.C = c.dec8(c.C)
	case 0x0e: // LD C,n
		c.C = c.imm()
	case 0x0f: // RRCA
		c.rrca()

	case 0x10: // DJNZ e: one T-state to decrement B before the operand
		c.internal(c.ir(), 1)
		e := c.imm()
		c.B--
		if c.B != 0 {
			c.jr(e)
		}
	case 0x11: // LD DE,nn
		c.E = c.imm()
		c.D = c.imm()
	case 0x12: // LD (DE),A
		a := c.de()
		c.write(a, c.A)
		c.WZ = uint16(c.A)<<8 | (a+1)&0xff
	case 0x13: // INC DE
		c.internal(c.ir(), 2)
		c.setDE(c.de() + 1)
	case 0x14: // INC D
		c.D = c.inc8(c.D)
	case 0x15: // DEC D
		c.D = c.dec8(c.D)
	case 0x16: // LD D,n
		c.D = c.imm()
	case 0x17: // RLA
		c.rla()
	case 0x18: // JR e
		c.jr(c.imm())
	case 0x19: // ADD HL,DE
		c.internal(c.ir(), 7)
		c.setHL(c.add16(c.hl(), c.de()))
	case 0x1a: // LD A,(DE)
		a := c.de()
		c.A = c.read(a)
		c.WZ = a + 1
	case 0x1b: // DEC DE
		c.internal(c.ir(), 2)
		c.setDE(c.de() - 1)
	case 0x1c: // INC E
		c.E = c.inc8(c.E)
	case 0x1d: // DEC E
		c.E = c.dec8(c.E)
	case 0x1e: // LD E,n
		c.E = c.imm()
	case 0x1f: // RRA
		c.rra()

	case 0x20: // JR NZ,e
		e := c.imm()
		if c.F&FlagZ == 0 {
			c.jr(e)
		}
	case 0x21: // LD HL,nn
		c.L = c.imm()
		c.H = c.imm()
	case 0x22: // LD (nn),HL
		a := c.imm16()
		c.write(a, c.L)
		c.WZ = a + 1
		c.write(c.WZ, c.H)
	case 0x23: // INC HL
		c.internal(c.ir(), 2)
		c.setHL(c.hl() + 1)
	case 0x24: // INC H
		c.H = c.inc8(c.H)
	case 0x25: // DEC H
		c.H = c.dec8(c.H)
	case 0x26: // LD H,n
		c.H = c.imm()
	case 0x27: // DAA
		c.daa()
	case 0x28: // JR Z,e
		e := c.imm()
		if c.F&FlagZ != 0 {
			c.jr(e)
		}
	case 0x29: // ADD HL,HL
		c.internal(c.ir(), 7)
		c.setHL(c.add16(c.hl(), c.hl()))
	case 0x2a: // LD HL,(nn)
		a := c.imm16()
		c.L = c.read(a)
		c.WZ = a + 1
		c.H = c.read(c.WZ)
	case 0x2b: // DEC HL
		c.internal(c.ir(), 2)
		c.setHL(c.hl() - 1)
	case 0x2c: // INC L
		c.L = c.inc8(c.L)
	case 0x2d: // DEC L
		c.L = c.dec8(c.L)
	case 0x2e: // LD L,n
		c.L = c.imm()
	case 0x2f: // CPL
		c.cpl()

	case 0x30: // JR NC,e
		e := c.imm()
		if c.F&FlagC == 0 {
			c.jr(e)
		}
	case 0x31: // LD SP,nn
		c.SP = c.imm16()
	case 0x32: // LD (nn),A
		a := c.imm16()
		c.write(a, c.A)
		c.WZ = uint16(c.A)<<8 | (a+1)&0xff
	case 0x33: // INC SP
		c.internal(c.ir(), 2)
		c.SP++
	case 0x34: // INC (HL): read, one T-state to count, write
		a := c.hl()
		v := c.read(a)
		c.internal(a, 1)
		c.write(a, c.inc8(v))
	case 0x35: // DEC (HL)
		a := c.hl()
		v := c.read(a)
		c.internal(a, 1)
		c.write(a, c.dec8(v))
	case 0x36: // LD (HL),n
		v := c.imm()
		c.write(c.hl(), v)
	case 0x37: // SCF
		c.scf(q)
	case 0x38: // JR C,e
		e := c.imm()
		if c.F&FlagC != 0 {
			c.jr(e)
		}
	case 0x39: // ADD HL,SP
		c.internal(c.ir(), 7)
		c.setHL(c.add16(c.hl(), c.SP))
	case 0x3a: // LD A,(nn)
		a := c.imm16()
		c.A = c.read(a)
		c.WZ = a + 1
	case 0x3b: // DEC SP
		c.internal(c.ir(), 2)
		c.SP--
	case 0x3c: // INC A
		c.A = c.inc8(c.A)
	case 0x3d: // DEC A
		c.A = c.dec8(c.A)
	case 0x3e: // LD A,n
		c.A = c.imm()
	case 0x3f: // CCF
		c.ccf(q)

	// LD r,r' and HALT, where LD (HL),(HL) would be (UM0080).
	case 0x40: // LD B,B
	case 0x41: // LD B,C
		c.B = c.C
	case 0x42: // LD B,D
		c.B = c.D
	case 0x43: // LD B,E
		c.B = c.E
	case 0x44: // LD B,H
		c.B = c.H
	case 0x45: // LD B,L
		c.B = c.L
	case 0x46: // LD B,(HL)
		c.B = c.read(c.hl())
	case 0x47: // LD B,A
		c.B = c.A
	case 0x48: // LD C,B
		c.C = c.B
	case 0x49: // LD C,C
	case 0x4a: // LD C,D
		c.C = c.D
	case 0x4b: // LD C,E
		c.C = c.E
	case 0x4c: // LD C,H
		c.C = c.H
	case 0x4d: // LD C,L
		c.C = c.L
	case 0x4e: // LD C,(HL)
		c.C = c.read(c.hl())
	case 0x4f: // LD C,A
		c.C = c.A
	case 0x50: // LD D,B
		c.D = c.B
	case 0x51: // LD D,C
		c.D = c.C
	case 0x52: // LD D,D
	case 0x53: // LD D,E
		c.D = c.E
	case 0x54: // LD D,H
		c.D = c.H
	case 0x55: // LD D,L
		c.D = c.L
	case 0x56: // LD D,(HL)
		c.D = c.read(c.hl())
	case 0x57: // LD D,A
		c.D = c.A
	case 0x58: // LD E,B
		c.E = c.B
	case 0x59: // LD E,C
		c.E = c.C
	case 0x5a: // LD E,D
		c.E = c.D
	case 0x5b: // LD E,E
	case 0x5c: // LD E,H
		c.E = c.H
	case 0x5d: // LD E,L
		c.E = c.L
	case 0x5e: // LD E,(HL)
		c.E = c.read(c.hl())
	case 0x5f: // LD E,A
		c.E = c.A
	case 0x60: // LD H,B
		c.H = c.B
	case 0x61: // LD H,C
		c.H = c.C
	case 0x62: // LD H,D
		c.H = c.D
	case 0x63: // LD H,E
		c.H = c.E
	case 0x64: // LD H,H
	case 0x65: // LD H,L
		c.H = c.L
	case 0x66: // LD H,(HL)
		c.H = c.read(c.hl())
	case 0x67: // LD H,A
		c.H = c.A
	case 0x68: // LD L,B
		c.L = c.B
	case 0x69: // LD L,C
		c.L = c.C
	case 0x6a: // LD L,D
		c.L = c.D
	case 0x6b: // LD L,E
		c.L = c.E
	case 0x6c: // LD L,H
		c.L = c.H
	case 0x6d: // LD L,L
	case 0x6e: // LD L,(HL)
		c.L = c.read(c.hl())
	case 0x6f: // LD L,A
		c.L = c.A
	case 0x70: // LD (HL),B
		c.write(c.hl(), c.B)
	case 0x71: // LD (HL),C
		c.write(c.hl(), c.C)
	case 0x72: // LD (HL),D
		c.write(c.hl(), c.D)
	case 0x73: // LD (HL),E
		c.write(c.hl(), c.E)
	case 0x74: // LD (HL),H
		c.write(c.hl(), c.H)
	case 0x75: // LD (HL),L
		c.write(c.hl(), c.L)
	case 0x76: // HALT
		c.halt()
	case 0x77: // LD (HL),A
		c.write(c.hl(), c.A)
	case 0x78: // LD A,B
		c.A = c.B
	case 0x79: // LD A,C
		c.A = c.C
	case 0x7a: // LD A,D
		c.A = c.D
	case 0x7b: // LD A,E
		c.A = c.E
	case 0x7c: // LD A,H
		c.A = c.H
	case 0x7d: // LD A,L
		c.A = c.L
	case 0x7e: // LD A,(HL)
		c.A = c.read(c.hl())
	case 0x7f: // LD A,A

	// The arithmetic and logic on A (UM0080, "8-Bit Arithmetic Group").
	case 0x80: // ADD A,B
		c.add8(c.B, 0)
	case 0x81: // ADD A,C
		c.add8(c.C, 0)
	case 0x82: // ADD A,D
		c.add8(c.D, 0)
	case 0x83: // ADD A,E
		c.add8(c.E, 0)
	case 0x84: // ADD A,H
		c.add8(c.H, 0)
	case 0x85: // ADD A,L
		c.add8(c.L, 0)
	case 0x86: // ADD A,(HL)
		c.add8(c.read(c.hl()), 0)
	case 0x87: // ADD A,A
		c.add8(c.A, 0)
	case 0x88: // ADC A,B
		c.add8(c.B, c.F&FlagC)
	case 0x89: // ADC A,C
		c.add8(c.C, c.F&FlagC)
	case 0x8a: // ADC A,D
		c.add8(c.D, c.F&FlagC)
	case 0x8b: // ADC A,E
		c.add8(c.E, c.F&FlagC)
	case 0x8c: // ADC A,H
		c.add8(c.H, c.F&FlagC)
	case 0x8d: // ADC A,L
		c.add8(c.L, c.F&FlagC)
	case 0x8e: // ADC A,(HL)
		c.add8(c.read(c.hl()), c.F&FlagC)
	case 0x8f: // ADC A,A
		c.add8(c.A, c.F&FlagC)
	case 0x90: // SUB B
		c.A = c.sub8(c.B, 0)
	case 0x91: // SUB C
		c.A = c.sub8(c.C, 0)
	case 0x92: // SUB D
		c.A = c.sub8(c.D, 0)
	case 0x93: // SUB E
		c.A = c.sub8(c.E, 0)
	case 0x94: // SUB H
		c.A = c.sub8(c.H, 0)
	case 0x95: // SUB L
		c.A = c.sub8(c.L, 0)
	case 0x96: // SUB (HL)
		c.A = c.sub8(c.read(c.hl()), 0)
	case 0x97: // SUB A
		c.A = c.sub8(c.A, 0)
	case 0x98: // SBC A,B
		c.A = c.sub8(c.B, c.F&FlagC)
	case 0x99: // SBC A,C
		c.A = c.sub8(c.C, c.F&FlagC)
	case 0x9a: // SBC A,D
		c.A = c.sub8(c.D, c.F&FlagC)
	case 0x9b: // SBC A,E
		c.A = c.sub8(c.E, c.F&FlagC)
	case 0x9c: // SBC A,H
		c.A = c.sub8(c.H, c.F&FlagC)
	case 0x9d: // SBC A,L
		c.A = c.sub8(c.L, c.F&FlagC)
	case 0x9e: // SBC A,(HL)
		c.A = c.sub8(c.read(c.hl()), c.F&FlagC)
	case 0x9f: // SBC A,A
		c.A = c.sub8(c.A, c.F&FlagC)
	case 0xa0: // AND B
		c.and(c.B)
	case 0xa1: // AND C
		c.and(c.C)
	case 0xa2: // AND D
		c.and(c.D)
	case 0xa3: // AND E
		c.and(c.E)
	case 0xa4: // AND H
		c.and(c.H)
	case 0xa5: // AND L
		c.and(c.L)
	case 0xa6: // AND (HL)
		c.and(c.read(c.hl()))
	case 0xa7: // AND A
		c.and(c.A)
	case 0xa8: // XOR B
		c.xor(c.B)
	case 0xa9: // XOR C
		c.xor(c.C)
	case 0xaa: // XOR D
		c.xor(c.D)
	case 0xab: // XOR E
		c.xor(c.E)
	case 0xac: // XOR H
		c.xor(c.H)
	case 0xad: // XOR L
		c.xor(c.L)
	case 0xae: // XOR (HL)
		c.xor(c.read(c.hl()))
	case 0xaf: // XOR A
		c.xor(c.A)
	case 0xb0: // OR B
		c.or(c.B)
	case 0xb1: // OR C
		c.or(c.C)
	case 0xb2: // OR D
		c.or(c.D)
	case 0xb3: // OR E
		c.or(c.E)
	case 0xb4: // OR H
		c.or(c.H)
	case 0xb5: // OR L
		c.or(c.L)
	case 0xb6: // OR (HL)
		c.or(c.read(c.hl()))
	case 0xb7: // OR A
		c.or(c.A)
	case 0xb8: // CP B
		c.cp(c.B)
	case 0xb9: // CP C
		c.cp(c.C)
	case 0xba: // CP D
		c.cp(c.D)
	case 0xbb: // CP E
		c.cp(c.E)
	case 0xbc: // CP H
		c.cp(c.H)
	case 0xbd: // CP L
		c.cp(c.L)
	case 0xbe: // CP (HL)
		c.cp(c.read(c.hl()))
	case 0xbf: // CP A
		c.cp(c.A)

	case 0xc0: // RET NZ
		c.retIf(c.F&FlagZ == 0)
	case 0xc1: // POP BC
		c.setBC(c.pop())
	case 0xc2: // JP NZ,nn
		c.jpIf(c.F&FlagZ == 0)
	case 0xc3: // JP nn
		c.jpIf(true)
	case 0xc4: // CALL NZ,nn
		c.callIf(c.F&FlagZ == 0)
	case 0xc5: // PUSH BC: one T-state to decrement SP first
		c.internal(c.ir(), 1)
		c.push(c.bc())
	case 0xc6: // ADD A,n
		c.add8(c.imm(), 0)
	case 0xc7: // RST &00
		c.rst(0x00)
	case 0xc8: // RET Z
		c.retIf(c.F&FlagZ != 0)
	case 0xc9: // RET
		c.PC = c.pop()
		c.WZ = c.PC
	case 0xca: // JP Z,nn
		c.jpIf(c.F&FlagZ != 0)
	case 0xcb:
		c.cb()
	case 0xcc: // CALL Z,nn
		c.callIf(c.F&FlagZ != 0)
	case 0xcd: // CALL nn
		c.callIf(true)
	case 0xce: // ADC A,n
		c.add8(c.imm(), c.F&FlagC)
	case 0xcf: // RST &08
		c.rst(0x08)

	case 0xd0: // RET NC
		c.retIf(c.F&FlagC == 0)
	case 0xd1: // POP DE
		c.setDE(c.pop())
	case 0xd2: // JP NC,nn
		c.jpIf(c.F&FlagC == 0)
	case 0xd3: // OUT (n),A: A goes out on the port's high byte (UM0080)
		n := c.imm()
		c.out(uint16(c.A)<<8|uint16(n), c.A)
		c.WZ = uint16(c.A)<<8 | uint16(n+1) // MEMPTR: the low byte wraps alone
	case 0xd4: // CALL NC,nn
		c.callIf(c.F&FlagC == 0)
	case 0xd5: // PUSH DE
		c.internal(c.ir(), 1)
		c.push(c.de())
	case 0xd6: // SUB n
		c.A = c.sub8(c.imm(), 0)
	case 0xd7: // RST &10
		c.rst(0x10)
	case 0xd8: // RET C
		c.retIf(c.F&FlagC != 0)
	case 0xd9: // EXX
		c.B, c.B_ = c.B_, c.B
		c.C, c.C_ = c.C_, c.C
		c.D, c.D_ = c.D_, c.D
		c.E, c.E_ = c.E_, c.E
		c.H, c.H_ = c.H_, c.H
		c.L, c.L_ = c.L_, c.L
	case 0xda: // JP C,nn
		c.jpIf(c.F&FlagC != 0)
	case 0xdb: // IN A,(n): A is the port's high byte (UM0080)
		port := uint16(c.A)<<8 | uint16(c.imm())
		c.A = c.in(port)
		c.WZ = port + 1
	case 0xdc: // CALL C,nn
		c.callIf(c.F&FlagC != 0)
	case 0xde: // SBC A,n
		c.A = c.sub8(c.imm(), c.F&FlagC)
	case 0xdf: // RST &18
		c.rst(0x18)

	case 0xe0: // RET PO
		c.retIf(c.F&FlagPV == 0)
	case 0xe1: // POP HL
		c.setHL(c.pop())
	case 0xe2: // JP PO,nn
		c.jpIf(c.F&FlagPV == 0)
	case 0xe3: // EX (SP),HL
		c.setHL(c.exSP(c.hl()))
	case 0xe4: // CALL PO,nn
		c.callIf(c.F&FlagPV == 0)
	case 0xe5: // PUSH HL
		c.internal(c.ir(), 1)
		c.push(c.hl())
	case 0xe6: // AND n
		c.and(c.imm())
	case 0xe7: // RST &20
		c.rst(0x20)
	case 0xe8: // RET PE
		c.retIf(c.F&FlagPV != 0)
	case 0xe9: // JP (HL)
		c.PC = c.hl()
	case 0xea: // JP PE,nn
		c.jpIf(c.F&FlagPV != 0)
	case 0xeb: // EX DE,HL
		c.D, c.H = c.H, c.D
		c.E, c.L = c.L, c.E
	case 0xec: // CALL PE,nn
		c.callIf(c.F&FlagPV != 0)
	case 0xed:
		c.ed()
	case 0xee: // XOR n
		c.xor(c.imm())
	case 0xef: // RST &28
		c.rst(0x28)

	case 0xf0: // RET P
		c.retIf(c.F&FlagS == 0)
	case 0xf1: // POP AF: F is loaded, not computed, so Q stays 0 (Rak 2018)
		af := c.pop()
		c.A, c.F = byte(af>>8), byte(af)
	case 0xf2: // JP P,nn
		c.jpIf(c.F&FlagS == 0)
	case 0xf3: // DI
		c.IFF1, c.IFF2 = false, false
	case 0xf4: // CALL P,nn
		c.callIf(c.F&FlagS == 0)
	case 0xf5: // PUSH AF
		c.internal(c.ir(), 1)
		c.push(uint16(c.A)<<8 | uint16(c.F))
	case 0xf6: // OR n
		c.or(c.imm())
	case 0xf7: // RST &30
		c.rst(0x30)
	case 0xf8: // RET M
		c.retIf(c.F&FlagS != 0)
	case 0xf9: // LD SP,HL
		c.internal(c.ir(), 2)
		c.SP = c.hl()
	case 0xfa: // JP M,nn
		c.jpIf(c.F&FlagS != 0)
	case 0xfb: // EI: the interrupt waits one more instruction (UM0080, EI)
		c.IFF1, c.IFF2 = true, true
		c.EI = true
	case 0xfc: // CALL M,nn
		c.callIf(c.F&FlagS != 0)
	case 0xfe: // CP n
		c.cp(c.imm())
	case 0xff: // RST &38
		c.rst(0x38)
	}
}

// halt enters HALT. PC goes back to the HALT opcode, where it stays until
// an interrupt's response moves it on (FUSE since 2015; UM0080, HALT).
func (c *CPU) halt() {
	c.Halted = true
	c.PC--
}

// jr adds a displacement to PC, in 5 T-states that hold the displacement's
// address on the bus; WZ takes the target (MEMPTR).
func (c *CPU) jr(e byte) {
	c.internal(c.PC-1, 5)
	c.PC += uint16(int8(e))
	c.WZ = c.PC
}

// jpIf reads a target and jumps to it if cond holds. WZ takes the target
// either way (MEMPTR, "JP cc,nn").
func (c *CPU) jpIf(cond bool) {
	a := c.imm16()
	c.WZ = a
	if cond {
		c.PC = a
	}
}

// callIf reads a target and, if cond holds, takes one T-state more on the
// target's high byte's address and pushes PC (UM0080, CALL cc,nn: 17 or 10
// T-states). WZ takes the target either way (MEMPTR).
func (c *CPU) callIf(cond bool) {
	a := c.imm16()
	c.WZ = a
	if cond {
		c.internal(c.PC-1, 1)
		c.push(c.PC)
		c.PC = a
	}
}

// retIf spends a T-state on the condition, then returns if it holds
// (UM0080, RET cc: 11 or 5 T-states).
func (c *CPU) retIf(cond bool) {
	c.internal(c.ir(), 1)
	if cond {
		c.PC = c.pop()
		c.WZ = c.PC
	}
}

// rst pushes PC and jumps to a restart address (UM0080, RST p: 11
// T-states, the M1 one longer).
func (c *CPU) rst(p uint16) {
	c.internal(c.ir(), 1)
	c.push(c.PC)
	c.PC = p
	c.WZ = p
}

// exSP exchanges a register pair with the word at SP and returns the word:
// read both bytes, a T-state, write both high byte first, two T-states
// (UM0080, EX (SP),HL: 19 T-states). WZ takes the new value (MEMPTR).
func (c *CPU) exSP(v uint16) uint16 {
	sp := c.SP
	lo := c.read(sp)
	hi := c.read(sp + 1)
	c.internal(sp+1, 1)
	c.write(sp+1, byte(v>>8))
	c.write(sp, byte(v))
	c.internal(sp, 2)
	c.WZ = uint16(hi)<<8 | uint16(lo)
	return c.WZ
}
