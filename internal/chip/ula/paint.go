package ula

import (
	"encoding/binary"
	"image/color"
)

// The picture, as the emulator's command line cuts its screenshots and as
// ../shared/testdata/golden/spectrum48-*.png are cut (spec, "The
// picture"; MON-3): the whole 48 pixels of border the chip draws either
// side of the screen, and 36 lines above and below it.
const (
	Width  = borderTicks*2*2 + screenTicks*2 // 352
	Height = 36 + screenLines + 36           // 264

	// topLine is the frame's line shown as the picture's first row: 36
	// lines above the first screen line, 64 lines after the interrupt
	// [LS].
	topLine = firstScreen - 36
	// rowStart is the tick of the frame at which the picture's first
	// row begins: its left border, 24 ticks before the line's display.
	rowStart     = topLine*TicksPerLine + lineOfScreen - borderTicks
	chunksPerRow = Width / 8
	screenChunk0 = borderTicks / chunkTicks // the first chunk of the screen in a row
	screenRow0   = 36                       // the first row of the screen
)

// Palette returns the colours of the chip's 4-bit samples, as
// ../shared/testdata/golden/README.md gives them: bit 3 BRIGHT, then G, R
// and B in bits 2, 1 and 0; a gun off is 0, and on is &D7, or &FF with
// BRIGHT. Codes 0 and 8 are both black.
func Palette() color.Palette {
	p := make(color.Palette, 16)
	for i := range p {
		on := uint8(0xD7)
		if i&8 != 0 {
			on = 0xFF
		}
		gun := func(bit int) uint8 {
			if i&bit != 0 {
				return on
			}
			return 0
		}
		p[i] = color.RGBA{R: gun(2), G: gun(4), B: gun(1), A: 0xFF}
	}
	return p
}

// decided returns the tick of the frame at which the chip decides what
// the 8 pixels of a row's chunk show.
//
// The border is latched for a chunk at its last tick: a write to the
// border shows from the chunk whose 4 ticks hold the tick it lands on. An
// OUT's write lands 3 ticks before the OUT ends ([FUSE] writeport, when
// nothing holds its late part), so an OUT ending 14339 to 14342 lands at
// 14336 to 14339 and changes the border from the first screen byte's
// place on, as [FAQ] says.
//
// A screen chunk shows the bytes the chip read for it, and its attribute
// is read after its bitmap. The chip reads the bytes of two chunks in each
// 8 ticks [RS]: the first chunk's attribute 3 ticks after the chunk's own
// start (14339 on the first line) and the second's 1 tick after its start
// (14341).
func decided(row, chunk int) uint64 {
	t := uint64(rowStart + row*TicksPerLine + chunk*chunkTicks + 3)
	if row >= screenRow0 && row < screenRow0+screenLines &&
		chunk >= screenChunk0 && chunk < screenChunk0+screenTicks/chunkTicks && (chunk-screenChunk0)&1 == 1 {
		t -= 2
	}
	return t
}

// Sync brings the chip up to tick t: it finishes any frame that has ended
// by then, counting it, and paints every chunk decided before t, with the
// screen and the border as they stand. A change that lands at t is then
// made, and shows from the chunks decided at t on.
//
// Ticks are compared relative to the frame's start, so that a frame
// standing partly before tick 0, as SetFrameTick can stand one, reckons
// the same as any other.
func (u *ULA) Sync(t uint64) {
	if t-u.FrameStart > u.next {
		u.catchUp(t)
	}
}

func (u *ULA) catchUp(t uint64) {
	for {
		ft := t - u.FrameStart
		lim := min(ft, TicksPerFrame)
		for u.row < Height && u.next < lim {
			u.paintRow(lim)
		}
		if ft < TicksPerFrame {
			break
		}
		// The frame is over: the beam goes back to the top, and the
		// next frame's interrupt is raised [LS].
		u.FrameStart += TicksPerFrame
		u.Frames++
		u.row, u.chunk = 0, 0
		u.next = decided(0, 0)
	}
	if u.row == Height {
		// Nothing more to paint this frame; wake at its end.
		u.next = TicksPerFrame - 1
	}
}

// expand turns a bitmap byte into eight pixel masks, its leftmost pixel,
// bit 7 [SVM], first in memory.
var expand = func() (e [256]uint64) {
	for b := range e {
		for i := 0; i < 8; i++ {
			if b&(0x80>>i) != 0 {
				e[b] |= 0xFF << (8 * i)
			}
		}
	}
	return
}()

const ones = 0x0101010101010101

// colours holds, for each attribute byte, its ink and paper as eight
// samples each: without FLASH's swap, and with it. An attribute is FLASH,
// BRIGHT, paper G R B, ink G R B [SVM]; a sample is BRIGHT G R B, and
// FLASH swaps ink and paper for 16 frames in every 32 [FAQ].
var colours = func() (c [2][256][2]uint64) {
	for a := range 256 {
		bright := a >> 3 & 8
		ink, paper := uint64(a&7|bright)*ones, uint64(a>>3&7|bright)*ones
		c[0][a] = [2]uint64{ink, paper}
		if a&0x80 != 0 {
			ink, paper = paper, ink
		}
		c[1][a] = [2]uint64{ink, paper}
	}
	return
}()

// paintRow paints the chunks of the current row decided before lim, a
// tick of the frame.
func (u *ULA) paintRow(lim uint64) {
	row := u.row
	pix := u.pic.Pix[row*Width : (row+1)*Width]
	y := row - screenRow0
	screen := y >= 0 && y < screenLines
	border := uint64(u.Border) * ones
	flash := u.Frames >> 4 & 1
	k := u.chunk
	end := chunksPerRow
	if decided(row, chunksPerRow-1) >= lim {
		// Only part of the row is decided: find how much.
		for end = k; end < chunksPerRow && decided(row, end) < lim; end++ {
		}
	}
	for ; k < end; k++ {
		c := k - screenChunk0
		if !screen || c < 0 || c >= 32 {
			binary.LittleEndian.PutUint64(pix[8*k:], border)
			continue
		}
		bits := expand[u.screen[bitmapAt(y, c)]]
		ip := &colours[flash][u.screen[attrAt(y, c)]]
		binary.LittleEndian.PutUint64(pix[8*k:], bits&ip[0]|^bits&ip[1])
	}
	u.chunk = k
	if k < chunksPerRow {
		u.next = decided(row, k)
		return
	}
	u.chunk = 0
	u.row++
	if u.row < Height {
		u.next = decided(u.row, 0)
	}
}

// skip passes over the next chunk unpainted, leaving what it showed; it is
// for standing the chip somewhere new, not for running it.
func (u *ULA) skip() {
	if u.chunk++; u.chunk == chunksPerRow {
		u.chunk = 0
		u.row++
	}
	if u.row < Height {
		u.next = decided(u.row, u.chunk)
	}
}

// Beam returns where the monitor's beam stands at tick t, in the
// picture's pixels: two to a tick along a row, which begins 24 ticks
// before its line's display. Past the row's 352 pixels the beam is in the
// blanking and the line's retrace; above row 0 (from -28, the frame's
// first line) and below row 263, in the frame's own. The chip must have
// been synced to within a frame of t.
func (u *ULA) Beam(t uint64) (x, y int) {
	d := int(u.FrameTick(t)) - rowStart
	y = d / TicksPerLine
	if d < 0 && d%TicksPerLine != 0 {
		y--
	}
	return 2 * (d - y*TicksPerLine), y
}
