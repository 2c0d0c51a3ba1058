package spectrum

import (
	"slices"
	"testing"

	"colophon/internal/chip/ula"
	"colophon/internal/machine"
)

// cliFrames runs frames as the command line counts them: the ticks of
// standard frames (spec, "Time").
func cliFrames(s *Spectrum, n uint64) machine.Result {
	return s.RunTicks(n * ula.TicksPerFrame)
}

// TestKEY19BootShowsCopyright boots the 48K ROM from power-on for the 128
// frames the command line waits (KEY-19) and reads its message back off
// the screen through the ROM's own character set, in which &7F is ©.
func TestKEY19BootShowsCopyright(t *testing.T) {
	s := boot(t)
	cliFrames(s, 128)
	lines := screenText(s)
	if lines[23] != "© 1982 Sinclair Research Ltd" {
		t.Errorf("line 23 reads %q, want the copyright message", lines[23])
	}
	for i, l := range lines[:23] {
		if l != "" {
			t.Errorf("line %d reads %q, want nothing", i, l)
		}
	}
}

// TestKEY15Print2Plus2 types p2+2 and ENTER after the command line's 128 frames
// (KEY-15): at the K cursor p is PRINT (KEY-18), and the ROM's answer,
// read from the screen's memory in its own font, is 4 at the top, with
// "0 OK, 0:1" on the bottom line below it.
func TestKEY15Print2Plus2(t *testing.T) {
	s := boot(t)
	cliFrames(s, 128)
	r, err := s.Type("p2+2\n")
	if err != nil {
		t.Fatal(err)
	}
	// Five characters, each 3 frames down and 6 up (KEY-4).
	if want := uint64(5 * 9 * ula.TicksPerFrame); r.Ticks < want || r.Ticks > want+23 {
		t.Errorf("typing took %d ticks, want %d and the end of an instruction", r.Ticks, want)
	}
	lines := screenText(s)
	if lines[0] != "4" {
		t.Errorf("line 0 reads %q, want %q", lines[0], "4")
	}
	if lines[23] != "0 OK, 0:1" {
		t.Errorf("line 23 reads %q, want %q", lines[23], "0 OK, 0:1")
	}
	for i, l := range lines[1:23] {
		if l != "" {
			t.Errorf("line %d reads %q, want nothing", i+1, l)
		}
	}
}

// TestKEY17BreakIntoProgram holds CAPS and SPACE through a run while a BASIC
// program loops, and the ROM stops it with report L (KEY-17).
func TestKEY17BreakIntoProgram(t *testing.T) {
	s := boot(t)
	cliFrames(s, 128)
	// 10 GO TO 10, and RUN: at the K cursor g is GO TO and r is RUN.
	if _, err := s.Type("10 g10\nr\n"); err != nil {
		t.Fatal(err)
	}
	cliFrames(s, 10)
	if l := screenText(s)[23]; l != "" {
		t.Fatalf("the program is not running: line 23 reads %q", l)
	}
	if err := s.Hold([]string{"CAPS", "SPACE"}); err != nil {
		t.Fatal(err)
	}
	if held := s.Held(); !slices.Equal(held, []string{"CAPS", "SPACE"}) {
		t.Errorf("Held() = %q", held)
	}
	s.RunFrames(10)
	if err := s.Hold(nil); err != nil {
		t.Fatal(err)
	}
	s.RunFrames(10)
	if l := screenText(s)[23]; l != "L BREAK into program, 10:1" {
		t.Errorf("line 23 reads %q, want report L", l)
	}
}
