// The FUSE core tests: 1356 instructions from a given state, each checked
// against its final registers, MEMPTR, I, R, IFF1, IFF2, IM, halted and
// T-states, against the memory it changed, and against every bus event
// FUSE's test harness logs, at its T-state. The format is in
// shared/testdata/z80/fuse/README.
//
//	go test ./internal/chip/z80/ -run 'TestFUSE' -v
//	go test ./internal/chip/z80/ -run 'TestFUSE/^edb0$' -v
package z80_test

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"colophon/internal/chip/z80"
	"colophon/internal/shared"
)

// fuseTests is how many tests tests.in holds.
const fuseTests = 1356

// fuseRegs is the state of the processor as both files give it: AF BC DE HL
// AF' BC' DE' HL' IX IY SP PC MEMPTR, then I R IFF1 IFF2 IM halted tstates.
type fuseRegs struct {
	words      [13]uint16
	i, r       byte
	iff1, iff2 bool
	im         byte
	halted     bool
	tstates    uint64
}

// fuseBlock is bytes at consecutive addresses.
type fuseBlock struct {
	addr  uint16
	bytes []byte
}

type fuseInput struct {
	name   string
	regs   fuseRegs
	memory []fuseBlock
}

type fuseExpected struct {
	name    string
	events  []string
	regs    fuseRegs
	changed []fuseBlock
}

// fuseBus is FUSE's test harness as a board: 64K of RAM, every cycle logged
// as FUSE's coretest logs it, and I/O that answers the port's high byte.
type fuseBus struct {
	cpu    *z80.CPU
	mem    [1 << 16]byte
	events []string

	// disp is the index in events of the MR of a relative jump's
	// displacement, until the jump is seen taken; -1 when none is pending.
	// See untakenJump.
	disp     int
	dispAddr uint16
}

// isRelativeJump reports whether op is DJNZ or JR cc, whose displacement is
// read whether or not the jump is taken.
func isRelativeJump(op byte) bool {
	switch op {
	case 0x10, 0x20, 0x28, 0x30, 0x38:
		return true
	}
	return false
}

// untakenJump accounts for the one way FUSE's log departs from the bus: a
// relative jump that is not taken. FUSE's core then contends for the
// displacement's read but skips the read itself, so its log holds the MC
// and no MR (tests 10, 20_2, 28_1, 30_2, 38_1). The silicon reads the byte
// all the same: M2 of DJNZ and JR cc,e is a memory read whether or not the
// condition holds (UM0080, JR C,e: "If condition is not met", 2 M-cycles,
// 7 T-states, 4 and 3), and SingleStepTests' files 10, 20, 28, 30 and 38
// show RD and MREQ in that cycle. So the processor reads it, and after each
// Exec this harness drops the MR of a displacement whose 5 T-state addition
// (Internal on its address) never came.
func (b *fuseBus) untakenJump() {
	if b.disp >= 0 {
		b.events = append(b.events[:b.disp], b.events[b.disp+1:]...)
		b.disp = -1
	}
}

func (b *fuseBus) log(t uint64, kind string, addr uint16) {
	b.events = append(b.events, fmt.Sprintf("%5d %s %04x", t, kind, addr))
}

func (b *fuseBus) logData(t uint64, kind string, addr uint16, v byte) {
	b.events = append(b.events, fmt.Sprintf("%5d %s %04x %02x", t, kind, addr, v))
}

// Memory: FUSE logs the contention check (MC) at T1 and the access at the
// end of the cycle, T1+4 for an M1 and T1+3 otherwise.
func (b *fuseBus) Fetch(addr uint16) byte {
	t := b.cpu.Tick
	b.log(t, "MC", addr)
	b.logData(t+4, "MR", addr, b.mem[addr])
	return b.mem[addr]
}

func (b *fuseBus) Read(addr uint16) byte {
	t := b.cpu.Tick
	b.log(t, "MC", addr)
	if pc := b.cpu.InstrPC; addr == pc+1 && isRelativeJump(b.mem[pc]) {
		b.disp, b.dispAddr = len(b.events), addr
	}
	b.logData(t+3, "MR", addr, b.mem[addr])
	return b.mem[addr]
}

func (b *fuseBus) Write(addr uint16, v byte) {
	t := b.cpu.Tick
	b.log(t, "MC", addr)
	b.logData(t+3, "MW", addr, v)
	b.mem[addr] = v
}

// Internal: one MC per T-state, with the address held.
func (b *fuseBus) Internal(addr uint16, n int) {
	if b.disp >= 0 && addr == b.dispAddr && n == 5 {
		b.disp = -1 // the jump is taken: its displacement was used
	}
	for i := range n {
		b.log(b.cpu.Tick+uint64(i), "MC", addr)
	}
}

