package find

import (
	"colophon/internal/shared"
	"slices"
	"testing"

	"colophon/internal/machine/cpc"
)

// newCPC builds a model at power-on from the shared firmware.
func newCPC(t testing.TB, model cpc.Model) *cpc.CPC {
	t.Helper()
	cfg := cpc.Config{Model: model, Firmware: shared.ReadFile(t, "roms", model.String()+".rom")}
	if model.DiscInterface() {
		cfg.AMSDOS = shared.ReadFile(t, "roms", "amsdos.rom")
	}
	m, err := cpc.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestFD8BeneathTheROMsAndInTheSecond64K writes bytes through a 6128's
// banking beneath its lower ROM and at the top of its second 64K, and
// finds them by the RAM's own addresses where the banking put them, while
// a search as the processor reads finds the ROMs there instead; with the
// ROMs disabled it finds them by either way of asking (checklist FD-1,
// FD-8).
func TestFD8BeneathTheROMsAndInTheSecond64K(t *testing.T) {
	m := newCPC(t, cpc.CPC6128)
	low := []byte{0x4C, 0x4F, 0x57, 0x21, 0xA5, 0x5A}
	high := []byte{0x48, 0x49, 0x47, 0x48, 0x5A, 0xA5}
	poke := func(addr uint16, b []byte) {
		for i, v := range b {
			m.Poke(addr+uint16(i), v)
		}
	}
	// Power-on leaves both ROMs enabled, so a write at &0100 lands in the
	// RAM beneath the lower ROM (Grim, "The Gate Array": writes go to the
	// RAM under an enabled ROM).
	poke(0x0100, low)
	// RAM configuration 1 puts the second 64K's last 16K, RAM &1C000, at
	// &C000 (cpctech, "Amstrad CPC Ram Paging"), under the upper ROM.
	m.MMR = 0xC1
	m.Remap()
	poke(0xFFFA, high)

	pLow, pHigh := mustBytes(t, "4C 4F 57 21 A5 5A"), mustBytes(t, "48 49 47 48 5A A5")
	ram := func(p Pattern) []uint32 {
		r, err := InBytes(p, m.RAM, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		return r.Addrs
	}
	peek := func(p Pattern) []uint32 {
		r, err := In(p, func(a uint32) byte { return m.Peek(uint16(a)) }, 0, 0x10000)
		if err != nil {
			t.Fatal(err)
		}
		return r.Addrs
	}

	if got := ram(pLow); !slices.Equal(got, []uint32{0x00100}) {
		t.Errorf("by RAM address, the bytes beneath the lower ROM are found at %X, want &00100", got)
	}
	if got := ram(pHigh); !slices.Equal(got, []uint32{0x1FFFA}) {
		t.Errorf("by RAM address, the bytes at the top of the second 64K are found at %X, want &1FFFA", got)
	}
	if got := peek(pLow); slices.Contains(got, 0x0100) {
		t.Errorf("as the processor reads, with the lower ROM enabled, the RAM beneath it is found: %X", got)
	}
	if got := peek(pHigh); slices.Contains(got, 0xFFFA) {
		t.Errorf("as the processor reads, with the upper ROM enabled, the RAM beneath it is found: %X", got)
	}

	// With the ROMs disabled the processor reads the RAM: the base 64K's
	// block 0 at &0000, and in configuration 1 the second 64K's last
	// block at &C000.
	m.GA.LowerROM, m.GA.UpperROM = false, false
	m.Remap()
	if got := peek(pLow); !slices.Equal(got, []uint32{0x0100}) {
		t.Errorf("ROMs disabled, as the processor reads: found at %X, want &0100", got)
	}
	if got := peek(pHigh); !slices.Equal(got, []uint32{0xFFFA}) {
		t.Errorf("ROMs disabled, configuration 1, as the processor reads: found at %X, want &FFFA", got)
	}
	// And in configuration 0 the processor reads the base 64K alone, as
	// a search by RAM address over it does.
	m.MMR = 0xC0
	m.Remap()
	for _, p := range []Pattern{pLow, pHigh} {
		r, err := InBytes(p, m.RAM[:0x10000], 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if got := peek(p); !slices.Equal(got, r.Addrs) {
			t.Errorf("%v: configuration 0, ROMs disabled: the processor finds %X, the base 64K by RAM address %X", p, got, r.Addrs)
		}
	}
}
