package find

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"colophon/internal/shared"
)

// searchBoth searches a ROM image laid at &0000 both ways of asking and
// fails unless they agree and the answer is whole.
func searchBoth(t *testing.T, p Pattern, rom []byte) []uint32 {
	t.Helper()
	r := both(t, p, rom, 0)
	if r.More {
		t.Fatalf("%v: more than %d matches", p, Limit)
	}
	return r.Addrs
}

// TestFD6SpectrumRoutines finds three routines of the 48K ROM wherever The
// Complete Spectrum ROM Disassembly names them, and nowhere else (checklist
// FD-6, FD-4): their addresses, two bytes low first, at every CALL and JP
// the disassembly writes to them; the same with ?? for the opcode, which
// finds those instructions' first bytes; and their opening instructions at
// the one address the disassembly labels with their name.
func TestFD6SpectrumRoutines(t *testing.T) {
	rom := shared.ReadFile(t, "roms", "spectrum48.rom")
	rows := shared.SpectrumROMRows(t)
	at := make(map[uint32]int, len(rows))
	for i, r := range rows {
		at[r.Addr] = i
	}
	for _, rt := range []struct {
		label string
		addr  uint32
	}{
		{"BEEPER", 0x03B5},
		{"PO_MSG", 0x0C0A},
		{"CHAN_OPEN", 0x1601},
	} {
		t.Run(rt.label, func(t *testing.T) {
			// Where the disassembly names the routine: every row whose
			// text carries its address, "CALL $03B5", at the place in the
			// row's bytes where the address stands.
			word := []byte{byte(rt.addr), byte(rt.addr >> 8)}
			named := regexp.MustCompile(fmt.Sprintf(`\$%04X\b`, rt.addr))
			var operands, starts []uint32
			for _, r := range rows {
				if !named.MatchString(r.Text) {
					continue
				}
				i := bytes.Index(r.Bytes, word)
				if i < 0 {
					t.Fatalf("&%04X %s names the routine without its address's bytes, which no search of bytes finds", r.Addr, r.Text)
				}
				if i != 1 || len(r.Bytes) != 3 {
					t.Fatalf("&%04X %s: not an opcode and its address", r.Addr, r.Text)
				}
				operands = append(operands, r.Addr+uint32(i))
				starts = append(starts, r.Addr)
			}
			if len(operands) < 2 {
				t.Fatalf("the disassembly names &%04X %d times; the test wants a routine named more than once", rt.addr, len(operands))
			}
			if got := searchBoth(t, mustBytes(t, fmt.Sprintf("%02X %02X", word[0], word[1])), rom); !slices.Equal(got, operands) {
				t.Errorf("its address is found at %X; the disassembly names it at %X", got, operands)
			}
			if got := searchBoth(t, mustBytes(t, fmt.Sprintf("?? %02X %02X", word[0], word[1])), rom); !slices.Equal(got, starts) {
				t.Errorf("?? and its address are found at %X; the disassembly's instructions naming it begin at %X", got, starts)
			}

			// The routine's opening: whole instructions from its label,
			// eight bytes or more.
			i, ok := at[rt.addr]
			if !ok {
				t.Fatalf("no row begins at the routine's address &%04X", rt.addr)
			}
			var open []string
			for n := 0; n < 8; i++ {
				for _, b := range rows[i].Bytes {
					open = append(open, fmt.Sprintf("%02X", b))
				}
				n += len(rows[i].Bytes)
			}
			if got := searchBoth(t, mustBytes(t, strings.Join(open, " ")), rom); !slices.Equal(got, []uint32{rt.addr}) {
				t.Errorf("its opening %s is found at %X; the disassembly labels it at &%04X alone", strings.Join(open, " "), got, rt.addr)
			}
		})
	}
}

// defmItem is one item of a DEFM: a quoted string, a quoted character
// plus $80, or a byte in hex.
var defmItem = regexp.MustCompile(`^(?:"([^"]*)"(\+\$80)?|\$([0-9A-F]{2}))(?:,|$)`)

// decodeDEFM reads the bytes a DEFM row writes, as the disassembly writes
// them: DEFM "RANDOMIZ","E"+$80.
func decodeDEFM(t *testing.T, text string) []byte {
	t.Helper()
	s := strings.TrimPrefix(text, "DEFM ")
	var out []byte
	for s != "" {
		m := defmItem.FindStringSubmatch(s)
		if m == nil {
			t.Fatalf("cannot read DEFM item at %q in %q", s, text)
		}
		switch {
		case m[3] != "":
			v, _ := strconv.ParseUint(m[3], 16, 8)
			out = append(out, byte(v))
		case m[2] != "":
			if len(m[1]) != 1 {
				t.Fatalf("%q: +$80 on a string of %d characters", text, len(m[1]))
			}
			out = append(out, m[1][0]|0x80)
		default:
			out = append(out, m[1]...)
		}
		s = s[len(m[0]):]
	}
	return out
}

