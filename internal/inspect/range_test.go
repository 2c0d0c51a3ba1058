package inspect

import (
	"strings"
	"testing"
)

// ranged holds fields whose tags narrow what set takes: the most each
// holds, and a counter only running moves.
type ranged struct {
	Border byte    `inspect:"border,max=7"`
	Inks   [3]byte `inspect:"inks,max=&1F"`
	Beam   int     `inspect:"beam,max=100"`
	Tick   uint64  `inspect:"tick,readonly"`
	Free   uint16  `inspect:"free"`
}

// TestMaxOption holds issue 19's item 3 in the mechanism: a field's max is
// taken, one past it is refused with the range, and a refusal writes
// nothing, an array's elements each held to its field's max.
func TestMaxOption(t *testing.T) {
	r := &ranged{Tick: 1000}
	for _, tt := range []struct {
		path  string
		value any
		err   string
	}{
		{"border", 7, ""},
		{"border", 8, "border: 8 is out of range: it holds 0 to 7 (&00 to &07)"},
		{"border", "&FF", "border: 255 is out of range: it holds 0 to 7"},
		{"inks", []any{31, 0, 31}, ""},
		{"inks[1]", 32, "inks[1]: 32 is out of range: it holds 0 to 31 (&00 to &1F)"},
		{"inks", []any{0, 0, 40}, "inks[2]: 40 is out of range"},
		{"beam", 100, ""},
		{"beam", 101, "beam: 101 is out of range: it holds 0 to 100"},
		{"beam", -1, "beam: -1 is out of range: it holds 0 to 100"},
		{"free", 65535, ""},
		// The tick is read-only: its own value is taken, another refused.
		{"tick", 1000, ""},
		{"tick", 1001, "tick: it is 1000, and set cannot change it: it moves only as the machine runs"},
	} {
		before := *r
		err := Set(r, tt.path, tt.value)
		switch {
		case tt.err == "" && err != nil:
			t.Errorf("Set(%s, %v) = %v", tt.path, tt.value, err)
		case tt.err != "" && (err == nil || !strings.HasPrefix(err.Error(), tt.err)):
			t.Errorf("Set(%s, %v) = %v; want %q", tt.path, tt.value, err, tt.err)
		case tt.err != "" && *r != before:
			t.Errorf("Set(%s, %v) was refused and changed the struct: %+v, was %+v", tt.path, tt.value, *r, before)
		}
	}
	// A restore writes the read-only tick as the state kept it.
	fs, err := Fields(r)
	if err != nil {
		t.Fatal(err)
	}
	for i := range fs {
		if fs[i].Path == "tick" {
			fs[i].Value = uint64(5)
		}
	}
	if err := Restore(r, fs); err != nil || r.Tick != 5 {
		t.Errorf("Restore with tick 5: %v, tick %d", err, r.Tick)
	}
}

// TestLeafOf holds the description a walk over the fields reads.
func TestLeafOf(t *testing.T) {
	r := &ranged{}
	for _, tt := range []struct {
		path string
		want Leaf
	}{
		{"border", Leaf{Integer: true, Max: 7}},
		{"inks[2]", Leaf{Integer: true, Max: 31}},
		{"beam", Leaf{Integer: true, Signed: true, Max: 100}},
		{"tick", Leaf{Integer: true, Max: 1<<64 - 1, ReadOnly: true}},
		{"free", Leaf{Integer: true, Max: 65535}},
	} {
		got, err := LeafOf(r, tt.path)
		if err != nil || got != tt.want {
			t.Errorf("LeafOf(%s) = %+v, %v; want %+v", tt.path, got, err, tt.want)
		}
	}
	if _, err := LeafOf(r, "inks"); err == nil {
		t.Errorf("LeafOf(inks), an array, is no leaf, and was taken")
	}
}

// TestMaxOptionRefused holds the tags a max cannot be given with.
func TestMaxOptionRefused(t *testing.T) {
	type onBool struct {
		B bool `inspect:"b,max=1"`
	}
	type pastType struct {
		B byte `inspect:"b,max=256"`
	}
	type notNumber struct {
		B byte `inspect:"b,max=seven"`
	}
	for _, tt := range []struct {
		root any
		want string
	}{
		{&onBool{}, "only an integer, or an array of them, has a max"},
		{&pastType{}, "max=256 is past what a uint8 holds"},
		{&notNumber{}, `inspect option "max=seven"`},
	} {
		if err := Check(tt.root); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Check(%T) = %v; want %q", tt.root, err, tt.want)
		}
	}
}
