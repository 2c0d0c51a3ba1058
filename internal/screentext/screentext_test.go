package screentext

import (
	"bufio"
	"slices"
	"strconv"
	"strings"
	"testing"

	"colophon/internal/chip/z80"
	"colophon/internal/cpcscreen"
	"colophon/internal/disasm"
	"colophon/internal/shared"
)

// testFont is a font of a few characters, each preferred as the real
// fonts prefer them.
func testFont(glyphs map[int][8]byte, text func(int) string) *Font {
	return build(func(c int) ([8]byte, bool) {
		m, ok := glyphs[c]
		return m, ok
	}, text)
}

var (
	glyphA     = [8]byte{0x18, 0x3C, 0x66, 0x66, 0x7E, 0x66, 0x66, 0x00}
	glyphSlash = [8]byte{0x03, 0x06, 0x0C, 0x18, 0x30, 0x60, 0xC0, 0x00}
	solid      = [8]byte{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}
)

func plainText(c int) string {
	if s, ok := ascii(c); ok {
		return s
	}
	return escaped(c)
}

// paint draws cells on a screen: each cell a matrix in an ink on a paper.
type cell struct {
	m          [8]byte
	ink, paper byte
}

func paint(cols, rows int, cells map[[2]int]cell, bg byte) *Screen {
	s := &Screen{Cols: cols, Rows: rows, Colour: make([]byte, cols*rows*64)}
	for i := range s.Colour {
		s.Colour[i] = bg
	}
	for at, c := range cells {
		for y := range 8 {
			for x := range 8 {
				col := c.paper
				if c.m[y]&(0x80>>x) != 0 {
					col = c.ink
				}
				s.Colour[(at[1]*8+y)*cols*8+at[0]*8+x] = col
			}
		}
	}
	return s
}

// TestReadCells holds the rules a cell is read by: ink on paper in any two
// colours, inverse video, a cell of one colour, a cell of three, a cell
// that draws nothing, and the escapes.
func TestReadCells(t *testing.T) {
	f := testFont(map[int][8]byte{
		' ': {}, 0x80: {}, // a space and a blank graphic: the space is preferred
		'A': glyphA, 200: glyphA, // a user graphic copied from A: A is preferred
		'\\': glyphSlash, 143: solid,
	}, plainText)
	three := cell{m: glyphA, ink: 5, paper: 6}
	s := paint(8, 3, map[[2]int]cell{
		{0, 0}: {glyphA, 1, 0},     // ink on the background
		{1, 0}: {glyphA, 0, 1},     // inverse video: background strokes on ink
		{2, 0}: {glyphA, 3, 2},     // pen 3 on paper 2, neither the background
		{3, 0}: {glyphSlash, 1, 0}, // a backslash, escaped
		{4, 0}: {solid, 1, 0},      // all ink, but ink is this row's paper: a space
		{5, 0}: {solid, 0, 1},      // a cell all background: a space
		{6, 0}: {glyphA, 1, 0},
		{2, 2}: {solid, 1, 0},      // all ink, in a row with no paper of ink: the solid block
		{0, 1}: {[8]byte{1}, 1, 0}, // a dot no character draws
		{1, 1}: three,
	}, 0)
	// A third colour in a cell of A.
	s.Colour[(1*8+3)*64+1*8+3] = 7
	lines, err := Read(s, f)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`AAA\\  A`, string([]rune{Placeholder, Placeholder}), `  \{143}`}
	if !slices.Equal(lines, want) {
		t.Errorf("read %q, want %q", lines, want)
	}
	if _, err := Read(&Screen{Cols: 2, Rows: 1, Colour: make([]byte, 10)}, f); err == nil {
		t.Error("a screen of too few pixels was read")
	}
}

// TestReadBackground finds the background by the pixels, so that on a
// screen of dark text on a light paper, and of light text on a dark one,
// the text reads and the paper is spaces.
func TestReadBackground(t *testing.T) {
	f := testFont(map[int][8]byte{' ': {}, 'A': glyphA, 143: solid}, plainText)
	for _, bg := range []byte{0, 9} {
		ink := 9 - bg
		s := paint(3, 1, map[[2]int]cell{{1, 0}: {glyphA, ink, bg}}, bg)
		lines, _ := Read(s, f)
		if !slices.Equal(lines, []string{" A"}) {
			t.Errorf("A in %d on %d reads %q", ink, bg, lines)
		}
	}
}

