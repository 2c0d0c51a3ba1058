package disasm

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"colophon/internal/shared"
)

// fromSkool writes an operand of The Complete Spectrum ROM Disassembly's
// text as our listing writes it. The disassembly is a SkoolKit file with
// its own conventions (../shared/PROVENANCE.md, testdata/spectrum-rom):
// $ before hex, which becomes &; a character in quotes, "A" or "\"",
// which is its ASCII code as a byte, &41; and % before a byte in binary,
// which becomes the byte in hex. Every number keeps its width: two digits
// for a byte, four for a word, as ours are.
func fromSkool(s string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); {
		switch c := s[i]; c {
		case '$':
			j := i + 1
			for j < len(s) && strings.IndexByte(hexDigits, s[j]) >= 0 {
				j++
			}
			if n := j - i - 1; n != 2 && n != 4 {
				return "", fmt.Errorf("%q: $ with %d hex digits", s, n)
			}
			b.WriteByte('&')
			b.WriteString(s[i+1 : j])
			i = j
		case '"':
			j := i + 1
			if j < len(s) && s[j] == '\\' {
				j++
			}
			if j+1 >= len(s) || s[j+1] != '"' {
				return "", fmt.Errorf("%q: a quote that is not one character", s)
			}
			fmt.Fprintf(&b, "&%02X", s[j])
			i = j + 2
		case '%':
			j := i + 1
			for j < len(s) && (s[j] == '0' || s[j] == '1') {
				j++
			}
			v, err := strconv.ParseUint(s[i+1:j], 2, 8)
			if err != nil || j-i-1 != 8 {
				return "", fmt.Errorf("%q: %% without eight binary digits", s)
			}
			fmt.Fprintf(&b, "&%02X", v)
			i = j
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String(), nil
}

// TestSpectrumROM holds every instruction of the 48K ROM to The Complete
// Spectrum ROM Disassembly (../shared/testdata/spectrum-rom): its bytes,
// its length and its text. Data spans are skipped as data; the listing
// reads on at the next instruction, and each instruction ends where the
// disassembly's next row begins.
func TestSpectrumROM(t *testing.T) {
	rom := shared.ReadFile(t, "roms", "spectrum48.rom")
	if len(rom) != 0x4000 {
		t.Fatalf("spectrum48.rom is %d bytes, want 16384", len(rom))
	}
	rows := shared.SpectrumROMRows(t)
	// The ROM at &0000-&3FFF and nothing above it: the ROM's code reads
	// only its own bytes as instructions.
	mem := func(addr uint16) byte {
		if addr < 0x4000 {
			return rom[addr]
		}
		return 0
	}
	var d Disassembler
	next, instructions, data := 0, 0, 0
	for _, r := range rows {
		if int(r.Addr) != next {
			t.Fatalf("line %d: row at &%04X, where the row before ends at &%04X", r.Line, r.Addr, next)
		}
		next = int(r.Addr) + len(r.Bytes)
		if !bytes.Equal(rom[r.Addr:next], r.Bytes) {
			t.Fatalf("line %d: the ROM at &%04X is % X, the disassembly % X", r.Line, r.Addr, rom[r.Addr:next], r.Bytes)
		}
		if r.Data() {
			data++
			continue
		}
		instructions++
		want, err := fromSkool(r.Text)
		if err != nil {
			t.Errorf("line %d: %v", r.Line, err)
			continue
		}
		got := d.Decode(mem, uint16(r.Addr))
		if got.Text != want || !bytes.Equal(got.Bytes, r.Bytes) {
			t.Errorf("line %d: &%04X % X gives %q (% X); the disassembly %q, read as %q", r.Line, r.Addr, r.Bytes, got.Text, got.Bytes, r.Text, want)
		}
	}
	if next != 0x4000 {
		t.Errorf("the rows end at &%04X, not at the ROM's end", next)
	}
	// DEFB 1858, DEFM 129, DEFW 120 and DEFS 5 of the 8923 rows.
	if instructions != 6811 || data != 2112 {
		t.Errorf("%d instructions and %d data spans, want 6811 and 2112", instructions, data)
	}
}

func TestFromSkool(t *testing.T) {
	tests := []struct{ in, want string }{
		{"LD DE,$FFFF", "LD DE,&FFFF"},
		{"INC (IY+$40)", "INC (IY+&40)"},
		{"LD L,(IX-$06)", "LD L,(IX-&06)"},
		{`CP "0"`, "CP &30"},
		{`CP ","`, "CP &2C"},
		{`LD A,"\""`, "LD A,&22"},
		{`CP "n"`, "CP &6E"},
		{"AND %01010101", "AND &55"},
		{"EX AF,AF'", "EX AF,AF'"},
	}
	for _, tt := range tests {
		got, err := fromSkool(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("fromSkool(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{"LD A,$4", `CP "ab"`, "AND %0101"} {
		if got, err := fromSkool(bad); err == nil {
			t.Errorf("fromSkool(%q) = %q, want an error", bad, got)
		}
	}
}
