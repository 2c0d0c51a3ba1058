package picture

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"
)

func grey(n int) color.Palette {
	p := make(color.Palette, n)
	for i := range p {
		v := uint8(i * 255 / (n - 1))
		p[i] = color.RGBA{v, v, v, 0xFF}
	}
	return p
}

// TestMON4PNGKeepsIndices checks MON-4: what a machine put on the cable comes
// back out of the file as the same index, with the palette beside it.
func TestMON4PNGKeepsIndices(t *testing.T) {
	for _, colours := range []int{2, 16, 32, 256} {
		p := New(7, 5, grey(colours))
		for i := range p.Pix {
			p.Pix[i] = uint8((i * 13) % colours)
		}
		b, err := p.PNG()
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		pal, ok := img.(*image.Paletted)
		if !ok {
			t.Fatalf("%d colours: decoded as %T, not paletted", colours, img)
		}
		if len(pal.Palette) != colours {
			t.Errorf("%d colours: palette of %d", colours, len(pal.Palette))
		}
		for i, c := range p.Palette {
			if pal.Palette[i] != c {
				t.Errorf("%d colours: palette[%d] = %v, want %v", colours, i, pal.Palette[i], c)
			}
		}
		for y := 0; y < p.Height; y++ {
			for x := 0; x < p.Width; x++ {
				if got, want := pal.ColorIndexAt(x, y), p.Pix[y*p.Width+x]; got != want {
					t.Fatalf("%d colours: (%d,%d) = %d, want %d", colours, x, y, got, want)
				}
			}
		}
	}
}

// TestPNGDeterministic checks that the same picture always makes the same
// bytes (T-5: the same requests give the same answers).
func TestPNGDeterministic(t *testing.T) {
	p := New(352, 264, grey(16))
	for i := range p.Pix {
		p.Pix[i] = uint8(i % 16)
	}
	a, err := p.PNG()
	if err != nil {
		t.Fatal(err)
	}
	b, err := p.Clone().PNG()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Error("two encodings of the same picture differ")
	}
}

func TestPNGRefusesIndexPastPalette(t *testing.T) {
	p := New(4, 4, grey(16))
	p.Pix[5] = 16
	_, err := p.PNG()
	if err == nil || !strings.Contains(err.Error(), "index 16") {
		t.Errorf("err = %v, want one naming index 16", err)
	}
}

// TestWhole checks MON-6: whole says whether the beam is partway through
// the picture.
func TestMON6Whole(t *testing.T) {
	for _, c := range []struct {
		x, y  int
		whole bool
	}{
		{0, -28, true},    // above the picture, in the frame's first lines
		{400, -1, true},   // in the blanking of the line above it
		{0, 0, true},      // at its start: nothing of this frame painted yet
		{-10, 0, true},    // in the line's sync before its first pixel
		{1, 0, false},     // one pixel in
		{0, 100, false},   // halfway down
		{351, 263, false}, // the last pixel not yet painted
		{352, 263, true},  // past the last pixel of the last line
		{0, 264, true},    // below it
	} {
		p := New(352, 264, grey(16))
		p.BeamX, p.BeamY = c.x, c.y
		if got := p.Whole(); got != c.whole {
			t.Errorf("beam at (%d,%d): whole = %v, want %v", c.x, c.y, got, c.whole)
		}
	}
}

func TestRowAndClone(t *testing.T) {
	p := New(3, 2, grey(4))
	copy(p.Row(1), []uint8{1, 2, 3})
	if got := p.Pix[3:]; !bytes.Equal(got, []uint8{1, 2, 3}) {
		t.Errorf("row 1 = %v", got)
	}
	c := p.Clone()
	c.Pix[3] = 0
	if p.Pix[3] != 1 {
		t.Error("a clone shares its pixels")
	}
}
