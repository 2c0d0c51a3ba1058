// Package z80 is the Zilog Z80 processor, NMOS, exact to the T-state.
//
// The processor knows no machine. It talks to the board it is soldered to
// through a Bus, one call per machine cycle, and the board answers with the
// byte on the data bus. Time is the processor's Tick, counted in T-states
// since power-on; the board stretches a cycle, as the silicon's WAIT input
// does, by adding to Tick while it answers.
//
// The unit of execution is one opcode fetch (Exec). A DD or FD prefix is
// fetched alone and leaves Prefix set, because the silicon samples neither
// INT nor NMI until the instruction it prefixes is done; Step runs whole
// instructions and takes an interrupt where one is pending. A board that
// interleaves other chips runs:
//
//	for cpu.Tick < target {
//		cpu.Exec()
//		if cpu.Prefix == 0 {
//			// catch the other chips up; set cpu.INT and cpu.NMI
//			if cpu.Interruptible() {
//				cpu.Interrupt()
//			}
//		}
//	}
//
// Ending with Prefix set is "unsettled"; ending with Halted and IFF1 clear,
// and no NMI latched, is "halted" for good.
//
// # Choices where the silicon leaves room
//
// HALT keeps PC on the HALT opcode, as the FUSE tests have done since 2015:
// each Exec while halted is a 4 T-state M1 at PC whose byte is ignored, and
// the response to an interrupt moves PC past the HALT before it pushes it.
// The return address is the one the silicon pushes; only the address of the
// idle fetches is the model's.
//
// Interrupt mode 0 executes the instruction the interrupting device puts on
// the data bus during the acknowledge (UM0080, "Interrupt Response", mode
// 0). This package executes it when it is an RST, the only instruction a
// device in practice gives there, and RST &38 for any other byte. Neither
// the Amstrad CPC nor the ZX Spectrum drives the data bus during the
// acknowledge, so it floats to &FF, which is RST &38; FUSE makes the same
// assumption for the Spectrum and runs IM 0 as RST &38. An instruction of
// several bytes fed by a device (a CALL, as some 8080-era boards gave) is
// not modelled, since no board this package serves can give one.
//
// Sources, cited at the lines that depend on them:
//   - Zilog, "Z80 CPU User Manual" UM0080 (UM0080): cycle shapes, the
//     T-states of WAIT sampling, the interrupt responses, the instruction
//     set and its documented flags.
//   - Sean Young, "The Undocumented Z80 Documented" v0.91 (UZD): the X and
//     Y flags, SLL, the undocumented ED and DDCB forms, the block
//     instructions' flags, power-on values.
//   - "MEMPTR, esoteric register of the Z80" (boo_boo and Vladimir Kladov,
//     2006; MEMPTR): WZ.
//   - Patrik Rak's 2018 finding on Q (Rak 2018): SCF and CCF take X and Y
//     from (Q^F)|A, where Q is F if the instruction before set the flags,
//     else 0; as the FUSE and SingleStepTests corpora encode it.
//   - David Banks and Peter Helcmanovsky's 2018 findings on the repeating
//     block instructions (Banks 2018; hoglet67/Z80Decoder, "Undocumented
//     Flags"): X and Y from PC, and P/V and H of INxR/OTxR, on a repeat.
//   - Cristian Dinu, "Decoding Z80 Opcodes" (z80.info): a DD or FD that
//     is followed by another prefix is a NONI, no operation and no
//     interrupt after it.
//   - The FUSE tests (FUSE), for which internal T-states carry which address
//     (their MC events), and the SingleStepTests corpus (made from the Ares
//     emulator's Z80 core, corrected), which samples the bus at every
//     T-state and agrees with FUSE on those addresses.
package z80

import "fmt"

