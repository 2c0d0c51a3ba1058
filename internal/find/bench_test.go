package find

import (
	"testing"

	"colophon/internal/shared"
)

// ram128 is 128K of real Z80 code and data, as a 6128's RAM might hold
// after loading a program: the three CPC firmware images, AMSDOS and the
// 48K ROM end to end, 32K+32K+32K+16K+16K.
func ram128(b *testing.B) []byte {
	var ram []byte
	for _, name := range []string{"cpc6128.rom", "cpc664.rom", "cpc464.rom", "amsdos.rom", "spectrum48.rom"} {
		ram = append(ram, shared.ReadFile(b, "roms", name)...)
	}
	if len(ram) != 0x20000 {
		b.Fatalf("%d bytes, want 128K", len(ram))
	}
	return ram
}

// The target is a search over a 6128's whole 128K in 5 ms or less
// (issue 7, "Performance"). Each benchmark searches all of it from &00000.

func benchBytes(b *testing.B, ram []byte, p Pattern) {
	b.SetBytes(int64(len(ram)))
	b.ReportAllocs()
	var r Result
	for b.Loop() {
		r, _ = InBytes(p, ram, 0, 0)
	}
	b.ReportMetric(float64(r.Total), "matches")
}

func benchMemory(b *testing.B, ram []byte, p Pattern) {
	mem := func(a uint32) byte { return ram[a] }
	b.SetBytes(int64(len(ram)))
	b.ReportAllocs()
	var r Result
	for b.Loop() {
		r, _ = In(p, mem, 0, uint32(len(ram)))
	}
	b.ReportMetric(float64(r.Total), "matches")
}

// CALL TXT OUTPUT, three bytes, as a []byte: the RAM passed directly.
func BenchmarkFind128KBytes(b *testing.B) { benchBytes(b, ram128(b), mustBytes(b, "CD 5A BB")) }

// The same through a Memory, a call per byte, as a search through a
// machine's Peek reads.
func BenchmarkFind128KMemory(b *testing.B) { benchMemory(b, ram128(b), mustBytes(b, "CD 5A BB")) }

// A wildcard first: every byte is a candidate until the anchor.
func BenchmarkFind128KWildcard(b *testing.B) { benchBytes(b, ram128(b), mustBytes(b, "?? 5A BB")) }

// Text on the low seven bits: two bytes match each character.
func BenchmarkFind128KText(b *testing.B) { benchBytes(b, ram128(b), mustText(b, "Press")) }

// The worst case: 128K of zeros searched for 00 00, a match at every
// address, all counted and 256 listed.
func BenchmarkFind128KEverywhere(b *testing.B) {
	benchBytes(b, make([]byte, 0x20000), mustBytes(b, "00 00"))
}

// The worst case through a Memory.
func BenchmarkFind128KEverywhereMemory(b *testing.B) {
	benchMemory(b, make([]byte, 0x20000), mustBytes(b, "00 00"))
}
