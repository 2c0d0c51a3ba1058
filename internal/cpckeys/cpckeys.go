// Package cpckeys is the Amstrad CPC's keyboard: the matrix of ten lines of
// eight switches that the firmware scans, the keys' names and numbers, and
// the key, with or without SHIFT, that types each ASCII character.
//
// A key's number is the firmware's: its line of the matrix times eight
// plus its bit (SOFT 968, Appendix I, key numbering). Its name is the one
// the player prints on it, after the keys SOFT 968 draws: SPACE, COPY, f5,
// and (FIRE 2) for joystick 0's main button. Joystick 0 has line 9 to
// itself but for DEL; joystick 1 shares line 6 with 6, 5, R, T, G, F and B,
// and goes by those keys' names.
//
// Sources cited at the lines that depend on them:
//   - Amstrad, "CPC 464/664/6128 Firmware" (SOFT 968): Appendix I, the key
//     numbers and the keyboard and joystick drawings; Appendix II, the key
//     translation tables, which give what each key types alone and with
//     SHIFT.
//   - Kevin Thacker's cpctech, "Reading the keyboard and Joysticks"
//     (https://cpctech.cpcwiki.de/docs/keyboard.html): the matrix is active
//     low, and a line past the tenth reads &FF.
//   - The specification, spec/colophon-mcp.txt, "Keys and typing": which
//     characters type which keys.
package cpckeys

import (
	"fmt"
	"strings"

	"colophon/internal/quote"
)

// Lines is the number of lines in a CPC's matrix (SOFT 968, Appendix I);
// Count the number of keys, 0 to 79.
const (
	Lines = 10
	Count = Lines * 8
)

// Key is a key by its firmware number, line × 8 + bit.
type Key uint8

// Keys a board or a typist needs by name (SOFT 968, Appendix I).
const (
	CursorUp    Key = 0
	CursorRight Key = 1
	CursorDown  Key = 2
	CursorLeft  Key = 8
	Copy        Key = 9
	Clr         Key = 16
	Return      Key = 18
	Shift       Key = 21
	Control     Key = 23
	Space       Key = 47
	Esc         Key = 66
	Tab         Key = 68
	CapsLock    Key = 70
	JoyUp       Key = 72 // joystick 0
	JoyDown     Key = 73
	JoyLeft     Key = 74
	JoyRight    Key = 75
	JoyFire2    Key = 76 // the main button
	JoyFire1    Key = 77
	JoySpare    Key = 78
	Del         Key = 79
	Pound       Key = 24 // ^ alone, £ with SHIFT
)

// names are the keys' names by number, as the player prints them: the
// legends of SOFT 968's keyboard drawings at the positions Appendix I
// numbers, the keypad's f0 to f9, f. and ENTER, and joystick 0's switches
// in brackets.
var names = [Count]string{
	"↑", "→", "↓", "f9", "f6", "f3", "ENTER", "f.", // line 0
	"←", "COPY", "f7", "f8", "f5", "f1", "f2", "f0", // line 1
	"CLR", "[", "RETURN", "]", "f4", "SHIFT", "\\", "CTRL", // line 2
	"^", "-", "@", "P", ";", ":", "/", ".", // line 3
	"0", "9", "O", "I", "L", "K", "M", ",", // line 4
	"8", "7", "U", "Y", "H", "J", "N", "SPACE", // line 5
	"6", "5", "R", "T", "G", "F", "B", "V", // line 6, and joystick 1
	"4", "3", "E", "W", "S", "D", "C", "X", // line 7
	"1", "2", "ESC", "Q", "TAB", "A", "CAPS", "Z", // line 8
	"(UP)", "(DOWN)", "(LEFT)", "(RIGHT)", "(FIRE 2)", "(FIRE 1)", "(SPARE)", "DEL", // line 9
}

// aliases are other names a key answers to, for a typist without arrows on
// the keyboard or who spells a key out. They are ours, not the player's;
// £ is the other legend on the ^ key, which types it with SHIFT (SOFT 968,
// Appendix II: key 24 is ^ alone and £ shifted).
var aliases = map[string]Key{
	"CURSOR UP":    CursorUp,
	"CURSOR RIGHT": CursorRight,
	"CURSOR DOWN":  CursorDown,
	"CURSOR LEFT":  CursorLeft,
	"CONTROL":      Control,
	"CAPS LOCK":    CapsLock,
	"£":            Pound,
}

// byName finds a key by its name in capitals.
var byName = func() map[string]Key {
	m := make(map[string]Key, Count+len(aliases))
	for k, n := range names {
		m[strings.ToUpper(n)] = Key(k)
	}
	for n, k := range aliases {
		m[n] = k
	}
	return m
}()

// Line is the matrix line the key is on, 0 to 9.
func (k Key) Line() int { return int(k >> 3) }

// Bit is the key's bit in its line, 0 to 7.
func (k Key) Bit() int { return int(k & 7) }

// Name is the key's name as the player prints it, or "" for a number that
// names no key.
func (k Key) Name() string {
	if int(k) >= Count {
		return ""
	}
	return names[k]
}

func (k Key) String() string {
	if int(k) >= Count {
		return fmt.Sprintf("key %d", int(k))
	}
	return names[k]
}

// Names lists every key's name in the order of its number, 0 to 79.
func Names() []string {
	return append([]string(nil), names[:]...)
}

// Named finds a key by the name the player prints on it, in capitals or
// not: "SPACE", "f5", "(FIRE 2)", "a". A digit is the key that bears it,
// so "0" is the key of 0 and _, number 32; a key by its number is Numbered.
func Named(name string) (Key, error) {
	if k, ok := byName[strings.ToUpper(name)]; ok {
		return k, nil
	}
	return 0, fmt.Errorf("no CPC key is named %s: keys go by the names printed on them, "+
		"such as SPACE, RETURN, COPY, f5, A, 1, ↑ (or CURSOR UP) and (FIRE 2), or by number 0 to 79", quote.String(name))
}