// I/O: FUSE's harness models a Spectrum's ULA contending the port. Before
// the access, a port whose high byte is &40-&7F is contended (PC at T1);
// the access is logged at T1+1; after it, an even port is contended once
// (PC at T1+1), and an odd one in &40-&7F three times (T1+1 to T1+3). A read
// answers the port's high byte.
func (b *fuseBus) portEvents(port uint16, kind string, v byte) {
	t := b.cpu.Tick
	ula := port&0xc000 == 0x4000
	if ula {
		b.log(t, "PC", port)
	}
	b.logData(t+1, kind, port, v)
	switch {
	case port&1 == 0:
		b.log(t+1, "PC", port)
	case ula:
		for i := uint64(1); i <= 3; i++ {
			b.log(t+i, "PC", port)
		}
	}
}

func (b *fuseBus) In(port uint16) byte {
	v := byte(port >> 8)
	b.portEvents(port, "PR", v)
	return v
}

func (b *fuseBus) Out(port uint16, v byte) { b.portEvents(port, "PW", v) }

func (b *fuseBus) Acknowledge() byte {
	b.events = append(b.events, "unexpected interrupt acknowledge")
	return 0xff
}

func TestFUSE(t *testing.T) {
	inputs, err := readFuseInputs(shared.TestPath(t, "testdata", "z80", "fuse", "tests.in"))
	if err != nil {
		t.Fatal(err)
	}
	expected, err := readFuseExpected(shared.TestPath(t, "testdata", "z80", "fuse", "tests.expected"))
	if err != nil {
		t.Fatal(err)
	}
	if len(inputs) != fuseTests {
		t.Fatalf("tests.in: %d tests, want %d", len(inputs), fuseTests)
	}
	if len(expected) != len(inputs) {
		t.Fatalf("tests.expected: %d results for %d tests", len(expected), len(inputs))
	}
	passed := 0
	for i, in := range inputs {
		want := expected[i]
		if want.name != in.name {
			t.Fatalf("test %d: tests.in names it %q, tests.expected %q", i, in.name, want.name)
		}
		if t.Run(in.name, func(t *testing.T) { runFuse(t, in, want) }) {
			passed++
		}
	}
	t.Logf("FUSE: %d of %d tests pass", passed, len(inputs))
}

// runFuse runs one test as FUSE's coretest does: instructions until the
// tick reaches the test's tstates, the last one completing, prefixes
// included.
func runFuse(t *testing.T, in fuseInput, want fuseExpected) {
	var cpu z80.CPU
	bus := &fuseBus{cpu: &cpu, disp: -1}
	cpu.Reset()
	cpu.Bus = bus
	setFuseRegs(&cpu, in.regs)
	for _, blk := range in.memory {
		for i, v := range blk.bytes {
			bus.mem[blk.addr+uint16(i)] = v
		}
	}
	initial := bus.mem

	for cpu.Tick < in.regs.tstates || cpu.Prefix != 0 {
		cpu.Exec()
		bus.untakenJump()
	}

	if got, w := strings.Join(bus.events, "\n"), strings.Join(want.events, "\n"); got != w {
		t.Errorf("events differ:\n%s", diffLines(bus.events, want.events))
	}
	got, wantRegs := fuseRegsOf(&cpu), want.regs
	if op := blockRepeat(&cpu, bus); op != 0 {
		// FUSE's core predates what Banks and Helcmanovsky found in 2018
		// (hoglet67/Z80Decoder, "Undocumented Flags"): while a block
		// instruction repeats, X and Y show bits 13 and 11 of PC; and
		// INxR and OTxR amend H and P/V and leave WZ at PC+1, as they
		// do for LDxR and CPxR. FUSE gives the flags of the single
		// instruction and, for the I/O ones, its WZ (tests edb2_1,
		// edb3_1, edb9_2, edba_1, edbb_1). The SingleStepTests corpus
		// checks these bits and WZ on every repeating block
		// instruction; here they are left out of the comparison, and
		// every other bit is held to FUSE.
		mask := byte(z80.FlagX | z80.FlagY)
		if op&2 != 0 { // INIR, INDR, OTIR, OTDR
			mask |= z80.FlagH | z80.FlagPV
			got.words[12], wantRegs.words[12] = 0, 0
		}
		got.words[0] &^= uint16(mask)
		wantRegs.words[0] &^= uint16(mask)
	}
	if got != wantRegs {
		t.Errorf("registers:\n got %s\nwant %s", fuseRegsOf(&cpu), want.regs)
	}
	wantMem := initial
	for _, blk := range want.changed {
		for i, v := range blk.bytes {
			wantMem[blk.addr+uint16(i)] = v
		}
	}
	if bus.mem != wantMem {
		for a := range bus.mem {
			if bus.mem[a] != wantMem[a] {
				t.Errorf("memory &%04X: got %02x, want %02x (was %02x)", a, bus.mem[a], wantMem[a], initial[a])
			}
		}
	}
}

