package spectrum

import (
	"os"
	"strings"
	"testing"

	"colophon/internal/shared"
	"colophon/internal/typing"
)

// rom reads the shared 48K ROM.
func rom(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile(shared.TestPath(t, "roms", "spectrum48.rom"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func boot(t testing.TB) *Spectrum {
	t.Helper()
	s, err := New(rom(t))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// fontAt is where the 48K ROM keeps its character set: 96 characters of
// 8 bytes, from the space (The Complete Spectrum ROM Disassembly, "THE
// 'CHARACTER SET'", &3D00).
const fontAt = 0x3D00

// screenText reads the screen's memory back as text through the ROM's own
// character set: each 8x8 cell whose bitmap is a character's, in ink, is
// that character; a cell matching none is '?'. Rows are trimmed of the
// spaces at their ends.
func screenText(s *Spectrum) []string {
	lines := make([]string, 24)
	for row := range 24 {
		var b strings.Builder
		for col := range 32 {
			var cell [8]byte
			for i := range 8 {
				y := row*8 + i
				cell[i] = s.Peek(uint16(0x4000 | (y&0xC0)<<5 | (y&7)<<8 | (y&0x38)<<2 | col))
			}
			ch := byte('?')
			for c := 0; c < 96; c++ {
				match := true
				for i := range 8 {
					if s.Peek(uint16(fontAt+c*8+i)) != cell[i] {
						match = false
						break
					}
				}
				if match {
					ch = byte(0x20 + c)
					break
				}
			}
			b.WriteByte(ch)
		}
		lines[row] = strings.TrimRight(b.String(), " ")
	}
	return lines
}

// plan plans typing on a Spectrum.
func plan(text string) ([]typing.Press, uint64, error) { return typing.Plan(text, Layout) }
