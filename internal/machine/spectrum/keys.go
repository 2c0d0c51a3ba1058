package spectrum

import (
	"fmt"
	"strings"

	"colophon/internal/chip/ula"
	"colophon/internal/typing"

	"colophon/internal/quote"
)

// keyNames are the forty keys, by the legends on their caps (KEY-2), as
// the ULA's half-rows hold them: half-row r is the one A(8+r) low selects,
// its keys at bits 0 to 4 from the outside of the keyboard in [KB].
var keyNames = [8][5]string{
	{"CAPS", "Z", "X", "C", "V"},    // A8
	{"A", "S", "D", "F", "G"},       // A9
	{"Q", "W", "E", "R", "T"},       // A10
	{"1", "2", "3", "4", "5"},       // A11
	{"0", "9", "8", "7", "6"},       // A12
	{"P", "O", "I", "U", "Y"},       // A13
	{"ENTER", "L", "K", "J", "H"},   // A14
	{"SPACE", "SYM", "M", "N", "B"}, // A15
}

// aliases are the longer legends the caps print for three of the keys,
// and £, the red legend of X, which SYM with X types (the Spectrum manual's
// keyboard).
var aliases = map[string]string{
	"CAPS SHIFT":   "CAPS",
	"SYMBOL SHIFT": "SYM",
	"BREAK SPACE":  "SPACE",
	"£":            "X",
}

type keyPos struct{ row, bit int }

var keyAt = func() map[string]keyPos {
	m := make(map[string]keyPos, 40)
	for r, names := range keyNames {
		for b, n := range names {
			m[n] = keyPos{r, b}
		}
	}
	return m
}()

// lookup finds a key by name, in any case.
func lookup(name string) (keyPos, bool) {
	n := strings.ToUpper(strings.TrimSpace(name))
	if a, ok := aliases[n]; ok {
		n = a
	}
	p, ok := keyAt[n]
	return p, ok
}

// matrix returns the half-rows that hold the named keys down.
func matrix(names []string) ([8]uint8, error) {
	var m [8]uint8
	for _, n := range names {
		p, ok := lookup(n)
		if !ok {
			return [8]uint8{}, fmt.Errorf("spectrum48 has no key %s (its keys are %s)", quote.String(n), strings.Join(KeyNames(), " "))
		}
		m[p.row] |= 1 << p.bit
	}
	return m, nil
}

// KeyNames lists the keys, half-row by half-row.
func KeyNames() []string {
	names := make([]string, 0, 40)
	for _, row := range keyNames {
		names = append(names, row[:]...)
	}
	return names
}

// KeyNames lists the machine's keys.
func (s *Spectrum) KeyNames() []string { return KeyNames() }

// Hold sets the keys the keyboard holds down. An unknown name is refused
// and the keyboard left as it was.
func (s *Spectrum) Hold(keys []string) error {
	m, err := matrix(keys)
	if err != nil {
		return err
	}
	s.held = m
	s.applyKeys()
	return nil
}

// Held returns the keys held, half-row by half-row.
func (s *Spectrum) Held() []string {
	var held []string
	for r, row := range keyNames {
		for b, n := range row {
			if s.held[r]&(1<<b) != 0 {
				held = append(held, n)
			}
		}
	}
	return held
}

// applyKeys gives the ULA the keys down: those held and those typed.
func (s *Spectrum) applyKeys() {
	for r := range s.ULA.Keys {
		s.ULA.Keys[r] = s.held[r] | s.typed[r]
	}
}

// symbols are the characters the red legends carry, typed with SYM held:
// those that are ASCII characters rather than keywords (<=, THEN, AT) or
// the pound sign (the Spectrum manual's keyboard; as colophon-emulator's
// command line types them).
var symbols = map[byte]string{
	'!': "1", '@': "2", '#': "3", '$': "4", '%': "5",
	'&': "6", '\'': "7", '(': "8", ')': "9", '_': "0",
	'<': "R", '>': "T", ';': "O", '"': "P",
	'^': "H", '-': "J", '+': "K", '=': "L",
	':': "Z", '?': "C", '/': "V", '*': "B", ',': "N", '.': "M",
}

// keysFor returns the keys that type a character: a letter by its key,
// capitals with CAPS; a digit by its key; the red symbols with SYM; a space
// with SPACE and a newline with ENTER (KEY-7). What the firmware makes of
// them is its business: at the K cursor a letter is a keyword (KEY-18).
func keysFor(c byte) []string {
	switch {
	case c >= 'a' && c <= 'z':
		return []string{string(c - 'a' + 'A')}
	case c >= 'A' && c <= 'Z':
		return []string{"CAPS", string(c)}
	case c >= '0' && c <= '9':
		return []string{string(c)}
	case c == ' ':
		return []string{"SPACE"}
	case c == '\n':
		return []string{"ENTER"}
	}
	if k, ok := symbols[c]; ok {
		return []string{"SYM", k}
	}
	return nil
}

// outsideKeys names the keys that type a character outside ASCII, which
// typing refuses, to hold through a run instead: £ is SYM with X, the key
// whose red legend it is, which Hold also takes as "£".
func outsideKeys(r rune) []string {
	if r == '£' {
		return []string{"SYM", "£"}
	}
	return nil
}

// Layout is what typing needs of a Spectrum: keys held 3 standard frames
// and let go for 6, since the ROM takes the same key again only once five
// of its scans have passed (KEY-4, KEY-6); at most 166 characters, 1500
// frames' worth (KEY-9).
var Layout = typing.Layout{
	Machine:       "a Spectrum",
	MaxChars:      166,
	FrameTicks:    ula.TicksPerFrame,
	HoldFrames:    3,
	ReleaseFrames: 6,
	Keys:          keysFor,
	Outside:       outsideKeys,
}
