package window

import (
	"context"
	"net"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"colophon/internal/host"
	"colophon/internal/server"
	"colophon/internal/transport"
)

// frameTime is a standard frame's time on either machine: 79872 ticks at
// 4 MHz, 69888 at 3.5 MHz, both 19.968 ms.
const frameTime = 19968 * time.Microsecond

// The budget (issue 16, "Timing"): a tool call in the window is
// answered within two frames' time plus the call's own work. The
// benchmarks below measure both sides of it: BenchmarkCallInWindow a peek
// to the window's machine while it runs in real time, over HTTP;
// BenchmarkCallOwnWork the same peek to a machine no loop owns, over the
// same transport, which is the call's own work. Each reports, beside
// ns/op, the 99th percentile (p99-ns) and the mean in frames (frames/op);
// docs/performance.md holds the figures.

func peekArgs(handle string) map[string]any {
	return map[string]any{"handle": handle, "address": "&0038", "length": 16}
}

func benchmarkCalls(b *testing.B, c *mcp.ClientSession, handle string) {
	ctx := context.Background()
	params := &mcp.CallToolParams{Name: "peek", Arguments: peekArgs(handle)}
	// One call first, so that the session is warm.
	if res, err := c.CallTool(ctx, params); err != nil || res.IsError {
		b.Fatalf("peek: %v %+v", err, res)
	}
	took := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	start := time.Now()
	for range b.N {
		t0 := time.Now()
		res, err := c.CallTool(ctx, params)
		took = append(took, time.Since(t0))
		if err != nil || res.IsError {
			b.Fatalf("peek: %v %+v", err, res)
		}
	}
	mean := time.Since(start) / time.Duration(b.N)
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)*99/100].Nanoseconds()), "p99-ns")
	b.ReportMetric(float64(mean)/float64(frameTime), "frames/op")
}

// BenchmarkCallInWindow: a peek answered by the window's loop, at the next
// frame boundary, while the machine runs in real time.
func BenchmarkCallInWindow(b *testing.B) {
	w, base := startWindow(b, Options{Machine: "cpc6128"})
	c := connect(b, base, "2025-11-25")
	benchmarkCalls(b, c.ClientSession, w.Handle())
}

// BenchmarkCallOwnWork: the same peek to a machine that no loop owns,
// served at once over the same HTTP transport: the call's own work.
func BenchmarkCallOwnWork(b *testing.B) {
	h := testHost(b)
	srv := server.New(server.Options{Host: h})
	web, err := srv.HTTP(transport.HTTPOptions{})
	if err != nil {
		b.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- web.Serve(ctx, ln) }()
	defer func() { cancel(); <-done }()
	o, err := h.Open(context.Background(), host.OpenArgs{Machine: "cpc6128"})
	if err != nil {
		b.Fatal(err)
	}
	c := connect(b, "http://"+ln.Addr().String(), "2025-11-25")
	benchmarkCalls(b, c.ClientSession, o.Handle)
}

// TestCallAnsweredBetweenFrames: a call made of the window's machine is
// answered between two of its frames, with the machine at the end of one:
// its tick is where the last frame published ended, not partway through
// a frame. (How soon is the benchmarks' to say.)
func TestCallAnsweredBetweenFrames(t *testing.T) {
	w, base := startWindow(t, Options{Machine: "spectrum48"})
	c := connect(t, base, "")
	var ticks []uint64
	for range 20 {
		text, refused := c.call(t, "machine_list", map[string]any{})
		if refused {
			t.Fatal(text)
		}
		_, m := monitorPNG(t, c, w.Handle(), false)
		if !m.Whole {
			t.Errorf("at tick %d the monitor's picture is not whole: the call came partway through a frame", m.Tick)
		}
		ticks = append(ticks, m.Tick)
		time.Sleep(7 * time.Millisecond)
	}
	if ticks = slices.Compact(ticks); len(ticks) < 2 {
		t.Errorf("the machine did not run between the calls: %v", ticks)
	}
}
