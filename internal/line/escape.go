package line

import (
	"fmt"
	"strconv"
)

// escapeBytes is the spec's escape table (spec/pidp10-mcp.md, "Escape
// syntax"): the letter after the tilde and the byte it puts on the wire.
// ~x, ~~ and ~- are handled in Expand because they are not single bytes.
var escapeBytes = map[byte]byte{
	'z': 0x1A, // Ctrl-Z: calls ITS on a fresh line
	'e': 0x1B, // ESC, altmode: what DDT echoes as $
	'c': 0x03, // Ctrl-C
	'g': 0x07, // Ctrl-G
	'd': 0x7F, // Rubout: flushes a --More-- pager
	's': 0x13, // Ctrl-S
	'o': 0x0F, // Ctrl-O
	'r': 0x0D, // CR, when an explicit one is wanted mid-line
	'n': 0x0A, // LF: a DDT command (examine next), not a newline
	't': 0x09, // Tab
}

// Expand turns send's input into the bytes for the wire.
//
// Escapes are expanded as the table in the spec says, and an unknown escape
// is an error rather than text: sending a stray "~q" to DDT is worse than a
// rejection. Unless raw is set, a literal LF or CRLF in the text becomes a
// CR, because a bare LF is a DDT command on ITS, and a CR is appended unless
// the input ends in "~-". The bytes an escape produces (~n, ~r, ~xNN) are
// never normalised. With raw set the expanded bytes go out verbatim.
//
// Only ASCII is accepted: the line is seven-bit, and a byte outside that
// range has to be asked for with ~xNN.
func Expand(input string, raw bool) ([]byte, error) {
	out := make([]byte, 0, len(input)+1)
	appendCR := !raw
	for i := 0; i < len(input); i++ {
		c := input[i]
		switch {
		case c >= 0x80:
			r := []rune(input[i:])[0]
			return nil, fmt.Errorf("input: non-ASCII character %q at byte %d; send a byte with ~xNN", r, i)
		case c == '\r' && !raw:
			// A literal CRLF is one line ending: one CR.
			if i+1 < len(input) && input[i+1] == '\n' {
				i++
			}
			out = append(out, '\r')
		case c == '\n' && !raw:
			out = append(out, '\r')
		case c != '~':
			out = append(out, c)
		default:
			if i+1 >= len(input) {
				return nil, fmt.Errorf("input: lone ~ at the end; write ~~ for a tilde")
			}
			i++
			letter := input[i]
			switch letter {
			case '~':
				out = append(out, '~')
			case '-':
				if i != len(input)-1 {
					return nil, fmt.Errorf("input: ~- at byte %d is only allowed at the very end", i-1)
				}
				appendCR = false
			case 'x':
				if i+3 > len(input) {
					return nil, fmt.Errorf("input: ~x at byte %d needs two hex digits", i-1)
				}
				digits := input[i+1 : i+3]
				v, err := strconv.ParseUint(digits, 16, 8)
				if err != nil {
					return nil, fmt.Errorf("input: ~x%s at byte %d: want two hex digits", digits, i-1)
				}
				out = append(out, byte(v))
				i += 2
			default:
				b, ok := escapeBytes[letter]
				if !ok {
					return nil, fmt.Errorf("input: unknown escape ~%s at byte %d (known: ~z ~e ~c ~g ~d ~s ~o ~r ~n ~t ~xNN ~~ ~-)",
						printable(letter), i-1)
				}
				out = append(out, b)
			}
		}
	}
	if appendCR {
		out = append(out, '\r')
	}
	return out, nil
}

// printable shows a byte the way an error message can carry it.
func printable(c byte) string {
	if c >= 0x20 && c < 0x7F {
		return string(c)
	}
	return fmt.Sprintf("\\x%02X", c)
}
