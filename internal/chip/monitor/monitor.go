// Package monitor is the CPC's colour monitor, a cathode ray tube driven by
// a stream of colour samples and one composite sync line.
//
// The tube knows nothing of the computer behind it. It paints each sample
// where its beam stands, and it tells a line's sync from a frame's as the
// tube's own circuit does, by how long the sync is held: a pulse short
// enough to be a line's sends the beam back to the left and down a line; a
// sync held long enough is the frame's, and sends the beam to the top-left
// corner. The beam paints as the machine runs, so between retraces the
// lines above the beam are this frame's and those below it the last one's.
//
// The whole beam path, sync and blanking included, is the raster: 1024
// samples across (64 µs of line at the Gate Array's 16 MHz) and 312 lines
// down. The picture a person sees is cut from it (View).
//
// Sources cited at the lines that depend on them:
//   - Longshot, "The Amstrad CPC CRTC Compendium" v1.11 (Compendium), ch.
//     16.2.4: a CTM monitor cannot anchor its picture vertically on a sync
//     shorter than 11-12 µs; ch. 14.3-14.4: a line is timed from the middle
//     of its sync pulse, so a pulse cut short moves the picture right by half
//     of what was taken off.
//   - Grim, "The CRTC" (https://www.grimware.org/doku.php/documentations/
//     devices/crtc): the gun is held at the top-left corner through the frame
//     flyback.
//   - Grim, "The Gate Array", INKR colour codes: the measured levels of a
//     40010's outputs, which ../shared/testdata/golden/README.md tabulates.
//
// Not modelled, as a real tube would: the flywheel of the line oscillator,
// and the roll of a picture whose frame sync never comes; a frame longer
// than the tube is held on its last line.
package monitor

import (
	"bytes"
	"fmt"
	"image/color"

	"colophon/internal/picture"
)

// The raster.
const (
	Width  = 1024 // samples across a whole line
	Height = 312  // lines down a whole frame
)

// FrameSyncSamples is how long a sync must be held to be the frame's: 12 µs,
// where a CTM can no longer anchor the picture below 11-12 µs (Compendium
// ch. 16.2.4).
const FrameSyncSamples = 192

// LineSyncCentre is where the middle of the Gate Array's 4 µs line sync
// falls, counted from the left of the raster: the beam is placed as if the
// line were timed from the pulse's middle (Compendium ch. 14.3).
const LineSyncCentre = 32

// The picture the command line cuts from the raster: 48 µs of the line
// from 13 µs after the start of the line sync, and 272 lines from the 34th
// after the frame retrace, which leaves 64 samples of border either side of
// a standard screen and about 35 lines above and below it. These are the
// reference's crop, measured against its screenshots in
// ../shared/testdata/golden (TestGoldenScreenshots).
const (
	CropLeft   = 208
	CropTop    = 34
	CropWidth  = 768
	CropHeight = 272
)

// Palette is the measured colour of each hardware colour code, 0x00 to
// 0x1F, as ../shared/testdata/golden/README.md gives Grim's measurements of a
// 40010's outputs.
var Palette = func() color.Palette {
	levels := [32]uint32{
		0x6E7D6B, 0x6E7B6D, 0x00F36B, 0xF3F36D, 0x00026B, 0xF00268, 0x007868, 0xF37D6B,
		0xF30268, 0xF3F36B, 0xF3F30D, 0xFFF3F9, 0xF30506, 0xF302F4, 0xF37D0D, 0xFA80F9,
		0x000268, 0x02F36B, 0x02F001, 0x0FF3F2, 0x000201, 0x0C02F4, 0x027801, 0x0C7BF4,
		0x690268, 0x71F36B, 0x71F504, 0x71F3F4, 0x6C0201, 0x6C02F2, 0x6E7B01, 0x6E7BF6,
	}
	p := make(color.Palette, len(levels))
	for i, v := range levels {
		p[i] = color.RGBA{R: uint8(v >> 16), G: uint8(v >> 8), B: uint8(v), A: 0xFF}
	}
	return p
}()

