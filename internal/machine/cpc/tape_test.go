package cpc

import (
	"strings"
	"testing"

	"colophon/internal/media/tape"
	"colophon/internal/media/tape/tapetest"
)

// marker is the binary the tests load: LD A,&42; LD (&5000),A; JR $, at
// &4000.
var marker = []byte{0x3E, 0x42, 0x32, 0x00, 0x50, 0x18, 0xFE}

// runUntil runs frames until done says so, at most limit of them.
func runUntil(m *CPC, limit int, done func() bool) bool {
	for range limit {
		if done() {
			return true
		}
		m.RunTicks(TicksPerFrame)
	}
	return done()
}

// TestDT24RunLoadsABinary puts a tape of one binary file, written as SOFT
// 968's cassette manager records one, in each CPC's deck at power-on;
// finds it standing still while the motor is off, for longer than the
// leader and its first record; types RUN" (after |TAPE on the 664 and
// 6128, whose AMSDOS has the cassette routines), presses a key when the
// firmware asks for PLAY and a key, and hears the first edge the reel's
// 50 ms and the leader's 5.7 s after the motor starts; and the firmware
// loads the file and runs it from its entry address (DT-20, DT-22,
// DT-24).
func TestDT24RunLoadsABinary(t *testing.T) {
	image := tapetest.CPCBinary("MARKER", 0x4000, 0x4000, marker)
	for _, model := range []Model{CPC464, CPC664, CPC6128} {
		t.Run(model.String(), func(t *testing.T) {
			m := boot(t, model)
			tp, err := tape.Open(tape.TZX, image)
			if err != nil {
				t.Fatal(err)
			}
			m.InsertTape(tp)
			inserted := m.Tape

			// 15 s with the motor off: more than the leader's 5.7 s and
			// the first record's 9 s or so.
			m.RunTicks(15 * 50 * TicksPerFrame)
			if d := m.TapeDeck(); d.Reader != inserted.Reader || d.TicksLeft != inserted.TicksLeft || d.Turning {
				t.Fatalf("the tape moved with the motor off: %+v", *d)
			}
			if model != CPC464 {
				if _, err := m.Type("|TAPE\n"); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := m.Type("RUN\"\n"); err != nil {
				t.Fatal(err)
			}
			if !runUntil(m, 100, func() bool { return strings.Contains(strings.Join(text(t, m), "\n"), "PLAY") }) {
				t.Fatalf("the firmware does not ask for PLAY:\n%s", strings.Join(text(t, m), "\n"))
			}
			// A key, held until the motor starts; the reel's lag is then
			// what the deck has counted since.
			if err := m.Hold([]string{"SPACE"}); err != nil {
				t.Fatal(err)
			}
			var on uint64
			for range 4 * 50 * 100 {
				m.RunTicks(1000)
				if d := m.TapeDeck(); d.Motor {
					on = d.Tick - d.Reel
					break
				}
			}
			m.Hold(nil)
			if on == 0 {
				t.Fatal("the motor did not start")
			}
			d := m.Tape
			edge := on + 200000 + 22800000
			if d.LevelAt(edge-1) || !d.LevelAt(edge) {
				t.Errorf("the first edge is not at tick %d, 50 ms and 5.7 s after the motor started at %d", edge, on)
			}
			if !runUntil(m, 40*50, func() bool { return m.Peek(0x5000) == 0x42 }) {
				t.Fatalf("the program did not run; the screen:\n%s", strings.Join(text(t, m), "\n"))
			}
			// The program loops at &4005, between the firmware's
			// interrupts.
			for range 10000 {
				if m.CPU.PC == 0x4005 {
					return
				}
				m.Step(1)
			}
			t.Errorf("the processor never comes to &4005, where the program loops")
		})
	}
}
