package cpc

import (
	"testing"

	"colophon/internal/chip/crtc"
	"colophon/internal/inspect"
)

// fuzzConfig is a machine of each model built on blank firmware, for the
// fuzz targets: what a snapshot holds, not what the ROMs do, is at test.
func fuzzConfig(model, crtcType byte) Config {
	return Config{
		Model:    Model(model % 3),
		CRTC:     crtc.Type(crtcType % crtc.Types),
		Firmware: make([]byte, 2*ROMSize),
		AMSDOS:   make([]byte, ROMSize),
	}
}

// FuzzLoadSnapshot feeds Load any bytes, as machine_open's snapshot and
// the command line's run take them (issue 19's standing guards; seeds in
// testdata/fuzz/FuzzLoadSnapshot: a snapshot of each model written by
// this package, and its versions 1 and 2). Nothing panics; a snapshot
// taken is a machine set would take field by field, which runs, paints
// and writes itself again to a snapshot that loads.
func FuzzLoadSnapshot(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte, model, crtcType byte) {
		cfg := fuzzConfig(model, crtcType)
		m, err := Load(cfg, b)
		if err != nil {
			if m != nil {
				t.Fatal("a refused snapshot came with a machine")
			}
			return
		}
		fs, err := inspect.Fields(m)
		if err != nil {
			t.Fatal(err)
		}
		fresh, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if err := inspect.Restore(fresh, fs); err != nil {
			t.Fatalf("a loaded snapshot holds what set refuses: %v", err)
		}
		m.RunTicks(2 * TicksPerFrame)
		if _, err := m.Picture().PNG(); err != nil {
			t.Fatalf("the picture of a loaded snapshot: %v", err)
		}
		again, err := m.Snapshot()
		if err != nil {
			t.Fatalf("writing a loaded snapshot again: %v", err)
		}
		if _, err := Load(cfg, again); err != nil {
			t.Fatalf("a snapshot written from a loaded one does not load: %v", err)
		}
	})
}
