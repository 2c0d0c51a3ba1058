package screentext

import "fmt"

// A Spectrum's ROM draws its characters from three places (The Complete
// Spectrum ROM Disassembly): 32 to 127 from the set the system variable
// CHARS points 256 bytes before, eight bytes to a character (PO-CHAR,
// &0B65: CHARS plus eight times the code); 128 to 143, the block
// graphics, it builds from the code's bits, each setting a quarter of the
// cell, bit 0 the top right, bit 1 the top left, bit 2 the bottom right
// and bit 3 the bottom left (PO-GR-1, &0B38); and 144 to 164, the
// user-defined graphics, from the address the system variable UDG holds
// (PO-T-UDG, &0B52).
const (
	CHARS = 0x5C36 // 23606
	UDG   = 0x5C7B // 23675
)

// SpectrumFont is the font a Spectrum's ROM draws with now, read through
// peek, the processor's view of memory, from where CHARS and UDG point.
func SpectrumFont(peek func(addr uint16) byte) *Font {
	word := func(a uint16) uint16 { return uint16(peek(a)) | uint16(peek(a+1))<<8 }
	chars, udg := word(CHARS), word(UDG)
	matrix := func(code int) ([8]byte, bool) {
		var m [8]byte
		switch {
		case code >= 32 && code <= 127:
			for i := range m {
				m[i] = peek(chars + uint16(code*8+i))
			}
		case code >= 128 && code <= 143:
			quarter := func(bit int, b byte) byte {
				if code>>bit&1 != 0 {
					return b
				}
				return 0
			}
			top := quarter(0, 0x0F) | quarter(1, 0xF0)
			bottom := quarter(2, 0x0F) | quarter(3, 0xF0)
			m = [8]byte{top, top, top, top, bottom, bottom, bottom, bottom}
		case code >= 144 && code <= 164:
			for i := range m {
				m[i] = peek(udg + uint16((code-144)*8+i))
			}
		default:
			return m, false // tokens and control codes, drawn otherwise
		}
		return m, true
	}
	text := func(code int) string {
		switch {
		case code == 96:
			return "£"
		case code == 127:
			return "©"
		case code >= 144:
			return `\` + string(rune('A'+code-144))
		}
		if s, ok := ascii(code); ok {
			return s
		}
		return escaped(code)
	}
	return build(matrix, text)
}

// SpectrumScreenSize is the bytes of a Spectrum's screen from &4000: the
// 6144 of its bitmap and the 768 of its attributes.
const SpectrumScreenSize = 6912

// SpectrumScreen reads a Spectrum's screen as colours: its 32 by 24 cells
// from the bitmap and the attributes that follow it, screen being the
// 6912 bytes from &4000. A pixel set in the bitmap shows the cell's ink,
// one clear its paper, each a colour of three bits and the attribute's
// BRIGHT, bright black being black; FLASH, which swaps the two, changes
// nothing here, since a cell is read either way round.
func SpectrumScreen(screen []byte) (*Screen, error) {
	if len(screen) != SpectrumScreenSize {
		return nil, fmt.Errorf("screentext: a Spectrum's screen is %d bytes, not %d", SpectrumScreenSize, len(screen))
	}
	s := &Screen{Cols: 32, Rows: 24, Colour: make([]byte, 256*192), Paper: make([]byte, 32*24)}
	colour := func(bright, c byte) byte {
		if c == 0 {
			return 0
		}
		return bright<<3 | c
	}
	for y := range 192 {
		// A pixel line's address: y7-y6 choose the third, y2-y0 the line
		// in the character, y5-y3 the character row (48K manual, chapter
		// 24, "The memory").
		line := (y&0xC0)<<5 | (y&7)<<8 | (y&0x38)<<2
		for col := range 32 {
			attr := screen[0x1800+(y/8)*32+col]
			bright := attr >> 6 & 1
			ink, paper := colour(bright, attr&7), colour(bright, attr>>3&7)
			s.Paper[(y/8)*32+col] = paper
			bits := screen[line|col]
			for x := range 8 {
				c := paper
				if bits&(0x80>>x) != 0 {
					c = ink
				}
				s.Colour[y*256+col*8+x] = c
			}
		}
	}
	return s, nil
}

// Spectrum reads a Spectrum's screen as text, through peek, the
// processor's view of its memory.
func Spectrum(peek func(addr uint16) byte) ([]string, error) {
	screen := make([]byte, SpectrumScreenSize)
	for i := range screen {
		screen[i] = peek(0x4000 + uint16(i))
	}
	s, err := SpectrumScreen(screen)
	if err != nil {
		return nil, err
	}
	return Read(s, SpectrumFont(peek))
}
