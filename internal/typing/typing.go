// Package typing turns text into the key presses that type it, as the
// emulator's command line types with --type and the server's type tool
// does (spec, "Keys and typing"; checklist KEY-4 to KEY-14).
//
// Each character's key goes down, with whatever shift it needs, for a
// number of standard frames, and then every key of it comes up for a
// number more: 3 and 3 on a CPC, 3 and 6 on a Spectrum, whose ROM takes the
// same key again only once five of its scans have passed (KEY-6). The
// counts are in ticks of a standard frame from where the typing began, so
// that typing takes the same ticks however the machine's own frames fall.
//
// What a key means is the machine's business: each machine gives a Layout
// that names the keys a character needs, by the legends its keyboard
// carries. A text with a character no key types is refused whole, before
// any key goes down (KEY-10).
package typing

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Layout is what a machine tells typing about its keyboard.
type Layout struct {
	// Machine names the machine in errors: "a Spectrum", "a CPC".
	Machine string
	// MaxChars is the longest text taken: 1500 frames' worth (KEY-9).
	MaxChars int
	// FrameTicks is a standard frame's length in ticks.
	FrameTicks uint64
	// HoldFrames and ReleaseFrames are how long each character's keys
	// stay down, and then up, in standard frames.
	HoldFrames, ReleaseFrames uint64
	// Keys returns the keys, shift included, that type the character, or
	// nil if none does.
	Keys func(c byte) []string
	// Outside returns the keys, shift included, by names the machine's
	// Hold takes, that type a character outside ASCII, such as £, or nil
	// if none does. Typing takes ASCII alone, so such a character is
	// refused, and its refusal names these keys to hold through a run
	// instead (KEY-11). Nil for a keyboard with none.
	Outside func(r rune) []string
}

// Press is one character typed: its keys go down Down ticks after the
// typing begins and come up Up ticks after it.
type Press struct {
	Char     byte
	Keys     []string
	Down, Up uint64
}

// Plan returns the presses that type text, and the ticks the whole typing
// takes, the last release included. It refuses a text that is too long,
// not ASCII, or holds a character no key types, naming the first such
// character.
func Plan(text string, l Layout) ([]Press, uint64, error) {
	if n := len(text); n > l.MaxChars {
		return nil, 0, fmt.Errorf("the text is %d characters; %s takes at most %d, 1500 frames' worth",
			n, l.Machine, l.MaxChars)
	}
	per := (l.HoldFrames + l.ReleaseFrames) * l.FrameTicks
	presses := make([]Press, 0, len(text))
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c >= 0x80 {
			return nil, 0, l.outside(text, i)
		}
		keys := l.Keys(c)
		if len(keys) == 0 {
			return nil, 0, fmt.Errorf("no key on %s types %s, at %d", l.Machine, Describe(c), i)
		}
		down := uint64(i) * per
		presses = append(presses, Press{
			Char: c,
			Keys: keys,
			Down: down,
			Up:   down + l.HoldFrames*l.FrameTicks,
		})
	}
	return presses, uint64(len(text)) * per, nil
}

// outside refuses the character outside ASCII at text[i:], naming the keys
// that type it on the machine's keyboard, to hold through a run, where
// some do.
func (l Layout) outside(text string, i int) error {
	r, size := utf8.DecodeRuneInString(text[i:])
	if r == utf8.RuneError && size <= 1 {
		return fmt.Errorf("the text is not ASCII: byte &%02X at %d is not even UTF-8, and type types ASCII alone", text[i], i)
	}
	var keys []string
	if l.Outside != nil {
		keys = l.Outside(r)
	}
	if len(keys) == 0 {
		return fmt.Errorf("the text is not ASCII: %q at %d, which type does not type, and no key on %s types it", r, i, l.Machine)
	}
	return fmt.Errorf("the text is not ASCII: %q at %d, which type does not type; hold its keys through run instead, as keys %s", r, i, keyList(keys))
}

// keyList writes keys as run's keys argument takes them: ["SHIFT", "£"].
func keyList(keys []string) string {
	q := make([]string, len(keys))
	for i, k := range keys {
		q[i] = strconv.Quote(k)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// Describe names a character for a person: printable ones quoted, the rest
// by the escape the command line takes for them or by their code.
func Describe(c byte) string {
	switch c {
	case '\n':
		return `a newline (\n)`
	case '\t':
		return `a tab (\t)`
	case 0x1B:
		return `an escape (\e)`
	case 0x08:
		return `a backspace (\b)`
	}
	if c >= 0x20 && c < 0x7F {
		return fmt.Sprintf("%q", rune(c))
	}
	return fmt.Sprintf("the character &%02X", c)
}

// Unescape turns the command line's --type escapes into the characters
// they stand for: \n a newline, \t a tab, \e an escape, \b a backspace and
// \\ a backslash. Any other escape, or a backslash at the very end, is
// refused.
func Unescape(s string) (string, error) {
	if !strings.Contains(s, `\`) {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		if i+1 == len(s) {
			return "", fmt.Errorf(`a \ at the end escapes nothing (write \\ for a backslash)`)
		}
		i++
		switch s[i] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'e':
			b.WriteByte(0x1B)
		case 'b':
			b.WriteByte(0x08)
		case '\\':
			b.WriteByte('\\')
		default:
			return "", fmt.Errorf(`no such escape: \%c (the escapes are \n \t \e \b \\)`, s[i])
		}
	}
	return b.String(), nil
}
