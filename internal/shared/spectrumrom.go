package shared

import (
	"bufio"
	"encoding/hex"
	"os"
	"strconv"
	"strings"
	"testing"
)

// ReadFile reads a file of the shared data whole for a test, which fails
// or skips as TestPath says when it is missing.
func ReadFile(tb testing.TB, elem ...string) []byte {
	tb.Helper()
	b, err := os.ReadFile(TestPath(tb, elem...))
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// ROMRow is one row of testdata/spectrum-rom/rom_instructions.tsv: an
// instruction or a span of data of the 48K ROM, as The Complete Spectrum
// ROM Disassembly lays it out (see PROVENANCE.md).
type ROMRow struct {
	Line  int    // the row's line in the file, for messages
	Addr  uint32 // where it begins
	Bytes []byte // its bytes; as many as the row's length column says
	Entry string // the disassembly's entry marker, if any
	Text  string // the instruction, or DEFB/DEFM/DEFW/DEFS for data
}

// Data reports whether the row is a span of data: the disassembly's DEFB,
// DEFM, DEFW and DEFS, the calculator's literals after RST &28 among them.
func (r ROMRow) Data() bool {
	for _, d := range []string{"DEFB ", "DEFM ", "DEFW ", "DEFS "} {
		if strings.HasPrefix(r.Text, d) {
			return true
		}
	}
	return false
}

// SpectrumROMRows reads every row of rom_instructions.tsv, failing the test
// on a row that does not read as address, length and bytes.
func SpectrumROMRows(tb testing.TB) []ROMRow {
	tb.Helper()
	f, err := os.Open(TestPath(tb, "testdata", "spectrum-rom", "rom_instructions.tsv"))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var rows []ROMRow
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		if n == 1 {
			if sc.Text() != "addr_hex\tlength\tbytes_hex\tentry_marker\tinstruction" {
				tb.Fatalf("rom_instructions.tsv: header %q", sc.Text())
			}
			continue
		}
		c := strings.Split(sc.Text(), "\t")
		if len(c) != 5 {
			tb.Fatalf("rom_instructions.tsv line %d: %d columns, want 5", n, len(c))
		}
		a, err1 := strconv.ParseUint(c[0], 16, 16)
		l, err2 := strconv.Atoi(c[1])
		b, err3 := hex.DecodeString(c[2])
		if err1 != nil || err2 != nil || err3 != nil || len(b) != l {
			tb.Fatalf("rom_instructions.tsv line %d: %q %q %q do not read as address, length and bytes", n, c[0], c[1], c[2])
		}
		rows = append(rows, ROMRow{Line: n, Addr: uint32(a), Bytes: b, Entry: c[3], Text: c[4]})
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return rows
}
