package spectrum

import (
	"testing"

	"colophon/internal/chip/ula"
	"colophon/internal/media/tape"
	"colophon/internal/media/tape/tapetest"
)

// fiveMinutes is a tape of more than five minutes: seven files of 6912
// bytes each, as SAVE "name" CODE writes them, a header and its data, of
// bytes that vary as a real screen's do.
func fiveMinutes(tb testing.TB) *tape.Tape {
	var b []byte
	x := uint32(1)
	for i := range 7 {
		data := make([]byte, 6912)
		for k := range data {
			x = x*1103515245 + 12345
			data[k] = byte(x >> 16)
		}
		h := append([]byte{3}, []byte("screen    ")...)
		h[10] = '0' + byte(i)
		h = append(h, 0x00, 0x1B, 0x00, 0x40, 0x00, 0x80)
		b = append(b, tapetest.ROMBlock(0x00, h)...)
		b = append(b, tapetest.ROMBlock(0xFF, data)...)
	}
	tp, err := tape.Open(tape.TAP, b)
	if err != nil {
		tb.Fatal(err)
	}
	return tp
}

// BenchmarkTapeLoad15000Frames runs a Spectrum 15000 frames, five
// minutes, in LOAD "": with a tape of more than five minutes playing,
// whose headers the ROM reads and whose blocks it passes over, every
// pulse of it at the EAR socket; and with no tape, the ROM waiting on its
// EAR all the same. Loading costs what the frames cost (issue 13: a
// 5-minute tape in the time 15000 frames take, no more than 10% over the
// run without a tape).
func BenchmarkTapeLoad15000Frames(b *testing.B) {
	tp := fiveMinutes(b)
	var T uint64
	var r tape.Reader
	for {
		p, s := r.Next(tp, tape.Spectrum48)
		if s == tape.Ended {
			break
		}
		T += p.T
	}
	if T < 300*3500000 {
		b.Fatalf("the tape lasts %d T-states, less than five minutes", T)
	}
	for _, c := range []struct {
		name string
		tape *tape.Tape
	}{{"tape", tp}, {"none", nil}} {
		b.Run(c.name, func(b *testing.B) {
			r := rom(b)
			for b.Loop() {
				b.StopTimer()
				s, err := New(r)
				if err != nil {
					b.Fatal(err)
				}
				s.RunTicks(128 * ula.TicksPerFrame)
				if c.tape != nil {
					s.InsertTape(c.tape)
				}
				if _, err := s.Type("j\"\"\n"); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				s.RunTicks(15000 * ula.TicksPerFrame)
				b.StopTimer()
				// The tape played all the while: five minutes of it passed
				// the head.
				if c.tape != nil && (!s.Tape.Playing || s.Tape.Reader.Block < 10) {
					b.Fatalf("the tape stands at pulse %d, block %d of %d, playing %v", s.Tape.Reader.Pulses, s.Tape.Reader.Block, c.tape.Blocks(), s.Tape.Playing)
				}
				b.StartTimer()
			}
		})
	}
}
