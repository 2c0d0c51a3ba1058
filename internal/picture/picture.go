// Package picture is a monitor's picture: a paletted framebuffer that a
// machine's video chip paints as its beam runs, and that is written out as
// a PNG.
//
// Each pixel holds what the machine put on the video cable, a CPC's
// hardware colour code or a Spectrum's four bits of brightness and colour,
// and the palette says which colour each of those stands for. An agent
// that reads the PNG therefore gets the machine's own numbers back (spec,
// "The picture"; checklist MON-4).
//
// The picture also knows where the beam stands, so that a picture taken
// partway through a frame can say so: above the beam the lines are this
// frame's, below it the frame's before (MON-5, MON-6).
package picture

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
)

// Picture is a paletted framebuffer and the beam that paints it.
type Picture struct {
	Width, Height int
	// Pix holds one palette index per pixel, row by row from the top
	// left, Width to a row.
	Pix []uint8
	// Palette is the colour each index stands for.
	Palette color.Palette
	// BeamX and BeamY are where the beam stands, in the picture's own
	// pixels. Outside the picture (negative, or past Width or Height)
	// the beam is in the blanking or the sync, painting nothing.
	BeamX, BeamY int
}

// New returns a picture of the given size, every pixel index 0, with the
// beam at its top-left corner.
func New(width, height int, palette color.Palette) *Picture {
	if width <= 0 || height <= 0 {
		panic(fmt.Sprintf("picture: size %dx%d", width, height))
	}
	return &Picture{
		Width:   width,
		Height:  height,
		Pix:     make([]uint8, width*height),
		Palette: palette,
	}
}

// Row returns the pixels of line y.
func (p *Picture) Row(y int) []uint8 {
	return p.Pix[y*p.Width : (y+1)*p.Width]
}

// Whole says whether every line of the picture was painted in the same
// frame: the beam stands above the picture, below it, or at its very
// start, rather than partway through it.
func (p *Picture) Whole() bool {
	switch {
	case p.BeamY < 0 || p.BeamY >= p.Height:
		return true
	case p.BeamY == 0:
		return p.BeamX <= 0
	case p.BeamY == p.Height-1:
		return p.BeamX >= p.Width
	}
	return false
}

// Clone returns a copy that shares nothing with p.
func (p *Picture) Clone() *Picture {
	c := *p
	c.Pix = append([]uint8(nil), p.Pix...)
	c.Palette = append(color.Palette(nil), p.Palette...)
	return &c
}

// Image returns the picture as an image.Paletted that shares its pixels.
func (p *Picture) Image() *image.Paletted {
	return &image.Paletted{
		Pix:     p.Pix,
		Stride:  p.Width,
		Rect:    image.Rect(0, 0, p.Width, p.Height),
		Palette: p.Palette,
	}
}

// encoder is shared so that every PNG is made the same way: the standard
// library's encoder, at its default compression, writes the same bytes for
// the same picture every time.
var encoder = png.Encoder{CompressionLevel: png.DefaultCompression}

// WritePNG writes the picture as a paletted PNG.
func (p *Picture) WritePNG(w io.Writer) error {
	if err := p.check(); err != nil {
		return err
	}
	if err := encoder.Encode(w, p.Image()); err != nil {
		return fmt.Errorf("picture: encoding PNG: %w", err)
	}
	return nil
}

// PNG returns the picture as a paletted PNG.
func (p *Picture) PNG() ([]byte, error) {
	var b bytes.Buffer
	if err := p.WritePNG(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// check refuses a picture a PNG cannot hold faithfully: an index with no
// colour in the palette would be written, and read back, as something else.
func (p *Picture) check() error {
	if len(p.Pix) != p.Width*p.Height {
		return fmt.Errorf("picture: %d pixels for %dx%d", len(p.Pix), p.Width, p.Height)
	}
	if len(p.Palette) == 0 || len(p.Palette) > 256 {
		return fmt.Errorf("picture: a palette of %d colours (a PNG holds 1 to 256)", len(p.Palette))
	}
	var seen [256]bool
	for _, v := range p.Pix {
		seen[v] = true
	}
	for v := len(p.Palette); v < 256; v++ {
		if seen[v] {
			return fmt.Errorf("picture: index %d is past the palette's %d colours", v, len(p.Palette))
		}
	}
	return nil
}
