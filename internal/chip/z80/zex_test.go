// ZEXDOC and ZEXALL, Frank Cringle's instruction exercisers (J.G. Harston's
// 2002 rebuild; shared/PROVENANCE.md). Each runs 67 groups of instructions
// over many operand and flag combinations and compares a CRC of every result
// with one recorded on a real Z80: ZEXDOC with the documented flags only,
// ZEXALL with bits 3 and 5 of F as well.
//
// They are CP/M programs, and need no more of CP/M than a board can fake in
// a few lines: a .COM file loads at &0100 and starts there; it prints by
// calling the BDOS at &0005 (function 2, one character in E; function 9, a
// string at DE ended by '$'); it ends by jumping to the warm boot at &0000.
//
// They run for minutes, so -short skips them:
//
//	go test ./internal/chip/z80/ -run 'TestZEX' -v -timeout 30m
package z80_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"colophon/internal/chip/z80"
	"colophon/internal/shared"
)

// CP/M's page zero, as the exercisers use it (Digital Research, "CP/M 2.2
// Operating System Manual", section 6.9, "Reserved Locations in Page Zero";
// the BDOS functions are in section 5).
const (
	cpmWarmBoot = 0x0000 // JP to the BIOS warm boot: a program ends here
	cpmBDOS     = 0x0005 // JP to the BDOS, whose address, at &0006, is also the top of the TPA
	cpmTPA      = 0x0100 // where a .COM file loads and starts
	cpmTop      = 0xf000 // the BDOS address this board puts at &0006; the exercisers set SP from it
)

// cpmRAM is 64K of RAM and nothing else: no waits, and an I/O space that
// answers &FF. Nothing on it raises an interrupt, so Acknowledge is never
// called; it answers &FF all the same.
type cpmRAM [1 << 16]byte

func (m *cpmRAM) Fetch(addr uint16) byte        { return m[addr] }
func (m *cpmRAM) Read(addr uint16) byte         { return m[addr] }
func (m *cpmRAM) Write(addr uint16, v byte)     { m[addr] = v }
func (m *cpmRAM) In(port uint16) byte           { return 0xff }
func (m *cpmRAM) Out(port uint16, v byte)       {}
func (m *cpmRAM) Internal(addr uint16, n int)   {}
func (m *cpmRAM) Acknowledge() byte             { return 0xff }
func (m *cpmRAM) word(addr uint16) uint16       { return uint16(m[addr]) | uint16(m[addr+1])<<8 }
func (m *cpmRAM) setWord(addr uint16, v uint16) { m[addr], m[addr+1] = byte(v), byte(v>>8) }

// cpmMachine is a Z80 on cpmRAM with a .COM program loaded.
type cpmMachine struct {
	cpu z80.CPU
	ram cpmRAM
}

// newCPM loads a .COM program at &0100 and points the processor at it.
func newCPM(name string, com []byte) (*cpmMachine, error) {
	if len(com) == 0 || len(com) > cpmTop-cpmTPA {
		return nil, fmt.Errorf("%s: %d bytes; a .COM program must fit between &%04X and &%04X", name, len(com), cpmTPA, cpmTop)
	}
	m := &cpmMachine{}
	copy(m.ram[cpmTPA:], com)
	m.ram[cpmWarmBoot] = 0xc3 // JP; the board traps the jump's arrival, so its target is moot
	m.ram[cpmBDOS] = 0xc3     // JP cpmTop
	m.ram.setWord(cpmBDOS+1, cpmTop)
	m.ram[cpmTop] = 0xc9 // RET, which the trap performs in its place
	m.cpu.Reset()
	m.cpu.Bus = &m.ram
	m.cpu.PC = cpmTPA
	m.cpu.SP = cpmTop
	return m, nil
}

// run executes instructions until the tick reaches limit or the program
// jumps to the warm boot, which it reports as done. BDOS calls print through
// out, which may be nil.
func (m *cpmMachine) run(limit uint64, out func(byte)) (done bool, err error) {
	cpu := &m.cpu
	for cpu.Tick < limit {
		cpu.Exec()
		if cpu.Prefix != 0 {
			continue
		}
		switch cpu.PC {
		case cpmWarmBoot:
			return true, nil
		case cpmBDOS:
			if err := m.bdos(out); err != nil {
				return false, err
			}
		}
	}
	return false, nil
}