// TestSpectrumEscapes holds the Spectrum's text to its set: £ at 96, © at
// 127, the UDGs as \A to \U, the block graphics by their codes.
func TestSpectrumEscapes(t *testing.T) {
	var mem [0x10000]byte
	rom := shared.ReadFile(t, "roms", "spectrum48.rom")
	copy(mem[:], rom)
	// The system variables as the ROM sets them: CHARS is &3C00, UDG
	// &FF58, where the UDGs start as copies of A to U (The Complete
	// Spectrum ROM Disassembly, "INITIALISATION").
	mem[CHARS], mem[CHARS+1] = 0x00, 0x3C
	mem[UDG], mem[UDG+1] = 0x58, 0xFF
	copy(mem[0xFF58:], rom[0x3C00+'A'*8:0x3C00+('U'+1)*8])
	// UDG B redefined as a box.
	copy(mem[0xFF58+8:], []byte{0xFF, 0x81, 0x81, 0x81, 0x81, 0x81, 0x81, 0xFF})
	f := SpectrumFont(func(a uint16) byte { return mem[a] })
	for code, want := range map[int]string{96: "£", 127: "©", 65: "A", 92: `\\`, 145: `\B`, 164: `\U`, 133: `\{133}`} {
		if f.text[code] != want {
			t.Errorf("code %d is written %q, want %q", code, f.text[code], want)
		}
	}
	if c, _ := f.lookup([8]byte(rom[0x3C00+'A'*8:])); c != 'A' {
		t.Errorf("A's matrix, which UDG A shares, reads as %d", c)
	}
	if c, _ := f.lookup([8]byte{0xFF, 0x81, 0x81, 0x81, 0x81, 0x81, 0x81, 0xFF}); c != 145 {
		t.Errorf("UDG B's matrix reads as %d", c)
	}
}

// flatBus is 64K of RAM with nothing in the way, for running a routine of
// a ROM laid in it.
type flatBus struct{ mem *[0x10000]byte }

func (b flatBus) Fetch(a uint16) byte    { return b.mem[a] }
func (b flatBus) Read(a uint16) byte     { return b.mem[a] }
func (b flatBus) Write(a uint16, v byte) { b.mem[a] = v }
func (flatBus) In(uint16) byte           { return 0xFF }
func (flatBus) Out(uint16, byte)         {}
func (flatBus) Internal(uint16, int)     {}
func (flatBus) Acknowledge() byte        { return 0xFF }

// TestSpectrumBlockGraphics holds the block graphics to the matrices the
// 48K ROM's own PO-GR-1 (&0B38) builds for each of 128 to 143, in MEMBOT at
// &5C92, run here on a bare Z80.
func TestSpectrumBlockGraphics(t *testing.T) {
	rom := shared.ReadFile(t, "roms", "spectrum48.rom")
	f := SpectrumFont(func(a uint16) byte { return 0 })
	for code := 128; code <= 143; code++ {
		var mem [0x10000]byte
		copy(mem[:], rom)
		cpu := z80.CPU{Bus: flatBus{&mem}}
		cpu.Reset()
		const back = 0x8000
		cpu.SP = 0xFF00
		mem[0xFEFE], mem[0xFEFF] = back&0xFF, back>>8
		cpu.SP -= 2
		cpu.PC, cpu.B = 0x0B38, byte(code)
		for n := 0; cpu.PC != back; n++ {
			if n > 1000 {
				t.Fatalf("PO-GR-1 has not returned for %d", code)
			}
			cpu.Step()
		}
		m, _ := f.lookup([8]byte(mem[0x5C92:]))
		want := code
		if code == 128 {
			want = ' ' // blank, as the space is, which is preferred
		}
		if int(m) != want {
			t.Errorf("the ROM's matrix for %d (% X) reads as %d", code, mem[0x5C92:0x5C9A], m)
		}
	}
}

// TestMatrixVarsAreTheFirmwares reads each CPC firmware's own TXT GET M
// TABLE, at the address jumpblocks_detail.tsv gives it in each lower ROM,
// and finds it reading the variables where MatrixVars464 and
// MatrixVars6128 say they are; and its TXT GET MATRIX taking the ROM's
// matrices from FontAddress.
func TestMatrixVarsAreTheFirmwares(t *testing.T) {
	targets := map[string]map[string]uint16{} // entry, firmware: address
	sc := bufio.NewScanner(strings.NewReader(string(shared.ReadFile(t, "testdata", "cpc-firmware", "jumpblocks_detail.tsv"))))
	for sc.Scan() {
		c := strings.Split(sc.Text(), "\t")
		if len(c) < 8 || (c[2] != "TXT GET M TABLE" && c[2] != "TXT GET MATRIX") {
			continue
		}
		targets[c[2]] = map[string]uint16{}
		for i, fw := range []string{"cpc464", "cpc664", "cpc6128"} {
			v, err := strconv.ParseUint(c[5+i], 16, 16)
			if err != nil {
				t.Fatal(err)
			}
			targets[c[2]][fw] = uint16(v)
		}
	}
	for fw, vars := range map[string]uint16{"cpc464": MatrixVars464, "cpc664": MatrixVars6128, "cpc6128": MatrixVars6128} {
		rom := shared.ReadFile(t, "roms", fw+".rom")[:0x4000]
		var d disasm.Disassembler
		read := func(a uint16) byte { return rom[a&0x3FFF] }
		list, err := d.List(read, targets["TXT GET M TABLE"][fw], 6)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, in := range list {
			got = append(got, in.Text)
		}
		want := []string{"LD HL,(&" + hex4(vars) + ")", "LD A,H", "RRCA", "LD A,L", "LD HL,(&" + hex4(vars+2) + ")", "RET"}
		if !slices.Equal(got, want) {
			t.Errorf("%s's TXT GET M TABLE reads %q, want %q", fw, got, want)
		}
		list, _ = d.List(read, targets["TXT GET MATRIX"][fw], 12)
		found := false
		for _, in := range list {
			found = found || in.Text == "LD HL,&3800"
		}
		if !found {
			t.Errorf("%s's TXT GET MATRIX takes no matrices from &3800: %v", fw, list)
		}
	}
}

