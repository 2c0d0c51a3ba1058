package cpcscreen

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"colophon/internal/chip/crtc"
	"colophon/internal/chip/gatearray"
	"colophon/internal/chip/monitor"
)

// TestVideoAddressSOFT968 holds the video layout to the screen layout
// SOFT 968 gives the firmware's standard screen at &C000 (R12=&30, R13=0;
// 40 characters of 2 bytes, rows of 8 lines): line l of character row r,
// byte b across, is at &C000 + l*&800 + r*80 + b.
func TestVideoAddressSOFT968(t *testing.T) {
	s := Screen{Layout: Video, Start: 0x3000, Width: 80, Height: 200, Lines: 8}
	for r := range 25 {
		for l := range 8 {
			for b := range 80 {
				want := uint32(0xC000 + l*0x800 + r*80 + b)
				if got := s.Addr(b, r*8+l); got != want {
					t.Fatalf("row %d line %d byte %d: &%04X, want &%04X", r, l, b, got, want)
				}
			}
		}
	}
}

// encode makes a byte of pixels' pens in a mode as Grim's "The Gate Array"
// lays them out, written here from the document and not from the package:
// mode 0, two pixels, the first's pen bits 0-3 in byte bits 7, 3, 5, 1 and
// the second's in 6, 2, 4, 0; mode 1, four pixels, pixel p's pen bit 0 in
// bit 7-p and bit 1 in bit 3-p; mode 2, eight pixels, pixel p in bit 7-p.
// Mode 3 is mode 0 with two pens bits only, bits 7 and 3, then 6 and 2.
func encode(mode byte, pens []byte) byte {
	var b byte
	set := func(bit uint, on byte) {
		if on != 0 {
			b |= 1 << bit
		}
	}
	switch mode {
	case 0, 3:
		for p, order := range [2][4]uint{{7, 3, 5, 1}, {6, 2, 4, 0}} {
			for k, bit := range order {
				set(bit, pens[p]>>k&1)
			}
		}
	case 1:
		for p := range 4 {
			set(uint(7-p), pens[p]&1)
			set(uint(3-p), pens[p]>>1&1)
		}
	case 2:
		for p := range 8 {
			set(uint(7-p), pens[p]&1)
		}
	}
	return b
}

// pixels is each mode's pixels to a byte, and pens the pens a pixel has.
var (
	pixels = [4]int{2, 4, 8, 2}
	pens   = [4]int{16, 4, 2, 4}
)

// TestModesFromTheDocument decodes bytes whose pixels the document says,
// in each mode, and finds each pixel the samples the monitor draws it:
// four in mode 0 and 3, two in mode 1, one in mode 2.
func TestModesFromTheDocument(t *testing.T) {
	tests := []struct {
		mode byte
		b    byte
		want []byte // the pixels' pens, left to right
	}{
		{0, 0x80, []byte{1, 0}},
		{0, 0x08, []byte{2, 0}},
		{0, 0x20, []byte{4, 0}},
		{0, 0x02, []byte{8, 0}},
		{0, 0x40, []byte{0, 1}},
		{0, 0x04, []byte{0, 2}},
		{0, 0x10, []byte{0, 4}},
		{0, 0x01, []byte{0, 8}},
		{0, 0xFF, []byte{15, 15}},
		{0, 0xAA, []byte{15, 0}},
		{1, 0x80, []byte{1, 0, 0, 0}},
		{1, 0x08, []byte{2, 0, 0, 0}},
		{1, 0x88, []byte{3, 0, 0, 0}},
		{1, 0x11, []byte{0, 0, 0, 3}},
		{1, 0xF0, []byte{1, 1, 1, 1}},
		{1, 0x0F, []byte{2, 2, 2, 2}},
		{1, 0x4A, []byte{2, 1, 2, 0}},
		{2, 0x80, []byte{1, 0, 0, 0, 0, 0, 0, 0}},
		{2, 0x01, []byte{0, 0, 0, 0, 0, 0, 0, 1}},
		{2, 0xA5, []byte{1, 0, 1, 0, 0, 1, 0, 1}},
		{3, 0x88, []byte{3, 0}},
		{3, 0x22, []byte{0, 0}}, // mode 0's pen bits 2 and 3 count for nothing
		{3, 0x44, []byte{0, 3}},
		{3, 0xFF, []byte{3, 3}},
	}
	for _, tt := range tests {
		// The table and the test's own encoding must say the same; in
		// mode 3 only the bits that carry a pen need to.
		meaningful := byte(0xFF)
		if tt.mode == 3 {
			meaningful = 0xCC
		}
		if e := encode(tt.mode, tt.want); e != tt.b&meaningful {
			t.Fatalf("the test's own encoding of mode %d %v is &%02X, not &%02X", tt.mode, tt.want, e, tt.b)
		}
		ram := make([]byte, 0x10000)
		ram[0] = tt.b
		p, err := Screen{Layout: Linear, Width: 1, Height: 1, Mode: tt.mode}.Read(ram)
		if err != nil {
			t.Fatal(err)
		}
		var want []byte
		for _, pen := range tt.want {
			want = append(want, bytes.Repeat([]byte{pen}, 8/len(tt.want))...)
		}
		if p.Width != 8 || p.Height != 2 || !bytes.Equal(p.Row(0), want) || !bytes.Equal(p.Row(1), want) {
			t.Errorf("mode %d byte &%02X: %dx%d %v, want 8x2 %v", tt.mode, tt.b, p.Width, p.Height, p.Pix, want)
		}
	}
}