// bdos performs the BDOS call the processor has just jumped to, then returns
// from it as the RET at the BDOS's end would: pop PC, and WZ takes the
// address (MEMPTR paper, RET).
func (m *cpmMachine) bdos(out func(byte)) error {
	cpu := &m.cpu
	switch cpu.C {
	case 2: // Console Output: the character in E (CP/M 2.2 manual, section 5)
		if out != nil {
			out(cpu.E)
		}
	case 9: // Print String: from DE up to a '$' (ibid.)
		for a, n := uint16(cpu.D)<<8|uint16(cpu.E), 0; m.ram[a] != '$'; a, n = a+1, n+1 {
			if n == 1<<16 {
				return fmt.Errorf("BDOS function 9 at DE=&%04X: no '$' ends the string", uint16(cpu.D)<<8|uint16(cpu.E))
			}
			if out != nil {
				out(m.ram[a])
			}
		}
	default:
		return fmt.Errorf("BDOS function %d (C) called from &%04X: this board provides only 2 and 9", cpu.C, m.ram.word(cpu.SP))
	}
	cpu.PC = m.ram.word(cpu.SP)
	cpu.SP += 2
	cpu.WZ = cpu.PC
	return nil
}

// zexGroups is how many groups of instructions each exerciser tests: the
// entries of the test table both programs start from (at &013A in the
// .COM files, 67 pointers and a zero).
const zexGroups = 67

// zexTickLimit bounds a run, so that a processor that loses its way fails
// rather than runs forever. Both exercisers reach the warm boot at
// T-state 46,734,975,782 (the count is logged at the end of each run);
// this allows half as much again.
const zexTickLimit = 70_000_000_000

func TestZEXDOC(t *testing.T) { testZEX(t, "zexdoc.com") }
func TestZEXALL(t *testing.T) { testZEX(t, "zexall.com") }

func testZEX(t *testing.T, file string) {
	if testing.Short() {
		t.Skipf("%s runs 46.7 billion T-states, minutes of work: skipped under -short; run it with: go test ./internal/chip/z80/ -run TestZEX -timeout 30m", file)
	}
	t.Parallel()
	path := shared.TestPath(t, "testdata", "z80", "zex", file)
	com, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := newCPM(path, com)
	if err != nil {
		t.Fatal(err)
	}

	// The output is a title, then one line per group, "<name>....  OK" or
	// "<name>....  ERROR **** crc expected:XXXXXXXX found:XXXXXXXX", then
	// "Tests complete"; lines end "\n\r". Each line is judged as it ends.
	var line strings.Builder
	var lines []string
	var ok, failed int
	judge := func(s string) {
		lines = append(lines, s)
		switch {
		case strings.HasSuffix(s, "  OK"):
			ok++
			t.Logf("%s: %s OK (T%d)", file, zexGroupName(s, "  OK"), m.cpu.Tick)
		case strings.Contains(s, "  ERROR"):
			failed++
			i := strings.Index(s, "  ERROR")
			t.Errorf("%s: group %q failed: %s (T%d)", file, zexGroupName(s, s[i:]), strings.TrimSpace(s[i:]), m.cpu.Tick)
		}
	}
	out := func(c byte) {
		switch c {
		case '\r':
		case '\n':
			judge(line.String())
			line.Reset()
		default:
			line.WriteByte(c)
		}
	}

	done, err := m.run(zexTickLimit, out)
	if line.Len() > 0 {
		lines = append(lines, line.String())
	}
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	if !done {
		t.Fatalf("%s: no warm boot after %d T-states (limit %d); last output %q", file, m.cpu.Tick, uint64(zexTickLimit), lastLines(lines, 3))
	}
	t.Logf("%s: warm boot after %d T-states; %d groups OK, %d failed", file, m.cpu.Tick, ok, failed)
	if ok+failed != zexGroups {
		t.Errorf("%s: %d group results, want %d; output %q", file, ok+failed, zexGroups, lines)
	}
	if last := lastLines(lines, 1); len(last) != 1 || last[0] != "Tests complete" {
		t.Errorf("%s: output ends %q, want \"Tests complete\"", file, last)
	}
}

// zexGroupName is a group's line without its verdict and its dot leader.
func zexGroupName(s, verdict string) string {
	return strings.TrimRight(strings.TrimSuffix(s, verdict), ".")
}

func lastLines(lines []string, n int) []string {
	if len(lines) < n {
		return lines
	}
	return lines[len(lines)-n:]
}
