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

// screenOf stands a cpc6128 up from a snapshot the command line wrote, as
// the server does, and reads its screen as the firmware drew it, a line a
// row, blank rows left out.
func screenOf(t *testing.T, roms, snapshot string) []string {
	t.Helper()
	ctx := context.Background()
	h := host.New(host.Options{Firmware: firmware.Loader{Dirs: []string{roms}}, Build: "test"})
	a, err := h.Open(ctx, host.OpenArgs{Machine: "cpc6128", Snapshot: snapshot})
	if err != nil {
		t.Fatal(err)
	}
	m, _, err := h.Monitor(ctx, host.MonitorArgs{Handle: a.Handle, Text: true})
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range m.Text {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	return lines
}

// shows holds a screen to lines in order, each the start of a line of it
// after the one before.
func shows(t *testing.T, what string, screen []string, want ...string) {
	t.Helper()
	at := 0
	for _, w := range want {
		for at < len(screen) && !strings.HasPrefix(screen[at], w) {
			at++
		}
		if at == len(screen) {
			t.Errorf("%s: no line %q after the ones before it:\n%s", what, w, strings.Join(screen, "\n"))
			return
		}
	}
}

// TestDiscBThroughTheCommandLine puts the Caprice32 test disc in drive B
// with --disc-b, drive A left empty, and has the firmware catalogue drive
// B: AMSDOS's |B makes B the default drive, and CAT lists the disc's one
// file under "Drive B" as it lists it under "Drive A" from drive A
// (internal/machine/cpc TestMediaCatalogues); a disc that went anywhere
// but B would have CAT say "Drive B: disc missing". The file was only
// read.
func TestDiscBThroughTheCommandLine(t *testing.T) {
	roms := shared.TestPath(t, "roms")
	hello := shared.TestPath(t, "testdata", "media", "cpc", "caprice32_hello_extended.dsk")
	before, err := os.ReadFile(hello)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	after := filepath.Join(dir, "after.sna")
	status, out, errs := colophon("boot", "--machine", "cpc6128", "--roms", roms, "--disc-b", hello,
		"--type", `|b\ncat\n`, "--wait", "150", "--save", after)
	if status != 0 {
		t.Fatalf("status %d: %s%s", status, out, errs)
	}
	shows(t, "|B and CAT", screenOf(t, roms, after), "|b", "Ready", "cat", "Drive B: user  0", "HELLO   .BAS   1K", "177K free", "Ready")
	if b, _ := os.ReadFile(hello); !bytes.Equal(b, before) {
		t.Error("the disc's file was written")
	}
}

// TestRunSnapshotWithDisc stands a cpc6128 up from a snapshot of it taken
// at the end of its start-up with no disc in, puts a disc in drive A with
// --disc as the snapshot is loaded, and has the firmware catalogue it and
// load its program from it: CAT lists the disc's file, and LOAD"hello
// then LIST show the one line that prints the Caprice32 test's expected
// "Hello, World !" (../shared/testdata/media/cpc), with no "disc missing"
// on the way. (The program prints to the printer, which the command line
// leaves unwired, so it is listed here rather than run.)
func TestRunSnapshotWithDisc(t *testing.T) {
	roms := shared.TestPath(t, "roms")
	hello := shared.TestPath(t, "testdata", "media", "cpc", "caprice32_hello_extended.dsk")
	dir := t.TempDir()
	base := filepath.Join(dir, "base.sna")
	if status, out, errs := colophon("boot", "--machine", "cpc6128", "--roms", roms, "--save", base); status != 0 {
		t.Fatalf("boot --save: status %d: %s%s", status, out, errs)
	}
	for _, c := range []struct {
		typed string
		lines []string
	}{
		{`cat\n`, []string{"cat", "Drive A: user  0", "HELLO   .BAS   1K", "177K free", "Ready"}},
		{`load"hello\nlist\n`, []string{`load"hello`, "Ready", "list", `10 PRINT #8,"Hello, World !"`, "Ready"}},
	} {
		after := filepath.Join(dir, "after.sna")
		status, out, errs := colophon("run", base, "--machine", "cpc6128", "--roms", roms, "--disc", hello, "--frames", "1",
			"--type", c.typed, "--wait", "200", "--save", after)
		if status != 0 {
			t.Fatalf("run --disc --type %s: status %d: %s%s", c.typed, status, out, errs)
		}
		screen := screenOf(t, roms, after)
		shows(t, c.typed, screen, c.lines...)
		for _, l := range screen {
			if strings.Contains(l, "missing") {
				t.Errorf("%s: the firmware says %q", c.typed, l)
			}
		}
		os.Remove(after)
	}
}