// sprite is a picture of pens made to be laid out in memory and read
// back: w pixels by h lines, each pen drawn from the pixel's place so that
// no two neighbours look alike.
type sprite struct {
	mode byte
	w, h int // w in bytes
	pen  [][]byte
}

func newSprite(mode byte, w, h int) sprite {
	s := sprite{mode: mode, w: w, h: h}
	n := w * pixels[mode]
	for y := range h {
		row := make([]byte, n)
		for x := range row {
			row[x] = byte((x*5 + y*3 + x*y) % pens[mode])
		}
		s.pen = append(s.pen, row)
	}
	return s
}

// byteAt is the sprite's byte x of line y, encoded from its pens.
func (s sprite) byteAt(x, y int) byte {
	k := pixels[s.mode]
	return encode(s.mode, s.pen[y][x*k:x*k+k])
}

// check holds a picture read to the sprite at the monitor's scale: each
// pixel its samples across, each line twice.
func (s sprite) check(t *testing.T, got []byte, w, h int) {
	t.Helper()
	k := pixels[s.mode]
	if w != s.w*8 || h != s.h*2 {
		t.Fatalf("picture %dx%d, want %dx%d", w, h, s.w*8, s.h*2)
	}
	for y := range h {
		for x := range w {
			if want := s.pen[y/2][x/(8/k)]; got[y*w+x] != want {
				t.Fatalf("pixel (%d,%d) is pen %d, want %d", x, y, got[y*w+x], want)
			}
		}
	}
}

// TestLayouts lays the same sprite out in memory as each layout reads it,
// by the layout's own rule written here, and reads it back in each mode:
// linear and columns in the second 64K of a 6128's RAM, video on the
// standard screen at &C000.
func TestLayouts(t *testing.T) {
	for mode := range byte(4) {
		for _, layout := range []Layout{Linear, Columns, Video} {
			t.Run(fmt.Sprintf("mode %d %v", mode, layout), func(t *testing.T) {
				sp := newSprite(mode, 6, 20)
				ram := make([]byte, 0x20000)
				for i := range ram {
					ram[i] = 0x5A // whatever is not the sprite
				}
				s := Screen{Layout: layout, Width: sp.w, Height: sp.h, Mode: mode}
				for y := range sp.h {
					for x := range sp.w {
						var at int
						switch layout {
						case Linear:
							s.Start = 0x1F000
							at = 0x1F000 + y*sp.w + x
						case Columns:
							s.Start = 0x1F000
							at = 0x1F000 + x*sp.h + y
						case Video:
							// SOFT 968's screen: &C000 + line*&800 +
							// row*width + byte, rows of 8 lines.
							s.Start, s.Lines = 0x3000, 8
							at = 0xC000 + y%8*0x800 + y/8*sp.w + x
						}
						ram[at] = sp.byteAt(x, y)
					}
				}
				p, err := s.Read(ram)
				if err != nil {
					t.Fatal(err)
				}
				sp.check(t, p.Pix, p.Width, p.Height)
			})
		}
	}
}