// blockRepeat returns the second opcode of the instruction the processor
// stands at if it is a repeating block instruction that has just repeated
// (PC back on its ED), else 0.
func blockRepeat(c *z80.CPU, b *fuseBus) byte {
	op := b.mem[c.PC+1]
	if c.PC != c.InstrPC || b.mem[c.PC] != 0xed || op&0xf4 != 0xb0 {
		return 0
	}
	return op
}

func setFuseRegs(c *z80.CPU, r fuseRegs) {
	w := r.words
	c.A, c.F = byte(w[0]>>8), byte(w[0])
	c.B, c.C = byte(w[1]>>8), byte(w[1])
	c.D, c.E = byte(w[2]>>8), byte(w[2])
	c.H, c.L = byte(w[3]>>8), byte(w[3])
	c.A_, c.F_ = byte(w[4]>>8), byte(w[4])
	c.B_, c.C_ = byte(w[5]>>8), byte(w[5])
	c.D_, c.E_ = byte(w[6]>>8), byte(w[6])
	c.H_, c.L_ = byte(w[7]>>8), byte(w[7])
	c.IX, c.IY, c.SP, c.PC, c.WZ = w[8], w[9], w[10], w[11], w[12]
	c.I, c.R = r.i, r.r
	c.IFF1, c.IFF2, c.IM, c.Halted = r.iff1, r.iff2, r.im, r.halted
}

func fuseRegsOf(c *z80.CPU) fuseRegs {
	pair := func(h, l byte) uint16 { return uint16(h)<<8 | uint16(l) }
	return fuseRegs{
		words: [13]uint16{
			pair(c.A, c.F), pair(c.B, c.C), pair(c.D, c.E), pair(c.H, c.L),
			pair(c.A_, c.F_), pair(c.B_, c.C_), pair(c.D_, c.E_), pair(c.H_, c.L_),
			c.IX, c.IY, c.SP, c.PC, c.WZ,
		},
		i: c.I, r: c.R, iff1: c.IFF1, iff2: c.IFF2, im: c.IM, halted: c.Halted,
		tstates: c.Tick,
	}
}

func (r fuseRegs) String() string {
	var b strings.Builder
	for _, w := range r.words {
		fmt.Fprintf(&b, "%04x ", w)
	}
	b2i := func(v bool) int {
		if v {
			return 1
		}
		return 0
	}
	fmt.Fprintf(&b, "| %02x %02x %d %d %d %d %d", r.i, r.r, b2i(r.iff1), b2i(r.iff2), r.im, b2i(r.halted), r.tstates)
	return b.String()
}

// diffLines shows two event lists side by side from the first difference.
func diffLines(got, want []string) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	var b strings.Builder
	fmt.Fprintf(&b, "first difference at event %d\n", i)
	for j := max(0, i-2); j < max(len(got), len(want)) && j < i+8; j++ {
		g, w := "", ""
		if j < len(got) {
			g = got[j]
		}
		if j < len(want) {
			w = want[j]
		}
		mark := " "
		if g != w {
			mark = "*"
		}
		fmt.Fprintf(&b, "%s got %-22q want %q\n", mark, g, w)
	}
	return b.String()
}

// Parsing. Both files are read whole and split into lines; a parse error
// names the file and line.

type lineReader struct {
	path  string
	lines []string
	n     int // lines consumed
}

func newLineReader(path string) (*lineReader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	lr := &lineReader{path: path}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		lr.lines = append(lr.lines, sc.Text())
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return lr, nil
}

func (lr *lineReader) more() bool {
	for lr.n < len(lr.lines) && strings.TrimSpace(lr.lines[lr.n]) == "" {
		lr.n++
	}
	return lr.n < len(lr.lines)
}

func (lr *lineReader) next() (string, error) {
	if lr.n >= len(lr.lines) {
		return "", fmt.Errorf("%s: unexpected end of file", lr.path)
	}
	lr.n++
	return lr.lines[lr.n-1], nil
}

func (lr *lineReader) errorf(format string, args ...any) error {
	return fmt.Errorf("%s:%d: %s", lr.path, lr.n, fmt.Sprintf(format, args...))
}

func parseHex(lr *lineReader, s string, bits int) (uint64, error) {
	v, err := strconv.ParseUint(s, 16, bits)
	if err != nil {
		return 0, lr.errorf("%q is not a %d-bit hex number", s, bits)
	}
	return v, nil
}

