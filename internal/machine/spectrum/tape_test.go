package spectrum

import (
	"image/png"
	"os"
	"testing"

	"colophon/internal/chip/ula"
	"colophon/internal/media/tape"
	"colophon/internal/media/tape/tapetest"
	"colophon/internal/picture"
	"colophon/internal/shared"
)

// pokeProgram is 10 POKE 32768,123, POKE being the token &F4 (the 48K
// ROM's token table).
var pokeProgram = tapetest.Line(10, append(append(append([]byte{0xF4}, tapetest.Number(32768)...), ','), tapetest.Number(123)...)...)

func openTape(t testing.TB, format tape.Format, b []byte) *tape.Tape {
	t.Helper()
	tp, err := tape.Open(format, b)
	if err != nil {
		t.Fatal(err)
	}
	return tp
}

// TestDT19LoadAutostarts puts a tape of one BASIC program, written as the
// ROM's SAVE "colophon" LINE 10 writes it, in a Spectrum's deck once the
// ROM has started, hears its first edge at the EAR socket 5.7 seconds
// later, and types LOAD "", which loads the program and runs it from line
// 10: 32768 holds 123 (DT-18, DT-19).
func TestDT19LoadAutostarts(t *testing.T) {
	s := boot(t)
	s.RunTicks(128 * ula.TicksPerFrame)
	tp := openTape(t, tape.TAP, tapetest.SpectrumProgram("colophon", 10, pokeProgram))
	at := s.CPU.Tick
	s.InsertTape(tp)

	// The first edge: a copy of the deck, run to the tick before and the
	// tick of 5.7 s at 3.5 MHz.
	edge := at + 5700*3500
	d := s.Tape
	if d.LevelAt(edge - 1) {
		t.Fatalf("the EAR socket is high before tick %d", edge)
	}
	if !d.LevelAt(edge) {
		t.Fatalf("no edge at tick %d, 5.7 s after PLAY", edge)
	}

	if _, err := s.Type("j\"\"\n"); err != nil {
		t.Fatal(err)
	}
	// 5.7 s of leader, 5 s of the header's pilot, the header, a second's
	// pause, 2 s of the program's pilot and the program: 15 s is plenty.
	for range 15 * 50 {
		s.RunTicks(ula.TicksPerFrame)
		if s.Peek(32768) == 123 {
			break
		}
	}
	if got := s.Peek(32768); got != 123 {
		t.Fatalf("32768 holds %d after loading; the program, autostarted at line 10, pokes 123", got)
	}
	// The program is in memory where BASIC keeps it, at PROG.
	prog := uint16(s.Peek(23635)) | uint16(s.Peek(23636))<<8
	for i, v := range pokeProgram {
		if s.Peek(prog+uint16(i)) != v {
			t.Fatalf("the program's byte %d at &%04X is &%02X; the tape held &%02X", i, prog+uint16(i), s.Peek(prog+uint16(i)), v)
		}
	}
}

// TestDT16YartzLoads loads the demo yartz from ../shared/testdata/media:
// LOAD "" typed once the ROM has started, with the tape put in just
// before, and 3400 frames after, the demo's rotozoomer is on the monitor,
// as testdata/yartz-3400.png shows it (made by this test and looked at:
// the demo's "GDC presents" has given way to its rotating picture, in
// its colours). The .tap and the .tzx, which wraps the same blocks with a
// text block before them, give the same picture.
func TestDT16YartzLoads(t *testing.T) {
	for _, c := range []struct {
		file   string
		format tape.Format
	}{{"yartz.tap", tape.TAP}, {"yartz.tzx", tape.TZX}} {
		t.Run(c.file, func(t *testing.T) {
			s := boot(t)
			s.RunTicks(128 * ula.TicksPerFrame)
			s.InsertTape(openTape(t, c.format, shared.ReadFile(t, "testdata", "media", "spectrum", c.file)))
			if _, err := s.Type("j\"\"\n"); err != nil {
				t.Fatal(err)
			}
			s.RunTicks(3400 * ula.TicksPerFrame)
			if s.CPU.PC < 0x8000 {
				t.Errorf("the processor is at &%04X, in the ROM or low RAM; the demo runs above &8000", s.CPU.PC)
			}
			samePicture(t, s.Picture(), "testdata/yartz-3400.png")
		})
	}
}

// samePicture compares a picture with a PNG of this package's testdata,
// by the colours they decode to.
func samePicture(t *testing.T, p *picture.Picture, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if b := g.Bounds(); b.Dx() != p.Width || b.Dy() != p.Height {
		t.Fatalf("%s is %dx%d; ours is %dx%d", path, b.Dx(), b.Dy(), p.Width, p.Height)
	}
	img := p.Image()
	bad := 0
	for y := range p.Height {
		for x := range p.Width {
			r0, g0, b0, _ := g.At(x, y).RGBA()
			r1, g1, b1, _ := img.At(x, y).RGBA()
			if r0 != r1 || g0 != g1 || b0 != b1 {
				bad++
			}
		}
	}
	if bad > 0 {
		t.Errorf("%s: %d pixels differ", path, bad)
	}
}
