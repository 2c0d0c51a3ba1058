package disasm

// The decoder splits each opcode into the fields Zilog's tables are laid
// out by, x (bits 7-6), y (5-3), z (2-0), p (5-4) and q (3) (Cristian Dinu,
// "Decoding Z80 Opcodes", z80.info), and spells each instruction as
// colophon-player's disassembler does (../shared/testdata/disasm,
// disasm-player-notes.md), save where the spec overrides it: ED FF is BRK,
// and a chain of DD and FD prefixes is one instruction.

// Index register selection, by the prefix in force.
const (
	useHL = iota // no prefix
	useIX        // DD
	useIY        // FD
)

// The names each register field stands for. Under a DD or FD, pair and
// stackPair put the index register in place of HL, and reg its halves in
// place of H and L where no (IX+d) operand is present (UZD, "DD and FD
// prefixes").
var (
	regs       = [8]string{"B", "C", "D", "E", "H", "L", "(HL)", "A"}
	hNames     = [3]string{"H", "IXH", "IYH"}
	lNames     = [3]string{"L", "IXL", "IYL"}
	hlNames    = [3]string{"HL", "IX", "IY"}
	pairs      = [4]string{"BC", "DE", "HL", "SP"}
	stackPairs = [4]string{"BC", "DE", "HL", "AF"}
	conditions = [8]string{"NZ", "Z", "NC", "C", "PO", "PE", "P", "M"}
	alu        = [8]string{"ADD A,", "ADC A,", "SUB ", "SBC A,", "AND ", "XOR ", "OR ", "CP "}
	rotations  = [8]string{"RLC", "RRC", "RL", "RR", "SLA", "SRA", "SLL", "SRL"}
	accOps     = [8]string{"RLCA", "RRCA", "RLA", "RRA", "DAA", "CPL", "SCF", "CCF"}
	// The interrupt modes ED 46-7E select. UZD leaves the mode ED 4E and
	// 6E set undecided between 0 and 1, which the player writes IM 0/1
	// (disasm-player-notes.md, "ED mirrors").
	interruptModes = [8]string{"0", "0/1", "1", "2", "0", "0/1", "1", "2"}
	// The block instructions, ED A0-BB, by y-4 and z.
	blockOps = [4][4]string{
		{"LDI", "CPI", "INI", "OUTI"},
		{"LDD", "CPD", "IND", "OUTD"},
		{"LDIR", "CPIR", "INIR", "OTIR"},
		{"LDDR", "CPDR", "INDR", "OTDR"},
	}
	edLoads = [8]string{"LD I,A", "LD R,A", "LD A,I", "LD A,R", "RRD", "RLD", "NOP", "NOP"}
)

// noTarget marks an instruction that jumps or calls nowhere fixed.
const noTarget = -1

// decoder reads one instruction from mem at addr, keeping every byte it
// reads and building the text as it goes, left to right. Every Z80
// instruction lays its operands out in the order its text names them, save
// DD CB d op, so reading lazily as the text is written reads in order.
type decoder struct {
	mem  Memory
	addr uint16
	buf  []byte // the bytes read, appended for the caller
	n    int    // bytes of this instruction read so far
	text []byte
	// target is a JP's, CALL's, JR's or DJNZ's fixed destination, for the
	// firmware's names; noTarget for any other instruction.
	target int32
	// restart is the vector of an RST, whether prefixed or not; noTarget
	// for any other instruction.
	restart int32
}

func (d *decoder) fetch() byte {
	b := d.mem(d.addr + uint16(d.n))
	d.n++
	d.buf = append(d.buf, b)
	return b
}

// peekPrefix reports whether the byte after those read is a DD or FD,
// without reading it into the instruction.
func (d *decoder) peekPrefix() bool {
	b := d.mem(d.addr + uint16(d.n))
	return b == 0xdd || b == 0xfd
}

func (d *decoder) word() uint16 {
	lo := d.fetch()
	return uint16(lo) | uint16(d.fetch())<<8
}

func (d *decoder) str(s string) { d.text = append(d.text, s...) }

const hexDigits = "0123456789ABCDEF"

