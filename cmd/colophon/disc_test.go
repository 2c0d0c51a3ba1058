package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"colophon/internal/firmware"
	"colophon/internal/host"
	"colophon/internal/media/dsk/dsktest"
	"colophon/internal/shared"
)

// TestDT14SaveDiscIsDiscSave: the image the command line writes with
// --save-disc after a program is typed and saved is, byte for byte, the one
// the server's disc_save writes after the same typing; and the disc came
// from a file the command line never wrote (DT-2, DT-9, DT-14).
func TestDT14SaveDiscIsDiscSave(t *testing.T) {
	roms := shared.TestPath(t, "roms")
	dir := t.TempDir()
	blank := filepath.Join(dir, "blank.dsk")
	if err := os.WriteFile(blank, dsktest.DATA(), 0o644); err != nil {
		t.Fatal(err)
	}
	const typed = "10 PRINT \"EXAMPLE\"\nsave\"example\n"
	cli := filepath.Join(dir, "cli.dsk")
	status, out, errs := colophon("boot", "--machine", "cpc6128", "--roms", roms, "--disc", blank,
		"--type", strings.ReplaceAll(typed, "\n", `\n`), "--wait", "150", "--save-disc", cli)
	if status != 0 || !strings.Contains(out, "disc A to "+cli) {
		t.Fatalf("status %d: %s%s", status, out, errs)
	}

	ctx := context.Background()
	h := host.New(host.Options{Firmware: firmware.Loader{Dirs: []string{roms}}, Build: "test"})
	a, err := h.Open(ctx, host.OpenArgs{Machine: "cpc6128"})
	if err != nil {
		t.Fatal(err)
	}
	run := func(frames uint64) {
		ticks := frames * 79872
		if _, err := h.Run(ctx, host.RunArgs{Handle: a.Handle, Ticks: &ticks}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := h.DiscInsert(ctx, host.DiscInsertArgs{Handle: a.Handle, Path: blank}); err != nil {
		t.Fatal(err)
	}
	run(78)
	if _, err := h.Type(ctx, host.TypeArgs{Handle: a.Handle, Text: typed}); err != nil {
		t.Fatal(err)
	}
	run(150)
	server := filepath.Join(dir, "server.dsk")
	if _, err := h.DiscSave(ctx, host.DiscSaveArgs{Handle: a.Handle, Path: server}); err != nil {
		t.Fatal(err)
	}
	c, _ := os.ReadFile(cli)
	s, _ := os.ReadFile(server)
	if len(c) == 0 || !bytes.Equal(c, s) {
		t.Errorf("--save-disc wrote %d bytes, disc_save %d, and they differ", len(c), len(s))
	}
	if b, _ := os.ReadFile(blank); !bytes.Equal(b, dsktest.DATA()) {
		t.Error("the disc's file was written")
	}
	if bytes.Equal(c, dsktest.DATA()) || !bytes.Contains(c, []byte("EXAMPLE BAS")) {
		t.Error("the disc saved holds no EXAMPLE.BAS")
	}
}
