package host

import (
	"bytes"
	"fmt"
	goimage "image"
	"image/png"
	"testing"

	"colophon/internal/watch"
)

// borderProgram answers a loop that writes the border a colour, waits
// longer than the beam takes to cross the picture, writes it another, and
// waits again, over and over; out is the OUT's code and the colour's load
// before it, for the two colours.
func borderProgram(setup []byte, out func(colour byte) []byte, a, b byte) []byte {
	code := append([]byte{0xF3}, setup...) // DI
	loop := len(code)
	for _, c := range []byte{a, b} {
		code = append(code, out(c)...)
		code = append(code, 0x3E, 0x14, 0x3D, 0x20, 0xFD) // LD A,20; DEC A; JR NZ,-3
	}
	return append(code, 0x18, byte(loop-len(code)-2)) // JR loop
}

// beamRow answers the palette indices of row y of the picture.
func beamRow(t *testing.T, r *rig, y int) []uint8 {
	t.Helper()
	mon, b, err := r.h.Monitor(r.ctx, MonitorArgs{Handle: r.handle})
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	p := img.(*goimage.Paletted)
	return p.Pix[y*p.Stride : y*p.Stride+mon.Width]
}

// monitorBeam answers where monitor says the beam stands.
func monitorBeam(t *testing.T, r *rig) Beam {
	t.Helper()
	mon, _, err := r.h.Monitor(r.ctx, MonitorArgs{Handle: r.handle})
	if err != nil {
		t.Fatal(err)
	}
	return mon.Beam
}

// untilBorder runs r to OUTs by until, one after another, to the first
// whose beam stands in the picture with room around it, where the
// picture's row is all border from 32 pixels before it to 48 after; it
// answers the match, the machine's tick at the stop, and monitor's beam
// there.
func untilBorder(t *testing.T, r *rig, out Condition, width, height int, border func(x, y int) bool) (watch.Match, uint64, Beam) {
	t.Helper()
	for range 400 {
		mv := r.run(RunArgs{Ticks: ptr(uint64(200000)), Conditions: Conditions{Until: []Condition{out}}})
		if mv.Stop != "until" {
			t.Fatalf("no OUT stopped the run: %s", asJSON(mv))
		}
		x, y := mv.Until.Beam.X, mv.Until.Beam.Y
		if x >= 32 && x+48 <= width && y >= 0 && y < height && border(x, y) {
			return mv.Until, mv.Tick, monitorBeam(t, r)
		}
	}
	t.Fatal("no OUT came with the beam in the border")
	return watch.Match{}, 0, Beam{}
}

// execStop runs r on to the instruction after the one it stands at, by
// until on an exec, and holds the match's beam to monitor's at the stop:
// an exec match stops before its instruction, at the match's own tick.
func execStop(t *testing.T, r *rig) {
	t.Helper()
	at := fmt.Sprintf("&%04X", r.num("cpu.pc")+2) // past LD A,20
	mv := r.run(RunArgs{Ticks: ptr(uint64(100)), Conditions: Conditions{Until: []Condition{execAt(at)}}})
	if mv.Stop != "until" || mv.Until.Tick != mv.Tick {
		t.Fatalf("until exec %s: %s", at, asJSON(mv))
	}
	if mon := monitorBeam(t, r); mon.X != mv.Until.Beam.X || mon.Y != mv.Until.Beam.Y {
		t.Errorf("stopped before the instruction at %s, its match gave the beam at %+v; monitor has it at %+v", at, mv.Until.Beam, mon)
	}
}

