package main

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"colophon/internal/shared"
)

// samePicture compares two PNG files by the colours they decode to, pixel
// for pixel (../shared/testdata/golden/README.md).
func samePicture(t *testing.T, ours, golden string) {
	t.Helper()
	decode := func(path string) ([]byte, int, int) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		r := img.Bounds()
		var rgb []byte
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				cr, cg, cb, _ := img.At(x, y).RGBA()
				rgb = append(rgb, byte(cr>>8), byte(cg>>8), byte(cb>>8))
			}
		}
		return rgb, r.Dx(), r.Dy()
	}
	a, aw, ah := decode(ours)
	b, bw, bh := decode(golden)
	if aw != bw || ah != bh {
		t.Fatalf("ours is %dx%d, %s is %dx%d", aw, ah, filepath.Base(golden), bw, bh)
	}
	if !bytes.Equal(a, b) {
		for i := range a {
			if a[i] != b[i] {
				p := i / 3
				t.Fatalf("ours differs from %s first at (%d,%d)", filepath.Base(golden), p%aw, p/aw)
			}
		}
	}
}

// TestMON2BootGoldenScreenshots runs the command lines that made
// ../shared/testdata/golden/spectrum48-*.png and lays ours over them
// (MON-2).
func TestMON2BootGoldenScreenshots(t *testing.T) {
	roms := shared.TestPath(t, "roms")
	dir := t.TempDir()
	for _, c := range []struct {
		golden string
		args   []string
	}{
		{"spectrum48-boot.png", nil},
		{"spectrum48-print.png", []string{"--type", `p2+2\n`, "--wait", "10"}},
	} {
		shot := filepath.Join(dir, c.golden)
		args := append([]string{"boot", "--machine", "spectrum48", "--roms", roms, "--screenshot", shot}, c.args...)
		status, out, errs := colophon(args...)
		if status != 0 {
			t.Fatalf("%q: status %d: %s", args, status, errs)
		}
		if !strings.Contains(out, "spectrum48: ") || !strings.Contains(out, "352x264 picture to "+shot) {
			t.Errorf("%q said %q", args, out)
		}
		samePicture(t, shot, shared.TestPath(t, "testdata", "golden", c.golden))
	}
}

// TestRunFromSnapshot saves a machine with boot --save, and stands it up
// again with run, which writes the same snapshot when asked to run no
// further than it has been saved.
func TestRunFromSnapshot(t *testing.T) {
	roms := shared.TestPath(t, "roms")
	dir := t.TempDir()
	first := filepath.Join(dir, "first.sna")
	if status, _, errs := colophon("boot", "--machine", "spectrum48", "--roms", roms, "--frames", "150", "--save", first); status != 0 {
		t.Fatalf("boot --save: %s", errs)
	}
	fi, err := os.Stat(first)
	if err != nil || fi.Size() != 49179 {
		t.Fatalf("the snapshot: %v, %v", fi, err)
	}
	shot := filepath.Join(dir, "run.png")
	status, out, errs := colophon("run", first, "--machine", "spectrum48", "--roms", roms, "--frames", "2",
		"--type", `p2+2\n`, "--wait", "3", "--screenshot", shot)
	if status != 0 {
		t.Fatalf("run: status %d: %s", status, errs)
	}
	if !strings.Contains(out, "spectrum48: 50 frames") {
		t.Errorf("run said %q; want 2 + 45 + 3 frames", out)
	}
	if _, err := os.Stat(shot); err != nil {
		t.Error(err)
	}
	// The flags may come before the snapshot too.
	if status, _, errs := colophon("run", "--machine", "spectrum48", "--roms", roms, "--frames", "1", first); status != 0 {
		t.Errorf("run with the snapshot last: %s", errs)
	}
}

