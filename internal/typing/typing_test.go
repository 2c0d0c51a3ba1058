package typing

import (
	"slices"
	"strings"
	"testing"
)

// toy is a keyboard of lower-case letters, with capitals under SHIFT and a
// RETURN key: enough to hold Plan to its rules without any one machine.
var toy = Layout{
	Machine:       "a toy",
	MaxChars:      5,
	FrameTicks:    1000,
	HoldFrames:    3,
	ReleaseFrames: 6,
	Keys: func(c byte) []string {
		switch {
		case c >= 'a' && c <= 'z':
			return []string{strings.ToUpper(string(c))}
		case c >= 'A' && c <= 'Z':
			return []string{"SHIFT", string(c)}
		case c == '\n':
			return []string{"RETURN"}
		}
		return nil
	},
}

// TestKEY4PlanTimes checks KEY-4: each character held 3 standard frames and
// released for the machine's count, one after another from the start.
func TestKEY4PlanTimes(t *testing.T) {
	presses, total, err := Plan("aB\n", toy)
	if err != nil {
		t.Fatal(err)
	}
	want := []Press{
		{'a', []string{"A"}, 0, 3000},
		{'B', []string{"SHIFT", "B"}, 9000, 12000},
		{'\n', []string{"RETURN"}, 18000, 21000},
	}
	if len(presses) != len(want) {
		t.Fatalf("%d presses, want %d", len(presses), len(want))
	}
	for i, p := range presses {
		w := want[i]
		if p.Char != w.Char || !slices.Equal(p.Keys, w.Keys) || p.Down != w.Down || p.Up != w.Up {
			t.Errorf("press %d = %+v, want %+v", i, p, w)
		}
	}
	if total != 27000 {
		t.Errorf("total = %d ticks, want 27000 (3 characters of 9 frames)", total)
	}
}

// TestKEY10PlanRefuses checks KEY-9 and KEY-10: a text too long, not ASCII, or
// with a character no key types is refused before any key goes down, and
// the error says what and where.
func TestKEY10PlanRefuses(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"abcdef", "6 characters; a toy takes at most 5"},
		{"ab1", `no key on a toy types '1', at 2`},
		{"a\tb", `no key on a toy types a tab (\t), at 1`},
		{"a\xa3", "not ASCII: byte &A3 at 1"},
	} {
		presses, _, err := Plan(c.text, toy)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Plan(%q) error = %v, want one containing %q", c.text, err, c.want)
		}
		if presses != nil {
			t.Errorf("Plan(%q) gave presses with its error", c.text)
		}
	}
}

func TestPlanEmpty(t *testing.T) {
	presses, total, err := Plan("", toy)
	if err != nil || len(presses) != 0 || total != 0 {
		t.Errorf("Plan(\"\") = %v, %d, %v", presses, total, err)
	}
}

func TestUnescape(t *testing.T) {
	for _, c := range []struct{ in, out, err string }{
		{`p2+2\n`, "p2+2\n", ""},
		{`a\tb\ec\bd\\e`, "a\tb\x1bc\x08d\\e", ""},
		{`plain`, "plain", ""},
		{`\q`, "", `no such escape: \q`},
		{`end\`, "", `a \ at the end`},
	} {
		got, err := Unescape(c.in)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("Unescape(%q) error = %v, want %q", c.in, err, c.err)
		case c.err == "" && (err != nil || got != c.out):
			t.Errorf("Unescape(%q) = %q, %v; want %q", c.in, got, err, c.out)
		}
	}
}
