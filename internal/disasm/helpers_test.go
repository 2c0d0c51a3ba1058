package disasm

import (
	"bufio"
	"encoding/hex"
	"os"
	"strconv"
	"strings"
	"testing"

	"colophon/internal/shared"
)

// flat is a 64K of memory with nothing in the way, read as a Memory.
type flat [0x10000]byte

func (m *flat) read(addr uint16) byte { return m[addr] }

// load puts b at addr, wrapping at &FFFF.
func (m *flat) load(addr uint16, b []byte) {
	for i, v := range b {
		m[addr+uint16(i)] = v
	}
}

// decodeAt decodes b laid at addr in memory otherwise zero, as the shared
// opcode tables were made (../shared/testdata/disasm/README.md: "each was
// disassembled at &8000 with fixed operands"), with no firmware.
func decodeAt(b []byte, addr uint16) Instruction {
	var m flat
	m.load(addr, b)
	var d Disassembler
	return d.Decode(m.read, addr)
}

// spaced writes bytes as the opcode tables do: "DD 01 34 12".
func spaced(b []byte) string {
	s := make([]string, len(b))
	for i, v := range b {
		s[i] = strings.ToUpper(hex.EncodeToString([]byte{v}))
	}
	return strings.Join(s, " ")
}

// opcodeRow is one row of disasm-player.tsv or disasm-skoolkit.tsv.
type opcodeRow struct {
	line    int
	bytes   []byte
	length  int
	text    string
	textAll string // SkoolKit run with Opcodes=ALL; the player has none
}

// readOpcodeTable reads one of the shared opcode tables, whose columns are
// bytes, length, text and, in SkoolKit's, text_with_Opcodes_ALL.
func readOpcodeTable(t *testing.T, name string) []opcodeRow {
	t.Helper()
	p := shared.TestPath(t, "testdata", "disasm", name)
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []opcodeRow
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		if n == 1 {
			continue // the header
		}
		c := strings.Split(sc.Text(), "\t")
		if len(c) < 3 {
			t.Fatalf("%s line %d: %d columns, want 3 or 4", name, n, len(c))
		}
		r := opcodeRow{line: n, text: c[2]}
		if len(c) > 3 {
			r.textAll = c[3]
		}
		if r.bytes, err = hex.DecodeString(strings.ReplaceAll(c[0], " ", "")); err != nil {
			t.Fatalf("%s line %d: bytes %q: %v", name, n, c[0], err)
		}
		if r.length, err = strconv.Atoi(c[1]); err != nil {
			t.Fatalf("%s line %d: length %q: %v", name, n, c[1], err)
		}
		rows = append(rows, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	// One row for each opcode of the seven groups (README.md there).
	if len(rows) != 7*256 {
		t.Fatalf("%s has %d rows, want %d", name, len(rows), 7*256)
	}
	return rows
}

// The groups of the opcode tables, in their order (README.md there):
// unprefixed, CB, ED, DD, FD, DD CB d and FD CB d, 256 rows each.
const (
	groupBase = iota
	groupCB
	groupED
	groupDD
	groupFD
	groupDDCB
	groupFDCB
)
