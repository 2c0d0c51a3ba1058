package cpcscreen

import (
	"fmt"
	"os"
	"testing"

	"colophon/internal/chip/gatearray"
	"colophon/internal/machine/cpc"
	"colophon/internal/picture"
	"colophon/internal/shared"
)

// newCPC builds a 6128 at power-on from the shared firmware.
func newCPC(t testing.TB) *cpc.CPC {
	t.Helper()
	read := func(name string) []byte {
		b, err := os.ReadFile(shared.TestPath(t, "roms", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	m, err := cpc.New(cpc.Config{Model: cpc.CPC6128, Firmware: read("cpc6128.rom"), AMSDOS: read("amsdos.rom")})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// The 6845 as the firmware sets it for its standard screen (SOFT 968, MC
// RESET's table; the Compendium): 64 characters a line of which 40 are
// shown, 39 rows of 8 lines of which 25 are shown, the screen at &C000.
var standard = map[byte]byte{0: 63, 1: 40, 2: 46, 3: 0x8E, 4: 38, 5: 0, 6: 25, 7: 30, 9: 7, 12: 0x30, 13: 0x00}

// with returns the standard registers with some changed.
func with(changes map[byte]byte) map[byte]byte {
	r := map[byte]byte{}
	for k, v := range standard {
		r[k] = v
	}
	for k, v := range changes {
		r[k] = v
	}
	return r
}

// Inks for pens 0-15 and the border, none of them the black the Gate
// Array blanks with (gatearray.Black), so that the area the 6845 displays
// is just where the monitor's picture holds an ink of a pen.
const border = 0x1A

var inks = [16]byte{0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F}

// screens are the 6845 set as the spec's tests ask: the standard screen in
// each of the four modes; rows of five lines and of sixteen; a start
// partway into a 2K; and a screen of 32K carried from one 16K into the
// next. Each frame is 312 lines with its VSYNC at line 240, so that the
// displayed area falls in the monitor's picture.
var screens = []struct {
	name string
	regs map[byte]byte
	mode byte
}{
	{"mode 0", standard, 0},
	{"mode 1", standard, 1},
	{"mode 2", standard, 2},
	{"mode 3", standard, 3},
	// R9=4: rows of 5 lines; 62 rows and 2 of adjustment make 312 lines,
	// 40 rows shown, VSYNC at row 48 = line 240.
	{"rows of 5 lines", with(map[byte]byte{9: 4, 4: 61, 5: 2, 6: 40, 7: 48}), 1},
	// R9=15: rows of 16 lines, of which RA2-RA0 repeat after the 8th; 19
	// rows and 8 of adjustment make 312, 12 rows shown, VSYNC at line 240.
	{"rows of 16 lines", with(map[byte]byte{9: 15, 4: 18, 5: 8, 6: 12, 7: 15}), 2},
	// MA &33F0: 16 characters before the end of the 2K, where the screen
	// wraps to the 2K's start.
	{"start partway into a 2K", with(map[byte]byte{12: 0x33, 13: 0xF0}), 1},
	{"start at an odd word", with(map[byte]byte{12: 0x31, 13: 0x23}), 0},
	// MA &2F00: MA11-MA10 set, so 256 characters in, MA carries into
	// MA12 and the screen runs on from the 16K at &8000 into &C000.
	{"32K across two 16K", with(map[byte]byte{12: 0x2F, 13: 0x00}), 2},
	{"32K across two 16K, mode 0", with(map[byte]byte{12: 0x1F, 13: 0xF0}), 0},
}

// standing sets a 6128 up with the 6845 and Gate Array as asked and RAM
// full of bytes of every value, the processor looping in RAM with
// interrupts off so that nothing changes them, and runs it three frames.
func standing(t *testing.T, regs map[byte]byte, mode byte) *cpc.CPC {
	t.Helper()
	m := newCPC(t)
	x := uint32(0x12345678)
	for i := 0x4000; i < len(m.RAM); i++ {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		m.RAM[i] = byte(x >> 11)
	}
	// JR $ at &0000, where the processor starts at power-on with
	// interrupts disabled, the ROMs switched off beneath it.
	m.RAM[0], m.RAM[1] = 0x18, 0xFE
	// RMR: both ROMs disabled, the mode given (Grim, "The Gate Array").
	m.GA.Write(0x80 | 0x0C | mode)
	m.Remap()
	for pen, ink := range inks {
		m.GA.Write(byte(pen))  // PENR
		m.GA.Write(0x40 | ink) // INKR
	}
	m.GA.Write(0x10) // PENR: the border
	m.GA.Write(0x40 | border)
	for r := range byte(16) {
		if v, ok := regs[r]; ok {
			m.CRTC.Select(r)
			m.CRTC.Write(v)
		}
	}
	m.RunFrames(3)
	if m.GA.Mode != mode {
		t.Fatalf("the Gate Array is in mode %d, want %d", m.GA.Mode, mode)
	}
	return m
}

// TestSCR3ScreenIsTheMonitorsPicture holds a screen asked for nothing, read
// from the chips as the machine stands, to the monitor's picture: the
// displayed area, where the monitor holds the inks of pens, is the
// screen's size at the monitor's scale, and each of its pixels is the
// ink of the screen's pen there (checklist SCR-2, SCR-3).
func TestSCR3ScreenIsTheMonitorsPicture(t *testing.T) {
	for _, sc := range screens {
		t.Run(sc.name, func(t *testing.T) {
			m := standing(t, sc.regs, sc.mode)
			s := Displayed(&m.CRTC, &m.GA)
			got, err := s.Read(m.RAM)
			if err != nil {
				t.Fatal(err)
			}
			mon := m.Picture()
			if !mon.Whole() {
				t.Fatal("the monitor's picture is not whole")
			}
			left, top, w, h, err := displayed(mon)
			if err != nil {
				t.Fatal(err)
			}
			if w != got.Width || h != got.Height {
				t.Fatalf("the monitor displays %dx%d at (%d,%d); the screen is %dx%d", w, h, left, top, got.Width, got.Height)
			}
			bad := 0
			for y := range h {
				for x := range w {
					pen := got.Pix[y*got.Width+x]
					if code := mon.Pix[(top+y)*mon.Width+left+x]; code != s.Inks[pen] {
						if bad == 0 {
							t.Errorf("(%d,%d): the monitor shows colour &%02X, the screen pen %d of ink &%02X", x, y, code, pen, s.Inks[pen])
						}
						bad++
					}
				}
			}
			if bad > 0 {
				t.Errorf("%d of %d pixels differ", bad, w*h)
			}
		})
	}
}

// displayed finds the area of the monitor's picture that holds the inks of
// pens: a rectangle, since neither the border's ink nor the blanking's
// black is among them.
func displayed(p *picture.Picture) (left, top, w, h int, err error) {
	ink := [32]bool{}
	for _, c := range inks {
		ink[c] = true
	}
	if ink[border] || ink[gatearray.Black] {
		return 0, 0, 0, 0, fmt.Errorf("the inks include the border's or the blanking's")
	}
	left, top = p.Width, p.Height
	right, bottom := -1, -1
	for y := range p.Height {
		for x, c := range p.Row(y) {
			if ink[c&0x1F] {
				left, right = min(left, x), max(right, x)
				top, bottom = min(top, y), max(bottom, y)
			}
		}
	}
	if right < 0 {
		return 0, 0, 0, 0, fmt.Errorf("the monitor shows no ink of any pen")
	}
	return left, top, right - left + 1, bottom - top + 1, nil
}
