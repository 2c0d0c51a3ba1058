package compare

import "testing"

// A 6128's whole 128K compared, as compare answers it from &00000.

func benchDiff(b *testing.B, set func(a, b []byte)) {
	x, y, _ := twoRAMs(set)
	b.SetBytes(int64(len(x)))
	b.ReportAllocs()
	var r Result
	for b.Loop() {
		r, _ = Diff(x, y, 0)
	}
	b.ReportMetric(float64(r.Total), "differ")
}

// Alike throughout: the case of a state kept and compared at once.
func BenchmarkDiff128KAlike(b *testing.B) { benchDiff(b, func(a, b []byte) {}) }

// What a frame of a program's run might change: a few hundred bytes of
// variables and a stretch of screen, in 300 runs.
func BenchmarkDiff128KFrame(b *testing.B) {
	benchDiff(b, func(a, b []byte) {
		for i := range 300 {
			for k := range 1 + i%7 {
				b[(i*409+k)%len(b)]++
			}
		}
	})
}

// Every byte differs: the most counting there can be.
func BenchmarkDiff128KAll(b *testing.B) {
	benchDiff(b, func(a, b []byte) {
		for i := range b {
			b[i]++
		}
	})
}

// Every other byte differs: the most runs there can be.
func BenchmarkDiff128KEveryOther(b *testing.B) {
	benchDiff(b, func(a, b []byte) {
		for i := 0; i < len(b); i += 2 {
			b[i]++
		}
	})
}
