package line

import "testing"

func TestFilter(t *testing.T) {
	tests := []struct {
		name string
		raw  string
		want string
	}{
		{"text", "hello, world", "hello, world"},
		{"tab kept", "a\tb", "a\tb"},
		{"CRLF", "a\r\nb", "a\nb"},
		{"CR", "a\rb", "a\nb"},
		{"LF", "a\nb", "a\nb"},
		{"LF CR is two", "a\n\rb", "a\n\nb"},
		{"CR CR LF", "a\r\r\nb", "a\n\nb"},
		{"NUL padding", "a\x00\x00b", "ab"},
		{"NULs inside CR LF", "a\r\x00\x00\nb", "a\nb"},
		{"VT52 letters", "\x1bH\x1bJhome\x1bK", "home"},
		{"VT52 lower-case letter", "\x1bhx", "x"},
		{"ESC Y row col", "\x1bY7(x", "x"},
		{"ESC Y with letters as row and col", "\x1bYAbx", "x"},
		{"ESC then non-letter keeps the byte", "\x1b=x", "=x"},
		{"IAC WILL ECHO", "\xff\xfb\x01a", "a"},
		{"simh's greeting negotiation", "\xff\xfb\"\xff\xfb\x03\xff\xfb\x01\xff\xfb\x00\xff\xfd\x00hi", "hi"},
		{"IAC DONT", "\xff\xfe\x18a", "a"},
		{"IAC NOP and GA", "a\xff\xf1b\xff\xf9c", "abc"},
		{"IAC SB ... IAC SE", "a\xff\xfa\x18\x01\xff\xf0b", "ab"},
		{"IAC IAC inside SB", "a\xff\xfa\x18\xff\xffx\xff\xf0b", "ab"},
		{"IAC IAC is a dropped 255", "a\xff\xffb", "ab"},
		{"IAC between CR and LF", "a\r\xff\xfb\x01\nb", "a\nb"},
		{"IAC inside ESC Y", "\x1bY\xff\xfb\x017(x", "x"},
		{"bell, backspace, rubout, form feed dropped", "a\x07\x08\x7f\x0cb", "ab"},
		{"eighth bit dropped", "a\x80\xc1b", "ab"},
		{"rubout between CR and LF", "a\r\x7f\nb", "a\nb"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var f filter
			if got := string(f.write(nil, []byte(tt.raw))); got != tt.want {
				t.Errorf("whole: filter(%q) = %q, want %q", tt.raw, got, tt.want)
			}
			// Split at every point, as two reads from the socket would.
			for i := 1; i < len(tt.raw); i++ {
				var f filter
				got := f.write(nil, []byte(tt.raw[:i]))
				got = f.write(got, []byte(tt.raw[i:]))
				if string(got) != tt.want {
					t.Errorf("split at %d: filter(%q | %q) = %q, want %q", i, tt.raw[:i], tt.raw[i:], got, tt.want)
				}
			}
			// And one byte per read.
			var one filter
			var got []byte
			for i := 0; i < len(tt.raw); i++ {
				got = one.write(got, []byte{tt.raw[i]})
			}
			if string(got) != tt.want {
				t.Errorf("byte by byte: filter(%q) = %q, want %q", tt.raw, got, tt.want)
			}
		})
	}
}

func TestCollapse(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"abc", "abc"},
		{"abc   \t", "abc"},
		{"a  \nb\t\n", "a\nb\n"},
		{"a\n\nb", "a\n\nb"},
		{"a\n\n\n\n\nb", "a\n\nb"},
		{"a\n  \n\t\n \nb", "a\n\nb"},
		{"\n\n\nDDT\n*", "\nDDT\n*"},
		{"* ", "*"},
	}
	for _, tt := range tests {
		if got := collapse(tt.in); got != tt.want {
			t.Errorf("collapse(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestTrailingPrompt(t *testing.T) {
	tests := []struct {
		text            string
		start, end      int
		complete, found bool
	}{
		{"page one\n--More-- (Space=yes, Rubout=no)", 9, 40, true, true},
		{"page one\n--More-- (Space=yes, Rubout=no)  ", 9, 40, true, true},
		{"page one\n--More--", 9, 17, false, true},
		{"--More--", 0, 8, false, true},
		{"page one\n--More-- (Space=y", 0, 0, false, false},
		{"--More-- in the middle\nand more", 0, 0, false, false},
		{"plain text", 0, 0, false, false},
	}
	for _, tt := range tests {
		start, end, complete, found := trailingPrompt(tt.text)
		if found != tt.found || complete != tt.complete || (found && (start != tt.start || end != tt.end)) {
			t.Errorf("trailingPrompt(%q) = %d, %d, %v, %v; want %d, %d, %v, %v",
				tt.text, start, end, complete, found, tt.start, tt.end, tt.complete, tt.found)
		}
	}
}
