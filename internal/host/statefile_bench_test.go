package host

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"colophon/internal/machine/cpc"
	"colophon/internal/media/dsk/dsktest"
)

// benchState stands up the machine for the state file's speed: a
// 6128 with a disc in drive A that AMSDOS has written a file to, kept
// while it writes another, its disc controller inside the command.
func benchState(b *testing.B) (*Host, string) {
	b.Helper()
	ctx := context.Background()
	h := stateHost(b)
	a := openCPC(b, h)
	must(h.DiscInsert(ctx, DiscInsertArgs{Handle: a, Path: discFile(b, "blank.dsk", dsktest.DATA())}))
	must(h.Type(ctx, TypeArgs{Handle: a, Text: "10 PRINT \"EXAMPLE\"\nsave\"example\n"}))
	must(h.Run(ctx, RunArgs{Handle: a, Ticks: ptr(uint64(150 * cpc.TicksPerFrame))}))
	must(h.Type(ctx, TypeArgs{Handle: a, Text: "save\"again\n"}))
	must(h.Run(ctx, RunArgs{Handle: a, Ticks: ptr(uint64(20 * cpc.TicksPerFrame))}))
	return h, a
}

// BenchmarkStateSave6128Disc is state_save of a 6128 with a disc in, the
// machine as it stands and a state kept of it, to a new file each time
// (the speed: under 50 ms).
func BenchmarkStateSave6128Disc(b *testing.B) {
	ctx := context.Background()
	h, a := benchState(b)
	kept := must(h.StateKeep(ctx, StateKeepArgs{Handle: a}))
	must(h.Run(ctx, RunArgs{Handle: a, Frames: ptr(uint64(2))}))
	dir := b.TempDir()
	n := 0
	for _, state := range []string{"", kept.State} {
		name := "as it stands"
		if state != "" {
			name = "a state kept"
		}
		b.Run(name, func(b *testing.B) {
			var size int64
			for b.Loop() {
				n++
				path := filepath.Join(dir, fmt.Sprintf("%d.state", n))
				must(h.StateSave(ctx, StateSaveArgs{Handle: a, State: state, Path: path}))
				if size == 0 {
					fi, _ := os.Stat(path)
					size = fi.Size()
				}
			}
			b.ReportMetric(float64(size), "file-bytes")
		})
	}
}

// BenchmarkStateOpen6128Disc is machine_open of that state file in
// another host, as another server of the same build opens it: read,
// checked, built and written back field by field (the speed:
// under 50 ms). The machines it stands up are put away again.
func BenchmarkStateOpen6128Disc(b *testing.B) {
	ctx := context.Background()
	h, a := benchState(b)
	path := filepath.Join(b.TempDir(), "kept.state")
	must(h.StateSave(ctx, StateSaveArgs{Handle: a, Path: path}))
	other := stateHost(b)
	for b.Loop() {
		o := must(other.Open(ctx, OpenArgs{Machine: "cpc6128", State: path}))
		must(other.Close(ctx, CloseArgs{Handle: o.Handle}))
	}
}