// TestBootRefusals checks that every mistake is refused with a message
// naming it, before anything runs.
func TestBootRefusals(t *testing.T) {
	roms := shared.TestPath(t, "roms")
	dir := t.TempDir()
	there := filepath.Join(dir, "there.png")
	if err := os.WriteFile(there, []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
	short := filepath.Join(dir, "short.sna")
	if err := os.WriteFile(short, make([]byte, 49178), 0o644); err != nil {
		t.Fatal(err)
	}
	// A file one byte past any snapshot, sparse: nothing of it is read.
	huge := filepath.Join(dir, "huge.sna")
	if err := os.WriteFile(huge, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(huge, 8<<20+1); err != nil {
		t.Fatal(err)
	}
	spec := []string{"--machine", "spectrum48", "--roms", roms}
	for _, c := range []struct {
		args   []string
		status int
		want   string
	}{
		{[]string{"boot"}, 2, "--machine is required"},
		{[]string{"boot", "--machine", "zx81"}, 2, `no machine is called "zx81"`},
		{append([]string{"boot", "--sixty-hz"}, spec...), 2, "--sixty-hz is for a CPC"},
		{append([]string{"boot", "--full-raster"}, spec...), 2, "--full-raster is for a CPC"},
		{append([]string{"boot", "--no-double"}, spec...), 2, "--no-double is for a CPC"},
		{append([]string{"boot", "--disc", "x.dsk"}, spec...), 2, "spectrum48 takes no disc: a 48K Spectrum has no disc interface"},
		{append([]string{"boot", "--save-disc", "x.dsk"}, spec...), 2, "spectrum48 takes no disc"},
		{[]string{"boot", "--machine", "cpc464", "--roms", roms, "--disc-b", "x.dsk"}, 2, "cpc464 takes no disc: a cpc464 has no disc interface, and none can be fitted"},
		{[]string{"boot", "--machine", "cpc6128", "--roms", roms, "--disc", short}, 1, "--disc " + short + ": the file opens \"......................\"; a DSK image opens \"MV - CPC\" or \"EXTENDED\""},
		{[]string{"boot", "--machine", "cpc6128", "--roms", roms, "--disc", dir}, 1, "is not a regular file"},
		{[]string{"boot", "--machine", "cpc6128", "--roms", roms, "--save-disc", there}, 1, "a file is already there"},
		{[]string{"boot", "--machine", "cpc6128", "--roms", roms, "--save-disc", there, "--save", there}, 2, "name the same file"},
		{append([]string{"boot", "--tape", "x.cdt"}, spec...), 2, "--tape x.cdt: spectrum48 takes .tzx or .tap"},
		{append([]string{"boot", "--tape", filepath.Join(dir, "none.tap")}, spec...), 1, "no such file"},
		{append([]string{"boot", "--tape", dir + "/"}, spec...), 2, "spectrum48 takes .tzx or .tap"},
		{append([]string{"boot", "--frames", "0"}, spec...), 2, "--frames wants a positive number"},
		{append([]string{"boot", "--frames", "ten"}, spec...), 2, "--frames wants a positive number"},
		{append([]string{"boot", "--wait", "-1"}, spec...), 2, "--wait wants a number"},
		{append([]string{"boot", "--type", "print ~"}, spec...), 2, "no key on a Spectrum types '~'"},
		{append([]string{"boot", "--type", `\q`}, spec...), 2, `no such escape: \q`},
		{append([]string{"boot", "--type", `tab\t`}, spec...), 2, `a tab`},
		{append([]string{"boot", "--screenshot", there}, spec...), 1, "a file is already there"},
		{append([]string{"boot", "--save", there}, spec...), 1, "a file is already there"},
		{append([]string{"boot", "--save", "a", "--screenshot", "a"}, spec...), 2, "name the same file"},
		{append([]string{"boot", "extra"}, spec...), 2, "boot takes no arguments"},
		{[]string{"boot", "--machine", "spectrum48", "--roms", dir}, 1, "firmware spectrum48.rom not found"},
		{append([]string{"run"}, spec...), 2, "run takes one snapshot file"},
		{append([]string{"run", short}, spec...), 1, "a 48K snapshot is 49179 bytes, and this is 49178"},
		{append([]string{"run", dir}, spec...), 1, "is not a regular file"},
		{append([]string{"run", huge}, spec...), 1, "huge.sna is 8388609 bytes; no snapshot is longer than 8388608"},
	} {
		status, _, errs := colophon(c.args...)
		if status != c.status || !strings.Contains(errs, c.want) {
			t.Errorf("%q: status %d, %q; want status %d and %q", c.args, status, errs, c.status, c.want)
		}
	}
	if b, _ := os.ReadFile(there); string(b) != "keep me" {
		t.Error("a file that was there was written over")
	}
}
