package ula

import (
	"image/color"
	"testing"
)

// TestDelay pins the memory contention pattern to [SW-CM]'s table, as
// ../shared/testdata/spectrum/spectrum48-contention.md quotes it: 6 at
// 14335, falling to 0 at 14341 and 14342, repeating every 8 ticks for the
// 128 screen ticks of each of 192 lines, from 14335 (early timing) to the
// frame's last contended tick, 57246; nothing in the borders.
func TestDelay(t *testing.T) {
	var ram [0x4000]byte
	u := New(&ram)
	for _, c := range []struct {
		tick, delay uint64
	}{
		{0, 0},
		{14334, 0},
		{14335, 6}, {14336, 5}, {14337, 4}, {14338, 3}, {14339, 2}, {14340, 1}, {14341, 0}, {14342, 0},
		{14343, 6},
		{14335 + 120, 6}, {14335 + 126, 0}, {14335 + 127, 0},
		{14335 + 128, 0}, // the right border
		{14335 + 223, 0}, // the left border of the next line
		{14335 + 224, 6}, // the next line's first contended tick, 14559
		{14335 + 191*224, 6},
		{57246, 0}, {57241, 4}, // the last line's last ticks
		{14335 + 192*224, 0}, // the bottom border
		{TicksPerFrame - 1, 0},
	} {
		if got := u.Delay(c.tick); got != c.delay {
			t.Errorf("Delay(%d) = %d, want %d", c.tick, got, c.delay)
		}
	}
	// The pattern is counted from the frame's start, wherever that is.
	u.Sync(3 * TicksPerFrame)
	if got := u.Delay(3*TicksPerFrame + 14336); got != 5 {
		t.Errorf("three frames on, Delay(14336) = %d, want 5", got)
	}
}

func TestContended(t *testing.T) {
	for _, c := range []struct {
		addr uint16
		want bool
	}{{0x0000, false}, {0x3FFF, false}, {0x4000, true}, {0x5AFF, true}, {0x7FFF, true}, {0x8000, false}, {0xFFFF, false}} {
		if got := Contended(c.addr); got != c.want {
			t.Errorf("Contended(&%04X) = %v", c.addr, got)
		}
	}
}

// TestPortPatterns pins the four I/O contention patterns [SW-IO] to the
// worked examples of ../shared/testdata/spectrum/spectrum48-contention.md
// ([COL] test/spectrum_test.c): IN A,(C) run from the ROM, whose two
// uncontended fetches take 8 ticks before its I/O cycle begins. The
// instruction's length is the cycle's end less the instruction's start.
func TestPortPatterns(t *testing.T) {
	var ram [0x4000]byte
	u := New(&ram)
	for _, c := range []struct {
		port  uint16
		start uint64
		took  uint64
	}{
		{0x00FE, 14331, 13}, {0x00FE, 14334, 18}, {0x00FE, 14335, 17}, // N:1, C:3
		{0x40FE, 14331, 14}, {0x40FE, 14334, 18}, {0x40FE, 14335, 18}, // C:1, C:3
		{0x40FF, 14331, 20}, {0x40FF, 14334, 24}, {0x40FF, 14335, 24}, // C:1 x4
		{0x00FF, 14331, 12}, {0x00FF, 14334, 12}, {0x00FF, 14335, 12}, // N:4
		{0x00FE, 0, 12}, {0x40FF, 0, 12}, // the top border holds nothing
	} {
		write, read, end := u.Port(c.port, c.start+8)
		if got := end - c.start; got != c.took {
			t.Errorf("IN A,(C) with BC=&%04X from %d took %d, want %d", c.port, c.start, got, c.took)
		}
		// A write lands a tick into the cycle, after any early hold;
		// a read is sampled at its last tick ([FUSE] writeport,
		// readport).
		if read != end-1 {
			t.Errorf("port &%04X from %d: read at %d, want %d", c.port, c.start, read, end-1)
		}
		if write <= c.start+8 || write > read {
			t.Errorf("port &%04X from %d: write at %d, outside the cycle", c.port, c.start, write)
		}
	}
	// Where the write lands: after the early hold, before the late one.
	if w, _, _ := u.Port(0x00FE, 14342); w != 14343 {
		t.Errorf("OUT to &00FE at 14342 lands at %d, want 14343", w)
	}
	if w, _, _ := u.Port(0x40FE, 14343); w != 14343+6+1 {
		t.Errorf("OUT to &40FE at 14343 lands at %d, want %d", w, 14343+6+1)
	}
}