// Bus is the board around the processor. Each method is one machine cycle.
//
// When a method is called, CPU.Tick holds the tick at which the cycle's T1
// begins. The board may add wait states by adding to CPU.Tick during the
// call; the processor then adds the cycle's own length. A board that wants
// to know when WAIT is sampled, or when a strobe falls, works it out from
// T1 and the offsets given on each method (UM0080, "Timing": figures
// "Instruction Op Code Fetch", "Memory Read or Write Cycles", "Input or
// Output Cycles", "Interrupt Request/Acknowledge Cycle").
//
// For every call, CPU.InstrPC is the address at which the instruction that
// makes the access began (its first prefix, if it has any). During the
// response to an interrupt, which no instruction makes, CPU.Responding is
// set and InstrPC is the address the response will push.
type Bus interface {
	// Fetch is an M1 opcode fetch: 4 T-states. The address is on the bus
	// in T1 and T2 and the opcode is latched at the rising edge of T3;
	// in T3 and T4 the refresh address I:R is on the bus, with R as it
	// stands when Fetch is called (the fetch increments it afterwards).
	// WAIT is sampled on the falling edge of T2 (T1+1) (UM0080, "Instruction
	// Op Code Fetch").
	Fetch(addr uint16) byte
	// Read is a memory read: 3 T-states. WAIT is sampled on the falling
	// edge of T2 (T1+1); the byte is latched on the falling edge of T3
	// (UM0080, "Memory Read or Write Cycles").
	Read(addr uint16) byte
	// Write is a memory write: 3 T-states. /WR falls in T2, when the
	// byte is already on the data bus; WAIT is sampled on the falling
	// edge of T2 (T1+1) (UM0080, "Memory Read or Write Cycles").
	Write(addr uint16, v byte)
	// In is an I/O read: 4 T-states, T1, T2, the automatic wait state TW,
	// and T3. /IORQ and /RD fall in T2; WAIT is sampled on the falling
	// edge of TW (T1+2); the byte is latched on the falling edge of T3
	// (UM0080, "Input or Output Cycles").
	In(port uint16) byte
	// Out is an I/O write: 4 T-states, shaped and sampled as In, with
	// /WR instead of /RD.
	Out(port uint16, v byte)
	// Internal is n T-states in which the processor works inside itself
	// while addr stays on the address bus, with no strobe: no memory or
	// I/O request, so no WAIT is sampled. A ZX Spectrum's ULA contends
	// such T-states all the same, by the address alone; FUSE logs each as
	// an MC event.
	Internal(addr uint16, n int)
	// Acknowledge is the M1 cycle that acknowledges a maskable
	// interrupt: 6 T-states, T1, T2, two automatic wait states and T3,
	// T4, with /IORQ instead of /MREQ and no address of interest; I:R
	// is on the bus for the refresh in T3 and T4, with R as it stands when
	// Acknowledge is called. The board returns the byte the interrupting
	// device puts on the data bus. WAIT is sampled on the falling edge of
	// the second wait state (T1+3) (UM0080, "Interrupt Request/Acknowledge
	// Cycle").
	Acknowledge() byte
}

// MaxTick is the largest tick a processor counts to: 2^62 T-states, over a
// million years of a CPC's time, and far enough below 2^64 that no sum a
// board makes of a tick and a span wraps. A board refuses to run past it.
const MaxTick = 1 << 62