// TestVideoRows reads rows of 5 and of 16 lines (R9 = 4 and 15): the 6845
// counts RA from 0 to R9, of which RA2-RA0 alone reach the address lines,
// so a row of 16 reads its lines 8-15 from the 2Ks of lines 0-7, and each
// row begins R1 characters on from the one before (cpctech, "Screen memory
// addresses"; the Compendium).
func TestVideoRows(t *testing.T) {
	for _, lines := range []int{5, 16, 1, 8, 32} {
		t.Run(fmt.Sprintf("%d lines", lines), func(t *testing.T) {
			ram := make([]byte, 0x10000)
			// Every byte of the top 16K says which 2K and which byte of it
			// it is, in mode 2's eight pixels: ram[a] = 2K number<<5 |
			// offset mod 32.
			for a := 0xC000; a < 0x10000; a++ {
				ram[a] = byte((a-0xC000)>>11<<5 | a&31)
			}
			const width = 16 // bytes; R1 = 8
			s := Screen{Layout: Video, Start: 0x3000, Width: width, Height: 3 * lines, Lines: lines, Mode: 2, Single: true}
			p, err := s.Read(ram)
			if err != nil {
				t.Fatal(err)
			}
			for y := range s.Height {
				row, ra := y/lines, y%lines
				for x := range width {
					// The byte read is in 2K number ra mod 8, at
					// row*width + x within it.
					want := byte(ra%8<<5 | (row*width+x)&31)
					got := readByte(p.Row(y)[x*8 : x*8+8])
					if got != want {
						t.Fatalf("line %d byte %d: read &%02X, want &%02X (2K %d, byte %d)", y, x, got, want, ra%8, row*width+x)
					}
				}
			}
			if lines == 16 {
				for y := 8; y < 16; y++ {
					if !bytes.Equal(p.Row(y), p.Row(y-8)) {
						t.Errorf("line %d of a row of 16 is not line %d's", y, y-8)
					}
				}
			}
		})
	}
}

// readByte reads back a mode 2 byte from its eight pixels.
func readByte(px []byte) byte {
	var b byte
	for i, pen := range px {
		b |= pen << (7 - i)
	}
	return b
}

