// Package cpcscreen reads a CPC's RAM as a picture, as the player's screen
// panel reads it: the engine of the screen tool (spec, "The picture";
// checklist SCR-1 to SCR-5).
//
// Memory is read in one of three layouts. Video reads it as the CPC's
// video hardware does, through the 6845's addresses, so that a screen
// asked for nothing but what the machine's chips hold draws the memory the
// 6845 is displaying. Linear reads a flat buffer, a line's bytes one after
// another and the lines one after another. Columns reads a buffer that
// runs down before across, a column of bytes from top to bottom and then
// the next, as a sprite sheet, a font or a buffer built off the screen is
// often laid out, so that it shows its shape.
//
// Bytes are made pixels as the Gate Array makes them in the mode given,
// and each pixel's index in the picture is its pen, not a colour: the
// palette gives each pen the colour of the ink it is given, so the pen a
// sprite's mask keeps clear stays one number whatever ink it has (SCR-5).
//
// The picture is drawn at the scale the monitor draws (internal/chip/
// monitor): a sample of the Gate Array's 16 MHz pixel clock to each pixel
// across, which makes every byte eight pixels wide in any mode (a mode 0
// pixel is four samples, a mode 1 pixel two, a mode 2 pixel one), and each
// line drawn twice, or once in a Single picture, as the monitor's own
// Single view draws it.
//
// Sources cited at the lines that depend on them:
//   - Kevin Thacker, cpctech, "Screen memory addresses"
//     (https://cpctech.cpcwiki.de/docs/scraddr.html), and Longshot, "The
//     Amstrad CPC CRTC Compendium" v1.11: the board wires the 6845's
//     MA13-MA12 to A15-A14, RA2-RA0 to A13-A11 and MA9-MA0 to A10-A1, the
//     Gate Array choosing A0 (CCLK); MA11-MA10 and RA4-RA3 reach no address
//     line.
//   - Grim, "The Gate Array"
//     (https://www.grimware.org/doku.php/documentations/devices/gatearray):
//     the pixels of a byte in each mode, which internal/chip/gatearray
//     lays out (gatearray.Pens), the measured colour of each hardware
//     colour code, which internal/chip/monitor carries (monitor.Palette),
//     and that the video reads the base 64K whatever the processor sees.
package cpcscreen

import (
	"fmt"
	"image/color"

	"colophon/internal/chip/crtc"
	"colophon/internal/chip/gatearray"
	"colophon/internal/chip/monitor"
	"colophon/internal/picture"
)

// Layout is how a screen's bytes lie in memory.
type Layout uint8

const (
	Video   Layout = iota // as the CPC's video hardware reads it
	Linear                // a flat buffer, a line after a line
	Columns               // down before across, a column after a column
)

// layoutNames are the layouts as the player's panel and the spec name them.
var layoutNames = [...]string{Video: "video", Linear: "linear", Columns: "columns"}

func (l Layout) String() string {
	if int(l) < len(layoutNames) {
		return layoutNames[l]
	}
	return fmt.Sprintf("Layout(%d)", l)
}

// ParseLayout returns the layout a name names: video, linear or columns.
func ParseLayout(name string) (Layout, error) {
	for l, n := range layoutNames {
		if n == name {
			return Layout(l), nil
		}
	}
	return 0, fmt.Errorf("cpcscreen: layout %q: want video, linear or columns", name)
}

// Limits on what a screen may ask for. Width and Lines are the 6845's own
// limits (R1 is eight bits, a character two bytes; R9 is five bits); the
// rest bound a picture to what one answer can hold.
const (
	MaxWidth  = 512     // bytes across: 4096 pixels
	MaxHeight = 4096    // lines down
	MaxBytes  = 0x20000 // bytes read, Width*Height: a 6128's whole RAM
	MaxLines  = 32      // lines in a character row, R9+1
)

// Screen says what to read and how.
type Screen struct {
	Layout Layout
	// Start is where the screen begins. For Video it is the 6845's start
	// address, MA, fourteen bits as R12 and R13 hold it (R12 bits 5-0,
	// then R13); MA13-MA12 choose the 16K, MA9-MA0 the word within its
	// 2K, and MA11-MA10 only carry, so that with both set the screen
	// runs on from one 16K into the next. For Linear and Columns it is
	// the RAM address of the first byte, &00000 to &1FFFF.
	Start uint32
	// Width is the bytes across a line: R1*2 for Video, R1 counting the
	// 6845's characters of two bytes each. For Video it must be even.
	Width int
	// Height is the lines down: R6*(R9+1) for Video.
	Height int
	// Lines is, for Video, the lines of a character row, R9+1: the
	// 6845's RA counts them from 0, and its three low bits choose the
	// 2K the line is read from. Linear and Columns take no Lines.
	Lines int
	// Mode is the Gate Array's mode, 0 to 3.
	Mode byte
	// Inks are the hardware colour codes, 0 to 31, of pens 0 to 15.
	Inks [16]byte
	// Single draws each line once instead of twice.
	Single bool
}