// CPU is the processor's state: every register the silicon holds, and the
// few latches that decide what it does next. The inspect tags name each
// field as inspect, set and the state file read it; the alternate registers
// take a trailing underscore.
type CPU struct {
	A  byte `inspect:"a"`
	F  byte `inspect:"f"` // flags: S Z Y H X P/V N C, bit 7 to bit 0
	B  byte `inspect:"b"`
	C  byte `inspect:"c"`
	D  byte `inspect:"d"`
	E  byte `inspect:"e"`
	H  byte `inspect:"h"`
	L  byte `inspect:"l"`
	A_ byte `inspect:"a_"` // the alternate set: AF', BC', DE', HL'
	F_ byte `inspect:"f_"`
	B_ byte `inspect:"b_"`
	C_ byte `inspect:"c_"`
	D_ byte `inspect:"d_"`
	E_ byte `inspect:"e_"`
	H_ byte `inspect:"h_"`
	L_ byte `inspect:"l_"`

	IX uint16 `inspect:"ix"`
	IY uint16 `inspect:"iy"`
	SP uint16 `inspect:"sp"`
	PC uint16 `inspect:"pc"`
	// WZ is MEMPTR, the hidden address latch. Instructions that compute an
	// address leave it there, and BIT n,(HL) shows its bits 13 and 11 in F
	// (MEMPTR; UZD).
	WZ uint16 `inspect:"wz"`

	I byte `inspect:"i"` // the interrupt vector's high byte, and refresh's
	// R is the refresh counter. Each M1 adds one to its low seven bits;
	// bit 7 changes only by LD R,A (UM0080, "Refresh Register").
	R  byte `inspect:"r"`
	IM byte `inspect:"im"` // interrupt mode: 0, 1 or 2

	// IFF1 enables the maskable interrupt; IFF2 keeps its value through an
	// NMI's response, for RETN to restore (UM0080, "Interrupt Enable/
	// Disable Flip-Flops").
	IFF1 bool `inspect:"iff1"`
	IFF2 bool `inspect:"iff2"`
	// Q is F as the last instruction left it if that instruction computed
	// the flags, else 0. SCF and CCF read it (Rak 2018). A prefix is no
	// instruction and leaves it alone.
	Q byte `inspect:"q"`
	// P is set when the last instruction was LD A,I or LD A,R. An NMOS Z80
	// that accepts an interrupt right after one clears P/V, whatever IFF2
	// gave it (UM0080, LD A,I: "If an interrupt occurs during execution of
	// this instruction, the Parity flag contains a 0").
	P bool `inspect:"p"`
	// EI is set when the last instruction was EI: the maskable interrupt
	// waits for one more instruction (UM0080, EI).
	EI bool `inspect:"ei"`
	// Halted is set inside HALT. PC stays on the HALT opcode (FUSE, since
	// 2015); the response to an interrupt moves it on (LeaveHalt).
	Halted bool `inspect:"halted"`
	// Prefix is &DD or &FD after a prefix whose instruction is not yet
	// done, else 0. Neither interrupt is accepted while it is set.
	Prefix byte `inspect:"prefix"`
	// INT is the /INT line, a level the board holds; the processor samples
	// it between instructions when IFF1 is set.
	INT bool `inspect:"int"`
	// NMI latches a falling edge on /NMI, which the board records by
	// setting it; the response clears it (UM0080, "Non-Maskable
	// Interrupt").
	NMI bool `inspect:"nmi"`
	// InstrPC is where the instruction under way began, prefixes included.
	InstrPC uint16 `inspect:"instr_pc"`
	// Tick counts T-states since power-on, or since the snapshot the board
	// started from. Only running moves it: set may not (T-1), though a
	// state's restore puts it back. It holds at most MaxTick.
	Tick uint64 `inspect:"tick,readonly,max=&4000000000000000"`
	// Responding is set only inside Interrupt, while the response makes
	// its bus cycles, which belong to no instruction.
	Responding bool `inspect:"-"`
	// Operand is set only while Bus.Read fetches a byte of the instruction
	// itself, after its opcodes: an operand, a displacement, or the opcode
	// a DD CB or FD CB instruction reads after its displacement. The bus
	// cannot tell those from a read of data; a board that watches reads
	// needs to (spec, "Stopping and watching": "The bytes of an
	// instruction are never one", a read; RD-1).
	Operand bool `inspect:"-"`

	Bus Bus `inspect:"-"`
}

// The flags in F (UM0080, "Flag Register"; UZD for X and Y, which copy bits
// 3 and 5 of a result that each instruction chooses).
const (
	FlagC  = 0x01 // carry
	FlagN  = 0x02 // add/subtract, for DAA
	FlagPV = 0x04 // parity or overflow
	FlagX  = 0x08 // bit 3, undocumented
	FlagH  = 0x10 // half carry
	FlagY  = 0x20 // bit 5, undocumented
	FlagZ  = 0x40 // zero
	FlagS  = 0x80 // sign
)

