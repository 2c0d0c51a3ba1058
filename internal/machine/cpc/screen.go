package cpc

import "colophon/internal/chip/gatearray"

// FontAddress is where the firmware keeps its character matrices in the
// lower ROM: eight bytes to a character, top line first, a set bit for
// ink (SOFT 968, "The Text VDU": the matrices of characters 0-255 are
// in the lower ROM from &3800).
const FontAddress = 0x3800

// Text reads the screen as the firmware's text: each character cell of
// the picture the 6845 is displaying, in the mode in force, matched
// against the firmware's own font in the lower ROM, a pixel of any pen but
// pen 0 counting as ink. A cell that matches no character reads as '?'.
// It covers R6 rows of R1 characters' worth of bytes, the screen the 6845
// is set to show, with character rows R9+1 lines tall.
func (m *CPC) Text() []string {
	c := &m.CRTC
	mode := m.GA.Mode & 3
	pixelsPerByte := [4]int{2, 4, 8, 2}[mode]
	start := (uint16(c.Registers[12])<<8 | uint16(c.Registers[13])) & 0x3FFF
	width := int(c.Registers[1]) * 2 * pixelsPerByte / 8
	rows := int(c.Registers[6])
	lines := int(c.Registers[9]) + 1
	if lines > 8 {
		lines = 8
	}
	font := m.lowerROM[FontAddress : FontAddress+256*8]
	var out []string
	for row := range rows {
		text := make([]byte, width)
		for col := range width {
			var cell [8]byte
			for line := range lines {
				cell[line] = m.cellLine(start+uint16(row*int(c.Registers[1])), col, line, mode, pixelsPerByte)
			}
			text[col] = '?'
			for ch := 32; ch < 256; ch++ {
				if [8]byte(font[ch*8:ch*8+8]) == cell {
					text[col] = byte(ch)
					break
				}
			}
		}
		out = append(out, string(text))
	}
	return out
}

// cellLine reads one line of the col'th 8-pixel character cell of the row
// that begins at MA row, as a font byte: bit 7 the leftmost pixel.
func (m *CPC) cellLine(row uint16, col, line int, mode byte, pixelsPerByte int) byte {
	var bits byte
	for px := range 8 {
		n := col*8 + px
		b := n / pixelsPerByte
		ma := (row + uint16(b/2)) & 0x3FFF
		a := gatearray.VideoAddress(ma, line) | uint16(b&1)
		pens := pensOf(mode, m.RAM[a])
		if pens[(n%pixelsPerByte)*8/pixelsPerByte] != 0 {
			bits |= 0x80 >> px
		}
	}
	return bits
}

func pensOf(mode, b byte) [8]byte { return gatearray.Pens(mode, b) }
