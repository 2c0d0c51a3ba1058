package cpckeys

import (
	"bytes"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"colophon/internal/shared"
)

// soft968 is every key as SOFT 968 gives it: its number (Appendix I), the
// name the player prints on it, and the byte Appendix II's normal
// translation table gives it, the table the firmware indexes by key
// number: a character, an expansion token &80 to &8C for the keypad, &E0
// for COPY, &F0 to &F3 for the cursor keys, &FC for ESC, &FD for CAPS LOCK
// and &FF for a key that types nothing.
var soft968 = []struct {
	number int
	name   string
	normal byte
}{
	{0, "↑", 0xF0}, {1, "→", 0xF3}, {2, "↓", 0xF1}, {3, "f9", 0x89},
	{4, "f6", 0x86}, {5, "f3", 0x83}, {6, "ENTER", 0x8B}, {7, "f.", 0x8A},
	{8, "←", 0xF2}, {9, "COPY", 0xE0}, {10, "f7", 0x87}, {11, "f8", 0x88},
	{12, "f5", 0x85}, {13, "f1", 0x81}, {14, "f2", 0x82}, {15, "f0", 0x80},
	{16, "CLR", 0x10}, {17, "[", '['}, {18, "RETURN", 0x0D}, {19, "]", ']'},
	{20, "f4", 0x84}, {21, "SHIFT", 0xFF}, {22, "\\", '\\'}, {23, "CTRL", 0xFF},
	{24, "^", '^'}, {25, "-", '-'}, {26, "@", '@'}, {27, "P", 'p'},
	{28, ";", ';'}, {29, ":", ':'}, {30, "/", '/'}, {31, ".", '.'},
	{32, "0", '0'}, {33, "9", '9'}, {34, "O", 'o'}, {35, "I", 'i'},
	{36, "L", 'l'}, {37, "K", 'k'}, {38, "M", 'm'}, {39, ",", ','},
	{40, "8", '8'}, {41, "7", '7'}, {42, "U", 'u'}, {43, "Y", 'y'},
	{44, "H", 'h'}, {45, "J", 'j'}, {46, "N", 'n'}, {47, "SPACE", ' '},
	{48, "6", '6'}, {49, "5", '5'}, {50, "R", 'r'}, {51, "T", 't'},
	{52, "G", 'g'}, {53, "F", 'f'}, {54, "B", 'b'}, {55, "V", 'v'},
	{56, "4", '4'}, {57, "3", '3'}, {58, "E", 'e'}, {59, "W", 'w'},
	{60, "S", 's'}, {61, "D", 'd'}, {62, "C", 'c'}, {63, "X", 'x'},
	{64, "1", '1'}, {65, "2", '2'}, {66, "ESC", 0xFC}, {67, "Q", 'q'},
	{68, "TAB", 0x09}, {69, "A", 'a'}, {70, "CAPS", 0xFD}, {71, "Z", 'z'},
	{72, "(UP)", 0x0B}, {73, "(DOWN)", 0x0A}, {74, "(LEFT)", 0x08}, {75, "(RIGHT)", 0x09},
	{76, "(FIRE 2)", 'X'}, {77, "(FIRE 1)", 'Z'}, {78, "(SPARE)", 0xFF}, {79, "DEL", 0x7F},
}

// TestKEY3KeyNumbers holds every key's number, line, bit and name to SOFT
// 968 (KEY-2, KEY-3), both ways: by number and by name.
func TestKEY3KeyNumbers(t *testing.T) {
	if len(soft968) != Count {
		t.Fatalf("the SOFT 968 table has %d keys, want %d", len(soft968), Count)
	}
	for i, tt := range soft968 {
		if tt.number != i {
			t.Fatalf("row %d holds key %d: the table must run in number order", i, tt.number)
		}
		t.Run(fmt.Sprintf("%d %s", tt.number, tt.name), func(t *testing.T) {
			k, err := Numbered(tt.number)
			if err != nil {
				t.Fatal(err)
			}
			if k.Name() != tt.name || k.String() != tt.name {
				t.Errorf("key %d is named %q, want %q", tt.number, k.Name(), tt.name)
			}
			if k.Line() != tt.number/8 || k.Bit() != tt.number%8 {
				t.Errorf("key %d on line %d bit %d, want line %d bit %d", tt.number, k.Line(), k.Bit(), tt.number/8, tt.number%8)
			}
			for _, name := range []string{tt.name, strings.ToLower(tt.name), strings.ToUpper(tt.name)} {
				got, err := Named(name)
				if err != nil || got != k {
					t.Errorf("Named(%q) = (%d, %v), want %d", name, got, err, tt.number)
				}
			}
		})
	}
}

