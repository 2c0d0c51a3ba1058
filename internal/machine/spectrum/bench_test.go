package spectrum

import (
	"testing"

	"colophon/internal/chip/ula"
)

// BenchmarkSpectrum1500Frames boots a Spectrum from power-on and runs 1500
// frames, as `colophon boot --machine spectrum48 --frames 1500` does, the
// ULA painting every frame. The target is 0.7 s an operation on the
// 2-core machine (ARCHITECTURE.md, "Performance budget").
func BenchmarkSpectrum1500Frames(b *testing.B) {
	r := rom(b)
	for b.Loop() {
		s, err := New(r)
		if err != nil {
			b.Fatal(err)
		}
		s.RunTicks(1500 * ula.TicksPerFrame)
		if s.Frames() != 1500 {
			b.Fatalf("ran %d frames", s.Frames())
		}
	}
}