// Reset puts the processor in its power-on state, keeping the board's Bus,
// the INT line the board holds, and Tick, which belongs to the board's
// clock. /RESET clears PC, I, R, IFF1, IFF2 and the interrupt mode (UM0080,
// "Pin Functions", RESET); at power-on AF and SP read &FFFF (UZD, "Power on
// defaults"). The other registers power up undefined; this package gives
// them the values FUSE's z80_reset gives on a hard reset, which the
// emulator the specification is written from follows: AF and AF' &FFFF,
// SP &FFFF, and BC, DE, HL, their alternates, IX, IY and WZ 0. The 48K
// ROM's start-up leaves BC' in BC and IX as they powered up, and pushes BC'
// and HL', so a snapshot after it holds them (issue 19, item 13).
func (c *CPU) Reset() {
	*c = CPU{
		A: 0xff, F: 0xff, A_: 0xff, F_: 0xff,
		SP:   0xffff,
		INT:  c.INT,
		Tick: c.Tick,
		Bus:  c.Bus,
	}
}

// Exec runs one opcode fetch and what it begins: a whole instruction, or a
// lone DD or FD prefix, which leaves Prefix set for the next Exec. While
// halted it runs one idle M1 at PC.
func (c *CPU) Exec() {
	if c.Prefix != 0 {
		c.execPrefixed()
		return
	}
	c.InstrPC = c.PC
	if c.Halted {
		c.haltM1()
		return
	}
	// The M1, written out rather than called: this is the hottest line.
	op := c.Bus.Fetch(c.PC)
	c.PC++
	c.refresh()
	c.Tick += 4
	if op|0x20 == 0xfd { // DD or FD: no instruction yet
		c.Prefix = op
		return
	}
	q := c.Q
	c.Q, c.P, c.EI = 0, false, false
	c.base(op, q)
}

// execPrefixed runs the opcode after a DD or FD prefix.
func (c *CPU) execPrefixed() {
	op := c.fetch()
	if op|0x20 == 0xfd {
		// Another prefix: the one before it is forgotten, and the chain
		// still holds off interrupts. A prefix no opcode uses is a NONI,
		// "no operation, no interrupt" (Dinu, "Decoding Z80 Opcodes").
		c.Prefix = op
		return
	}
	prefix := c.Prefix
	c.Prefix = 0
	q := c.Q
	c.Q, c.P, c.EI = 0, false, false
	if prefix == 0xdd {
		c.index(op, &c.IX, q)
	} else {
		c.index(op, &c.IY, q)
	}
}

// haltM1 is one M1 cycle inside HALT: the processor fetches at PC and
// ignores the byte, so that refresh goes on (UM0080, HALT: "the CPU
// executes NOPs to maintain memory refresh").
func (c *CPU) haltM1() {
	c.Bus.Fetch(c.PC)
	c.refresh()
	c.Tick += 4
	c.Q, c.P, c.EI = 0, false, false
}

// Step runs one instruction to its end, prefixes and all, and then the
// response to an interrupt if one is accepted there.
func (c *CPU) Step() {
	c.Exec()
	for c.Prefix != 0 {
		c.Exec()
	}
	if c.Interruptible() {
		c.Interrupt()
	}
}

// LeaveHalt ends HALT as an interrupt's response does: PC moves past the
// HALT opcode it was kept on. It does nothing when the processor is not
// halted.
func (c *CPU) LeaveHalt() {
	if c.Halted {
		c.Halted = false
		c.PC++
	}
}

// Validate reports a field that holds a value the processor cannot hold,
// naming it as inspect does: for set and for state files.
func (c *CPU) Validate() error {
	if c.IM > 2 {
		return &FieldError{Field: "im", Value: uint64(c.IM), Want: "0, 1 or 2"}
	}
	if c.Prefix != 0 && c.Prefix != 0xdd && c.Prefix != 0xfd {
		return &FieldError{Field: "prefix", Value: uint64(c.Prefix), Want: "0, &DD or &FD"}
	}
	if c.Halted && c.Prefix != 0 {
		return &FieldError{Field: "halted", Value: 1, Want: "0 while prefix is set: HALT is no prefixed instruction"}
	}
	return nil
}