// Displayed is the screen the machine's chips hold: the start, width and
// height from the 6845's registers, the mode in force and the inks of the
// sixteen pens from the Gate Array, in the Video layout. It is what a
// screen asked for nothing reads (spec, "The picture"; SCR-2).
//
// It reads the registers as they stand, so it is the monitor's picture
// where the registers held still through the frame the monitor shows and
// the 6845 reached every row and character they ask for: R6 no more than
// R4+1 and R1 no more than R0+1. A program that changes them within a
// frame (rasters, split screens) shows more than one screen at once, and
// interlace is not modelled.
func Displayed(c *crtc.CRTC, g *gatearray.GateArray) Screen {
	r := &c.Registers
	lines := int(r[9]&0x1F) + 1
	s := Screen{
		Layout: Video,
		// R12 holds MA13-MA8, R13 MA7-MA0 (HD6845S, "Start Address
		// Register").
		Start:  (uint32(r[12])<<8 | uint32(r[13])) & 0x3FFF,
		Width:  int(r[1]) * 2,
		Height: int(r[6]&0x7F) * lines,
		Lines:  lines,
		Mode:   g.Mode & 3,
	}
	copy(s.Inks[:], g.Inks[:16])
	return s
}

// check refuses a screen that cannot be read from a RAM of ramSize bytes,
// naming what is wrong.
func (s Screen) check(ramSize int) error {
	if ramSize != 0x10000 && ramSize != 0x20000 {
		return fmt.Errorf("cpcscreen: ram is %d bytes; a CPC's is 64K or 128K", ramSize)
	}
	if s.Width < 1 || s.Width > MaxWidth {
		return fmt.Errorf("cpcscreen: width %d bytes: want 1 to %d", s.Width, MaxWidth)
	}
	if s.Height < 1 || s.Height > MaxHeight {
		return fmt.Errorf("cpcscreen: height %d lines: want 1 to %d", s.Height, MaxHeight)
	}
	if n := s.Width * s.Height; n > MaxBytes {
		return fmt.Errorf("cpcscreen: width %d by height %d is %d bytes; the most is %d", s.Width, s.Height, n, MaxBytes)
	}
	if s.Mode > 3 {
		return fmt.Errorf("cpcscreen: mode %d: want 0 to 3", s.Mode)
	}
	for pen, ink := range s.Inks {
		if ink > 31 {
			return fmt.Errorf("cpcscreen: inks: pen %d's ink is %d; a hardware colour code is 0 to 31", pen, ink)
		}
	}
	switch s.Layout {
	case Video:
		if s.Start > 0x3FFF {
			return fmt.Errorf("cpcscreen: start &%X: the 6845's start address is 14 bits, &0000 to &3FFF", s.Start)
		}
		if s.Width%2 != 0 {
			return fmt.Errorf("cpcscreen: width %d bytes: the video layout reads characters of two bytes, so the width is even", s.Width)
		}
		if s.Lines < 1 || s.Lines > MaxLines {
			return fmt.Errorf("cpcscreen: lines %d: a character row is 1 to %d lines (R9+1)", s.Lines, MaxLines)
		}
	case Linear, Columns:
		end := uint64(s.Start) + uint64(s.Width)*uint64(s.Height)
		if end > uint64(ramSize) {
			return fmt.Errorf("cpcscreen: start &%05X, width %d by height %d: runs to &%05X, past the RAM's end at &%05X", s.Start, s.Width, s.Height, end, ramSize)
		}
	default:
		return fmt.Errorf("cpcscreen: layout %d: want video, linear or columns", s.Layout)
	}
	return nil
}

// Palette is the colour of each of the sixteen pens with the inks given:
// the measured colour of its hardware colour code (monitor.Palette).
func (s Screen) Palette() color.Palette {
	p := make(color.Palette, len(s.Inks))
	for pen, ink := range s.Inks {
		p[pen] = monitor.Palette[ink&0x1F]
	}
	return p
}

// Size is the picture's width and height in pixels.
func (s Screen) Size() (w, h int) {
	return s.Width * 8, s.Height * s.repeat()
}

func (s Screen) repeat() int {
	if s.Single {
		return 1
	}
	return 2
}

// Addr is the RAM address of byte x of line y of the screen.
func (s Screen) Addr(x, y int) uint32 {
	switch s.Layout {
	case Linear:
		return s.Start + uint32(y*s.Width+x)
	case Columns:
		return s.Start + uint32(x*s.Height+y)
	}
	// The 6845 counts character rows of Lines lines; each row begins R1
	// characters on from the one before, and MA counts on across the
	// line a character at a time, fourteen bits wrapping (HD6845S,
	// "Linear Address Generator").
	row, ra := y/s.Lines, y%s.Lines
	ma := uint16(s.Start+uint32(row*(s.Width/2)+x/2)) & 0x3FFF
	return uint32(gatearray.VideoAddress(ma, ra)) | uint32(x&1)
}

// Read reads the screen from ram, a CPC's RAM by its own addresses: 64K,
// or a 6128's 128K. The video layout reads the base 64K alone, as the
// video hardware does whatever is paged in for the processor (Grim, "The
// Gate Array", MMR); the others may read the second 64K too.
func (s Screen) Read(ram []byte) (*picture.Picture, error) {
	if err := s.check(len(ram)); err != nil {
		return nil, err
	}
	w, h := s.Size()
	p := picture.New(w, h, s.Palette())
	rep := s.repeat()
	for y := range s.Height {
		line := p.Pix[y*rep*w : (y*rep+1)*w]
		for x := range s.Width {
			// Each byte is eight samples of pens in the mode: the
			// Gate Array's pixel order (Grim, "The Gate Array"), each
			// pixel widened to its samples (gatearray.Pens).
			pens := gatearray.Pens(s.Mode, ram[s.Addr(x, y)])
			copy(line[x*8:x*8+8], pens[:])
		}
		for r := 1; r < rep; r++ {
			copy(p.Pix[(y*rep+r)*w:], line)
		}
	}
	// The picture is read from memory, not painted by a beam: whole, the
	// beam standing past its end.
	p.BeamX, p.BeamY = 0, h
	return p, nil
}
