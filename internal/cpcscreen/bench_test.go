package cpcscreen

import "testing"

// BenchmarkReadStandard reads the firmware's standard screen, 80 bytes by
// 200 lines at &C000, into a 640x400 picture.
func BenchmarkReadStandard(b *testing.B) {
	ram := make([]byte, 0x20000)
	for i := range ram {
		ram[i] = byte(i * 7)
	}
	s := Screen{Layout: Video, Start: 0x3000, Width: 80, Height: 200, Lines: 8, Mode: 1}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Read(ram); err != nil {
			b.Fatal(err)
		}
	}
}
