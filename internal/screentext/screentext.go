// Package screentext reads the characters on a screen as lines of text: the
// engine behind monitor's text. It is fed bytes, a screen's memory and the
// character matrices the machine draws with, and knows no machine.
//
// A screen is read as a grid of cells eight pixels square, each pixel a
// colour as the monitor shows it. A cell reads as the character whose
// matrix its pixels draw, whatever the two colours: the cell's pixels of
// one colour are taken as the ink and matched against every matrix, and
// where nothing matches, the pixels of the other colour are, so that text
// drawn in inverse video reads as itself. Which colour is tried as the
// ink first is the one that is not the screen's background, the colour
// most of its pixels show, or where neither is, the colour fewer of the
// cell's pixels show, as a character's strokes are thinner than the paper
// around them; where the machine says which colour is a cell's paper, as
// a Spectrum's attributes do, the other is. A cell of one colour reads as a
// space where that colour is its paper: the one the machine gives it, or
// where it gives none, the background or a colour the row's characters
// have as theirs, as a line of text printed on a paper of its own has; and
// otherwise as the character whose matrix is all ink (a CPC's solid block,
// 143, as BASIC's cursor over a space is drawn), or a space where the set
// has none. A cell of three colours or more, or whose two colours draw no
// matrix, reads as Placeholder.
//
// Where two characters have the same matrix, the cell reads as the first
// of them in this order: printable ASCII, 32 to 126, then 127 to 255, then
// 0 to 31, so that a space is a space and not a blank graphic, and a
// Spectrum's user-defined graphics, which start as copies of A to U, read
// as letters until they are redefined.
//
// Each cell is written as one character or one escape:
//   - printable ASCII, 32 to 126, as itself, save the backslash, which is
//     written \\, and on a Spectrum 96 and 127, which are £ and © there;
//   - a CPC's 163 and 164 as £ and ©, which its firmware draws there;
//   - a Spectrum's user-defined graphics, 144 to 164, as \A to \U, the
//     letters its keyboard types them with in graphics mode;
//   - any other character of the set as \{n}, by its code in decimal;
//   - a cell that matches nothing as Placeholder.
//
// Lines are read whole, row by row, and each has the spaces at its end
// left off; rows are never left out, so line n is the screen's row n.
package screentext

import (
	"fmt"
	"strings"
)

// Placeholder is what a cell that draws no character reads as: U+2591,
// LIGHT SHADE, which no character of either machine's set is written as.
const Placeholder = '░'

// Screen is a screen as its pixels' colours: Cols by Rows cells of eight by
// eight pixels, the colour of each pixel as a number, the same number for
// the same colour wherever it appears, row-major from the top-left, a row
// of pixels Cols*8 wide.
type Screen struct {
	Cols, Rows int
	Colour     []byte
	// Paper is, where the machine says it, each cell's paper colour,
	// row-major; nil where it does not, as a CPC's screen does not.
	Paper []byte
}

// Font is the characters a machine draws now: each code's matrix, eight
// bytes from the top line down, bit 7 the leftmost pixel and a set bit ink,
// and how the code is written as text.
type Font struct {
	byMatrix map[[8]byte]byte
	text     [256]string
	defined  [256]bool
}

// newFont returns a font of no characters.
func newFont() *Font { return &Font{byMatrix: make(map[[8]byte]byte, 256)} }

// order is the order codes are preferred in where two share a matrix.
var order = func() []int {
	var o []int
	for c := 32; c < 256; c++ {
		o = append(o, c)
	}
	for c := 0; c < 32; c++ {
		o = append(o, c)
	}
	return o
}()

// build makes a font from a matrix and a text for each code defined.
func build(matrix func(code int) ([8]byte, bool), text func(code int) string) *Font {
	f := newFont()
	for _, c := range order {
		m, ok := matrix(c)
		if !ok {
			continue
		}
		f.defined[c] = true
		f.text[c] = text(c)
		if _, taken := f.byMatrix[m]; !taken {
			f.byMatrix[m] = byte(c)
		}
	}
	return f
}

// escaped writes a code with no glyph of its own in text as \{n}.
func escaped(code int) string { return fmt.Sprintf(`\{%d}`, code) }

// ascii writes a printable ASCII code as itself, a backslash escaped.
func ascii(code int) (string, bool) {
	switch {
	case code == '\\':
		return `\\`, true
	case code >= 32 && code <= 126:
		return string(rune(code)), true
	}
	return "", false
}

// lookup is the code whose matrix is m.
func (f *Font) lookup(m [8]byte) (byte, bool) {
	c, ok := f.byMatrix[m]
	return c, ok
}

