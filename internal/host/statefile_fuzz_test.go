package host

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"colophon/internal/machine"
)

// FuzzStateFile holds the state file's reader to any bytes at all: it
// refuses what it cannot stand a machine up from, and a machine it stands
// up runs, and writes itself to a file the reader takes again (KEEP-9 to
// KEEP-14). The seeds in testdata/fuzz/FuzzStateFile are small: first
// lines cut from their buffers, and journals another build wrote, which
// are made again without any; a 6128 with a disc and a tape in, and a
// Spectrum, written whole, are added as the target starts.
//
// Another build's journal is made again request by request, which takes
// as long as its requests do, so an input is given a second.
func FuzzStateFile(f *testing.F) {
	h := stateHost(f)
	ctx := context.Background()
	for _, name := range []string{"cpc6128", "spectrum48"} {
		a := must(h.Open(ctx, OpenArgs{Machine: MachineName(name)})).Handle
		must(h.Run(ctx, RunArgs{Handle: a, Frames: ptr(uint64(5))}))
		path := filepath.Join(f.TempDir(), name+".state")
		must(h.StateSave(ctx, StateSaveArgs{Handle: a, Path: path}))
		f.Add(must(os.ReadFile(path)))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		sf, err := decodeState(b)
		if err != nil {
			return
		}
		k, err := kindNamed(sf.line.Machine)
		if err != nil {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		m, _, err := h.fromState(ctx, k, File{Kind: "state", Path: "/fuzz.state"}, sf)
		if err != nil {
			return
		}
		if machine.CheckRoom(m.m.Tick(), 10000, "a run") == nil {
			m.m.RunTicks(5000)
		}
		again, err := m.encodeState(h.opts.Build, m.journal)
		if err != nil {
			t.Fatalf("stood up, it cannot be written: %v", err)
		}
		if _, err := decodeState(again); err != nil {
			t.Fatalf("stood up and written, it cannot be read: %v", err)
		}
	})
}