// TestKEY2NamesMatchTranslation ties each name to the byte SOFT 968's
// translation table gives its key: a key named by a character types that
// character (a letter its lower case); f0 to f9 and f. give expansion
// tokens &80 to &8A and ENTER &8B (the keypad's expansion tokens); the
// cursor keys &F0 up, &F1 down, &F2 left, &F3 right; the joystick's
// directions the cursor control codes &0B, &0A, &08 and &09.
func TestKEY2NamesMatchTranslation(t *testing.T) {
	tokens := map[string]byte{
		"ENTER": 0x8B, "f.": 0x8A, "↑": 0xF0, "↓": 0xF1, "←": 0xF2, "→": 0xF3,
		"COPY": 0xE0, "CLR": 0x10, "RETURN": 0x0D, "SHIFT": 0xFF, "CTRL": 0xFF,
		"SPACE": ' ', "ESC": 0xFC, "TAB": 0x09, "CAPS": 0xFD, "DEL": 0x7F,
		"(UP)": 0x0B, "(DOWN)": 0x0A, "(LEFT)": 0x08, "(RIGHT)": 0x09,
		"(FIRE 2)": 'X', "(FIRE 1)": 'Z', "(SPARE)": 0xFF,
	}
	for d := 0; d <= 9; d++ {
		tokens[fmt.Sprintf("f%d", d)] = 0x80 + byte(d)
	}
	for _, tt := range soft968 {
		want, ok := tokens[tt.name]
		if !ok {
			if len(tt.name) != 1 {
				t.Errorf("key %d: %q is neither a character nor a known token", tt.number, tt.name)
				continue
			}
			want = strings.ToLower(tt.name)[0]
		}
		if tt.normal != want {
			t.Errorf("key %d %q: SOFT 968 byte &%02X, but its name says &%02X", tt.number, tt.name, tt.normal, want)
		}
	}
}

// translation finds the firmware's own key translation tables in a CPC's
// lower ROM: the normal table, 80 bytes indexed by key number, followed by
// the shifted and the control tables (SOFT 968, Appendix II). The normal
// table is found by its SOFT 968 bytes, which must stand there once.
func translation(t *testing.T, rom string) (normal, shifted []byte) {
	t.Helper()
	data, err := os.ReadFile(shared.TestPath(t, "roms", rom))
	if err != nil {
		t.Fatal(err)
	}
	want := make([]byte, Count)
	for _, tt := range soft968 {
		want[tt.number] = tt.normal
	}
	lower := data[:0x4000]
	at := bytes.Index(lower, want)
	if at < 0 {
		t.Fatalf("%s: SOFT 968's normal translation table is not in the lower ROM", rom)
	}
	if again := bytes.Index(lower[at+1:], want); again >= 0 {
		t.Fatalf("%s: the normal translation table stands twice, at &%04X and &%04X", rom, at, at+1+again)
	}
	if at+2*Count > len(lower) {
		t.Fatalf("%s: the shifted table would run past the lower ROM", rom)
	}
	return lower[at : at+Count], lower[at+Count : at+2*Count]
}

// TestKEY3TranslationInROM finds SOFT 968's key numbering in each CPC's
// firmware: the normal translation table, by key number, as the ROM itself
// carries it.
func TestKEY3TranslationInROM(t *testing.T) {
	for _, rom := range []string{"cpc464.rom", "cpc664.rom", "cpc6128.rom"} {
		t.Run(rom, func(t *testing.T) { translation(t, rom) })
	}
}

// TestKEY10Typing holds every ASCII character to the firmware's own
// translation tables (KEY-4, KEY-7, KEY-10): a character is typed by a key
// of the keyboard, lines 0 to 8 and DEL, alone or with SHIFT, wherever the
// ROM's normal or shifted table has a key type it; the control characters
// the spec names go to RETURN, TAB, ESC and DEL; every other character is
// refused.
func TestKEY10Typing(t *testing.T) {
	normal, shifted := translation(t, "cpc6128.rom")
	special := map[rune]Key{'\n': Return, '\t': Tab, 0x1B: Esc, '\b': Del}
	for r := rune(0); r < 128; r++ {
		s, err := ForRune(r)
		if k, ok := special[r]; ok {
			if err != nil || s != (Stroke{k, false}) {
				t.Errorf("%q = (%v, %v), want %v alone", r, s, err, k)
			}
			continue
		}
		typable := false
		if r >= 0x20 && r < 0x7F {
			for k := 0; k < Count; k++ {
				if k/8 <= 8 || Key(k) == Del {
					if normal[k] == byte(r) || shifted[k] == byte(r) {
						typable = true
					}
				}
			}
		}
		if !typable {
			if err == nil {
				t.Errorf("%q = %v, want refused: no key of the keyboard types it", r, s)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q refused (%v), but the ROM has a key type it", r, err)
			continue
		}
		table := normal
		if s.Shift {
			table = shifted
		}
		if table[s.Key] != byte(r) {
			t.Errorf("%q = %v shift %v, which the ROM says types &%02X", r, s.Key, s.Shift, table[s.Key])
		}
		if s.Key.Line() > 8 && s.Key != Del {
			t.Errorf("%q is typed on the joystick, %v", r, s.Key)
		}
	}
}

// TestKEY8TypingKeys: a shift goes down beside its key, and every name
// given is one Named knows (KEY-8).
func TestKEY8TypingKeys(t *testing.T) {
	tests := []struct {
		c    byte
		want []string
	}{
		{'a', []string{"A"}}, {'A', []string{"SHIFT", "A"}}, {'2', []string{"2"}},
		{'"', []string{"SHIFT", "2"}}, {'\n', []string{"RETURN"}}, {' ', []string{"SPACE"}},
		{'|', []string{"SHIFT", "@"}}, {'\b', []string{"DEL"}}, {0x1B, []string{"ESC"}},
		{'~', nil}, {0xA3, nil}, {'\r', nil},
	}
	for _, tt := range tests {
		got := TypingKeys(tt.c)
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("TypingKeys(%q) = %q, want %q", tt.c, got, tt.want)
		}
		for _, n := range got {
			if _, err := Named(n); err != nil {
				t.Errorf("TypingKeys(%q) gave %q: %v", tt.c, n, err)
			}
		}
	}
}