// hex8 and hex16 write numbers as the player does: &, upper case, two or
// four digits always (disasm-player-notes.md, "Numbers").
func (d *decoder) hex8(v byte) {
	d.text = append(d.text, '&', hexDigits[v>>4], hexDigits[v&15])
}

func (d *decoder) hex16(v uint16) {
	d.text = append(d.text, '&', hexDigits[v>>12], hexDigits[v>>8&15], hexDigits[v>>4&15], hexDigits[v&15])
}

func (d *decoder) imm8()  { d.hex8(d.fetch()) }
func (d *decoder) imm16() { d.hex16(d.word()) }

// indexed writes (IX+&05) or (IX-&05): a sign, then the magnitude as a
// byte, so that &80 is (IX-&80) (disasm-player-notes.md, "Numbers").
func (d *decoder) indexed(idx int, disp byte) {
	d.text = append(d.text, '(')
	d.str(hlNames[idx])
	if int8(disp) < 0 {
		d.text = append(d.text, '-')
		disp = byte(-int8(disp))
	} else {
		d.text = append(d.text, '+')
	}
	d.hex8(disp)
	d.text = append(d.text, ')')
}

// reg writes register field r under the prefix in force. (HL) becomes
// (IX+d), reading d; H and L become the index register's halves unless
// plain is set, which an instruction with an (IX+d) operand asks for.
func (d *decoder) reg(r byte, idx int, plain bool) {
	switch {
	case r == 6 && idx != useHL:
		d.indexed(idx, d.fetch())
	case r == 4 && !plain:
		d.str(hNames[idx])
	case r == 5 && !plain:
		d.str(lNames[idx])
	default:
		d.str(regs[r])
	}
}

// relative reads a displacement and writes the absolute target, worked out
// from the address after the whole instruction, prefixes included, and
// wrapping within the 64K (disasm-player-notes.md, "Numbers").
func (d *decoder) relative() {
	e := int8(d.fetch())
	t := d.addr + uint16(d.n) + uint16(e)
	d.target = int32(t)
	d.hex16(t)
}

// absolute reads a JP's or CALL's address and notes it as the target.
func (d *decoder) absolute() {
	t := d.word()
	d.target = int32(t)
	d.hex16(t)
}

// MaxChain is the most prefixes one instruction of a listing holds. The
// processor fetches a chain one prefix at a time, each a NONI, "no
// operation, no interrupt", that holds off interrupts until an opcode
// comes, and may meet tens of thousands of them; a listing must move on
// well before that. So a longer chain is listed in pieces as the processor
// meets them: MaxChain prefixes at a time as NONI, and the last of them
// with the instruction they prefix. No real program's chain is that long.
const MaxChain = 16

// decode reads one instruction. A run of DD and FD prefixes is read whole,
// as the processor's step runs it, up to MaxChain, and the last prefix
// rules what follows, each one before it being no operation (Dinu,
// "Decoding Z80 Opcodes": a DD or FD followed by another prefix is a
// NONI).
func (d *decoder) decode() {
	d.target, d.restart = noTarget, noTarget
	op := d.fetch()
	idx := useHL
	for op == 0xdd || op == 0xfd {
		if op == 0xdd {
			idx = useIX
		} else {
			idx = useIY
		}
		if d.n == MaxChain && d.peekPrefix() {
			// More prefixes follow: these are a piece of a chain
			// longer than a listing holds at once.
			d.str("NONI")
			return
		}
		op = d.fetch()
	}
	switch op {
	case 0xcb:
		if idx == useHL {
			d.cb()
		} else {
			d.indexCB(idx)
		}
	case 0xed:
		// ED ignores a DD or FD before it, which the processor runs as
		// no operation: the player lists DD ED 44 as NEG, 3 bytes.
		d.ed()
	default:
		d.base(op, idx)
	}
}

