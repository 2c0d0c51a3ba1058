package disasm

import (
	"testing"

	"colophon/internal/shared"
)

// BenchmarkList1000 lists 1000 instructions of the 48K ROM from &0000
// with no firmware: the target is 2 ms for 1000 (issue 7,
// "Performance").
func BenchmarkList1000(b *testing.B) {
	rom := shared.ReadFile(b, "roms", "spectrum48.rom")
	var m flat
	m.load(0, rom)
	var d Disassembler
	b.ReportAllocs()
	for b.Loop() {
		if _, err := d.List(m.read, 0, 1000); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkList1000CPC lists 1000 instructions of a 6128's lower ROM from
// &0000 following its firmware: names, labels and restarts' words.
func BenchmarkList1000CPC(b *testing.B) {
	lower := cpcLower(b, CPC6128)
	var m flat
	m.load(0, lower)
	d := newCPC(b, CPC6128, lower)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := d.List(m.read, 0, 1000); err != nil {
			b.Fatal(err)
		}
	}
}
