package disasm

import (
	"bytes"
	"testing"
)

// TestPlayerTable holds every opcode to colophon-player's disassembly
// (../shared/testdata/disasm/disasm-player.tsv), save where the spec
// overrides that snapshot of the player (README.md there): ED FF is BRK,
// and a chain of DD and FD prefixes is one instruction, ruled by its last
// prefix, where the player reads a second prefix as CALL nn.
func TestPlayerTable(t *testing.T) {
	rows := readOpcodeTable(t, "disasm-player.tsv")
	excused := map[string]int{}
	for _, r := range rows {
		got := decodeAt(r.bytes, 0x8000)
		switch {
		case bytes.Equal(r.bytes, []byte{0xed, 0xff}):
			excused["ED FF is BRK"]++
			if got.Text != "BRK" || !bytes.Equal(got.Bytes, r.bytes) {
				t.Errorf("line %d: ED FF gives %q (% X), want BRK (ED FF)", r.line, got.Text, got.Bytes)
			}
		case isPrefix(r.bytes[0]) && isPrefix(r.bytes[1]):
			excused["prefix chain"]++
			// The first prefix is no operation and the rest is the
			// instruction the chain ends in, one byte longer.
			rest := decodeAt(r.bytes[1:], 0x8001)
			want := append([]byte{r.bytes[0]}, rest.Bytes...)
			if got.Text != rest.Text || !bytes.Equal(got.Bytes, want) {
				t.Errorf("line %d: % X gives %q (% X), want %q (% X)", r.line, r.bytes, got.Text, got.Bytes, rest.Text, want)
			}
		default:
			if got.Text != r.text || got.Len() != r.length || !bytes.Equal(got.Bytes, r.bytes) {
				t.Errorf("line %d: % X gives %q, %d bytes (% X); the player %q, %d", r.line, r.bytes, got.Text, got.Len(), got.Bytes, r.text, r.length)
			}
		}
	}
	// DD DD, DD FD, FD DD and FD FD; DD ED and FD ED the player already
	// reads as the processor does.
	want := map[string]int{"ED FF is BRK": 1, "prefix chain": 4}
	for k, n := range want {
		if excused[k] != n {
			t.Errorf("%s excused %d rows, want %d", k, excused[k], n)
		}
	}
}

func isPrefix(b byte) bool { return b == 0xdd || b == 0xfd }

// TestOverrides spells out the two overrides of the player: the player's
// own probes of prefix chains (disasm-player-notes.md, "Prefix chains"),
// read as the processor's step runs them, and BRK.
func TestOverrides(t *testing.T) {
	tests := []struct {
		bytes []byte
		len   int
		text  string
	}{
		{[]byte{0xed, 0xff}, 2, "BRK"},
		{[]byte{0xdd, 0xed, 0xff}, 3, "BRK"},
		// The player's table: CALL &3421 (4) and so on.
		{[]byte{0xdd, 0xdd, 0x21, 0x34, 0x12}, 5, "LD IX,&1234"},
		{[]byte{0xdd, 0xfd, 0x21, 0x34, 0x12}, 5, "LD IY,&1234"},
		{[]byte{0xfd, 0xdd, 0x21, 0x34, 0x12}, 5, "LD IX,&1234"},
		{[]byte{0xdd, 0xdd, 0xdd, 0x00}, 4, "NOP"},
		{[]byte{0xfd, 0xfd, 0x00, 0x00}, 3, "NOP"},
		{[]byte{0xdd, 0xed, 0x44}, 3, "NEG"},
		{[]byte{0xfd, 0xed, 0xb0}, 3, "LDIR"},
		// The last prefix rules the halves, the displacement and the
		// DD CB form, and a relative target counts the whole chain.
		{[]byte{0xfd, 0xdd, 0x26, 0x42}, 4, "LD IXH,&42"},
		{[]byte{0xdd, 0xfd, 0x7e, 0xfb}, 4, "LD A,(IY-&05)"},
		{[]byte{0xfd, 0xfd, 0xdd, 0xcb, 0x05, 0x06}, 6, "RLC (IX+&05)"},
		{[]byte{0xdd, 0xfd, 0x18, 0x05}, 4, "JR &8009"},
		{[]byte{0xdd, 0xdd, 0xe9}, 3, "JP (IX)"},
	}
	for _, tt := range tests {
		var m flat
		m.load(0x8000, tt.bytes)
		// What follows is no part of the instruction.
		m.load(0x8000+uint16(len(tt.bytes)), []byte{0xc9, 0xc9, 0xc9})
		var d Disassembler
		got := d.Decode(m.read, 0x8000)
		if got.Text != tt.text || got.Len() != tt.len || !bytes.Equal(got.Bytes, tt.bytes[:tt.len]) {
			t.Errorf("% X: %q, %d bytes (% X); want %q, %d", tt.bytes, got.Text, got.Len(), got.Bytes, tt.text, tt.len)
		}
	}
}

// TestPlayerProbes holds the probes outside the table that the player's
// notes list (disasm-player-notes.md, "An instruction that crosses &FFFF"
// and "Other probes"): reads and relative targets wrap within the 64K.
func TestPlayerProbes(t *testing.T) {
	tests := []struct {
		addr  uint16
		bytes []byte
		text  string
	}{
		{0xffff, []byte{0x21, 0x34, 0x12}, "LD HL,&1234"},
		{0xfffe, []byte{0xcd, 0x34, 0x12}, "CALL &1234"},
		{0xffff, []byte{0xdd, 0xcb, 0x05, 0x06}, "RLC (IX+&05)"},
		{0xffff, []byte{0x18, 0x05}, "JR &0006"},
		{0xfff0, []byte{0x18, 0x7f}, "JR &0071"},
		{0x0000, []byte{0x18, 0x80}, "JR &FF82"},
		{0x8000, []byte{0x18, 0xfe}, "JR &8000"},
		{0x8000, []byte{0x18, 0x80}, "JR &7F82"},
		{0x8000, []byte{0x10, 0x7f}, "DJNZ &8081"},
		{0x8000, []byte{0xdd, 0x7e, 0xfb}, "LD A,(IX-&05)"},
		{0x8000, []byte{0xdd, 0x36, 0xfb, 0x42}, "LD (IX-&05),&42"},
		{0x8000, []byte{0xdd, 0xcb, 0xfb, 0x06}, "RLC (IX-&05)"},
		{0x8000, []byte{0xdd, 0xcb, 0x80, 0xfe}, "SET 7,(IX-&80)"},
		{0x8000, []byte{0x36, 0xab}, "LD (HL),&AB"},
		{0x8000, []byte{0x3e, 0x0a}, "LD A,&0A"},
	}
	for _, tt := range tests {
		got := decodeAt(tt.bytes, tt.addr)
		if got.Text != tt.text || !bytes.Equal(got.Bytes, tt.bytes) || got.Addr != tt.addr {
			t.Errorf("% X at &%04X: %q (% X) at &%04X; want %q", tt.bytes, tt.addr, got.Text, got.Bytes, got.Addr, tt.text)
		}
		if next := tt.addr + uint16(len(tt.bytes)); got.Next() != next {
			t.Errorf("% X at &%04X: next &%04X, want &%04X", tt.bytes, tt.addr, got.Next(), next)
		}
	}
}