// Read reads a screen's cells as lines of text with a font.
func Read(s *Screen, f *Font) ([]string, error) {
	if s.Cols < 0 || s.Rows < 0 || len(s.Colour) != s.Cols*8*s.Rows*8 {
		return nil, fmt.Errorf("screentext: %d by %d cells want %d pixels, have %d", s.Cols, s.Rows, s.Cols*s.Rows*64, len(s.Colour))
	}
	if s.Paper != nil && len(s.Paper) != s.Cols*s.Rows {
		return nil, fmt.Errorf("screentext: %d by %d cells want %d papers, have %d", s.Cols, s.Rows, s.Cols*s.Rows, len(s.Paper))
	}
	r := reader{s: s, f: f, bg: background(s.Colour), blank: " ", width: s.Cols * 8}
	if c, ok := f.lookup([8]byte{}); ok {
		r.blank = f.text[c]
	}
	if c, ok := f.lookup([8]byte{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}); ok {
		r.solid, r.hasSolid = f.text[c], true
	}
	lines := make([]string, s.Rows)
	cells := make([]string, s.Cols)
	for row := range s.Rows {
		// The cells of two colours first, which say which colours
		// this row's text has as its paper; then the cells of one.
		var papers [256]bool
		papers[r.bg] = true
		uniform := make([]int, 0, s.Cols)
		for col := range s.Cols {
			text, paper, one := r.cell(row, col)
			switch {
			case one:
				uniform = append(uniform, col)
			case text != "":
				cells[col] = text
				papers[paper] = true
			default:
				cells[col] = string(Placeholder)
			}
		}
		for _, col := range uniform {
			c := s.Colour[row*8*r.width+col*8]
			known := s.Paper != nil
			switch {
			case known && c == s.Paper[row*s.Cols+col], !known && papers[c]:
				cells[col] = r.blank
			case r.hasSolid:
				cells[col] = r.solid
			default:
				cells[col] = r.blank // a space in inverse video
			}
		}
		lines[row] = strings.TrimRight(strings.Join(cells, ""), " ")
	}
	return lines, nil
}

// reader reads one screen's cells with one font.
type reader struct {
	s        *Screen
	f        *Font
	bg       byte
	width    int
	blank    string
	solid    string
	hasSolid bool
}

// cell reads the cell at row and col: its text and the colour that was its
// paper, where two colours draw a character; one set where the cell is of
// one colour; neither where it draws none.
func (r *reader) cell(row, col int) (text string, paper byte, one bool) {
	s := r.s
	at := row*8*r.width + col*8
	// The cell's colours: the first two met, and how many of each; a
	// third makes it no character.
	var cs [2]byte
	var n [2]int
	kinds := 0
	for y := range 8 {
		for _, c := range s.Colour[at+y*r.width : at+y*r.width+8] {
			switch {
			case kinds > 0 && c == cs[0]:
				n[0]++
			case kinds > 1 && c == cs[1]:
				n[1]++
			case kinds < 2:
				cs[kinds], n[kinds] = c, 1
				kinds++
			default:
				return "", 0, false
			}
		}
	}
	if kinds == 1 {
		return "", 0, true
	}
	// The ink tried first: the colour that is not the paper the machine
	// says the cell has, or not the background, or the scarcer.
	var ink byte
	switch {
	case s.Paper != nil && cs[0] == s.Paper[row*s.Cols+col]:
		ink = cs[1]
	case s.Paper != nil && cs[1] == s.Paper[row*s.Cols+col]:
		ink = cs[0]
	case cs[0] == r.bg:
		ink = cs[1]
	case cs[1] == r.bg:
		ink = cs[0]
	case n[0] < n[1] || n[0] == n[1] && cs[0] < cs[1]:
		ink = cs[0]
	default:
		ink = cs[1]
	}
	paper = cs[0] ^ cs[1] ^ ink
	var m [8]byte
	for y := range 8 {
		var bits byte
		for x, c := range s.Colour[at+y*r.width : at+y*r.width+8] {
			if c == ink {
				bits |= 0x80 >> x
			}
		}
		m[y] = bits
	}
	code, ok := r.f.lookup(m)
	if !ok {
		for y := range m {
			m[y] = ^m[y]
		}
		code, ok = r.f.lookup(m)
		paper = ink
	}
	if !ok {
		return "", 0, false
	}
	return r.f.text[code], paper, false
}

// background is the colour most pixels show, the lowest where two tie.
func background(colour []byte) byte {
	var count [256]int
	for _, c := range colour {
		count[c]++
	}
	bg := 0
	for c := range count {
		if count[c] > count[bg] {
			bg = c
		}
	}
	return byte(bg)
}