// TestKEY11NotASCII: a character outside ASCII is refused with the way to
// reach it, holding its keys through a run (KEY-9, KEY-11).
func TestKEY11NotASCII(t *testing.T) {
	for _, r := range []rune{'£', 'é', 0x80, 0xFF, -1} {
		_, err := ForRune(r)
		if err == nil || !strings.Contains(err.Error(), "not ASCII") {
			t.Errorf("ForRune(%q) = %v, want refused as not ASCII", r, err)
		}
	}
	if _, err := ForRune('~'); err == nil || !strings.Contains(err.Error(), "no key") {
		t.Errorf("ForRune('~') = %v, want refused: no CPC key types it", err)
	}
}

// TestNamesAndAliases covers the refusals and the spelled-out aliases.
func TestNamesAndAliases(t *testing.T) {
	tests := []struct {
		name string
		want Key
	}{
		{"cursor up", CursorUp}, {"CURSOR DOWN", CursorDown}, {"Cursor Left", CursorLeft},
		{"cursor right", CursorRight}, {"control", Control}, {"Caps Lock", CapsLock},
		{"(fire 2)", JoyFire2}, {"F5", 12}, {"space", Space},
	}
	for _, tt := range tests {
		if k, err := Named(tt.name); err != nil || k != tt.want {
			t.Errorf("Named(%q) = (%v, %v), want %v", tt.name, k, err, tt.want)
		}
	}
	for _, bad := range []string{"", " ", "FIRE 2", "f10", "SPACEBAR", "47"} {
		if k, err := Named(bad); err == nil {
			t.Errorf("Named(%q) = %v, want refused", bad, k)
		} else if !strings.Contains(err.Error(), fmt.Sprintf("%q", bad)) {
			t.Errorf("Named(%q): error %q does not name the argument", bad, err)
		}
	}
	for _, n := range []int{-1, 80, 255} {
		if _, err := Numbered(n); err == nil || !strings.Contains(err.Error(), fmt.Sprint(n)) {
			t.Errorf("Numbered(%d) = %v, want refused naming %d", n, err, n)
		}
	}
	if Key(80).Name() != "" || Key(80).String() != "key 80" {
		t.Errorf("Key(80) names %q / %q", Key(80).Name(), Key(80).String())
	}
	if got := Names(); len(got) != Count || got[47] != "SPACE" || got[76] != "(FIRE 2)" {
		t.Errorf("Names() = %d names, [47] %q, [76] %q", len(got), got[47], got[76])
	}
}

// TestMatrix: the matrix is active low, a key held clears its bit, and a
// line past the tenth reads &FF (cpctech, "Reading the keyboard and
// Joysticks").
func TestMatrix(t *testing.T) {
	var m Matrix
	m.Reset()
	for n := -1; n <= 15; n++ {
		if m.Line(n) != 0xFF {
			t.Errorf("line %d of an untouched keyboard = &%02X, want &FF", n, m.Line(n))
		}
	}
	steps := []struct {
		press bool
		key   Key
		line  int
		want  byte
	}{
		{true, Space, 5, 0x7F},
		{true, 40, 5, 0x7E}, // 8, on the same line
		{true, Shift, 2, 0xDF},
		{false, Space, 5, 0xFE},
		{true, JoyFire2, 9, 0xEF},
		{true, Del, 9, 0x6F},
		{false, 40, 5, 0xFF},
		{true, 200, 5, 0xFF}, // no such key: nothing moves
	}
	for i, s := range steps {
		if s.press {
			m.Press(s.key)
		} else {
			m.Release(s.key)
		}
		if got := m.Line(s.line); got != s.want {
			t.Errorf("step %d: line %d = &%02X, want &%02X", i, s.line, got, s.want)
		}
		if int(s.key) < Count && m.Down(s.key) != s.press {
			t.Errorf("step %d: Down(%v) = %v, want %v", i, s.key, m.Down(s.key), s.press)
		}
	}
	if m.Down(200) {
		t.Error("Down(200) reported a key that does not exist")
	}
	m.Reset()
	if m.Lines != [Lines]byte{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF} {
		t.Errorf("after Reset: % X", m.Lines)
	}
}
