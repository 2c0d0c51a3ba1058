package spectrum

import (
	"image/png"
	"os"
	"testing"

	"colophon/internal/chip/ula"
	"colophon/internal/picture"
	"colophon/internal/shared"
)

// sameRGB compares a picture with a golden PNG pixel by pixel, by the
// colours they decode to, as ../shared/testdata/golden/README.md asks.
func sameRGB(t *testing.T, p *picture.Picture, golden string) {
	t.Helper()
	f, err := os.Open(shared.TestPath(t, "testdata", "golden", golden))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", golden, err)
	}
	if b := g.Bounds(); b.Dx() != p.Width || b.Dy() != p.Height {
		t.Fatalf("%s is %dx%d; ours is %dx%d", golden, b.Dx(), b.Dy(), p.Width, p.Height)
	}
	img := p.Image()
	bad := 0
	for y := 0; y < p.Height; y++ {
		for x := 0; x < p.Width; x++ {
			r0, g0, b0, _ := g.At(x, y).RGBA()
			r1, g1, b1, _ := img.At(x, y).RGBA()
			if r0 != r1 || g0 != g1 || b0 != b1 {
				if bad < 10 {
					t.Errorf("%s: (%d,%d) is %02X%02X%02X; ours %02X%02X%02X",
						golden, x, y, r0>>8, g0>>8, b0>>8, r1>>8, g1>>8, b1>>8)
				}
				bad++
			}
		}
	}
	if bad > 0 {
		t.Errorf("%s: %d pixels differ", golden, bad)
	}
}

// TestMON2GoldenScreenshots (MON-2) lays our pictures over the reference's,
// made by the same command lines: boot --machine spectrum48 (128 frames),
// and the same with --type 'p2+2\n' --wait 10. The command line counts a
// frame as 69888 ticks, runs its frames, types, then waits.
func TestMON2GoldenScreenshots(t *testing.T) {
	const frame = ula.TicksPerFrame
	s := boot(t)
	s.RunTicks(128 * frame)
	sameRGB(t, s.Picture(), "spectrum48-boot.png")

	if _, err := s.Type("p2+2\n"); err != nil {
		t.Fatal(err)
	}
	s.RunTicks(10 * frame)
	sameRGB(t, s.Picture(), "spectrum48-print.png")
}
