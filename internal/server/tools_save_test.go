package server

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"colophon/internal/host"
)

// TestSnapshotSaveTool holds snapshot_save as a client meets it (SNA-1 to
// SNA-3): the file written where no file was, named by its absolute path
// and SHA-256 with the machine's tick, opened again by machine_open; and
// refused over a file that is there, or without a path, with nothing
// written and the machine as it was.
func TestSnapshotSaveTool(t *testing.T) {
	w := machineWire(t)
	for _, machine := range []string{"cpc6128", "spectrum48"} {
		h := w.boot(machine)
		dir := t.TempDir()
		path := filepath.Join(dir, machine+".sna")
		var s host.SnapshotSaved
		w.tool("snapshot_save", args{"handle": h, "path": path}, &s)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(b)
		if s.Handle != h || s.File.Path != path || s.File.Kind != "snapshot" || s.File.SHA256 != hex.EncodeToString(sum[:]) || s.Tick != w.tick(h) {
			t.Errorf("%s: snapshot_save answered %+v", machine, s)
		}
		var o host.Opened
		w.tool("machine_open", args{"machine": machine, "snapshot": path, "snapshot_sha256": s.File.SHA256}, &o)
		if got := w.peek(o.Handle, "&C000", 256); string(got) != string(w.peek(h, "&C000", 256)) {
			t.Errorf("%s: opened from its snapshot, &C000 holds other bytes", machine)
		}
		before := mustJSON(t, w.inspect(h, ""))
		for _, c := range []struct {
			args args
			want string
		}{
			{args{"handle": h, "path": path}, "a file is already there, and no tool writes over one"},
			{args{"handle": h}, `"path"`},
			{args{"path": filepath.Join(dir, "x.sna")}, `"handle"`},
		} {
			if got := w.refused("snapshot_save", c.args); !strings.Contains(got, c.want) {
				t.Errorf("%s: snapshot_save %v was refused with %q; want %q", machine, c.args, got, c.want)
			}
		}
		if after := mustJSON(t, w.inspect(h, "")); after != before {
			t.Errorf("%s: the refusals changed the machine", machine)
		}
		if _, err := os.Stat(filepath.Join(dir, "x.sna")); err == nil {
			t.Errorf("%s: a refused save wrote its file", machine)
		}
		if j := w.journalOf(h); len(j) != 2 {
			t.Errorf("%s: the journal holds %d entries; snapshot_save is not entered", machine, len(j))
		}
	}
}
