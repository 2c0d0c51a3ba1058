package spectrum

import (
	"strings"
	"testing"

	"colophon/internal/chip/ula"
	"colophon/internal/inspect"
)

// FuzzLoadSnapshot feeds Load any bytes, as machine_open's snapshot and
// the command line's run take a .sna (issue 19's standing guards; seeds in
// testdata/fuzz/FuzzLoadSnapshot: a snapshot written by this package at
// power-on and mid-frame). Nothing panics; a snapshot taken is a machine
// set would take field by field, which runs, paints and writes itself
// again to a snapshot that loads, unless it has put its stack pointer where
// a .sna cannot keep the program counter. The ROM is blank: what the file holds is
// at test, not what the ROM does.
func FuzzLoadSnapshot(f *testing.F) {
	rom := make([]byte, ROMSize)
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := Load(rom, b)
		if err != nil {
			if s != nil {
				t.Fatal("a refused snapshot came with a machine")
			}
			return
		}
		fs, err := inspect.Fields(s)
		if err != nil {
			t.Fatal(err)
		}
		fresh, err := New(rom)
		if err != nil {
			t.Fatal(err)
		}
		if err := inspect.Restore(fresh, fs); err != nil {
			t.Fatalf("a loaded snapshot holds what set refuses: %v", err)
		}
		s.RunTicks(2 * ula.TicksPerFrame)
		if _, err := s.Picture().PNG(); err != nil {
			t.Fatalf("the picture of a loaded snapshot: %v", err)
		}
		again, err := s.Snapshot()
		if err != nil {
			// A .sna keeps the program counter on the stack, so a
			// machine whose stack pointer the program has put over the
			// ROM has none; that alone is refused.
			if !strings.Contains(err.Error(), "the stack pointer is") {
				t.Fatalf("writing a loaded snapshot again: %v", err)
			}
			return
		}
		if _, err := Load(rom, again); err != nil {
			t.Fatalf("a snapshot written from a loaded one does not load: %v", err)
		}
	})
}
