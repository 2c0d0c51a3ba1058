package watch

import (
	"crypto/sha256"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"colophon/internal/machine/cpc"
)

// The budgets of the conditions (issue 11, "Speed"), each against the
// plain run beside it, on a 6128 booted to BASIC's Ready and run on for
// 1500 frames, as run {"frames": 1500} does:
//
//	go test ./internal/watch -run '^$' -bench . -count 3
//
// BenchmarkRun1500 is the plain run; BenchmarkRun1500OneExec, with one
// exec condition, is to take at most 10% longer; BenchmarkRun1500CountAll,
// counting every instruction, read and write by address over all memory
// (as to a file, where it never fills), at most 3 times as long.

func booted(b *testing.B) *cpc.CPC {
	b.Helper()
	m := newCPC(b)
	m.RunTicks(100 * cpc.TicksPerFrame)
	return m
}

// cpuTime is the process's CPU time so far, user and system: a measure a
// machine shared with other work disturbs less than the clock.
func cpuTime() time.Duration {
	var u syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &u)
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

func runWatched(b *testing.B, opts *Options) {
	var cpu time.Duration
	defer func() { b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op") }()
	for b.Loop() {
		b.StopTimer()
		m := booted(b)
		var e *Engine
		if opts != nil {
			e = New(m, *opts)
			m.Watch(e.Watch())
		}
		b.StartTimer()
		t0 := cpuTime()
		if r := m.RunFrames(1500); r.Frames != 1500 {
			b.Fatalf("ran %d frames", r.Frames)
		}
		cpu += cpuTime() - t0
		if e != nil && e.Stop() != NotStopped {
			b.Fatalf("the conditions stopped the run")
		}
	}
}

func BenchmarkRun1500(b *testing.B) { runWatched(b, nil) }

// BenchmarkRun1500OneExec waits for an instruction at &0000, which BASIC
// waiting at Ready never runs: every instruction is looked at, none
// matches.
func BenchmarkRun1500OneExec(b *testing.B) {
	runWatched(b, &Options{Until: []Condition{{Kind: Exec, Lo: 0, Hi: 0}}, CPC: true})
}

func BenchmarkRun1500CountAll(b *testing.B) {
	all := func(k Kind) Condition { return Condition{Kind: k, Lo: 0, Hi: 0xFFFF} }
	runWatched(b, &Options{Count: []Condition{all(Exec), all(Read), all(Write)}, File: true, CPC: true})
}

// BenchmarkPathMillion writes a file of 1048576 gathered matches, each
// instruction a 6128 runs from power-on, with its SHA-256, as run's path
// does once the run is over: to take under 5 s.
func BenchmarkPathMillion(b *testing.B) {
	m := newCPC(b)
	e := New(m, Options{Gather: []Condition{{Kind: Exec, Lo: 0, Hi: 0xFFFF}}, File: true, CPC: true})
	m.Watch(e.Watch())
	m.RunTicks(1500 * cpc.TicksPerFrame)
	m.Watch(nil)
	if e.Stop() != Full || len(e.recs) < FileMatches {
		b.Fatalf("gathered %d matches", len(e.recs))
	}
	dir := b.TempDir()
	n := 0
	var cpu time.Duration
	defer func() { b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op") }()
	for b.Loop() {
		t0 := cpuTime()
		n++
		f, err := os.Create(filepath.Join(dir, "m"+string(rune('a'+n%26))))
		if err != nil {
			b.Fatal(err)
		}
		h := sha256.New()
		lines, err := e.Write(io.MultiWriter(f, h))
		if err != nil || lines.Gathered != len(e.recs) {
			b.Fatalf("wrote %d lines: %v", lines.Gathered, err)
		}
		f.Close()
		cpu += cpuTime() - t0
		os.Remove(f.Name())
	}
}
