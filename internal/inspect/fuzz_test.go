package inspect_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"colophon/internal/inspect"
	"colophon/internal/machine/cpc"
	"colophon/internal/machine/spectrum"
)

// FuzzPathValue feeds inspect any path and any JSON value for it, as
// inspect's path and set's and call's values give them, on each machine
// (issue 19's standing guards; seeds in testdata/fuzz/FuzzPathValue).
// Nothing panics; a refusal quotes what was sent short and leaves every
// field as it was; and what set takes is a machine a state's restore takes
// whole, so that no value set writes is one the machine cannot hold.
func FuzzPathValue(f *testing.F) {
	f.Fuzz(func(t *testing.T, which byte, path string, value []byte) {
		root, fresh := fuzzMachine(t, which)
		if _, err := inspect.Get(root, path); err != nil && len(err.Error()) > 1000 {
			t.Fatalf("Get(%.40q…): an error of %d bytes: %.200s", path, len(err.Error()), err)
		}
		if !json.Valid(value) {
			return
		}
		before := fields(t, root)
		err := inspect.SetMany(root, []inspect.Field{{Path: path, Value: json.RawMessage(value)}})
		after := fields(t, root)
		if err != nil {
			if len(err.Error()) > 1000 {
				t.Fatalf("Set(%.40q, %.40q): an error of %d bytes: %.200s", path, value, len(err.Error()), err)
			}
			if !bytes.Equal(before, after) {
				t.Fatalf("Set(%q, %s) was refused (%v) and changed the machine", path, value, err)
			}
			return
		}
		fs, err := inspect.Fields(root)
		if err != nil {
			t.Fatal(err)
		}
		if err := inspect.Restore(fresh, fs); err != nil {
			t.Fatalf("Set(%q, %s) left what a restore refuses: %v", path, value, err)
		}
	})
}

// fuzzMachine builds a machine on blank firmware, and another alike to
// restore into.
func fuzzMachine(t *testing.T, which byte) (root, fresh any) {
	build := func() any {
		if which%2 == 0 {
			s, err := spectrum.New(make([]byte, spectrum.ROMSize))
			if err != nil {
				t.Fatal(err)
			}
			return s
		}
		c, err := cpc.New(cpc.Config{Model: cpc.Model(which / 2 % 3), Firmware: make([]byte, 2*cpc.ROMSize), AMSDOS: make([]byte, cpc.ROMSize)})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	return build(), build()
}

// fields writes every field of a machine, for a test to set two side by
// side.
func fields(t *testing.T, root any) []byte {
	fs, err := inspect.Fields(root)
	if err != nil {
		t.Fatal(err)
	}
	b, err := inspect.MarshalFields(fs)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
