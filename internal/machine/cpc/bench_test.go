package cpc

import "testing"

// BenchmarkCPC6128_1500Frames runs a 6128 from power-on for 1500 standard
// frames, the monitor drawing every frame, as
// `colophon boot --machine cpc6128 --frames 1500` does (docs/performance.md).
func BenchmarkCPC6128_1500Frames(b *testing.B) {
	for b.Loop() {
		b.StopTimer()
		m := boot(b, CPC6128)
		b.StartTimer()
		m.RunTicks(1500 * TicksPerFrame)
	}
}

// BenchmarkCPC6128RunFrames1500 runs a booted 6128, waiting at BASIC's
// Ready, on until the monitor has retraced 1500 frames, as the MCP
// server's `run {"frames":1500}` does (docs/performance.md).
func BenchmarkCPC6128RunFrames1500(b *testing.B) {
	for b.Loop() {
		b.StopTimer()
		m := boot(b, CPC6128)
		m.RunTicks(100 * TicksPerFrame)
		b.StartTimer()
		if r := m.RunFrames(1500); r.Frames != 1500 {
			b.Fatalf("ran %d frames, want 1500", r.Frames)
		}
	}
}

// BenchmarkCPC6128RunTicks1500 runs the same booted 6128 on for 1500
// standard frames' ticks, the run by frames' measure.
func BenchmarkCPC6128RunTicks1500(b *testing.B) {
	for b.Loop() {
		b.StopTimer()
		m := boot(b, CPC6128)
		m.RunTicks(100 * TicksPerFrame)
		b.StartTimer()
		m.RunTicks(1500 * TicksPerFrame)
	}
}

// BenchmarkDiscLoad times the 180 frames in which a 6128 loads cpcrogue
// after run"rogue: AMSDOS starts the motor, waits for the drive, seeks and
// reads the program off the disc, polling the disc controller a byte at a
// time; beside 180 frames of the same machine with no disc, waiting at
// BASIC's prompt. The speed budget: a disc program's load costs no more
// than 10% over frames without a disc (docs/performance.md, "Discs").
func BenchmarkDiscLoad(b *testing.B) {
	rogue := media(b, "cpcrogue_basic.dsk")
	b.Run("disc", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			m := boot(b, CPC6128)
			if err := m.InsertDisc(0, rogue, false); err != nil {
				b.Fatal(err)
			}
			m.RunTicks(78 * TicksPerFrame)
			if _, err := m.Type("run\"rogue\n"); err != nil {
				b.Fatal(err)
			}
			// The disc controller works from the 71st frame after the
			// typing to the 238th.
			m.RunTicks(60 * TicksPerFrame)
			b.StartTimer()
			m.RunTicks(180 * TicksPerFrame)
		}
	})
	b.Run("no-disc", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			m := boot(b, CPC6128)
			m.RunTicks(78 * TicksPerFrame)
			b.StartTimer()
			m.RunTicks(180 * TicksPerFrame)
		}
	})
}
