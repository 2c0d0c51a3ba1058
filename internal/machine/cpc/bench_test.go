package cpc

import (
	"syscall"
	"testing"
	"time"
)

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
// time; beside the same 180 frames with no disc in the drive, in which
// AMSDOS waits for the drive, finds no disc and waits for a key; and 180
// frames at BASIC's prompt. The speed budget: a disc program's load costs no more
// than 10% over frames without a disc (docs/performance.md, "Discs"). Each
// reports too the processor time the process spent in the frames timed,
// cpu-ns/op, which a loaded machine's other work disturbs less than it
// does the time on the clock.
func BenchmarkDiscLoad(b *testing.B) {
	rogue := media(b, "cpcrogue_basic.dsk")
	for _, c := range []struct {
		name  string
		disc  []byte
		typed bool
	}{{"with", rogue, true}, {"without", nil, true}, {"prompt", nil, false}} {
		b.Run(c.name, func(b *testing.B) {
			var cpu time.Duration
			for b.Loop() {
				b.StopTimer()
				m := boot(b, CPC6128)
				m.RunTicks(78 * TicksPerFrame)
				if c.disc != nil {
					if err := m.InsertDisc(0, c.disc, false); err != nil {
						b.Fatal(err)
					}
				}
				if c.typed {
					if _, err := m.Type("run\"rogue\n"); err != nil {
						b.Fatal(err)
					}
					// The disc controller works from the 71st frame after
					// the typing to the 238th.
					m.RunTicks(60 * TicksPerFrame)
				}
				start := processorTime()
				b.StartTimer()
				m.RunTicks(180 * TicksPerFrame)
				b.StopTimer()
				cpu += processorTime() - start
				b.StartTimer()
			}
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
		})
	}
}

// processorTime is the processor time the process has spent, user and
// system.
func processorTime() time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
