package monitor

import (
	"bytes"
	"image/color"
	"testing"
)

func chars(m *Monitor, n int, colour byte, sync bool) (retraced int) {
	s := [16]byte{}
	for i := range s {
		s[i] = colour
	}
	for range n {
		if m.Receive(&s, sync) {
			retraced++
		}
	}
	return retraced
}

// TestLineSync holds a line's sync to the Compendium's ch. 14.3: the beam
// starts the next line as the sync begins, and is placed when it ends as
// if the line were timed from the pulse's middle, so a pulse a
// microsecond short puts the picture half a microsecond right.
func TestLineSync(t *testing.T) {
	for _, c := range []struct {
		pulse int // characters
		x     int // where the beam stands when it ends
	}{{4, 64}, {3, 56}, {2, 48}, {1, 40}} {
		m := New()
		chars(m, 10, 1, false)
		chars(m, c.pulse, 0, true)
		chars(m, 1, 7, false)
		if m.BeamY != 1 || m.BeamX != c.x+16 || m.Raster[Width+c.x] != 7 || m.Raster[Width+c.x-1] == 7 {
			t.Errorf("%d µs pulse: the line after it begins elsewhere than (%d,1); beam at (%d,%d)", c.pulse, c.x, m.BeamX, m.BeamY)
		}
	}
}

// TestFrameSync holds the frame's sync to the Compendium's ch. 16.2.4 and
// Grim's "The CRTC": a sync held 12 µs sends the beam to the top-left
// corner, once a sync however long it lasts and however its serrations
// break it, until a line's short pulse has ended.
func TestT7FrameSync(t *testing.T) {
	m := New()
	chars(m, 30, 1, false)
	if n := chars(m, 11, 0, true); n != 0 {
		t.Errorf("11 µs of sync retraced")
	}
	if n := chars(m, 1, 0, true); n != 1 || m.BeamX != 1 || m.BeamY != 0 || m.Frames != 1 {
		t.Errorf("the 12th µs of sync: %d retraces, beam at (%d,%d), want 1 and (1,0)", n, m.BeamX, m.BeamY)
	}
	// A serration, a gap of 4 µs, and the sync again: the same frame sync.
	chars(m, 4, 0, false)
	if n := chars(m, 20, 0, true); n != 0 {
		t.Errorf("the frame sync retraced again after a serration")
	}
	// A line's pulse re-arms it.
	chars(m, 40, 1, false)
	chars(m, 4, 0, true)
	chars(m, 40, 1, false)
	if n := chars(m, 12, 0, true); n != 1 {
		t.Errorf("a frame sync after line pulses did not retrace")
	}
}

// TestBeamPaints holds the picture to the spec's "The picture": the beam
// paints as it runs, so below it the last frame's lines remain.
func TestMON5BeamPaints(t *testing.T) {
	m := New()
	frame := func(colour byte, lines int) {
		for range lines {
			chars(m, 60, colour, false)
			chars(m, 4, 0, true)
		}
	}
	frame(5, 20)
	chars(m, 60, 5, false)
	chars(m, 12, 0, true) // retrace
	frame(9, 3)
	if m.Raster[2*Width+100] != 9 || m.Raster[10*Width+100] != 5 {
		t.Errorf("lines above the beam &%02X, below &%02X; want this frame's 9 and the last's 5",
			m.Raster[2*Width+100], m.Raster[10*Width+100])
	}
}

// TestViews holds the three pictures to the golden README's sizes and to
// the crop: 768x544 each line twice, 768x272, and 1024x624.
func TestMON3Views(t *testing.T) {
	m := New()
	for i := range m.Raster {
		m.Raster[i] = byte(i / Width % 32)
	}
	m.BeamX, m.BeamY = CropLeft+10, CropTop+5
	for _, c := range []struct {
		v          View
		w, h       int
		topLine    int
		left       int
		bx, by     int
		lineRepeat int
	}{
		{View{}, 768, 544, CropTop, CropLeft, 10, 10, 2},
		{View{Single: true}, 768, 272, CropTop, CropLeft, 10, 5, 1},
		{View{Full: true}, 1024, 624, 0, 0, CropLeft + 10, 2 * (CropTop + 5), 2},
		{View{Full: true, Single: true}, 1024, 312, 0, 0, CropLeft + 10, CropTop + 5, 1},
	} {
		p := m.Picture(c.v)
		if p.Width != c.w || p.Height != c.h {
			t.Errorf("%+v: %dx%d, want %dx%d", c.v, p.Width, p.Height, c.w, c.h)
			continue
		}
		for y := range p.Height {
			if got, want := p.Pix[y*p.Width], byte((c.topLine+y/c.lineRepeat)%32); got != want {
				t.Fatalf("%+v: row %d shows raster line %d", c.v, y, got)
			}
		}
		if p.BeamX != c.bx || p.BeamY != c.by {
			t.Errorf("%+v: beam at (%d,%d), want (%d,%d)", c.v, p.BeamX, p.BeamY, c.bx, c.by)
		}
	}
}

// TestPalette holds the palette to the measured levels the golden README
// tabulates, indexed by hardware colour code.
func TestMON4Palette(t *testing.T) {
	for code, want := range map[int]color.RGBA{
		0x00: {0x6E, 0x7D, 0x6B, 0xFF},
		0x04: {0x00, 0x02, 0x6B, 0xFF},
		0x0A: {0xF3, 0xF3, 0x0D, 0xFF},
		0x0B: {0xFF, 0xF3, 0xF9, 0xFF},
		0x14: {0x00, 0x02, 0x01, 0xFF},
		0x1F: {0x6E, 0x7B, 0xF6, 0xFF},
	} {
		if Palette[code] != want {
			t.Errorf("colour &%02X is %v, want %v", code, Palette[code], want)
		}
	}
	if len(Palette) != 32 {
		t.Errorf("%d colours, want 32", len(Palette))
	}
}

// TestChanged holds the marks of the lines painted anew to what the beam
// paints: after each frame, a line is marked if and only if it holds
// samples it did not hold when the marks were cleared, whether the beam
// painted them on its way or within a sync. A new monitor marks every
// line, as nobody has seen its raster.
func TestChanged(t *testing.T) {
	m := New()
	for y := range Height {
		if m.Changed()[y/64]&(1<<(y%64)) == 0 {
			t.Fatalf("a new monitor leaves line %d unmarked", y)
		}
	}
	frame := func(ink, syncInk byte) {
		for range 20 {
			chars(m, 60, ink, false)
			chars(m, 4, syncInk, true)
		}
		chars(m, 60, ink, false)
		chars(m, 12, syncInk, true) // the frame's sync
	}
	frame(5, 0)
	frame(5, 0)
	for _, c := range []struct {
		what    string
		ink     byte
		syncInk byte
		marked  bool // any line is marked
	}{
		{"the same frame again", 5, 0, false},
		{"another ink", 9, 0, true},
		{"the same ink, and another within the syncs", 9, 7, true},
		{"the same again", 9, 7, false},
	} {
		before := bytes.Clone(m.Raster)
		m.ClearChanged()
		frame(c.ink, c.syncInk)
		some := false
		for y := range Height {
			changed := !bytes.Equal(m.Raster[y*Width:(y+1)*Width], before[y*Width:(y+1)*Width])
			marked := m.Changed()[y/64]&(1<<(y%64)) != 0
			if changed != marked {
				t.Errorf("%s: line %d changed %v, marked %v", c.what, y, changed, marked)
			}
			some = some || marked
		}
		if some != c.marked {
			t.Errorf("%s: lines marked %v, want %v", c.what, some, c.marked)
		}
	}
}