// TestInterrupt checks the 32-tick interrupt at each frame's start [LS].
func TestInterrupt(t *testing.T) {
	var ram [0x4000]byte
	u := New(&ram)
	for tick, want := range map[uint64]bool{0: true, 31: true, 32: false, 14336: false, TicksPerFrame - 1: false} {
		if got := u.Interrupt(tick); got != want {
			t.Errorf("Interrupt(%d) = %v, want %v", tick, got, want)
		}
	}
	u.Sync(TicksPerFrame)
	if !u.Interrupt(TicksPerFrame) || !u.Interrupt(TicksPerFrame+31) || u.Interrupt(TicksPerFrame+32) {
		t.Error("the next frame's interrupt is not held for its first 32 ticks")
	}
	if u.Frames != 1 {
		t.Errorf("Frames = %d after one frame, want 1", u.Frames)
	}
}

// TestRead checks the keyboard's half-rows [KB] and bits 5-7 of port &FE.
func TestRead(t *testing.T) {
	var ram [0x4000]byte
	u := New(&ram)
	if got := u.Read(0x00FE); got != 0xBF {
		t.Errorf("no key, EAR low: read &%02X, want &BF", got)
	}
	u.Keys[0] = 0x01 // CAPS SHIFT, half-row A8
	u.Keys[5] = 0x01 // P, half-row A13
	for _, c := range []struct {
		port uint16
		want uint8
	}{
		{0xFEFE, 0xBE}, // A8 low: CAPS
		{0xDFFE, 0xBE}, // A13 low: P
		{0x7FFE, 0xBF}, // A15 low: nothing held there
		{0xDEFE, 0xBE}, // A8 and A13: both half-rows, wire-ANDed
		{0xFFFE, 0xBF}, // no half-row selected
		{0x00FE, 0xBE},
	} {
		if got := u.Read(c.port); got != c.want {
			t.Errorf("Read(&%04X) = &%02X, want &%02X", c.port, got, c.want)
		}
	}
	u.Keys = [8]uint8{}
	u.Write(0x10, 0) // EAR high: an issue 3 board reads it back on bit 6
	if got := u.Read(0xFEFE); got != 0xFF {
		t.Errorf("EAR high: read &%02X, want &FF", got)
	}
	u.EarIn = true // a tape's level turns it over
	if got := u.Read(0xFEFE); got != 0xBF {
		t.Errorf("EAR high, tape high: read &%02X, want &BF", got)
	}
	u.Write(0x0B, 0)
	if u.Border != 3 || !u.MIC || u.EAR {
		t.Errorf("write &0B: border %d, MIC %v, EAR %v", u.Border, u.MIC, u.EAR)
	}
}

// TestFloating pins the floating bus to [RS]: the ULA reads &4000 at
// 14338, &5800 at 14339, &4001 at 14340, &5801 at 14341, and nothing from
// 14342 to 14345.
func TestFloating(t *testing.T) {
	var ram [0x4000]byte
	ram[0x0000] = 0x11 // &4000, bitmap of row 0, column 0
	ram[0x1800] = 0x22 // &5800
	ram[0x0001] = 0x33 // &4001
	ram[0x1801] = 0x44 // &5801
	ram[0x0002] = 0x55
	ram[0x1802] = 0x66
	ram[0x0100] = 0x77 // &4100, row 1, column 0
	ram[0x181F] = 0x88 // &581F, column 31
	ram[0x17FF] = 0x99 // &57FF, row 191, column 31
	ram[0x1AFF] = 0xAA // &5AFF
	u := New(&ram)
	for _, c := range []struct {
		tick uint64
		want uint8
	}{
		{14337, 0xFF}, {14338, 0x11}, {14339, 0x22}, {14340, 0x33}, {14341, 0x44},
		{14342, 0xFF}, {14343, 0xFF}, {14344, 0xFF}, {14345, 0xFF},
		{14346, 0x55}, {14347, 0x66},
		{14338 + 224, 0x77},                    // the next line
		{14338 + 15*8 + 3, 0x88},               // the last pair's second attribute, &581F
		{14338 + 15*8 + 4, 0xFF},               // then the border
		{14338 + 191*224 + 15*8 + 2, 0x99},     // the last line
		{14338 + 191*224 + 15*8 + 3, 0xAA},     //
		{14338 + 192*224, 0xFF},                // the bottom border
		{100, 0xFF}, {TicksPerFrame - 1, 0xFF}, // the top border, the frame's end
	} {
		if got := u.Floating(c.tick); got != c.want {
			t.Errorf("Floating(%d) = &%02X, want &%02X", c.tick, got, c.want)
		}
	}
}