// TestCB7BeamOfAMatchSpectrum holds CB-7's beam on a Spectrum: a run stopped by
// until at an OUT to the ULA gives the beam where the picture has it at
// the match's tick. It is reckoned again from the ULA's own frame_tick at
// the stop with the 48K's published timing, 224 ticks a line and the
// first screen pixel at tick 14336 of the frame ([FAQ] comp.sys.sinclair
// FAQ, "16K/48K reference"), two pixels a tick, in a picture with 48
// pixels of border left of the screen and 36 lines above it (MON-3); it
// stands where monitor's beam stood the ticks before the stop that the
// OUT's end came after its write; and the picture, painted on, turns to
// the new border colour on its row at the 8-pixel chunk that holds it, as
// the ULA takes the border by 4 ticks at a time [FAQ].
func TestCB7BeamOfAMatchSpectrum(t *testing.T) {
	r := newRig(t, "spectrum48")
	// LD A,colour; OUT (&FE),A: red and cyan, on no screen.
	code := borderProgram(nil, func(c byte) []byte { return []byte{0x3E, c, 0xD3, 0xFE} }, 2, 5)
	r.program(0x8000, code...)
	out := Condition{Kind: "out", Port: "&00FE", Mask: "&0001"}
	border := func(x, y int) bool { return y < 36 || y >= 36+192 }
	m, stop, mon := untilBorder(t, r, out, 352, 264, border)

	const ticksPerLine, firstPixel, frame = 224, 14336, 69888
	ft := int(r.num("frame_tick")) - int(stop-m.Tick)
	if ft < 0 {
		ft += frame
	}
	d := ft - (firstPixel - 36*ticksPerLine - 24)
	if want := (Beam{X: 2 * (d % ticksPerLine), Y: d / ticksPerLine}); m.Beam.X != want.X || m.Beam.Y != want.Y {
		t.Errorf("the OUT at tick %d, frame tick %d, gave the beam at %+v; the ULA's timing has it at %+v", m.Tick, ft, m.Beam, want)
	}
	if want := m.Beam.X + 2*int(stop-m.Tick); mon.Y != m.Beam.Y || mon.X != want {
		t.Errorf("the OUT %d ticks before the stop gave the beam at %+v; monitor has it at %+v there, %d pixels on", stop-m.Tick, m.Beam, mon, want-m.Beam.X)
	}

	execStop(t, r)

	r.runTicks(120, Conditions{})
	row := beamRow(t, r, m.Beam.Y)
	colour := byte(parseHex(m.Byte) & 7)
	first := m.Beam.X - 32
	for first < m.Beam.X+48 && row[first] != colour {
		first++
	}
	if want := m.Beam.X &^ 7; first != want {
		t.Errorf("the OUT of %s with the beam at %+v turned row %d to colour %d at x %d, want %d, the chunk that holds the beam; the row: %v", m.Byte, m.Beam, m.Beam.Y, colour, first, want, row[m.Beam.X-32:m.Beam.X+48])
	}
}

// TestCB7BeamOfAMatchCPC holds CB-7's beam on a CPC: a run stopped by
// until at an OUT to the Gate Array that gives the border pen an ink
// answers the beam on the line monitor has it on at the stop, 16 pixels
// back for each microsecond, a character of the 6845's 1 MHz clock, that
// the stop came after the write (cpctech, "CRTC"); a run stopped by until
// before an instruction answers the beam where monitor has it there; and
// the picture, painted on, turns to the new ink on the match's row where
// the beam stood, the Gate Array painting each character with the inks in
// force as it comes.
func TestCB7BeamOfAMatchCPC(t *testing.T) {
	r := newRig(t, "cpc6128")
	r.frames(78)
	// LD BC,&7F10; OUT (C),C: the Gate Array's pen 16, the border; then
	// LD C,&40+colour; OUT (C),C: its ink, hardware colours &0C (bright
	// red) and &14 (black) (Grim, "The Gate Array", INKR).
	code := borderProgram([]byte{0x01, 0x10, 0x7F, 0xED, 0x49},
		func(c byte) []byte { return []byte{0x0E, 0x40 | c, 0xED, 0x49} }, 0x0C, 0x14)
	r.program(0x8000, code...)
	out := Condition{Kind: "out", Port: "&7F00", Mask: "&C000"}
	// The firmware's screen is 200 lines, 400 of the picture's 544, with
	// the border above and below it; these rows are well inside it.
	border := func(x, y int) bool { return y < 64 || y >= 480 }
	m, stop, mon := untilBorder(t, r, out, 768, 544, border)
	d := int(stop - m.Tick)
	if lo, hi := m.Beam.X+16*(d/4), m.Beam.X+16*((d+3)/4); mon.Y != m.Beam.Y || mon.X < lo || mon.X > hi {
		t.Errorf("the OUT %d ticks before the stop gave the beam at %+v; monitor has it at %+v, want x %d to %d on the same line", d, m.Beam, mon, lo, hi)
	}
	execStop(t, r)

	r.runTicks(160, Conditions{})
	row := beamRow(t, r, m.Beam.Y)
	colour := byte(parseHex(m.Byte) & 0x1F)
	first := m.Beam.X - 32
	for first < m.Beam.X+48 && row[first] != colour {
		first++
	}
	if first != m.Beam.X {
		t.Errorf("the OUT of %s with the beam at %+v turned row %d to ink %d at x %d, want %d, where the beam stood; the row: %v", m.Byte, m.Beam, m.Beam.Y, colour, first, m.Beam.X, row[m.Beam.X-32:m.Beam.X+48])
	}
}
