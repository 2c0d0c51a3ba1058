package cpc

import (
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"colophon/internal/chip/monitor"
	"colophon/internal/shared"
	"colophon/internal/typing"
)

// boot builds a model from the shared firmware at power-on.
func boot(t testing.TB, model Model) *CPC {
	t.Helper()
	fw, err := os.ReadFile(shared.TestPath(t, "roms", model.String()+".rom"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Model: model, Firmware: fw}
	if model.DiscInterface() {
		cfg.AMSDOS, err = os.ReadFile(shared.TestPath(t, "roms", "amsdos.rom"))
		if err != nil {
			t.Fatal(err)
		}
	}
	m, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// diffRGB compares a picture to a PNG by decoded RGB and describes the
// first differences.
func diffRGB(t *testing.T, got image.Image, path string) (int, string) {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if got.Bounds() != want.Bounds() {
		return -1, fmt.Sprintf("size %v, want %v", got.Bounds(), want.Bounds())
	}
	n := 0
	first := ""
	b := want.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r1, g1, b1, _ := got.At(x, y).RGBA()
			r2, g2, b2, _ := want.At(x, y).RGBA()
			if r1>>8 != r2>>8 || g1>>8 != g2>>8 || b1>>8 != b2>>8 {
				if n == 0 {
					first = fmt.Sprintf("first at (%d,%d): %02X%02X%02X want %02X%02X%02X", x, y, r1>>8, g1>>8, b1>>8, r2>>8, g2>>8, b2>>8)
				}
				n++
			}
		}
	}
	return n, first
}

// goldens are the CPC screenshots in ../shared/testdata/golden, each with
// the command line its README gives for it.
var goldens = []struct {
	file  string
	model Model
	typed string // --type, with the command line's escapes
	view  monitor.View
}{
	{"cpc6128-boot.png", CPC6128, "", monitor.View{}},
	{"cpc664-boot.png", CPC664, "", monitor.View{}},
	{"cpc464-boot.png", CPC464, "", monitor.View{}},
	{"cpc6128-print.png", CPC6128, `PRINT 2+2\n`, monitor.View{}},
	{"cpc464-print.png", CPC464, `PRINT 2+2\n`, monitor.View{}},
	{"cpc6128-mode0.png", CPC6128, `MODE 0\nBORDER 3\nINK 0,12\nPRINT "COLOPHON"\n`, monitor.View{}},
	{"cpc6128-mode2.png", CPC6128, `MODE 2\nPRINT "The quick brown fox jumps over the lazy dog"\n`, monitor.View{}},
	{"cpc6128-boot-full-raster.png", CPC6128, "", monitor.View{Full: true}},
	{"cpc6128-boot-no-double.png", CPC6128, "", monitor.View{Single: true}},
}

// TestMON2GoldenScreenshots holds every CPC screenshot the reference's
// command line made to ours, pixel for pixel by decoded RGB (checklist
// MON-2, MON-3, MON-4): 78 frames from power-on, then the typing, then the
// picture as the beam left it.
func TestMON2GoldenScreenshots(t *testing.T) {
	for _, g := range goldens {
		t.Run(g.file, func(t *testing.T) {
			path := shared.TestPath(t, "testdata", "golden", g.file)
			m := boot(t, g.model)
			m.RunTicks(78 * TicksPerFrame)
			if g.typed != "" {
				text, err := typing.Unescape(g.typed)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := m.Type(text); err != nil {
					t.Fatal(err)
				}
			}
			p := m.Monitor.Picture(g.view)
			n, first := diffRGB(t, p.Image(), path)
			if n != 0 {
				out := filepath.Join(t.TempDir(), g.file)
				if f, err := os.Create(out); err == nil {
					p.WritePNG(f)
					f.Close()
				}
				t.Errorf("%d pixels differ; %s (ours kept in %s)", n, first, out)
			}
		})
	}
}