// TestVideoStartAndCarry starts screens partway into a 2K and lets MA carry
// across its end: into MA10, which reaches no address line, so the screen
// wraps within its 2K; from MA11-MA10 both set into MA12, so that a 32K
// screen runs on from one 16K into the next; and from &3FFF round to
// &0000, the counter being fourteen bits.
func TestVideoStartAndCarry(t *testing.T) {
	tests := []struct {
		name  string
		start uint32
		// The address of byte 0 of line 0, of byte 32 of line 0 (MA
		// sixteen characters on), and of byte 0 of line 0 of row 1.
		first, after16, row1 uint32
	}{
		// Partway into the 2K: MA9-MA0 = &3F0, byte &7E0 of it.
		{"partway, wrapping in its 2K", 0x33F0, 0xC7E0, 0xC000, 0xC000 + 0x7E0 + 80 - 0x800},
		{"partway, not to the end", 0x3123, 0xC246, 0xC266, 0xC246 + 80},
		// MA11-MA10 set: &2FF0+16 = &3000, the next 16K.
		{"32K across two 16K", 0x2FF0, 0x87E0, 0xC000, 0xC000 + 0x7E0 + 80 - 0x800},
		{"32K from &4000 into &8000", 0x1FF0, 0x47E0, 0x8000, 0x8000 + 0x7E0 + 80 - 0x800},
		// MA11 alone set carries into MA12 no sooner than its 2K's end
		// reaches it twice over; the 2K still wraps at MA10.
		{"MA11 alone", 0x2BF0, 0x87E0, 0x8000, 0x8000 + 0x7E0 + 80 - 0x800},
		// Round from &3FFF to &0000.
		{"fourteen bits round", 0x3FF0, 0xC7E0, 0x0000, 0x0000 + 0x7E0 + 80 - 0x800},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Screen{Layout: Video, Start: tt.start, Width: 80, Height: 200, Lines: 8}
			for _, c := range []struct {
				x, y int
				want uint32
			}{{0, 0, tt.first}, {32, 0, tt.after16}, {0, 8, tt.row1}, {33, 0, tt.after16 + 1}} {
				if got := s.Addr(c.x, c.y); got != c.want {
					t.Errorf("byte %d of line %d: &%04X, want &%04X", c.x, c.y, got, c.want)
				}
			}
		})
	}
	// A whole 32K screen, as a program using one lays it out: 1024
	// characters of each 2K in the first 16K, then on into the second.
	// Start &0C00 (MA11-MA10 set, the 16K at &0000), 64 characters by
	// 32 rows: the first 16 rows in &0000-&3FFF, the rest in &4000-&7FFF.
	s := Screen{Layout: Video, Start: 0x0C00, Width: 128, Height: 256, Lines: 8, Mode: 2}
	seen := map[uint32]bool{}
	for y := range s.Height {
		for x := range s.Width {
			a := s.Addr(x, y)
			if want := uint32(y/8/16) * 0x4000; a&0xC000 != want {
				t.Fatalf("byte %d of line %d: &%04X, want in the 16K at &%04X", x, y, a, want)
			}
			seen[a] = true
		}
	}
	if len(seen) != 0x8000 {
		t.Errorf("the 32K screen reads %d distinct bytes, want 32768", len(seen))
	}
}

// TestVideoReadsTheBase64K: the video layout reads the base 64K alone,
// whatever the second holds; linear and columns reach the second 64K, up
// to its last byte (checklist SCR-4).
func TestVideoReadsTheBase64K(t *testing.T) {
	ram := make([]byte, 0x20000)
	for i := range ram {
		ram[i] = byte(i*13 + i>>8)
	}
	s := Screen{Layout: Video, Start: 0x3000, Width: 80, Height: 200, Lines: 8, Mode: 1}
	big, err := s.Read(ram)
	if err != nil {
		t.Fatal(err)
	}
	small, err := s.Read(ram[:0x10000])
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(big.Pix, small.Pix) {
		t.Error("the video layout reads differently with the second 64K beside it")
	}
	for _, layout := range []Layout{Linear, Columns} {
		s := Screen{Layout: layout, Start: 0x1FFF0, Width: 4, Height: 4, Mode: 2, Single: true}
		p, err := s.Read(ram)
		if err != nil {
			t.Fatal(err)
		}
		last := readByte(p.Row(3)[3*8 : 4*8])
		if last != ram[0x1FFFF] {
			t.Errorf("%v: the last byte read is &%02X, want RAM &1FFFF's &%02X", layout, last, ram[0x1FFFF])
		}
	}
}

// TestPensNotColours: each pixel's index is its pen, and the inks given
// only change the palette (checklist SCR-5); the palette is the measured
// colour of each pen's hardware colour code.
func TestPensNotColours(t *testing.T) {
	ram := make([]byte, 0x10000)
	for i := range 64 {
		ram[0x4000+i] = byte(i * 37)
	}
	s := Screen{Layout: Linear, Start: 0x4000, Width: 8, Height: 8, Mode: 0}
	a, err := s.Read(ram)
	if err != nil {
		t.Fatal(err)
	}
	for pen := range s.Inks {
		s.Inks[pen] = byte(31 - pen)
	}
	b, err := s.Read(ram)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Pix, b.Pix) {
		t.Error("other inks changed the pens")
	}
	if len(b.Palette) != 16 {
		t.Fatalf("%d colours in the palette, want 16", len(b.Palette))
	}
	for pen, c := range b.Palette {
		if c != monitor.Palette[31-pen] {
			t.Errorf("pen %d is %v, want hardware colour %d's %v", pen, c, 31-pen, monitor.Palette[31-pen])
		}
	}
	if _, err := b.PNG(); err != nil {
		t.Errorf("the picture will not write as a PNG: %v", err)
	}
}

