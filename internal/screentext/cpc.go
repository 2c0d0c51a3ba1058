package screentext

import (
	"errors"
	"fmt"

	"colophon/internal/chip/gatearray"
	"colophon/internal/chip/monitor"
	"colophon/internal/cpcscreen"
)

// A CPC's firmware draws a character from the matrix TXT GET MATRIX finds
// for it: in the user-defined matrix table, if one is set up and the
// character is at or after the table's first, or else in the lower ROM
// (the 6128's firmware listing, TXT GET MATRIX at &12D4: TXT GET M TABLE,
// then "sub d; ccf" to choose, and the ROM's matrices from &3800, eight
// bytes to a character).
const FontAddress = 0x3800

// The firmware keeps the state of its user-defined matrix table, which
// BASIC's SYMBOL AFTER sets up through TXT SET M TABLE, in four bytes of
// RAM: the first character the table holds, a byte whose bit 0 says a
// table is in use (&FF when it is, 0 when not), and the table's address.
// TXT GET M TABLE reads them so: LD HL,(vars); LD A,H; RRCA (bit 0 into
// carry, which says a table is set); LD A,L (the first character);
// LD HL,(vars+2) (the table). The 6128's and the 664's firmware, V1.1,
// keep them at &B734 (the 6128's listing, TXT GET M TABLE at &132B; the
// 664's at &1327), the 464's, V1.0, at &B294 (its TXT GET M TABLE at
// &132A); TestMatrixVarsAreTheFirmwares reads each ROM's routine.
const (
	MatrixVars464  = 0xB294
	MatrixVars6128 = 0xB734 // and the 664's
)

// CPCFont is the font a CPC's firmware draws with now: the lower ROM's
// matrices, and where a user-defined table is in use (after BASIC's SYMBOL
// AFTER), the table's for the characters it holds. lower is the lower
// ROM, 16K; ram is the base 64K of RAM, which holds the variables at vars
// and the table, read as the firmware reads them with the RAM paged in as
// it is at power-on (SOFT 968 asks that the table not lie beneath a ROM).
func CPCFont(lower, ram []byte, vars uint16) (*Font, error) {
	if len(lower) < FontAddress+256*8 {
		return nil, fmt.Errorf("screentext: the lower ROM is %d bytes; its matrices run to &%04X", len(lower), FontAddress+256*8)
	}
	if len(ram) < 0x10000 {
		return nil, fmt.Errorf("screentext: the RAM is %d bytes; a CPC's base 64K is 65536", len(ram))
	}
	at := func(a int) byte { return ram[a&0xFFFF] }
	first := int(at(int(vars)))
	inUse := at(int(vars)+1)&1 != 0
	table := int(at(int(vars)+2)) | int(at(int(vars)+3))<<8
	matrix := func(code int) ([8]byte, bool) {
		var m [8]byte
		if inUse && code >= first {
			for i := range m {
				m[i] = at(table + (code-first)*8 + i)
			}
		} else {
			copy(m[:], lower[FontAddress+code*8:])
		}
		return m, true
	}
	text := func(code int) string {
		if s, ok := ascii(code); ok {
			return s
		}
		switch code { // the firmware's matrices at &A3 and &A4
		case 0xA3:
			return "£"
		case 0xA4:
			return "©"
		}
		return escaped(code)
	}
	return build(matrix, text), nil
}

// canonical numbers each hardware colour code by the first code of the
// same colour, so that two codes the monitor shows alike are one colour
// (monitor.Palette: the 32 codes give 27 colours).
var canonical = func() (c [32]byte) {
	for i := range c {
		c[i] = byte(i)
		for j := range i {
			if monitor.Palette[j] == monitor.Palette[i] {
				c[i] = byte(j)
				break
			}
		}
	}
	return c
}()

// pixelsPerByte is how many pixels a byte holds in each mode (Grim, "The
// Gate Array"; gatearray.Pens): 2 in mode 0, 4 in mode 1, 8 in mode 2, and
// in mode 3 mode 0's two.
var pixelsPerByte = [4]int{2, 4, 8, 2}

// CPCScreen reads a CPC's screen as colours: the screen sc, in the video
// layout, as the video hardware reads it from the base 64K, in its mode's
// pixels, each pixel the colour its pen's ink shows. A character is eight
// of the mode's pixels across, so the screen is 20, 40 or 80 of them
// across in modes 0, 1 and 2 with the firmware's 40 characters of the
// 6845; and eight lines down, as the firmware draws one in a row of eight.
func CPCScreen(sc cpcscreen.Screen, ram []byte) (*Screen, error) {
	if sc.Layout != cpcscreen.Video {
		return nil, errors.New("screentext: a CPC's text is read from the screen in the video layout")
	}
	if sc.Width < 0 || sc.Height < 0 || sc.Lines < 1 || sc.Width > cpcscreen.MaxWidth || sc.Height > cpcscreen.MaxHeight {
		return nil, fmt.Errorf("screentext: a screen of %d bytes by %d lines in rows of %d", sc.Width, sc.Height, sc.Lines)
	}
	if len(ram) < 0x10000 {
		return nil, fmt.Errorf("screentext: the RAM is %d bytes; a CPC's base 64K is 65536", len(ram))
	}
	ppb := pixelsPerByte[sc.Mode&3]
	s := &Screen{Cols: sc.Width * ppb / 8, Rows: sc.Height / 8}
	width := s.Cols * 8
	s.Colour = make([]byte, width*s.Rows*8)
	var colour [16]byte
	for pen, ink := range sc.Inks {
		colour[pen] = canonical[ink&0x1F]
	}
	bytes := width / ppb
	for y := range s.Rows * 8 {
		line := s.Colour[y*width : (y+1)*width]
		for x := range bytes {
			a := sc.Addr(x, y) & 0xFFFF // the video reads the base 64K
			pens := gatearray.Pens(sc.Mode, ram[a])
			for p := range ppb {
				line[x*ppb+p] = colour[pens[p*8/ppb]]
			}
		}
	}
	return s, nil
}

// CPC reads a CPC's screen as text: the screen sc, in the font its
// firmware draws with now (CPCFont).
func CPC(sc cpcscreen.Screen, lower, ram []byte, vars uint16) ([]string, error) {
	f, err := CPCFont(lower, ram, vars)
	if err != nil {
		return nil, err
	}
	s, err := CPCScreen(sc, ram)
	if err != nil {
		return nil, err
	}
	return Read(s, f)
}