func hex4(v uint16) string { return strings.ToUpper(strconv.FormatUint(uint64(v)|0x10000, 16)[1:]) }

// TestSpectrumScreenLayout reads a character written where the 48K's
// screen lays each of its lines, in each third, and its attributes.
func TestSpectrumScreenLayout(t *testing.T) {
	rom := shared.ReadFile(t, "roms", "spectrum48.rom")
	screen := make([]byte, SpectrumScreenSize)
	for i := range screen[0x1800:] {
		screen[0x1800+i] = 0x38 // black ink on white paper
	}
	put := func(row, col int, code byte, attr byte) {
		for y := range 8 {
			line := row*8 + y
			a := (line&0xC0)<<5 | (line&7)<<8 | (line&0x38)<<2 | col
			screen[a] = rom[0x3C00+int(code)*8+y]
		}
		screen[0x1800+row*32+col] = attr
	}
	put(0, 0, 'T', 0x38)
	put(9, 31, 'M', 0x38)
	put(23, 5, 'B', 0x07|0x40) // bright white ink on black paper
	put(23, 6, 'I', 0x38|0x80) // flashing
	s, err := SpectrumScreen(screen)
	if err != nil {
		t.Fatal(err)
	}
	var mem [0x10000]byte
	copy(mem[:], rom)
	mem[CHARS], mem[CHARS+1] = 0x00, 0x3C
	lines, err := Read(s, SpectrumFont(func(a uint16) byte { return mem[a] }))
	if err != nil {
		t.Fatal(err)
	}
	if lines[0] != "T" || lines[9] != strings.Repeat(" ", 31)+"M" || lines[23] != "     BI" {
		t.Errorf("read:\n%s", strings.Join(lines, "\n"))
	}
	if _, err := SpectrumScreen(screen[:100]); err == nil {
		t.Error("a short screen was read")
	}
}

// TestCPCFontPoundAndCopyright reads the 6128's lower ROM matrices at &A3
// and &A4 as £ and ©, and finds every printable ASCII code written as
// itself.
func TestCPCFontPoundAndCopyright(t *testing.T) {
	lower := shared.ReadFile(t, "roms", "cpc6128.rom")[:0x4000]
	f, err := CPCFont(lower, make([]byte, 0x10000), MatrixVars6128)
	if err != nil {
		t.Fatal(err)
	}
	if f.text[0xA3] != "£" || f.text[0xA4] != "©" || f.text['A'] != "A" || f.text[0x80] != `\{128}` {
		t.Errorf("&A3 %q, &A4 %q, A %q, &80 %q", f.text[0xA3], f.text[0xA4], f.text['A'], f.text[0x80])
	}
	if c, _ := f.lookup([8]byte(lower[FontAddress+0xA4*8:])); c != 0xA4 {
		t.Errorf("the © matrix reads as %d", c)
	}
	if _, err := CPCFont(lower[:100], make([]byte, 0x10000), MatrixVars6128); err == nil {
		t.Error("a short lower ROM was read")
	}
}

// BenchmarkCPCText reads a 6128's mode 2 screen, 80 by 25 cells of
// firmware text, as monitor's text does: the font, the colours and the
// matching.
func BenchmarkCPCText(b *testing.B) {
	lower := shared.ReadFile(b, "roms", "cpc6128.rom")[:0x4000]
	ram := make([]byte, 0x20000)
	sc := cpcscreen.Screen{Layout: cpcscreen.Video, Start: 0x3000, Width: 80, Height: 200, Lines: 8, Mode: 2}
	sc.Inks[1] = 24
	// Every cell a character, in the firmware's layout.
	for row := range 25 {
		for col := range 80 {
			ch := 32 + (row*80+col)%95
			for y := range 8 {
				ram[sc.Addr(col, row*8+y)] = lower[FontAddress+ch*8+y]
			}
		}
	}
	lines, err := CPC(sc, lower, ram, MatrixVars6128)
	if err != nil || len(lines) != 25 || !strings.HasPrefix(lines[0], ` !"#$%&'()*+,-./0123456789`) {
		b.Fatalf("read %q, %v", lines, err)
	}
	for b.Loop() {
		if _, err := CPC(sc, lower, ram, MatrixVars6128); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSpectrumText reads a Spectrum's 32 by 24 cells.
func BenchmarkSpectrumText(b *testing.B) {
	var mem [0x10000]byte
	copy(mem[:], shared.ReadFile(b, "roms", "spectrum48.rom"))
	mem[CHARS], mem[CHARS+1] = 0x00, 0x3C
	for i := 0x5800; i < 0x5B00; i++ {
		mem[i] = 0x38
	}
	peek := func(a uint16) byte { return mem[a] }
	for b.Loop() {
		if _, err := Spectrum(peek); err != nil {
			b.Fatal(err)
		}
	}
}