// TestMON4Palette checks ../shared/testdata/golden/README.md's colours.
func TestMON4Palette(t *testing.T) {
	p := Palette()
	for i, want := range []color.RGBA{
		{0, 0, 0, 255}, {0, 0, 0xD7, 255}, {0xD7, 0, 0, 255}, {0xD7, 0, 0xD7, 255},
		{0, 0xD7, 0, 255}, {0, 0xD7, 0xD7, 255}, {0xD7, 0xD7, 0, 255}, {0xD7, 0xD7, 0xD7, 255},
		{0, 0, 0, 255}, {0, 0, 0xFF, 255}, {0xFF, 0, 0, 255}, {0xFF, 0, 0xFF, 255},
		{0, 0xFF, 0, 255}, {0, 0xFF, 0xFF, 255}, {0xFF, 0xFF, 0, 255}, {0xFF, 0xFF, 0xFF, 255},
	} {
		if p[i] != want {
			t.Errorf("palette[%d] = %v, want %v", i, p[i], want)
		}
	}
}

// TestBeam checks where the beam stands: the picture's row 0 begins 24
// ticks before the display of the frame's line 28, 36 lines above the
// first screen line, which starts at 14336 [LS].
func TestBeam(t *testing.T) {
	var ram [0x4000]byte
	u := New(&ram)
	for _, c := range []struct {
		tick uint64
		x, y int
	}{
		{0, 48, -28},                 // the interrupt: above the first screen byte's column
		{14336, 48, 36},              // the first screen byte
		{14336 - 24, 0, 36},          // the left border of its line
		{14336 + 127, 48 + 254, 36},  // its last screen tick
		{14336 + 152, 352, 36},       // past the right border: blanking
		{14336 + 199, 446, 36},       //
		{14336 + 200, 0, 37},         // the next row's left border
		{28*224 - 24, 0, 0},          // the picture's first pixel
		{28*224 - 25, 446, -1},       //
		{TicksPerFrame - 1, 46, 284}, // the frame's last tick
	} {
		if x, y := u.Beam(c.tick); x != c.x || y != c.y {
			t.Errorf("Beam(%d) = (%d,%d), want (%d,%d)", c.tick, x, y, c.x, c.y)
		}
	}
}

// TestBorderChunks pins when a border change shows [FAQ]: "you cannot
// change the border within a byte, an 8-pixel chunk", and an OUT that ends
// 14339 to 14342 ticks after the interrupt changes it exactly where byte
// 16384 of the screen is shown. "The other positions can be computed by
// remembering that 8 pixels take 4 T states, and a line takes 224": so ten
// lines up, in the top border, where the change can be seen. The OUT's
// write lands 3 ticks before it ends, its late cycle being uncontended
// there ([FUSE] writeport).
func TestBorderChunks(t *testing.T) {
	const up = 10 * TicksPerLine
	const row = 36 - 10
	for _, c := range []struct {
		end   uint64 // the tick the OUT ends
		first int    // the first x of the new colour in the row
	}{
		{14338 - up, 40},
		{14339 - up, 48}, {14340 - up, 48}, {14341 - up, 48}, {14342 - up, 48},
		{14343 - up, 56},
	} {
		var ram [0x4000]byte
		u := New(&ram)
		u.Write(7, 0) // white from the start of the frame
		u.Write(2, c.end-3)
		u.Sync(TicksPerFrame - 1)
		r := u.Picture().Row(row)
		for x := 0; x < Width; x++ {
			want := uint8(7)
			if x >= c.first {
				want = 2
			}
			if r[x] != want {
				t.Errorf("OUT ending at %d: pixel (%d,%d) = %d, want %d", c.end, x, row, r[x], want)
				break
			}
		}
	}
}