// listedText is where the disassembly writes text: for each DEFM row, its
// address and the characters it writes, on their low seven bits.
type listedText struct {
	addr uint32
	text string
}

func readListedText(t *testing.T, rows []shared.ROMRow) []listedText {
	var out []listedText
	for _, r := range rows {
		if !strings.HasPrefix(r.Text, "DEFM ") {
			continue
		}
		b := decodeDEFM(t, r.Text)
		// The disassembly's text and its bytes must say the same, or
		// this reading of it is wrong.
		if !slices.Equal(b, r.Bytes) {
			t.Fatalf("&%04X %s reads as % X; its bytes are % X", r.Addr, r.Text, b, r.Bytes)
		}
		low := make([]byte, len(b))
		for i, v := range b {
			low[i] = v & 0x7F
		}
		out = append(out, listedText{r.Addr, string(low)})
	}
	return out
}

// TestFD7SpectrumKeywordAndMessage finds a keyword and a message of the 48K
// ROM by text where the disassembly's DEFMs write them, and nowhere else
// (checklist FD-5, FD-7). The ROM ends each with bit 7 set on its last
// character, so the same words as plain bytes are found nowhere.
func TestFD7SpectrumKeywordAndMessage(t *testing.T) {
	rom := shared.ReadFile(t, "roms", "spectrum48.rom")
	listed := readListedText(t, shared.SpectrumROMRows(t))
	for _, word := range []string{
		"RANDOMIZE",          // the token table: DEFM "RANDOMIZ","E"+$80
		"PRINT",              // both PRINT and the end of LPRINT
		"Variable not found", // report 2: DEFM "Variable not foun","d"+$80
	} {
		t.Run(word, func(t *testing.T) {
			var want []uint32
			for _, l := range listed {
				for i := 0; i+len(word) <= len(l.text); i++ {
					if l.text[i:i+len(word)] == word {
						want = append(want, l.addr+uint32(i))
					}
				}
			}
			if len(want) == 0 {
				t.Fatalf("the disassembly writes %q nowhere", word)
			}
			if got := searchBoth(t, mustText(t, word), rom); !slices.Equal(got, want) {
				t.Errorf("text %q found at %X; the disassembly writes it at %X", word, got, want)
			}
			var plain []string
			for _, c := range []byte(word) {
				plain = append(plain, fmt.Sprintf("%02X", c))
			}
			if got := searchBoth(t, mustBytes(t, strings.Join(plain, " ")), rom); len(got) != 0 {
				t.Errorf("%q as plain bytes found at %X, where the ROM sets bit 7 of its last character", word, got)
			}
		})
	}
}

// TestFD7CassetteMessages finds the first word of the cassette manager's
// messages in each CPC's lower ROM where its listing puts it (checklist
// FD-7), and the 664's and 464's where the same routine of theirs puts it.
//
// The listing of the 6128's firmware (Bread80, CPC6128-Firmware-Source,
// Cassette.asm) places the table "cassette_messages" at &2935 and opens it
// with defb "Pres","s"+$80,0: words ended by bit 7, messages by 0. The test
// does not take &2935 on trust: it finds the table's start in the ROM
// itself, from the one routine that walks it, which loads HL with the
// table's address and then skips B messages by their zero ends,
//
//	LD HL,table : JR Z,+7 : LD A,(HL) : INC HL : OR A : JR NZ,-5 : DJNZ -7
//
// found as 21 ?? ?? 28 07 7E 23 B7 20 FB 10 F9, a search with wildcards
// for the address; and there, and only there, is the text "Press".
func TestFD7CassetteMessages(t *testing.T) {
	walker := mustBytes(t, "21 ?? ?? 28 07 7E 23 B7 20 FB 10 F9")
	for _, tt := range []struct {
		model   string
		listing uint32 // where a listing puts the table, 0 where none is to hand
	}{
		{"cpc6128", 0x2935}, // Cassette.asm: cassette_messages, Addr=$2935
		{"cpc664", 0},
		{"cpc464", 0},
	} {
		t.Run(tt.model, func(t *testing.T) {
			lower := shared.ReadFile(t, "roms", tt.model+".rom")[:0x4000]
			ld := searchBoth(t, walker, lower)
			if len(ld) != 1 {
				t.Fatalf("the routine that walks the messages is found at %X, want once", ld)
			}
			table := uint32(lower[ld[0]+1]) | uint32(lower[ld[0]+2])<<8
			if tt.listing != 0 && table != tt.listing {
				t.Errorf("the routine at &%04X walks a table at &%04X; the listing puts it at &%04X", ld[0], table, tt.listing)
			}
			if got := searchBoth(t, mustText(t, "Press"), lower); !slices.Equal(got, []uint32{table}) {
				t.Errorf("text \"Press\" found at %X; the messages begin at &%04X", got, table)
			}
			// The first message is that word alone: bit 7 ends it, then 0.
			if got := lower[table : table+6]; string(got) != "Pres\xF3\x00" {
				t.Errorf("the table opens % X", got)
			}
		})
	}
}
