// Package disasm reads memory as the instructions a Z80 would run: the
// engine of the disassemble tool.
//
// It knows no machine. It reads a 64K through a Memory, a function from an
// address to the byte there, so a caller lists memory as the processor
// reads it through banking and ROMs (a machine's Peek), or a RAM by its own
// addresses, wrapping within its 64K, by giving a function that reads the
// RAM alone. Addresses wrap at &FFFF, as the processor's do.
//
// Each instruction comes with its address, its bytes and its text. The
// text follows colophon-player's disassembler, as the spec asks
// (../shared/testdata/disasm): Zilog's mnemonics in upper case, numbers in
// hexadecimal after &, two digits for a byte and four for a word, an index
// displacement as a sign and a byte, (IX+&05) or (IX-&05), and a relative
// jump's target worked out. Two things differ from the player, by the
// spec: ED FF is BRK, as WinAPE names it, and a chain of DD and FD prefixes
// is one instruction, as the processor's step runs it, ruled by its last
// prefix: its bytes are the whole chain and what follows it, and its text
// is that of the last prefix's instruction, so DD FD 21 34 12 is
// LD IY,&1234, five bytes. A prefix that changes nothing is likewise
// silent: DD 00 is NOP, two bytes. A chain longer than MaxChain prefixes,
// which the processor runs a prefix at a time for as long as it lasts, is
// listed in pieces as the processor meets them: MaxChain prefixes at a time
// as NONI ("no operation, no interrupt", Dinu, "Decoding Z80 Opcodes"),
// then the last of them with their instruction. So every instruction
// listed is short, and each listing moves on: memory that is prefixes all
// the way round is NONI after NONI.
//
// With a CPC's Firmware, a listing also follows the firmware (spec,
// "Reading memory as instructions"; SOFT 968). A JP, CALL, JR or DJNZ to an
// entry of the main jumpblock, the high kernel's or the indirections
// carries the entry's name in Name, and an instruction that begins at an
// entry carries its name in Label. A LOW JUMP, SIDE CALL, FAR CALL or FIRM
// JUMP restart is listed with the word after it as one instruction, its
// Word, as long as the three bytes at the restart's address, in the memory
// read, are the lower ROM's.
package disasm

import (
	"errors"
	"fmt"
)

// Memory reads the byte at an address of the 64K a listing reads. It is
// called for the bytes of the instructions listed, and for the first three
// bytes at a firmware restart's address, and must not change the memory.
type Memory func(addr uint16) byte

// Instruction is one instruction of a listing.
type Instruction struct {
	// Addr is where the instruction begins.
	Addr uint16
	// Bytes are every byte of it: prefixes, operands and a firmware
	// restart's word included. They may run past &FFFF to &0000.
	Bytes []byte
	// Text is the instruction alone: "LD A,(IX-&05)", "CALL &BB18",
	// "RST &18".
	Text string
	// Word is a firmware restart's word, "DEFW &93FE"; empty for any other
	// instruction.
	Word string
	// Target is where a firmware restart with a Word sends the processor,
	// worked out from the word as the restart reads it (restart.go); the
	// zero Target, In NoBank, for any other instruction.
	Target Target
	// Name is the name SOFT 968 gives the jumpblock entry a JP, CALL, JR
	// or DJNZ goes to, "KM WAIT KEY"; empty when there is none.
	Name string
	// Label is the name of the jumpblock entry that begins at Addr;
	// empty when there is none.
	Label string
}

// Len is the instruction's length in bytes.
func (in Instruction) Len() int { return len(in.Bytes) }

// Next is the address after the instruction, where a listing reads on.
func (in Instruction) Next() uint16 { return in.Addr + uint16(len(in.Bytes)) }

// String is the instruction's stable one-line form: its Text, then its
// Word after " : ", as an assembler writes two statements on a line, then
// its Name as a comment after " ; ". So "CALL &BB18 ; KM WAIT KEY" and
// "RST &18 : DEFW &93FE". The Label is not part of it.
func (in Instruction) String() string {
	s := in.Text
	if in.Word != "" {
		s += " : " + in.Word
	}
	if in.Name != "" {
		s += " ; " + in.Name
	}
	return s
}

// Options say which firmware a listing follows.
type Options struct {
	// Firmware is the CPC firmware whose names the listing gives and whose
	// restarts it lists with their words; NoFirmware for plain Z80.
	Firmware Firmware
	// LowerROM is the CPC's lower ROM from &0000: at least its first &2B
	// bytes, to the end of FIRM JUMP's. A restart is listed with its word
	// only while the three bytes at its address, in the memory read, equal
	// these. Required with a Firmware, refused without one.
	LowerROM []byte
}