// TestPaintScreen checks the screen's layout [SVM] and colours: ink and
// paper, BRIGHT, and FLASH, which swaps them for 16 frames in 32 [FAQ].
func TestPaintScreen(t *testing.T) {
	var ram [0x4000]byte
	ram[bitmapAt(0, 0)] = 0xF0          // row 0, column 0: four ink, four paper
	ram[attrAt(0, 0)] = 0x4A            // BRIGHT, paper 1 (blue), ink 2 (red)
	ram[bitmapAt(9, 3)] = 0x81          // row 9 (the second character row), column 3
	ram[attrAt(9, 3)] = 0x80 | 7<<3 | 0 // FLASH, paper white, ink black
	ram[bitmapAt(191, 31)] = 0x01
	ram[attrAt(191, 31)] = 0x38 // paper white, ink black
	u := New(&ram)
	u.Write(5, 0)
	check := func(frame uint64, flashing bool) {
		t.Helper()
		u.Sync(frame*TicksPerFrame - 1)
		p := u.Picture()
		at := func(x, y int) uint8 { return p.Pix[(36+y)*Width+48+x] }
		for x, want := range []uint8{10, 10, 10, 10, 9, 9, 9, 9} {
			if got := at(x, 0); got != want {
				t.Errorf("frame %d: (%d,0) = %d, want %d", frame, x, got, want)
			}
		}
		ink, paper := uint8(0), uint8(7)
		if flashing {
			ink, paper = paper, ink
		}
		for x, want := range []uint8{ink, paper, paper, paper, paper, paper, paper, ink} {
			if got := at(24+x, 9); got != want {
				t.Errorf("frame %d: (%d,9) = %d, want %d", frame, 24+x, got, want)
			}
		}
		if got := at(255, 191); got != 0 {
			t.Errorf("frame %d: the last pixel = %d, want ink 0", frame, got)
		}
		if got := p.Pix[0]; got != 5 {
			t.Errorf("frame %d: the border = %d, want 5", frame, got)
		}
	}
	check(1, false)
	check(16, false)
	check(17, true) // the 17th frame is frame 16 counting from 0
	check(32, true)
	check(33, false)
}

// TestPaintSeesWritesInOrder checks that a chunk shows the screen as it
// stood when the ULA read it: a write that lands after the attribute is
// read shows only in the next frame.
func TestPaintSeesWritesInOrder(t *testing.T) {
	var ram [0x4000]byte
	u := New(&ram)
	// Column 0 of row 0 is read at 14338-14339 [RS].
	u.Sync(14340)
	ram[bitmapAt(0, 0)] = 0xFF
	ram[attrAt(0, 0)] = 0x07
	ram[bitmapAt(0, 2)] = 0xFF // column 2 is read at 14346-14347
	ram[attrAt(0, 2)] = 0x07
	u.Sync(TicksPerFrame - 1)
	p := u.Picture()
	if got := p.Pix[36*Width+48]; got != 0 {
		t.Errorf("column 0, written after it was read, shows %d this frame; want the old 0", got)
	}
	if got := p.Pix[36*Width+48+16]; got != 7 {
		t.Errorf("column 2, written before it was read, shows %d; want ink 7", got)
	}
	u.Sync(2*TicksPerFrame - 1)
	if got := p.Pix[36*Width+48]; got != 7 {
		t.Errorf("column 0 shows %d the next frame; want ink 7", got)
	}
}

// TestIS10SetFrameTick checks that standing the chip at a frame tick moves the
// interrupt, the contention and the beam with it (IS-10).
func TestIS10SetFrameTick(t *testing.T) {
	var ram [0x4000]byte
	u := New(&ram)
	u.Sync(1000)
	u.SetFrameTick(1000, 14335)
	if got := u.FrameTick(1000); got != 14335 {
		t.Errorf("FrameTick = %d, want 14335", got)
	}
	if got := u.Delay(1000); got != 6 {
		t.Errorf("Delay at frame tick 14335 = %d, want 6", got)
	}
	if x, y := u.Beam(1000); x != 46 || y != 36 {
		t.Errorf("Beam = (%d,%d), want (46,36)", x, y)
	}
	u.Sync(1000 + TicksPerFrame - 14335)
	if u.Frames != 1 || !u.Interrupt(1000+TicksPerFrame-14335) {
		t.Errorf("the frame did not end where the new frame tick puts it: Frames %d", u.Frames)
	}
}