// readRegs reads the two register lines.
func readRegs(lr *lineReader) (fuseRegs, error) {
	var r fuseRegs
	line, err := lr.next()
	if err != nil {
		return r, err
	}
	f := strings.Fields(line)
	if len(f) != 13 {
		return r, lr.errorf("want 13 register words, got %d", len(f))
	}
	for i, s := range f {
		v, err := parseHex(lr, s, 16)
		if err != nil {
			return r, err
		}
		r.words[i] = uint16(v)
	}
	if line, err = lr.next(); err != nil {
		return r, err
	}
	f = strings.Fields(line)
	if len(f) != 7 {
		return r, lr.errorf("want I R IFF1 IFF2 IM halted tstates, got %d fields", len(f))
	}
	var v [6]uint64
	for i := range 6 {
		if v[i], err = parseHex(lr, f[i], 8); err != nil {
			return r, err
		}
	}
	r.i, r.r, r.iff1, r.iff2, r.im, r.halted = byte(v[0]), byte(v[1]), v[2] != 0, v[3] != 0, byte(v[4]), v[5] != 0
	if r.tstates, err = strconv.ParseUint(f[6], 10, 64); err != nil {
		return r, lr.errorf("tstates %q is not a decimal number", f[6])
	}
	return r, nil
}

// readMemory reads "addr byte byte ... -1" lines up to a lone "-1" (input)
// or a blank line or the end (expected).
func readMemory(lr *lineReader, endsWithMinusOne bool) ([]fuseBlock, error) {
	var blocks []fuseBlock
	for lr.n < len(lr.lines) {
		line := strings.TrimSpace(lr.lines[lr.n])
		if line == "" {
			if endsWithMinusOne {
				lr.n++
				continue
			}
			break
		}
		lr.n++
		if line == "-1" {
			if endsWithMinusOne {
				return blocks, nil
			}
			return nil, lr.errorf("unexpected lone -1")
		}
		f := strings.Fields(line)
		if len(f) < 2 || f[len(f)-1] != "-1" {
			return nil, lr.errorf("memory line %q does not end in -1", line)
		}
		a, err := parseHex(lr, f[0], 16)
		if err != nil {
			return nil, err
		}
		blk := fuseBlock{addr: uint16(a)}
		for _, s := range f[1 : len(f)-1] {
			v, err := parseHex(lr, s, 8)
			if err != nil {
				return nil, err
			}
			blk.bytes = append(blk.bytes, byte(v))
		}
		blocks = append(blocks, blk)
	}
	if endsWithMinusOne {
		return nil, lr.errorf("memory ends without a lone -1")
	}
	return blocks, nil
}

func readFuseInputs(path string) ([]fuseInput, error) {
	lr, err := newLineReader(path)
	if err != nil {
		return nil, err
	}
	var tests []fuseInput
	for lr.more() {
		var in fuseInput
		if in.name, err = lr.next(); err != nil {
			return nil, err
		}
		in.name = strings.TrimSpace(in.name)
		if in.regs, err = readRegs(lr); err != nil {
			return nil, err
		}
		if in.memory, err = readMemory(lr, true); err != nil {
			return nil, err
		}
		tests = append(tests, in)
	}
	return tests, nil
}

func readFuseExpected(path string) ([]fuseExpected, error) {
	lr, err := newLineReader(path)
	if err != nil {
		return nil, err
	}
	var tests []fuseExpected
	for lr.more() {
		var e fuseExpected
		if e.name, err = lr.next(); err != nil {
			return nil, err
		}
		e.name = strings.TrimSpace(e.name)
		// Events are indented; the register line is not.
		for lr.n < len(lr.lines) && strings.HasPrefix(lr.lines[lr.n], " ") {
			f := strings.Fields(lr.lines[lr.n])
			lr.n++
			if len(f) < 3 || len(f) > 4 {
				return nil, lr.errorf("event %q: want time, type, address and maybe data", lr.lines[lr.n-1])
			}
			tm, err := strconv.ParseUint(f[0], 10, 64)
			if err != nil {
				return nil, lr.errorf("event time %q is not a decimal number", f[0])
			}
			ev := fmt.Sprintf("%5d %s %s", tm, f[1], f[2])
			if len(f) == 4 {
				ev += " " + f[3]
			}
			e.events = append(e.events, ev)
		}
		if e.regs, err = readRegs(lr); err != nil {
			return nil, err
		}
		if e.changed, err = readMemory(lr, false); err != nil {
			return nil, err
		}
		tests = append(tests, e)
	}
	return tests, nil
}
