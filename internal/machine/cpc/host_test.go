package cpc

import (
	"testing"

	"colophon/internal/inspect"
)

// TestIS1Inspectable holds the board's struct to what inspect walks: every
// exported field named, and the paths the spec gives read back.
func TestIS1Inspectable(t *testing.T) {
	m := boot(t, CPC6128)
	m.RunTicks(10 * TicksPerFrame)
	if err := inspect.Check(m.InspectRoot()); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]uint64{
		"cpu.pc":             uint64(m.CPU.PC),
		"crtc.registers[12]": uint64(m.CRTC.Registers[12]),
		"gate_array.r52":     uint64(m.GA.R52),
	} {
		v, err := inspect.Get(m.InspectRoot(), path)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if got, ok := v.(uint64); !ok || got != want {
			t.Errorf("%s reads %v, want %d", path, v, want)
		}
	}
}