// View is a way of cutting the picture from the raster.
type View struct {
	Full   bool // the whole raster, sync and blanking included (--full-raster)
	Single bool // each raster line once rather than twice (--no-double)
}

// Size reports the picture's width and height in this view: 768x544
// normally, 768x272 single, 1024x624 full and 1024x312 both.
func (v View) Size() (w, h int) {
	w, h = CropWidth, CropHeight
	if v.Full {
		w, h = Width, Height
	}
	if !v.Single {
		h *= 2
	}
	return w, h
}

// Monitor is the tube's state.
type Monitor struct {
	// Raster holds one hardware colour code per sample of the beam's
	// whole path. What the beam has never reached holds 0. It is painted
	// through Receive and Span, which mark the lines changed (Changed).
	Raster []byte `inspect:"-"`

	BeamX    int  `inspect:"beam_x"`       // samples from the left of the raster
	BeamY    int  `inspect:"beam_y"`       // lines from the top
	Held     int  `inspect:"held,max=192"` // samples the sync has been held, to FrameSyncSamples, past which longer is the same
	Sync     bool `inspect:"sync"`         // the sync line as the last character left it
	Retraced bool `inspect:"retraced"`     // this long sync has retraced already; a short pulse re-arms

	Frames uint64 `inspect:"frames"` // retraces since power-on

	// changed marks the lines painted with samples they did not hold,
	// since ClearChanged. It is not the tube's state but the business of
	// whoever keeps copies of the raster, and lies behind a pointer so
	// that a copy of the monitor by value shares it.
	changed *[lineWords]uint64
}

// lineWords is the words of a bitmap with a bit for each line.
const lineWords = (Height + 63) / 64

// New returns a monitor whose raster is all colour 0 and whose beam stands
// at the top-left corner. Every line is marked changed, as it is to
// anyone who has not seen the raster yet.
func New() *Monitor {
	m := &Monitor{Raster: make([]byte, Width*Height), changed: new([lineWords]uint64)}
	for y := range Height {
		m.MarkChanged(y)
	}
	return m
}

// Changed answers the lines painted with samples they did not hold since
// ClearChanged, line y by bit y%64 of word y/64, so that whoever keeps a
// copy of the raster need look at no other (machine.Dirty). The bitmap is
// the monitor's own.
func (m *Monitor) Changed() []uint64 { return m.changed[:] }

// MarkChanged marks line y changed. Receive marks what it paints; a
// painter that writes the raster itself, through Span, marks the lines
// where it wrote what they did not hold.
func (m *Monitor) MarkChanged(y int) { m.changed[y>>6] |= 1 << (y & 63) }

// ClearChanged clears every line's mark.
func (m *Monitor) ClearChanged() { *m.changed = [lineWords]uint64{} }

