package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"colophon/internal/firmware"
	"colophon/internal/host"
	"colophon/internal/shared"
)

// TestSNA7ServerSnapshotIsTheCommandLines is the spec's test of
// snapshot_save (SNA-7, SNA-1): the server's host, run and typed at as boot
// runs and types, writes the snapshot boot --save writes, byte for byte;
// and the command line's run, going on from that snapshot, comes to where
// the server, opening it and making the same requests, comes: the same
// snapshot again and the same picture, byte for byte.
func TestSNA7ServerSnapshotIsTheCommandLines(t *testing.T) {
	roms := shared.TestPath(t, "roms")
	ctx := context.Background()
	for _, c := range []struct {
		machine      string
		frames, wait uint64
		text         string // as --type takes it, escapes and all
		typed        string // and as type takes it
		then         string // typed going on from the snapshot
		thenTyped    string
	}{
		{"cpc6128", 78, 20, `10 PRINT 6*7\n`, "10 PRINT 6*7\n", `RUN\n`, "RUN\n"},
		{"cpc464", 78, 5, `a=3\n`, "a=3\n", `PRINT a*a\n`, "PRINT a*a\n"},
		{"spectrum48", 128, 10, `p6*7\n`, "p6*7\n", `p1+1\n`, "p1+1\n"},
	} {
		t.Run(c.machine, func(t *testing.T) {
			dir := t.TempDir()
			h := host.New(host.Options{Firmware: firmware.Loader{Dirs: []string{roms}}, Build: "test"})
			frame := uint64(79872)
			if c.machine == "spectrum48" {
				frame = 69888
			}
			run := func(handle string, frames uint64) {
				t.Helper()
				if frames == 0 {
					return
				}
				n := frames * frame
				if _, err := h.Run(ctx, host.RunArgs{Handle: handle, Ticks: &n}); err != nil {
					t.Fatal(err)
				}
			}
			typ := func(handle, text string) {
				t.Helper()
				if _, err := h.Type(ctx, host.TypeArgs{Handle: handle, Text: text}); err != nil {
					t.Fatal(err)
				}
			}
			save := func(handle, name string) []byte {
				t.Helper()
				path := filepath.Join(dir, name)
				if _, err := h.SnapshotSave(ctx, host.SnapshotSaveArgs{Handle: handle, Path: path}); err != nil {
					t.Fatal(err)
				}
				return read(t, path)
			}
			fs := strconv.FormatUint

			// boot --save, and the server making the same requests.
			cli := filepath.Join(dir, "cli.sna")
			if status, _, errs := colophon("boot", "--machine", c.machine, "--roms", roms, "--frames", fs(c.frames, 10),
				"--type", c.text, "--wait", fs(c.wait, 10), "--save", cli); status != 0 {
				t.Fatalf("boot --save: %s", errs)
			}
			a, err := h.Open(ctx, host.OpenArgs{Machine: host.MachineName(c.machine)})
			if err != nil {
				t.Fatal(err)
			}
			run(a.Handle, c.frames)
			typ(a.Handle, c.typed)
			run(a.Handle, c.wait)
			server := save(a.Handle, "server.sna")
			if !bytes.Equal(server, read(t, cli)) {
				t.Fatalf("the server's snapshot (%d bytes) is not boot --save's (%d bytes)", len(server), len(read(t, cli)))
			}

			// run from it, and the server opening it.
			cliOn, shot := filepath.Join(dir, "cli-on.sna"), filepath.Join(dir, "cli-on.png")
			if status, _, errs := colophon("run", cli, "--machine", c.machine, "--roms", roms, "--frames", "3",
				"--type", c.then, "--wait", "25", "--save", cliOn, "--screenshot", shot); status != 0 {
				t.Fatalf("run --save: %s", errs)
			}
			b, err := h.Open(ctx, host.OpenArgs{Machine: host.MachineName(c.machine), Snapshot: filepath.Join(dir, "server.sna")})
			if err != nil {
				t.Fatal(err)
			}
			run(b.Handle, 3)
			typ(b.Handle, c.thenTyped)
			run(b.Handle, 25)
			if on := save(b.Handle, "server-on.sna"); !bytes.Equal(on, read(t, cliOn)) {
				t.Error("run on from the snapshot, the server's machine is not the command line's")
			}
			_, png, err := h.Monitor(ctx, host.MonitorArgs{Handle: b.Handle})
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(png, read(t, shot)) {
				t.Error("run on from the snapshot, the server's picture is not the command line's screenshot")
			}
		})
	}
}

func read(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