// base decodes an opcode from the unprefixed table, with HL, H, L and
// (HL) standing for the index register's forms under a DD or FD. An
// instruction that names none of them is unchanged by the prefix.
func (d *decoder) base(op byte, idx int) {
	x, y, z := op>>6, op>>3&7, op&7
	p, q := y>>1, y&1
	switch x {
	case 0:
		switch z {
		case 0:
			switch y {
			case 0:
				d.str("NOP")
			case 1:
				d.str("EX AF,AF'")
			case 2:
				d.str("DJNZ ")
				d.relative()
			case 3:
				d.str("JR ")
				d.relative()
			default:
				d.str("JR ")
				d.str(conditions[y-4])
				d.str(",")
				d.relative()
			}
		case 1:
			if q == 0 {
				d.str("LD ")
				d.pair(p, idx)
				d.str(",")
				d.imm16()
			} else {
				d.str("ADD ")
				d.str(hlNames[idx])
				d.str(",")
				d.pair(p, idx)
			}
		case 2:
			d.indirectLoad(p, q, idx)
		case 3:
			if q == 0 {
				d.str("INC ")
			} else {
				d.str("DEC ")
			}
			d.pair(p, idx)
		case 4:
			d.str("INC ")
			d.reg(y, idx, false)
		case 5:
			d.str("DEC ")
			d.reg(y, idx, false)
		case 6:
			d.str("LD ")
			d.reg(y, idx, false)
			d.str(",")
			d.imm8()
		case 7:
			d.str(accOps[y])
		}
	case 1:
		if op == 0x76 {
			d.str("HALT")
			return
		}
		// With (IX+d) on one side, the other side is plain H or L
		// (disasm-player-notes.md, "Index halves").
		plain := y == 6 || z == 6
		d.str("LD ")
		d.reg(y, idx, plain)
		d.str(",")
		d.reg(z, idx, plain)
	case 2:
		d.str(alu[y])
		d.reg(z, idx, false)
	case 3:
		d.base3(op, idx)
	}
}

// base3 is the unprefixed table's last quarter, C0-FF.
func (d *decoder) base3(op byte, idx int) {
	y, z := op>>3&7, op&7
	p, q := y>>1, y&1
	switch z {
	case 0:
		d.str("RET ")
		d.str(conditions[y])
	case 1:
		if q == 0 {
			d.str("POP ")
			d.stackPair(p, idx)
			return
		}
		switch p {
		case 0:
			d.str("RET")
		case 1:
			d.str("EXX")
		case 2:
			d.str("JP (")
			d.str(hlNames[idx])
			d.str(")")
		case 3:
			d.str("LD SP,")
			d.str(hlNames[idx])
		}
	case 2:
		d.str("JP ")
		d.str(conditions[y])
		d.str(",")
		d.absolute()
	case 3:
		switch y {
		case 0:
			d.str("JP ")
			d.absolute()
		case 2:
			d.str("OUT (")
			d.imm8()
			d.str("),A")
		case 3:
			d.str("IN A,(")
			d.imm8()
			d.str(")")
		case 4:
			d.str("EX (SP),")
			d.str(hlNames[idx])
		case 5:
			// EX DE,HL exchanges HL even under a prefix (UZD).
			d.str("EX DE,HL")
		case 6:
			d.str("DI")
		case 7:
			d.str("EI")
		}
		// y == 1 is CB, which decode takes before coming here.
	case 4:
		d.str("CALL ")
		d.str(conditions[y])
		d.str(",")
		d.absolute()
	case 5:
		if q == 0 {
			d.str("PUSH ")
			d.stackPair(p, idx)
		} else {
			// p == 0; DD, ED and FD are taken by decode.
			d.str("CALL ")
			d.absolute()
		}
	case 6:
		d.str(alu[y])
		d.imm8()
	case 7:
		d.restart = int32(y) * 8
		d.str("RST ")
		d.hex8(y * 8)
	}
}

func (d *decoder) pair(p byte, idx int) {
	if p == 2 {
		d.str(hlNames[idx])
	} else {
		d.str(pairs[p])
	}
}

func (d *decoder) stackPair(p byte, idx int) {
	if p == 2 {
		d.str(hlNames[idx])
	} else {
		d.str(stackPairs[p])
	}
}

