// Package ula is the Ferranti ULA of the ZX Spectrum 16K and 48K: the one
// chip that counts out the frame, raises the interrupt, reads the screen
// and paints the picture, holds the border colour, drives EAR and MIC,
// reads the keyboard's half-rows, and takes the bus from the processor by
// stopping its clock.
//
// The chip knows no processor. It answers questions put in ticks, the
// processor's T-states since power-on: how long an access beginning at a
// tick is held off (contention), what a port read at a tick returns, and
// what the idle bus carries then (the floating bus). The board asks them
// and stretches the processor's cycles by the answers.
//
// The picture is painted lazily: the chip paints up to a tick only when
// something that the beam would show is about to change, the screen's
// memory or the border, or when it is asked to. Every 8-pixel stretch is
// painted with what stood at the tick the chip decides it, so the picture
// is the one the beam would have drawn tick by tick.
//
// Sources, cited at the lines that depend on them (the tags are those of
// ../shared/testdata/spectrum/spectrum48-contention.md, which quotes them):
//   - [LS] libspectrum timings.c: the 48K frame and line, the 32-tick
//     interrupt, the top-left pixel at 14336.
//   - [SW-CM] Sinclair Wiki, "Contended memory": the 6,5,4,3,2,1,0,0
//     pattern from 14335, early timing.
//   - [SW-IO] Sinclair Wiki / Scratchpad, "Contended I/O": the four port
//     patterns.
//   - [FUSE] the Fuse emulator: peripherals/ula.c and periph.c for where
//     in a port cycle the early and late contention fall and when a read
//     is sampled and a write lands; spectrum.c for the floating bus.
//   - [FAQ] comp.sys.sinclair FAQ, "16K/48K reference": the border
//     changes only at 8-pixel boundaries; FLASH every 16 frames; the
//     bits of port &FE.
//   - [RS] Ramsoft, "Floating bus technical guide", as tabulated on the
//     redcode/ZXSpectrum wiki: the ULA reads bitmap, attribute, bitmap,
//     attribute at 14338-14341 and leaves the bus idle for four ticks.
//   - [SVM] Sinclair Wiki, "Spectrum Video Modes": the display file's
//     address scramble and the attribute's bits.
//   - [KB] Sinclair Wiki, "Keyboard": eight half-rows of five keys, each
//     selected by one of A8-A15 held low.
//   - [COL] tulinmola/colophon-emulator's tests, which transcribe the
//     above: where in its instruction the processor samples /INT.
//   - UM0080, Zilog's Z80 CPU User Manual: /INT is sampled on the last
//     clock of an instruction.
//
// The timing is the "early" machine's, on which [SW-CM] gives every count;
// a "late" machine is one tick later throughout, and is not modelled.
package ula

import "colophon/internal/picture"

// The frame, in ticks of the 3.5MHz processor clock.
const (
	// TicksPerLine is 24 left border + 128 screen + 24 right border + 48
	// retrace [LS].
	TicksPerLine = 224
	// LinesPerFrame is 312 [LS].
	LinesPerFrame = 312
	// TicksPerFrame is 69888 [LS], a standard Spectrum frame (spec,
	// "Time").
	TicksPerFrame = TicksPerLine * LinesPerFrame
	// InterruptTicks is how long /INT is held from the frame's start
	// [LS] interrupt_length.
	InterruptTicks = 32
	// TopLeftPixel is the tick of the frame at which the first screen
	// byte is shown [LS] top_left_pixel: 64 lines after the interrupt.
	TopLeftPixel = 14336
	// FirstContended is the first tick at which an access is held off,
	// on an "early timing" machine [SW-CM]; a late one is a tick later.
	FirstContended = TopLeftPixel - 1
)

// The screen, in ticks from the start of a line's display.
const (
	screenTicks  = 128 // 256 pixels, two to a tick [LS]
	screenLines  = 192 // [LS]
	borderTicks  = 24  // 48 pixels each side [LS]
	chunkTicks   = 4   // 8 pixels, the unit the chip reads and the border changes by [FAQ]
	firstScreen  = TopLeftPixel / TicksPerLine
	lineOfScreen = TopLeftPixel % TicksPerLine // 0: the display starts a line
)

