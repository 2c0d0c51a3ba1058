package disasm

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// TestSkoolKitTable holds every opcode to SkoolKit's disassembler
// (../shared/testdata/disasm/disasm-skoolkit.tsv), both as it runs by
// default and with Opcodes=ALL, save the classes of difference that
// disasm-differences.md documents. Each class is a rule below that excuses
// a row only when the row has exactly that difference, and the rows each
// excuses are counted against the document's counts; every other row must
// be identical once SkoolKit's $ is read as our & (the document's own
// normalisation).
func TestSkoolKitTable(t *testing.T) {
	player := readOpcodeTable(t, "disasm-player.tsv")
	skool := readOpcodeTable(t, "disasm-skoolkit.tsv")
	// The bytes each row was made from: both tables were fed the same
	// sequences (disasm-differences.md, "Inputs"), which the player's
	// column gives whole, since it reads at least as far as SkoolKit.
	inputs := map[string]bool{}
	for _, r := range player {
		inputs[spaced(r.bytes)] = true
	}
	columns := []struct {
		name  string
		all   bool
		same  int // rows identical after normalisation (disasm-differences.md)
		rules map[string]int
	}{
		{"default", false, 709, map[string]int{
			"1 prefix that changes nothing": 334, "2 index halves": 92, "3 unused ED": 178,
			"4 ED duplicates named only with Opcodes": 19, "5 ED named otherwise": 3,
			"6 DD/FD CB copies to a register": 336, "7 DD/FD CB BIT with a register field": 112,
			"8 prefix chain": 6, "9 bare prefix": 3,
		}},
		{"Opcodes=ALL", true, 1176, map[string]int{
			"1 prefix that changes nothing": 334, "2 index halves": 92, "3 unused ED": 178,
			"5 ED named otherwise": 3, "8 prefix chain": 6, "9 bare prefix": 3,
		}},
	}
	for _, col := range columns {
		same := 0
		excused := map[string]int{}
		for i, r := range skool {
			in := player[i].bytes
			if !bytes.HasPrefix(append(append([]byte{}, in...), make([]byte, 4)...), r.bytes) {
				t.Fatalf("line %d: SkoolKit read % X, which is not where the player's % X begins", r.line, r.bytes, in)
			}
			if lead := groupLead[i/256]; !bytes.HasPrefix(in, lead) {
				t.Fatalf("line %d: % X is in the group of % X", r.line, in, lead)
			}
			sk := skoolRow{group: i / 256, in: in, length: r.length, text: r.text, all: r.textAll, useAll: col.all}
			ours := decodeAt(in, 0x8000)
			if sk.column() == "" {
				t.Fatalf("line %d: SkoolKit's text is empty", r.line)
			}
			if strings.ReplaceAll(sk.column(), "$", "&") == ours.Text && sk.length == ours.Len() {
				same++
				continue
			}
			var matched []string
			for _, rule := range skoolRules {
				if rule.excuses(sk, ours, inputs) {
					matched = append(matched, rule.name)
				}
			}
			if len(matched) != 1 {
				t.Errorf("%s line %d: % X: ours %q (%d), SkoolKit %q (%d); rules %v", col.name, r.line, in, ours.Text, ours.Len(), sk.column(), sk.length, matched)
				continue
			}
			excused[matched[0]]++
		}
		if same != col.same {
			t.Errorf("%s: %d rows identical, want %d", col.name, same, col.same)
		}
		for _, rule := range skoolRules {
			if excused[rule.name] != col.rules[rule.name] {
				t.Errorf("%s: rule %q excused %d rows, want %d", col.name, rule.name, excused[rule.name], col.rules[rule.name])
			}
		}
	}
}

// groupLead is the prefix every row of a group begins with.
var groupLead = [7][]byte{
	groupBase: {}, groupCB: {0xcb}, groupED: {0xed}, groupDD: {0xdd}, groupFD: {0xfd},
	groupDDCB: {0xdd, 0xcb}, groupFDCB: {0xfd, 0xcb},
}

// skoolRow is one row of SkoolKit's table, with what it was made from.
type skoolRow struct {
	group  int    // groupBase to groupFDCB
	in     []byte // the bytes fed to it
	length int
	text   string // default
	all    string // Opcodes=ALL
	useAll bool   // the column under test is Opcodes=ALL
}

func (s skoolRow) column() string {
	if s.useAll {
		return s.all
	}
	return s.text
}

// indexCBOp is the opcode of a DD CB d op or FD CB d op row, its last
// byte; ok is false for any other group.
func (s skoolRow) indexCBOp() (op byte, ok bool) {
	if s.group != groupDDCB && s.group != groupFDCB {
		return 0, false
	}
	return s.in[3], true
}

// defb is how SkoolKit writes bytes it leaves as data: DEFB $ED,$4C.
func defb(b []byte) string {
	parts := make([]string, len(b))
	for i, v := range b {
		parts[i] = fmt.Sprintf("$%02X", v)
	}
	return "DEFB " + strings.Join(parts, ",")
}

// skoolRule is one class of disasm-differences.md: excuses reports whether
// a row that differs differs exactly so.
type skoolRule struct {
	name    string
	excuses func(s skoolRow, ours Instruction, inputs map[string]bool) bool
}

