package spectrum

import (
	"testing"

	"colophon/internal/chip/ula"
	"colophon/internal/inspect"
	"colophon/internal/machine"
)

// TestHostViews: what a host asks of a Spectrum beyond machine.Machine, its
// memory's sources and its processor, answers as the board is wired: the
// ROM below &4000 for good, the RAM above it (PR-5).
func TestHostViews(t *testing.T) {
	s := boot(t)
	for _, tt := range []struct {
		addr uint16
		want machine.Source
	}{
		{0x0000, machine.Source{ROM: true}},
		{0x3FFF, machine.Source{ROM: true}},
		{0x4000, machine.Source{RAM: 0x4000}},
		{0xFFFF, machine.Source{RAM: 0xFFFF}},
	} {
		if got := s.Source(tt.addr); got != tt.want {
			t.Errorf("Source(&%04X) = %+v, want %+v", tt.addr, got, tt.want)
		}
	}
	if s.Processor() != &s.CPU {
		t.Errorf("Processor is not the machine's own Z80")
	}
	if s.InspectRoot() != any(s) {
		t.Errorf("InspectRoot is not the machine")
	}
}

// TestInspectable: every field inspect reaches is named, frame_tick reads
// the tick of the frame the machine stands at, and set stands the ULA by it
// (IS-10), refusing one past the frame.
func TestInspectable(t *testing.T) {
	s := boot(t)
	if err := inspect.Check(s); err != nil {
		t.Fatal(err)
	}
	s.RunTicks(3*ula.TicksPerFrame + 1000)
	ft, err := inspect.Get(s, "frame_tick")
	if err != nil {
		t.Fatal(err)
	}
	if want := s.FrameTick(); ft != want {
		t.Errorf("frame_tick reads %v, want %d", ft, want)
	}
	if err := inspect.Set(s, "frame_tick", 5000); err != nil {
		t.Fatal(err)
	}
	if got := s.FrameTick(); got != 5000 {
		t.Errorf("after set frame_tick 5000 the machine stands at frame tick %d", got)
	}
	x, y := s.ULA.Beam(s.CPU.Tick)
	if p := s.Picture(); p.BeamX != x || p.BeamY != y {
		t.Errorf("the picture's beam %d,%d is not the ULA's %d,%d", p.BeamX, p.BeamY, x, y)
	}
	err = inspect.Set(s, "frame_tick", ula.TicksPerFrame)
	if err == nil || s.FrameTick() != 5000 {
		t.Errorf("set frame_tick %d: %v, and the machine stands at %d", ula.TicksPerFrame, err, s.FrameTick())
	}
}

// TestSetKeysHeld holds KEY-12: keys written into the ULA's half-rows are
// the keys held, and typing keeps them down.
func TestSetKeysHeld(t *testing.T) {
	s := boot(t)
	s.RunTicks(128 * ula.TicksPerFrame)
	if err := inspect.Set(s, "ula.keys[7]", 1); err != nil { // SPACE
		t.Fatal(err)
	}
	if held := s.Held(); len(held) != 1 || held[0] != "SPACE" {
		t.Fatalf("after set the keys held are %v, want SPACE", held)
	}
	if _, err := s.Type("a"); err != nil {
		t.Fatal(err)
	}
	if s.ULA.Keys[7] != 1 || s.ULA.Keys[1] != 0 {
		t.Errorf("after typing the half-rows hold % X, want SPACE alone", s.ULA.Keys)
	}
}
