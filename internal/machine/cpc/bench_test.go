package cpc

import "testing"

// BenchmarkCPC6128_1500Frames runs a 6128 from power-on for 1500 standard
// frames, the monitor drawing every frame, as
// `colophon boot --machine cpc6128 --frames 1500` does (docs/performance.md).
func BenchmarkCPC6128_1500Frames(b *testing.B) {
	for b.Loop() {
		b.StopTimer()
		m := boot(b, CPC6128)
		b.StartTimer()
		m.RunTicks(1500 * TicksPerFrame)
	}
}
