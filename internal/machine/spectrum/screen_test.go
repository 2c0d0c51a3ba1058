package spectrum

import (
	"os"
	"testing"

	"colophon/internal/screentext"
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

// screenText reads the screen's memory back as text through the font the
// ROM draws with, CHARS's (internal/screentext), each row trimmed of the
// spaces at its end.
func screenText(s *Spectrum) []string {
	lines, err := screentext.Spectrum(s.Peek)
	if err != nil {
		panic(err)
	}
	return lines
}

// plan plans typing on a Spectrum.
func plan(text string) ([]typing.Press, uint64, error) { return typing.Plan(text, Layout) }