// ULA is the chip's state.
type ULA struct {
	// Border is the border colour, bits 0-2 of the last write to the
	// chip's port [FAQ]: 0 to 7, no brightness.
	Border uint8 `inspect:"border,max=7"`
	// MIC and EAR are bits 3 and 4 of the last write [FAQ]: the cassette
	// output and the loudspeaker, which also reaches the EAR socket.
	MIC bool `inspect:"mic"`
	EAR bool `inspect:"ear"`
	// EarIn is the level a tape drives into the EAR socket. It is false
	// with no tape playing.
	EarIn bool `inspect:"ear_in"`
	// Keys holds the keyboard: bit b of Keys[r] is set while the key at
	// bit b of half-row r is down, half-row r being the one A(8+r) low
	// selects [KB]. A half-row has five keys, bits 0-4.
	Keys [8]uint8 `inspect:"keys,max=&1F"`

	// FrameStart is the tick at which the current frame began, when the
	// chip raised /INT. Every published timing is counted from there
	// [SW-CM].
	FrameStart uint64 `inspect:"-"`
	// Frames counts the frames the chip has finished since power-on or
	// the snapshot; FLASH turns on its bit 4 [FAQ].
	Frames uint64 `inspect:"frames"`

	screen *[0x4000]byte    // the 16K at &4000 the chip's own bus reaches
	pic    *picture.Picture // the monitor the chip paints

	// The painting: the next 8-pixel stretch to paint, as a row of the
	// picture and a chunk of 8 pixels along it, and the tick of the frame
	// at which that stretch is decided (or the frame's last tick, when
	// the whole picture is painted).
	row, chunk int
	next       uint64
}

// New returns the chip at power-on, reading its screen from screen, the
// 16K of RAM at &4000, and painting a picture of its own.
func New(screen *[0x4000]byte) *ULA {
	u := &ULA{}
	u.Init(screen)
	return u
}

// Init makes u the chip at power-on, as New does, for a board that holds
// its ULA by value.
func (u *ULA) Init(screen *[0x4000]byte) {
	*u = ULA{screen: screen, pic: picture.New(Width, Height, Palette())}
	u.Reset()
}

// Reset puts the chip at the start of a frame, as at power-on: tick 0 is
// the first tick of the interrupt.
func (u *ULA) Reset() {
	u.Border, u.MIC, u.EAR, u.EarIn = 0, false, false, false
	u.Keys = [8]uint8{}
	u.Restart(0)
}

// Restart stands the chip at the start of a frame beginning at tick t,
// with no frames counted, as a machine loaded from a snapshot stands.
func (u *ULA) Restart(t uint64) {
	u.FrameStart = t
	u.Frames = 0
	u.row, u.chunk = 0, 0
	u.next = decided(0, 0)
}

// Picture returns the picture the chip paints. It is painted only up to
// the last Sync; the caller syncs first.
func (u *ULA) Picture() *picture.Picture { return u.pic }

// FrameTick returns the tick of the frame that tick t falls on. The chip
// must have been synced to within a frame of t.
func (u *ULA) FrameTick(t uint64) uint64 {
	ft := t - u.FrameStart
	if ft >= TicksPerFrame {
		ft -= TicksPerFrame
	}
	return ft
}

// SetFrameTick stands the chip so that tick t falls on frame tick ft, as
// set does with frame_tick (spec, "What a machine holds"; IS-10). The
// picture carries on from the same place across the frame.
func (u *ULA) SetFrameTick(t, ft uint64) {
	ft %= TicksPerFrame
	u.FrameStart = t - ft
	u.row, u.chunk = 0, 0
	u.next = decided(0, 0)
	for u.row < Height && u.next < ft {
		u.skip()
	}
	if u.row == Height {
		u.next = TicksPerFrame - 1
	}
}

// Interrupt says whether /INT is held during tick t: for the first 32
// ticks of each frame, 0 to 31 [LS] interrupt_length. The processor
// samples the line on the last tick of each instruction (UM0080,
// "Interrupt Response"), so the board asks about that tick: an
// instruction whose last tick is one of the frame's ticks 0 to 31 catches
// the interrupt, and one that ends a tick later misses it for the whole
// frame ([COL] spectrum_interrupt_test.c, walk_the_edge). Fuse accepts
// only while the tick after the instruction is below 32, a tick earlier
// at the edge; the golden pictures' emulator is [COL]'s.
func (u *ULA) Interrupt(t uint64) bool {
	return t-u.FrameStart < InterruptTicks
}

// contention is the delay owed by an access whose T1 falls on each tick of
// the chip's 8-tick cycle, from the first contended tick on [SW-CM]:
// 6 at 14335, 5 at 14336, ... 0 at 14341 and 14342, then again.
var contention = [8]uint64{6, 5, 4, 3, 2, 1, 0, 0}

// Delay returns the ticks an access to contended memory beginning at tick
// t is held off. Contention runs for the 128 ticks of each of the 192
// screen lines, starting at 14335 [SW-CM]; nothing is contended in the
// borders or the retrace. A tick past the end of the frame is in the next
// frame's top border, where nothing is.
func (u *ULA) Delay(t uint64) uint64 {
	ft := t - u.FrameStart - FirstContended // wraps high before 14335
	if ft >= screenLines*TicksPerLine {
		return 0
	}
	lt := ft % TicksPerLine
	if lt >= screenTicks {
		return 0
	}
	return contention[lt&7]
}