// FieldError is a value a field of the CPU cannot hold.
type FieldError struct {
	Field string // the inspect name
	Value uint64
	Want  string
}

func (e *FieldError) Error() string {
	return fmt.Sprintf("z80: %s = &%02X: must be %s", e.Field, e.Value, e.Want)
}

// The machine cycles, each adding its nominal length to Tick after the
// board has answered (and perhaps added its wait states).

// fetch is an M1 at PC: the opcode, then the refresh, which counts R on.
func (c *CPU) fetch() byte {
	v := c.Bus.Fetch(c.PC)
	c.PC++
	c.refresh()
	c.Tick += 4
	return v
}

// refresh counts R on after an M1's refresh cycle. Bit 7 is kept (UM0080,
// "Refresh Register").
func (c *CPU) refresh() {
	c.R = c.R&0x80 | (c.R+1)&0x7f
}

func (c *CPU) read(addr uint16) byte {
	v := c.Bus.Read(addr)
	c.Tick += 3
	return v
}

func (c *CPU) write(addr uint16, v byte) {
	c.Bus.Write(addr, v)
	c.Tick += 3
}

func (c *CPU) in(port uint16) byte {
	v := c.Bus.In(port)
	c.Tick += 4
	return v
}

func (c *CPU) out(port uint16, v byte) {
	c.Bus.Out(port, v)
	c.Tick += 4
}

func (c *CPU) internal(addr uint16, n int) {
	c.Bus.Internal(addr, n)
	c.Tick += uint64(n)
}

// imm reads the byte at PC, an operand.
func (c *CPU) imm() byte {
	c.Operand = true
	v := c.read(c.PC)
	c.Operand = false
	c.PC++
	return v
}

// imm16 reads a little-endian word at PC, low byte first.
func (c *CPU) imm16() uint16 {
	lo := c.imm()
	hi := c.imm()
	return uint16(hi)<<8 | uint16(lo)
}

// push writes a word below SP, high byte first (UM0080, PUSH).
func (c *CPU) push(v uint16) {
	c.SP--
	c.write(c.SP, byte(v>>8))
	c.SP--
	c.write(c.SP, byte(v))
}

// pop reads the word at SP, low byte first.
func (c *CPU) pop() uint16 {
	lo := c.read(c.SP)
	c.SP++
	hi := c.read(c.SP)
	c.SP++
	return uint16(hi)<<8 | uint16(lo)
}

// The register pairs.

func (c *CPU) bc() uint16 { return uint16(c.B)<<8 | uint16(c.C) }
func (c *CPU) de() uint16 { return uint16(c.D)<<8 | uint16(c.E) }
func (c *CPU) hl() uint16 { return uint16(c.H)<<8 | uint16(c.L) }

// ir is the address the processor leaves on the bus after a refresh, which
// internal T-states that follow an M1 hold (FUSE: their MC events).
func (c *CPU) ir() uint16 { return uint16(c.I)<<8 | uint16(c.R) }

func (c *CPU) setBC(v uint16) { c.B, c.C = byte(v>>8), byte(v) }
func (c *CPU) setDE(v uint16) { c.D, c.E = byte(v>>8), byte(v) }
func (c *CPU) setHL(v uint16) { c.H, c.L = byte(v>>8), byte(v) }

// reg is register r as opcodes number them: B C D E H L (HL) A, with 6, the
// memory operand, left to the caller.
func (c *CPU) reg(r byte) byte {
	switch r {
	case 0:
		return c.B
	case 1:
		return c.C
	case 2:
		return c.D
	case 3:
		return c.E
	case 4:
		return c.H
	case 5:
		return c.L
	}
	return c.A
}

func (c *CPU) setReg(r, v byte) {
	switch r {
	case 0:
		c.B = v
	case 1:
		c.C = v
	case 2:
		c.D = v
	case 3:
		c.E = v
	case 4:
		c.H = v
	case 5:
		c.L = v
	case 7:
		c.A = v
	}
}