// Receive takes one character of the cable: sixteen samples during which
// the composite sync held one level (true is asserted). It reports whether
// the frame retraced during them.
func (m *Monitor) Receive(s *[16]byte, sync bool) (retraced bool) {
	if sync != m.Sync {
		if sync {
			// The sync begins: the beam flies back and starts the next
			// line, or is held on the last if the frame outruns the tube.
			m.BeamX = 0
			if m.BeamY+1 < Height {
				m.BeamY++
			}
			m.Held = 0
		} else {
			if m.Held < FrameSyncSamples {
				// A short pulse has ended, so the frame sync is over and
				// the next long one may retrace again. Within a frame
				// sync every pulse is long, its serrations being gaps.
				m.Retraced = false
			}
			if m.Held <= 2*LineSyncCentre {
				// A line's sync has ended, and only now is its width
				// known: the beam stands as if timed from its middle
				// (Compendium ch. 14.3). A longer pulse is the frame's.
				m.BeamX = LineSyncCentre + m.Held/2
			}
		}
		m.Sync = sync
	}
	if !sync && m.BeamX+16 <= Width {
		at := m.BeamY*Width + m.BeamX
		if r := (*[16]byte)(m.Raster[at : at+16]); *r != *s {
			*r = *s
			m.MarkChanged(m.BeamY)
		}
		m.BeamX += 16
		return false
	}
	if sync {
		if !m.Retraced && m.Held < FrameSyncSamples && m.Held+16 >= FrameSyncSamples {
			// The sync has been held long enough to be the frame's: the
			// gun goes to the top-left corner and is held there through
			// the flyback (Grim, "The CRTC"), and the sample that decided
			// it is the first painted there.
			i := FrameSyncSamples - m.Held - 1
			m.paint(s[:i])
			m.BeamX, m.BeamY = 0, 0
			m.Retraced = true
			m.Frames++
			retraced = true
			m.paint(s[i:])
		} else {
			m.paint(s[:])
		}
		// A sync held FrameSyncSamples is the frame's, and longer changes
		// nothing the beam does; the count stops there, so that no sync,
		// however long, takes it past what set and a state may hold.
		m.Held = min(m.Held+16, FrameSyncSamples)
		return retraced
	}
	m.paint(s[:])
	return false
}

// paint puts samples on the beam's line from where it stands, as far as
// the line goes.
func (m *Monitor) paint(s []byte) {
	if m.BeamX >= Width {
		return
	}
	at := m.BeamY*Width + m.BeamX
	r := m.Raster[at : m.BeamY*Width+Width]
	n := min(len(r), len(s))
	if !bytes.Equal(r[:n], s[:n]) {
		copy(r, s)
		m.MarkChanged(m.BeamY)
	}
	m.BeamX += n
}

// Picture cuts the picture in view v from the raster, each pixel a hardware
// colour code and the palette the measured colours, with the beam placed in
// the picture's own pixels.
func (m *Monitor) Picture(v View) *picture.Picture {
	w, h := v.Size()
	p := picture.New(w, h, Palette)
	left, top, lines := CropLeft, CropTop, CropHeight
	if v.Full {
		left, top, lines = 0, 0, Height
	}
	repeat := 2
	if v.Single {
		repeat = 1
	}
	for y := range lines {
		row := m.Raster[(top+y)*Width+left : (top+y)*Width+left+w]
		for r := range repeat {
			copy(p.Pix[(y*repeat+r)*w:], row)
		}
	}
	p.BeamX, p.BeamY = v.Beam(m.BeamX, m.BeamY)
	return p
}

// Span returns the raster for the next n characters where they can be
// painted without a thought, and moves the beam past them: the sync is
// released and was released, and the line has room for them. Otherwise it
// returns nil and the characters go through Receive. The caller writes the
// span, on line BeamY, and marks the line (MarkChanged) if it wrote
// samples the line did not hold.
func (m *Monitor) Span(n int) []byte {
	if m.Sync || m.BeamX+16*n > Width {
		return nil
	}
	at := m.BeamY*Width + m.BeamX
	m.BeamX += 16 * n
	return m.Raster[at : at+16*n]
}

// Room reports how many whole characters fit on the beam's line.
func (m *Monitor) Room() int { return (Width - m.BeamX) / 16 }

// Beam places a beam standing at raster sample x of line y in the
// picture's own pixels in view v, where it may stand outside the picture.
func (v View) Beam(x, y int) (px, py int) {
	if !v.Full {
		x -= CropLeft
		y -= CropTop
	}
	if !v.Single {
		y *= 2
	}
	return x, y
}

// Validate refuses a beam set outside the raster.
func (m *Monitor) Validate() error {
	if m.BeamX < 0 || m.BeamX > Width || m.BeamY < 0 || m.BeamY >= Height || m.Held < 0 {
		return fmt.Errorf("the beam at (%d,%d) held %d; it stands at x 0 to %d, y 0 to %d", m.BeamX, m.BeamY, m.Held, Width, Height-1)
	}
	return nil
}