// Contended says whether an address is one the chip holds the processor
// off: &4000 to &7FFF, the RAM it shares [SW-CM]. On the 16K and 48K ULA
// the address alone decides, with or without MREQ, so an internal cycle
// that leaves such an address on the bus is held too, and so is a port
// whose high byte looks like it [SW-CM]; [SW-IO].
func Contended(addr uint16) bool { return addr&0xC000 == 0x4000 }

// Port works out an I/O cycle whose T1 falls on tick t: the tick by which
// its early part is over, when a write lands; the tick by which its late
// part is over, when a read is sampled; and the tick the cycle ends, four
// ticks after t when nothing holds it [FUSE] ula_contend_port_early and
// _late, readport and writeport.
//
// Two rules hold the processor, independently [SW-IO]: a port with A0 low
// is the ULA's own, which holds it from the second tick; a port whose high
// byte is &40-&7F looks like contended memory, which holds it at every
// tick. Together they make the four patterns:
//
//	high byte &40-&7F  A0   pattern
//	no                 0    N:1, C:3
//	no                 1    N:4
//	yes                0    C:1, C:3
//	yes                1    C:1, C:1, C:1, C:1
func (u *ULA) Port(port uint16, t uint64) (write, read, end uint64) {
	looksContended := Contended(port)
	if looksContended {
		t += u.Delay(t)
	}
	t++
	write = t
	switch {
	case port&1 == 0:
		t += u.Delay(t)
		t += 2
	case looksContended:
		t += u.Delay(t)
		t++
		t += u.Delay(t)
		t++
		t += u.Delay(t)
	default:
		t += 2
	}
	return write, t, t + 1
}

// Write takes a byte written to the chip's port, landing at tick t
// (Port's write tick): bits 0-2 the border, bit 3 MIC, bit 4 EAR [FAQ].
// The border is painted up to t in the old colour first.
func (u *ULA) Write(v uint8, t uint64) {
	if b := v & 7; b != u.Border {
		u.Sync(t)
		u.Border = b
	}
	u.MIC = v&0x08 != 0
	u.EAR = v&0x10 != 0
}

// Read answers a read of the chip's port (any port with A0 low) at the
// port's address [KB]: bits 0-4 are the keys of every half-row whose
// address line A8-A15 is low, a key down reading 0; bit 6 is the EAR
// socket; bits 5 and 7 read 1.
//
// With no tape playing, an issue 3 board's EAR socket reads back bit 4 of
// the last write, and a tape's level turns it over ([FUSE] ula.c
// ula_write and ula_read, after the comp.sys.sinclair FAQ's "Port #FE").
func (u *ULA) Read(port uint16) uint8 {
	var down uint8
	for r, high := 0, uint8(port>>8); r < 8; r++ {
		if high&(1<<r) == 0 {
			down |= u.Keys[r]
		}
	}
	v := 0xA0 | (^down & 0x1F)
	if u.EAR != u.EarIn {
		v |= 0x40
	}
	return v
}

// Floating returns what a read of a port nobody answers finds on the data
// bus at tick t: the byte the chip is reading from the screen then, or
// &FF when it reads nothing [RS]; [FUSE] spectrum_unattached_port.
//
// In each 8 ticks of a screen line's 128 the chip reads a bitmap byte, its
// attribute, the next bitmap byte and its attribute, one a tick from the
// second tick on, and leaves the bus idle for the other four: 14338 reads
// &4000, 14339 &5800, 14340 &4001, 14341 &5801, and 14342-14345 nothing
// [RS].
func (u *ULA) Floating(t uint64) uint8 {
	ft := u.FrameTick(t) - (TopLeftPixel - borderTicks) // from the left border of the first screen line
	if ft >= screenLines*TicksPerLine {
		return 0xFF
	}
	y, through := int(ft/TicksPerLine), int(ft%TicksPerLine)-borderTicks
	if through < 0 || through >= screenTicks {
		return 0xFF
	}
	c := through / 8 * 2
	switch through % 8 {
	case 2:
		return u.screen[bitmapAt(y, c)]
	case 3:
		return u.screen[attrAt(y, c)]
	case 4:
		return u.screen[bitmapAt(y, c+1)]
	case 5:
		return u.screen[attrAt(y, c+1)]
	}
	return 0xFF
}

// bitmapAt is the offset from &4000 of the bitmap byte for pixel row y and
// character column c: 010 y7 y6 y2 y1 y0 y5 y4 y3 c4..c0 [SVM].
func bitmapAt(y, c int) int {
	return (y&0xC0)<<5 | (y&0x07)<<8 | (y&0x38)<<2 | c
}

// attrAt is the offset from &4000 of the attribute for pixel row y and
// column c: &1800 on, 32 to a character row [SVM].
func attrAt(y, c int) int {
	return 0x1800 | (y>>3)<<5 | c
}
