package line

import (
	"bytes"
	"strings"
	"testing"
)

func TestExpand(t *testing.T) {
	tests := []struct {
		name  string
		input string
		raw   bool
		want  []byte
	}{
		// Every row of the spec's escape table, with the automatic CR.
		{"ctrl-z calls ITS", "~z", false, []byte{0x1A, '\r'}},
		{"altmode", "~e", false, []byte{0x1B, '\r'}},
		{"ctrl-c", "~c", false, []byte{0x03, '\r'}},
		{"ctrl-g", "~g", false, []byte{0x07, '\r'}},
		{"rubout", "~d", false, []byte{0x7F, '\r'}},
		{"ctrl-s", "~s", false, []byte{0x13, '\r'}},
		{"ctrl-o", "~o", false, []byte{0x0F, '\r'}},
		{"explicit CR", "a~rb", false, []byte{'a', '\r', 'b', '\r'}},
		{"LF is a DDT command", "~n", false, []byte{'\n', '\r'}},
		{"tab", "a~tb", false, []byte{'a', '\t', 'b', '\r'}},
		{"hex byte", "~x41~x7f~xFF", false, []byte{'A', 0x7F, 0xFF, '\r'}},
		{"tilde", "~~", false, []byte{'~', '\r'}},
		{"no CR", "abc~-", false, []byte("abc")},
		{"only no CR", "~-", false, []byte{}},
		{"DDT foo$j", "foo~ej", false, []byte("foo\x1bj\r")},

		// Line endings.
		{"plain line", ":login rms", false, []byte(":login rms\r")},
		{"empty input is a bare CR", "", false, []byte{'\r'}},
		{"LF becomes CR", "a\nb", false, []byte("a\rb\r")},
		{"CRLF becomes one CR", "a\r\nb", false, []byte("a\rb\r")},
		{"CR stays CR", "a\rb", false, []byte("a\rb\r")},
		{"CR CR stays two", "a\r\rb", false, []byte("a\r\rb\r")},
		{"LF CR is two CRs", "a\n\rb", false, []byte("a\r\rb\r")},
		{"~n is exempt", "a~nb", false, []byte("a\nb\r")},
		{"~x0A is exempt", "a~x0A", false, []byte("a\n\r")},
		{"~r~n is CR LF", "~r~n~-", false, []byte("\r\n")},

		// raw=true sends the expanded bytes verbatim.
		{"raw: no CR", "abc", true, []byte("abc")},
		{"raw: LF kept", "a\nb", true, []byte("a\nb")},
		{"raw: CRLF kept", "a\r\nb", true, []byte("a\r\nb")},
		{"raw: escapes expand", "~z~e", true, []byte{0x1A, 0x1B}},
		{"raw: ~- allowed", "x~-", true, []byte("x")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Expand(tt.input, tt.raw)
			if err != nil {
				t.Fatalf("Expand(%q, %v): %v", tt.input, tt.raw, err)
			}
			if !bytes.Equal(got, tt.want) {
				t.Errorf("Expand(%q, %v) = %q, want %q", tt.input, tt.raw, got, tt.want)
			}
		})
	}
}

func TestExpandErrors(t *testing.T) {
	tests := []struct {
		input string
		want  string // in the error
	}{
		{"~q", "unknown escape ~q at byte 0"},
		{"ab~Z", "unknown escape ~Z at byte 2"},
		{"~", "lone ~"},
		{"abc~", "lone ~"},
		{"~-abc", "only allowed at the very end"},
		{"~x", "needs two hex digits"},
		{"~x4", "needs two hex digits"},
		{"~xg1", "~xg1"},
		{"~x+1", "~x+1"},
		{"caf\u00e9", "non-ASCII character"},
	}
	for _, tt := range tests {
		_, err := Expand(tt.input, false)
		if err == nil {
			t.Errorf("Expand(%q) succeeded, want an error containing %q", tt.input, tt.want)
			continue
		}
		if !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "input: ") {
			t.Errorf("Expand(%q) error %q, want one naming input and containing %q", tt.input, err, tt.want)
		}
	}
}