// Disassembler lists instructions, following a firmware or none. Its zero
// value lists plain Z80. It holds no state between calls and is safe for
// concurrent use.
type Disassembler struct {
	firmware Firmware
	lowerROM [lowerROMNeeded]byte // with a firmware
}

// New returns a Disassembler for the options, or an error naming the
// option that is wrong.
func New(opts Options) (*Disassembler, error) {
	d := &Disassembler{firmware: opts.Firmware}
	switch {
	case opts.Firmware > CPC6128:
		return nil, fmt.Errorf("disasm: Firmware %d is not a firmware (%s, %s, %s or %s)", opts.Firmware, NoFirmware, CPC464, CPC664, CPC6128)
	case opts.Firmware == NoFirmware && opts.LowerROM != nil:
		return nil, errors.New("disasm: LowerROM given without a Firmware: the restarts' words are a CPC firmware's")
	case opts.Firmware != NoFirmware && len(opts.LowerROM) < lowerROMNeeded:
		return nil, fmt.Errorf("disasm: LowerROM is %d bytes; %s needs at least &%02X, through FIRM JUMP's three at &0028", len(opts.LowerROM), opts.Firmware, lowerROMNeeded)
	}
	copy(d.lowerROM[:], opts.LowerROM)
	return d, nil
}

// MaxCount is the most instructions one List returns: one for each
// address of the 64K.
const MaxCount = 0x10000

// Decode reads the one instruction at addr.
func (d *Disassembler) Decode(mem Memory, addr uint16) Instruction {
	dec := decoder{mem: mem}
	return d.decode(&dec, addr)
}

// List reads count instructions from addr on, each beginning where the one
// before it ends. A firmware restart and its word count as one.
func (d *Disassembler) List(mem Memory, addr uint16, count int) ([]Instruction, error) {
	return d.ListWithin(mem, addr, count, 0)
}

// ListWithin is List that stops short of count where the bytes listed
// would pass most, so that an answer of the listing keeps to a budget
// however long its instructions are; it lists one instruction at least.
// most 0 is no budget.
func (d *Disassembler) ListWithin(mem Memory, addr uint16, count, most int) ([]Instruction, error) {
	if count < 0 || count > MaxCount {
		return nil, fmt.Errorf("disasm: count %d is outside 0 to %d", count, MaxCount)
	}
	if mem == nil {
		return nil, errors.New("disasm: no Memory to read")
	}
	out := make([]Instruction, 0, count)
	// The bytes of every instruction share one array, which append grows
	// when the instructions are longer than most.
	dec := decoder{mem: mem, buf: make([]byte, 0, 3*count)}
	for range count {
		in := d.decode(&dec, addr)
		if most > 0 && len(out) > 0 && len(dec.buf) > most {
			break
		}
		out = append(out, in)
		addr = in.Next()
	}
	return out, nil
}

// decode reads the instruction at addr, and a firmware restart's word
// after it, appending the bytes to dec.buf.
func (d *Disassembler) decode(dec *decoder, addr uint16) Instruction {
	start := len(dec.buf)
	dec.addr, dec.n, dec.text = addr, 0, dec.text[:0]
	dec.decode()
	in := Instruction{Addr: addr, Text: string(dec.text)}
	if d.firmware != NoFirmware && dec.restart != noTarget && restartsWithWord[dec.restart>>3] && d.isLowerROMs(dec.mem, uint16(dec.restart)) {
		dec.text = append(dec.text[:0], "DEFW "...)
		w := dec.word()
		dec.hex16(w)
		in.Word = string(dec.text)
		in.Target = restartTarget(dec.restart>>3, w, dec.mem)
	}
	end := len(dec.buf)
	in.Bytes = dec.buf[start:end:end]
	if d.firmware != NoFirmware {
		if dec.target != noTarget {
			in.Name, _ = d.firmware.EntryAt(uint16(dec.target))
		}
		in.Label, _ = d.firmware.EntryAt(addr)
	}
	return in
}

// isLowerROMs reports whether the restart at vector is the firmware's: the
// first three bytes there, in the memory read, are the lower ROM's, in the
// ROM itself or in the RAM copy the firmware keeps beneath it. A program
// that disables the ROM may put a restart of its own there, which takes no
// word (spec, "Reading memory as instructions": Aliens' RST &28).
func (d *Disassembler) isLowerROMs(mem Memory, vector uint16) bool {
	for i := uint16(0); i < 3; i++ {
		if mem(vector+i) != d.lowerROM[vector+i] {
			return false
		}
	}
	return true
}