// indirectLoad is 02-3A, the loads through (BC), (DE) and (nn).
func (d *decoder) indirectLoad(p, q byte, idx int) {
	switch p<<1 | q {
	case 0:
		d.str("LD (BC),A")
	case 1:
		d.str("LD A,(BC)")
	case 2:
		d.str("LD (DE),A")
	case 3:
		d.str("LD A,(DE)")
	case 4:
		d.str("LD (")
		d.imm16()
		d.str("),")
		d.str(hlNames[idx])
	case 5:
		d.str("LD ")
		d.str(hlNames[idx])
		d.str(",(")
		d.imm16()
		d.str(")")
	case 6:
		d.str("LD (")
		d.imm16()
		d.str("),A")
	case 7:
		d.str("LD A,(")
		d.imm16()
		d.str(")")
	}
}

// cb decodes CB xx: rotates and shifts, BIT, RES and SET. CB 30-37 is SLL
// (UZD; disasm-player-notes.md).
func (d *decoder) cb() {
	op := d.fetch()
	x, y, z := op>>6, op>>3&7, op&7
	d.bitOp(x, y)
	d.str(regs[z])
}

// bitOp writes the operation of a CB opcode up to its operand.
func (d *decoder) bitOp(x, y byte) {
	if x == 0 {
		d.str(rotations[y])
		d.str(" ")
		return
	}
	d.str([4]string{"", "BIT ", "RES ", "SET "}[x])
	d.text = append(d.text, '0'+y, ',')
}

// indexCB decodes DD CB d op and FD CB d op, where the displacement comes
// before the opcode. Every form works on (IX+d); a register field other
// than 6 also copies the result into that register, which the player
// writes as a second operand, plain B to A, except for BIT, which writes
// nothing (UZD, "DDCB/FDCB prefixes"; disasm-player-notes.md).
func (d *decoder) indexCB(idx int) {
	disp := d.fetch()
	op := d.fetch()
	x, y, z := op>>6, op>>3&7, op&7
	d.bitOp(x, y)
	d.indexed(idx, disp)
	if z != 6 && x != 1 {
		d.str(",")
		d.str(regs[z])
	}
}

// ed decodes ED xx. Opcodes the processor does nothing with are NOP, two
// bytes, as the player writes them, save ED FF, which the spec names BRK
// as WinAPE does, its debugger's breakpoint.
func (d *decoder) ed() {
	op := d.fetch()
	x, y, z := op>>6, op>>3&7, op&7
	p, q := y>>1, y&1
	switch {
	case x == 1:
		d.ed1(y, z, p, q)
	case x == 2 && z <= 3 && y >= 4:
		d.str(blockOps[y-4][z])
	case op == 0xff:
		d.str("BRK")
	default:
		d.str("NOP")
	}
}

// ed1 is ED 40-7F.
func (d *decoder) ed1(y, z, p, q byte) {
	switch z {
	case 0:
		// ED 70 reads the port only for the flags (UZD); the player
		// writes IN (C).
		if y == 6 {
			d.str("IN (C)")
			return
		}
		d.str("IN ")
		d.str(regs[y])
		d.str(",(C)")
	case 1:
		// ED 71 puts 0 on an NMOS part's bus (UZD).
		if y == 6 {
			d.str("OUT (C),0")
			return
		}
		d.str("OUT (C),")
		d.str(regs[y])
	case 2:
		if q == 0 {
			d.str("SBC HL,")
		} else {
			d.str("ADC HL,")
		}
		d.str(pairs[p])
	case 3:
		if q == 0 {
			d.str("LD (")
			d.imm16()
			d.str("),")
			d.str(pairs[p])
		} else {
			d.str("LD ")
			d.str(pairs[p])
			d.str(",(")
			d.imm16()
			d.str(")")
		}
	case 4:
		d.str("NEG")
	case 5:
		// RETI is ED 4D alone; the player writes the mirrors RETN.
		if y == 1 {
			d.str("RETI")
		} else {
			d.str("RETN")
		}
	case 6:
		d.str("IM ")
		d.str(interruptModes[y])
	case 7:
		d.str(edLoads[y])
	}
}
