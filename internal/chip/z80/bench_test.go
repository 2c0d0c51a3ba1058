package z80_test

import (
	"os"
	"testing"

	"colophon/internal/shared"
)

// BenchmarkZ80 measures the processor alone, on a flat 64K RAM bus with no
// waits, as MHz-equivalent: T-states emulated per second of host time, over
// a million.
//
// The program is ZEXDOC, a real one rather than a loop of NOPs. Between two
// runs of the instruction under test its driver steps the operands through
// their combinations, copies the instruction into place and folds the
// machine state into a CRC with table look-ups: loads, 16-bit arithmetic,
// shifts, logic, jumps, calls and returns. Counted once with a logging bus,
// its first 200 million T-states fetch at 386 addresses, 87 distinct
// opcode bytes, and no address takes more than 2% of the fetches. Each
// iteration runs it on for a fixed million T-states.
//
//	go test ./internal/chip/z80/ -run '^$' -bench BenchmarkZ80 -benchtime 5s
func BenchmarkZ80(b *testing.B) {
	path := shared.TestPath(b, "testdata", "z80", "zex", "zexdoc.com")
	com, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	m, err := newCPM(path, com)
	if err != nil {
		b.Fatal(err)
	}
	const slice = 1_000_000 // T-states per iteration
	var ticks uint64
	b.ReportAllocs()
	for b.Loop() {
		start := m.cpu.Tick
		done, err := m.run(start+slice, nil)
		if err != nil {
			b.Fatal(err)
		}
		ticks += m.cpu.Tick - start
		if done {
			// ZEXDOC ends after 46.7 billion T-states; should a long
			// run get there, start it again.
			if m, err = newCPM(path, com); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(ticks)/b.Elapsed().Seconds()/1e6, "MHz")
}