func TestBadScreens(t *testing.T) {
	ok := Screen{Layout: Video, Start: 0x3000, Width: 80, Height: 200, Lines: 8, Mode: 1}
	tests := []struct {
		name string
		edit func(*Screen)
		ram  int
		want string
	}{
		{"ram size", func(s *Screen) {}, 0x8000, "ram is 32768 bytes"},
		{"width 0", func(s *Screen) { s.Width = 0 }, 0x10000, "width 0"},
		{"width big", func(s *Screen) { s.Width = MaxWidth + 2 }, 0x10000, "width 514"},
		{"width odd", func(s *Screen) { s.Width = 79 }, 0x10000, "width 79"},
		{"height 0", func(s *Screen) { s.Height = 0 }, 0x10000, "height 0"},
		{"too many bytes", func(s *Screen) { s.Width, s.Height = 512, 512 }, 0x10000, "the most is 131072"},
		{"mode", func(s *Screen) { s.Mode = 4 }, 0x10000, "mode 4"},
		{"ink", func(s *Screen) { s.Inks[7] = 32 }, 0x10000, "pen 7's ink is 32"},
		{"start", func(s *Screen) { s.Start = 0x4000 }, 0x10000, "start &4000"},
		{"lines 0", func(s *Screen) { s.Lines = 0 }, 0x10000, "lines 0"},
		{"lines 33", func(s *Screen) { s.Lines = 33 }, 0x10000, "lines 33"},
		{"layout", func(s *Screen) { s.Layout = 3 }, 0x10000, "layout 3"},
		{"linear past the end", func(s *Screen) { s.Layout, s.Start = Linear, 0xFFF0 }, 0x10000, "past the RAM's end at &10000"},
		{"columns past the end", func(s *Screen) { s.Layout, s.Start = Columns, 0x1FF00 }, 0x20000, "past the RAM's end at &20000"},
	}
	for _, tt := range tests {
		s := ok
		tt.edit(&s)
		_, err := s.Read(make([]byte, tt.ram))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one saying %q", tt.name, err, tt.want)
		}
	}
	if _, err := ok.Read(make([]byte, 0x10000)); err != nil {
		t.Errorf("the good screen: %v", err)
	}
	if _, err := ParseLayout("rows"); err == nil || !strings.Contains(err.Error(), `layout "rows"`) {
		t.Errorf("ParseLayout(rows): %v", err)
	}
	for _, l := range []Layout{Video, Linear, Columns} {
		if got, err := ParseLayout(l.String()); err != nil || got != l {
			t.Errorf("ParseLayout(%q) = %v, %v", l.String(), got, err)
		}
	}
}

// TestDisplayed reads the screen from the chips as the machine's own
// writes set them: the 6845's registers through its port, the Gate
// Array's mode and inks through its commands.
func TestDisplayed(t *testing.T) {
	c := crtc.New(crtc.HD6845S)
	for r, v := range map[byte]byte{1: 40, 6: 25, 9: 7, 12: 0x2C, 13: 0x10} {
		c.Select(r)
		c.Write(v)
	}
	var g gatearray.GateArray
	g.Reset()
	g.Write(0x80 | 0x0C | 2) // RMR: ROMs off, mode 2, taken up at the next HSYNC
	g.Sync(true, false)
	g.Sync(false, false)
	for pen := range byte(16) {
		g.Write(pen)                   // PENR
		g.Write(0x40 | (pen*3+1)&0x1F) // INKR
	}
	s := Displayed(c, &g)
	want := Screen{Layout: Video, Start: 0x2C10, Width: 80, Height: 200, Lines: 8, Mode: 2}
	for pen := range want.Inks {
		want.Inks[pen] = byte(pen*3+1) & 0x1F
	}
	if s != want {
		t.Errorf("Displayed = %+v, want %+v", s, want)
	}
}
