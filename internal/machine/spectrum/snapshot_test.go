package spectrum

import (
	"bytes"
	"testing"

	"colophon/internal/chip/ula"
	"colophon/internal/media/sna"
)

// running boots a Spectrum and leaves a BASIC program looping in it, so
// that a snapshot catches a machine at work: interrupts on, the ROM
// scanning the keyboard, the interpreter reading contended memory.
func running(t *testing.T) *Spectrum {
	t.Helper()
	s := boot(t)
	cliFrames(s, 128)
	// 5 LET a=0; 10 LET a=a+1: BORDER 1: GO TO 10; RUN. At the K cursor
	// l is LET, b BORDER, g GO TO and r RUN.
	if _, err := s.Type("5 la=0\n10 la=a+1: b1: g10\nr\n"); err != nil {
		t.Fatal(err)
	}
	cliFrames(s, 7)
	return s
}

// TestSNA5SnapshotHoldsTheMachine checks what a 48K .sna holds of a machine
// [SNA]: its registers, its border and its RAM, with the program counter
// pushed under the stack pointer in the file and not in the machine
// (SNA-5).
func TestSNA5SnapshotHoldsTheMachine(t *testing.T) {
	s := running(t)
	ram := s.RAM()
	b, err := s.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(s.RAM(), ram) {
		t.Error("taking a snapshot changed the machine's RAM")
	}
	f, err := sna.ReadSpectrum48(b)
	if err != nil {
		t.Fatal(err)
	}
	c := &s.CPU
	if f.SP != c.SP-2 || f.PC() != c.PC {
		t.Errorf("file SP &%04X with PC &%04X under it; machine SP &%04X, PC &%04X", f.SP, f.PC(), c.SP, c.PC)
	}
	if f.AF != pair(c.A, c.F) || f.BC != pair(c.B, c.C) || f.DE != pair(c.D, c.E) || f.HL != pair(c.H, c.L) ||
		f.AF_ != pair(c.A_, c.F_) || f.BC_ != pair(c.B_, c.C_) || f.DE_ != pair(c.D_, c.E_) || f.HL_ != pair(c.H_, c.L_) ||
		f.IX != c.IX || f.IY != c.IY || f.I != c.I || f.R != c.R || f.IM != c.IM || f.IFF2 != c.IFF2 {
		t.Errorf("registers in the file %+v differ from the machine's", f)
	}
	if f.Border != 1 || s.ULA.Border != 1 {
		t.Errorf("border: file %d, machine %d; the program sets 1", f.Border, s.ULA.Border)
	}
	for i := range f.RAM {
		addr := uint16(0x4000 + i)
		if addr == f.SP || addr == f.SP+1 {
			continue
		}
		if f.RAM[i] != ram[i] {
			t.Fatalf("RAM at &%04X: &%02X in the file, &%02X in the machine", addr, f.RAM[i], ram[i])
		}
	}
}

// TestSnapshotRoundTrip saves a running machine, loads the file into a new
// one, runs both on, and finds the new one standing exactly where the one
// that ran on stands: every register, the RAM, the ULA and the picture.
//
// A .sna has no room for the ULA's place in its frame, so a machine loaded
// from one starts a frame; the machine is saved where one of its
// instructions ends exactly as a frame begins, so that the two agree on
// it.
func TestSnapshotRoundTrip(t *testing.T) {
	m := running(t)
	for tries := 0; m.FrameTick() != 0; tries++ {
		if tries == 200 {
			t.Fatal("no instruction ended on a frame's first tick in 200 frames")
		}
		m.RunTicks(ula.TicksPerFrame - 64 - m.FrameTick())
		for m.FrameTick() > 64 {
			m.Step(1)
		}
	}
	b, err := m.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	l, err := Load(rom(t), b)
	if err != nil {
		t.Fatal(err)
	}
	if again, err := l.Snapshot(); err != nil || !bytes.Equal(again, b) {
		t.Fatalf("the loaded machine saves differently (%v)", err)
	}

	t0 := m.Tick()
	for _, s := range []*Spectrum{m, l} {
		s.RunFrames(20)
		// Break into the program, and let the ROM print its report.
		s.Hold([]string{"CAPS", "SPACE"})
		s.RunFrames(5)
		s.Hold(nil)
		s.RunFrames(25)
	}

	mc, lc := m.CPU, l.CPU
	if mc.Tick-t0 != lc.Tick {
		t.Errorf("the loaded machine is at tick %d, the other %d ticks on", lc.Tick, mc.Tick-t0)
	}
	mc.Tick, lc.Tick = 0, 0
	mc.Bus, lc.Bus = nil, nil // each its own board
	if mc != lc {
		t.Errorf("processors differ:\nran on %+v\nloaded %+v", mc, lc)
	}
	if !bytes.Equal(m.RAM(), l.RAM()) {
		t.Error("RAM differs")
	}
	if m.FrameTick() != l.FrameTick() || m.ULA.Border != l.ULA.Border || m.ULA.EAR != l.ULA.EAR || m.ULA.MIC != l.ULA.MIC {
		t.Errorf("ULAs differ: frame tick %d and %d, border %d and %d",
			m.FrameTick(), l.FrameTick(), m.ULA.Border, l.ULA.Border)
	}
	if !bytes.Equal(m.Picture().Pix, l.Picture().Pix) {
		t.Error("pictures differ")
	}
	if line := screenText(l)[23]; line != "L BREAK into program, 10:2" {
		t.Errorf("the loaded machine's report reads %q", line)
	}
}

// TestSnapshotRefusals checks the machines a .sna cannot hold.
func TestSnapshotRefusals(t *testing.T) {
	s := boot(t)
	s.CPU.SP = 0x4001 // the program counter would go to &3FFF
	if _, err := s.Snapshot(); err == nil {
		t.Error("a snapshot with the program counter pushed into the ROM was taken")
	}
	s.CPU.SP = 0x8000
	s.CPU.Prefix = 0xDD
	if _, err := s.Snapshot(); err == nil {
		t.Error("a snapshot inside a chain of prefixes was taken")
	}
	if _, err := Load(rom(t), make([]byte, 100)); err == nil {
		t.Error("a file of 100 bytes loaded")
	}
}
