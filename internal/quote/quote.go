// Package quote writes what a client sent into a message about it, cut
// short. An error names the argument, the file or the limit at fault and
// quotes at most a short piece of what was sent, so that a request of ten
// megabytes is refused in a line, not answered with itself (the brief's
// "Bad input"; issue 19, item 2).
package quote

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Most is how many characters of what was sent a message quotes.
const Most = 80

// String quotes s as %q does, its first Most characters at most; where it
// is longer, "…" follows them inside the quotes, and its length after:
// "AAAA…" (10485760 characters).
func String(s string) string {
	head, n, cut := cut(s)
	if !cut {
		return strconv.Quote(s)
	}
	q := strconv.Quote(head)
	return fmt.Sprintf("%s…\" (%d characters)", q[:len(q)-1], n)
}

// Raw is String without the quotes, for what a message writes as it came,
// a number's digits or a piece of JSON: 123456…(1000000 characters).
func Raw(s string) string {
	head, n, cut := cut(s)
	if !cut {
		return s
	}
	return fmt.Sprintf("%s… (%d characters)", head, n)
}

// Path writes a file's path for a message: whole where it is no longer
// than twice Most, and otherwise its first and last Most/2 characters,
// where a path's directory and its file's name are, with "…" between and
// its length after.
func Path(p string) string {
	if utf8.RuneCountInString(p) <= 2*Most {
		return p
	}
	r := []rune(p)
	return fmt.Sprintf("%s…%s (%d characters)", string(r[:Most/2]), string(r[len(r)-Most/2:]), len(r))
}

// Bytes is Raw for bytes.
func Bytes(b []byte) string {
	if len(b) <= Most {
		return string(b)
	}
	return Raw(string(b))
}

// JSONError writes an error of encoding/json's decoder for a message,
// with what it quotes of the input cut short as String and Raw cut: the
// name of an unknown field, which the decoder quotes whole, and a
// mistyped value's digits and path. Its other errors name a character
// and an offset, or a Go type, and are written as they are, held to
// Most characters all the same.
func JSONError(err error) string {
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) && typ.Type != nil {
		where := ""
		if typ.Field != "" {
			where = " at " + String(typ.Field)
		}
		return fmt.Sprintf("json: cannot unmarshal %s%s into a Go value of type %s", Raw(typ.Value), where, typ.Type)
	}
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "json: unknown field "); ok {
		if s, err := strconv.Unquote(name); err == nil {
			return "json: unknown field " + String(s)
		}
	}
	return Raw(msg)
}

// cut returns s's first Most characters, its length in characters, and
// whether it is longer than that. A byte that is not UTF-8 counts as one
// character.
func cut(s string) (head string, n int, long bool) {
	if len(s) <= Most {
		return s, utf8.RuneCountInString(s), false
	}
	end, i := 0, 0
	for i = 0; end < len(s) && i < Most; i++ {
		_, size := utf8.DecodeRuneInString(s[end:])
		end += size
	}
	if end == len(s) {
		return s, i, false
	}
	return s[:end], utf8.RuneCountInString(s), true
}