// joinedPrefix reports whether SkoolKit leaves the first byte, a DD or FD,
// as a byte of its own where our listing joins it to the instruction after
// it, as the processor does: ours is that instruction, read at the next
// address, one byte longer; and that instruction's bytes are themselves a
// row of the table, held to SkoolKit there.
func joinedPrefix(s skoolRow, ours Instruction, inputs map[string]bool) bool {
	if !isPrefix(s.in[0]) || s.column() != defb(s.in[:1]) || s.length != 1 {
		return false
	}
	rest := decodeAt(s.in[1:], 0x8001)
	return ours.Text == rest.Text && ours.Len() == rest.Len()+1 && inputs[spaced(rest.Bytes)]
}

// unusedED reports whether ED op is one the processor does nothing with
// (ED 00-3F, 77, 7F, 80-9F, A4-A7, AC-AF, B4-B7, BC-BF, C0-FF).
func unusedED(op byte) bool {
	x, y, z := op>>6, op>>3&7, op&7
	switch x {
	case 1:
		return op == 0x77 || op == 0x7f
	case 2:
		return !(z <= 3 && y >= 4)
	}
	return true
}

// The 19 ED opcodes SkoolKit names only with Opcodes=ALL
// (disasm-differences.md, class 4).
var edDuplicates = map[byte]bool{
	0x4c: true, 0x54: true, 0x5c: true, 0x64: true, 0x6c: true, 0x74: true, 0x7c: true, // NEG
	0x55: true, 0x5d: true, 0x65: true, 0x6d: true, 0x75: true, 0x7d: true, // RETN
	0x66: true, 0x76: true, 0x7e: true, // IM 0, IM 1, IM 2
	0x63: true, 0x6b: true, // LD (nn),HL and LD HL,(nn)
	0x71: true, // OUT (C),0
}

// The 3 ED opcodes named otherwise even with Opcodes=ALL: ours, then
// SkoolKit's (disasm-differences.md, class 5).
var edNamedOtherwise = map[byte][2]string{
	0x4e: {"IM 0/1", "IM 0"},
	0x6e: {"IM 0/1", "IM 0"},
	0x70: {"IN (C)", "IN F,(C)"},
}

// namedOnlyWithAll reports whether SkoolKit's default leaves as DEFB the
// very bytes we read, and its Opcodes=ALL names them as we do.
func namedOnlyWithAll(s skoolRow, ours Instruction) bool {
	return !s.useAll && s.text == defb(ours.Bytes) && s.length == ours.Len() &&
		strings.ReplaceAll(s.all, "$", "&") == ours.Text
}

var skoolRules = []skoolRule{
	{"1 prefix that changes nothing", func(s skoolRow, ours Instruction, inputs map[string]bool) bool {
		return (s.group == groupDD || s.group == groupFD) && !isPrefix(s.in[1]) && s.in[1] != 0xed &&
			joinedPrefix(s, ours, inputs)
	}},
	{"2 index halves", func(s skoolRow, ours Instruction, _ map[string]bool) bool {
		skool := strings.NewReplacer("IXH", "IXh", "IXL", "IXl", "IYH", "IYh", "IYL", "IYl").Replace(ours.Text)
		return skool != ours.Text && strings.ReplaceAll(s.column(), "$", "&") == skool && s.length == ours.Len()
	}},
	{"3 unused ED", func(s skoolRow, ours Instruction, _ map[string]bool) bool {
		op := s.in[1]
		want := "NOP"
		if op == 0xff {
			want = "BRK" // the spec's override of the player
		}
		return s.group == groupED && unusedED(op) && s.column() == defb(s.in[:2]) && s.length == 2 &&
			ours.Text == want && ours.Len() == 2
	}},
	{"4 ED duplicates named only with Opcodes", func(s skoolRow, ours Instruction, _ map[string]bool) bool {
		return s.group == groupED && edDuplicates[s.in[1]] && namedOnlyWithAll(s, ours)
	}},
	{"5 ED named otherwise", func(s skoolRow, ours Instruction, _ map[string]bool) bool {
		names, ok := edNamedOtherwise[s.in[1]]
		if s.group != groupED || !ok || ours.Text != names[0] || ours.Len() != 2 || s.length != 2 {
			return false
		}
		return s.column() == names[1] && s.useAll || s.column() == defb(s.in[:2]) && !s.useAll
	}},
	{"6 DD/FD CB copies to a register", func(s skoolRow, ours Instruction, _ map[string]bool) bool {
		op, ok := s.indexCBOp()
		return ok && op&7 != 6 && op>>6 != 1 && namedOnlyWithAll(s, ours)
	}},
	{"7 DD/FD CB BIT with a register field", func(s skoolRow, ours Instruction, _ map[string]bool) bool {
		op, ok := s.indexCBOp()
		return ok && op&7 != 6 && op>>6 == 1 && namedOnlyWithAll(s, ours)
	}},
	{"8 prefix chain", func(s skoolRow, ours Instruction, inputs map[string]bool) bool {
		return (s.group == groupDD || s.group == groupFD) && (isPrefix(s.in[1]) || s.in[1] == 0xed) &&
			joinedPrefix(s, ours, inputs)
	}},
	{"9 bare prefix", func(s skoolRow, ours Instruction, inputs map[string]bool) bool {
		if s.group != groupBase {
			return false
		}
		if s.in[0] == 0xed {
			return s.column() == defb(s.in[:2]) && s.length == 2 && ours.Text == "NOP" && ours.Len() == 2
		}
		return joinedPrefix(s, ours, inputs)
	}},
}