// Numbered finds a key by its firmware number, line × 8 + bit, 0 to 79.
func Numbered(n int) (Key, error) {
	if n < 0 || n >= Count {
		return 0, fmt.Errorf("CPC key number %d is out of range: keys are numbered 0 to 79, line × 8 + bit", n)
	}
	return Key(n), nil
}

// Stroke is the key that types a character, and whether SHIFT goes down
// beside it.
type Stroke struct {
	Key   Key
	Shift bool
}

// legends gives each key that types an ASCII character what it types
// alone and with SHIFT, after SOFT 968's Appendix II translation tables,
// with a letter typing its lower case alone and its capital with SHIFT. A
// zero is no ASCII character: SHIFT with ^ types £, which is not ASCII.
var legends = map[Key][2]byte{
	17: {'[', '{'}, 19: {']', '}'}, 22: {'\\', '`'},
	24: {'^', 0}, 25: {'-', '='}, 26: {'@', '|'}, 28: {';', '+'},
	29: {':', '*'}, 30: {'/', '?'}, 31: {'.', '>'},
	32: {'0', '_'}, 33: {'9', ')'}, 39: {',', '<'},
	40: {'8', '('}, 41: {'7', '\''}, 47: {' ', ' '},
	48: {'6', '&'}, 49: {'5', '%'}, 56: {'4', '$'}, 57: {'3', '#'},
	64: {'1', '!'}, 65: {'2', '"'},
}

// strokes gives each ASCII character the stroke that types it.
var strokes = func() (t [128]struct {
	s  Stroke
	ok bool
}) {
	put := func(c byte, k Key, shift bool) {
		if c != 0 && !t[c].ok {
			t[c].s, t[c].ok = Stroke{k, shift}, true
		}
	}
	// Keys in number order, unshifted before shifted, so that a
	// character two strokes type (SPACE alone and with SHIFT) takes the
	// plain one.
	for k := Key(0); k < Count; k++ {
		if n := names[k]; len(n) == 1 && n[0] >= 'A' && n[0] <= 'Z' {
			put(n[0]+'a'-'A', k, false)
			put(n[0], k, true)
		}
		if l, ok := legends[k]; ok {
			put(l[0], k, false)
			put(l[1], k, true)
		}
	}
	// The control characters the specification names: "A newline is
	// RETURN ..., and on a CPC a tab, an escape and a backspace are TAB,
	// ESC and DEL." No other control character is typed.
	put('\n', Return, false)
	put('\t', Tab, false)
	put(0x1B, Esc, false)
	put('\b', Del, false)
	return t
}()

// ForRune gives the stroke that types r. It refuses a character outside
// ASCII, such as a CPC's £, whose keys are to be held through a run
// instead, and a character no key types alone or with SHIFT (the
// specification, "Keys and typing").
func ForRune(r rune) (Stroke, error) {
	if r < 0 || r >= 128 {
		return Stroke{}, fmt.Errorf("%q is not ASCII, and text is typed in ASCII only: "+
			"hold its keys through a run instead (£ is SHIFT and £, the key that types ^ alone)", r)
	}
	if e := strokes[r]; e.ok {
		return e.s, nil
	}
	return Stroke{}, fmt.Errorf("no key of a CPC types %q, alone or with SHIFT", r)
}

// OutsideKeys names the keys that type a character outside ASCII, which
// typing refuses, by names Named takes, to hold through a run instead: £
// is SHIFT and the £ key, the one that types ^ alone. Its form is the one
// the typing package's Layout.Outside takes.
func OutsideKeys(r rune) []string {
	if r == '£' {
		return []string{names[Shift], "£"}
	}
	return nil
}

// TypingKeys names the keys that type c, SHIFT first where it goes down
// beside its key, or gives nil where no key types it. Its form is the one
// the typing package's Layout.Keys takes.
func TypingKeys(c byte) []string {
	s, err := ForRune(rune(c))
	if err != nil {
		return nil
	}
	if s.Shift {
		return []string{names[Shift], names[s.Key]}
	}
	return []string{names[s.Key]}
}

// Matrix is the keyboard's switches as the firmware scans them: a byte to
// each line, in which a clear bit is a key held down, since a closed switch
// pulls its column low (cpctech, "Reading the keyboard and Joysticks"). A
// board keeps one by value and calls Reset at power-on.
type Matrix struct {
	Lines [Lines]byte `inspect:"lines"`
}

// Reset lets every key go.
func (m *Matrix) Reset() {
	for i := range m.Lines {
		m.Lines[i] = 0xFF
	}
}

// Press holds k down. A number past 79 names no key and is ignored.
func (m *Matrix) Press(k Key) {
	if int(k) < Count {
		m.Lines[k.Line()] &^= 1 << k.Bit()
	}
}

// Release lets k go.
func (m *Matrix) Release(k Key) {
	if int(k) < Count {
		m.Lines[k.Line()] |= 1 << k.Bit()
	}
}

// Down reports whether k is held.
func (m *Matrix) Down(k Key) bool {
	return int(k) < Count && m.Lines[k.Line()]&(1<<k.Bit()) == 0
}

// Line is the byte line n presents to the PSG's port A. Port C's four low
// bits choose the line through a decoder of ten outputs, so a line from 10
// to 15 selects none and reads &FF (cpctech, "Reading the keyboard and
// Joysticks").
func (m *Matrix) Line(n int) byte {
	if n < 0 || n >= Lines {
		return 0xFF
	}
	return m.Lines[n]
}
