//go:build linux

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkWindowCPU measures what a window costs its process (issue 16,
// "Speed"): a cpc6128 running in real time while a client polls monitor
// ten times a second, over COLOPHON_WINDOW_SECONDS (30 if unset), as the
// process's CPU time from /proc (utime and stime) over that time. It
// reports the share of one core (core-%, the budget is 20), how close the
// machine kept to real time (realtime, its ticks over 4 MHz times the
// seconds; 1 is real time), and the time the window says it fell behind
// and gave up catching up (lost-ms: on a loaded machine, the time the
// process waited for a processor). The page sub-benchmark adds a page's own
// requests, the picture's changed rows as fast as the window has them,
// as the page asks for them (window.js).
func BenchmarkWindowCPU(b *testing.B) {
	seconds := 30
	if s := os.Getenv("COLOPHON_WINDOW_SECONDS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			b.Fatalf("COLOPHON_WINDOW_SECONDS=%q", s)
		}
		seconds = n
	}
	bin := buildBinary(b)
	for _, withPage := range []bool{false, true} {
		name := "monitor"
		if withPage {
			name = "monitor+page"
		}
		b.Run(name, func(b *testing.B) {
			for range b.N {
				cpu, realtime, lost := measureWindow(b, bin, time.Duration(seconds)*time.Second, withPage)
				b.ReportMetric(cpu*100, "core-%")
				b.ReportMetric(realtime, "realtime")
				b.ReportMetric(float64(lost.Milliseconds()), "lost-ms")
			}
		})
	}
}

// measureWindow runs a window for d with monitor polled ten times a
// second, and answers the share of a core its process took and the
// machine's pace against real time.
func measureWindow(b *testing.B, bin string, d time.Duration, withPage bool) (cpu, realtime float64, lost time.Duration) {
	port := freePort(b)
	w := startWindow(b, bin, port, "cpc6128")
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "0"}, nil)
	s, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: base + "/mcp"}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	tick := func() uint64 {
		res, err := s.CallTool(context.Background(), &mcp.CallToolParams{Name: "monitor", Arguments: map[string]any{"handle": "m1"}})
		if err != nil || res.IsError {
			b.Fatalf("monitor: %v %+v", err, res)
		}
		var m struct{ Tick uint64 }
		json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &m)
		return m.Tick
	}
	// The firmware's start first, so that what is measured is the
	// machine running.
	time.Sleep(2 * time.Second)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if withPage {
		go page(ctx, base)
	}
	lost0 := lostTime(b, base)
	cpu0, at0 := cpuTime(b, w.Process.Pid), time.Now()
	// Each tick is timed as its call is sent: the machine stands there
	// or a little past as the window answers.
	wall0 := time.Now()
	t0 := tick()
	ticker := time.NewTicker(100 * time.Millisecond)
	defer ticker.Stop()
	var t1 uint64
	var wall time.Duration
	for time.Since(wall0) < d {
		<-ticker.C
		sent := time.Now()
		t1 = tick()
		wall = sent.Sub(wall0)
	}
	cpu1, at1 := cpuTime(b, w.Process.Pid), time.Now()
	return (cpu1 - cpu0).Seconds() / at1.Sub(at0).Seconds(), float64(t1-t0) / 4e6 / wall.Seconds(), lostTime(b, base) - lost0
}

// lostTime is the time the window says its machine fell behind real time
// and did not catch up (its status's lost_ms).
func lostTime(b *testing.B, base string) time.Duration {
	resp, err := http.Get(base + "/status")
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	var st struct {
		LostMS int64 `json:"lost_ms"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		b.Fatal(err)
	}
	return time.Duration(st.LostMS) * time.Millisecond
}

// page asks for the picture as the page does, each answer as soon as the
// window has a frame after the last.
func page(ctx context.Context, base string) {
	var seq uint32
	for ctx.Err() == nil {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, fmt.Sprintf("%s/frame?since=%d", base, seq), nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if len(body) >= 8 {
			seq = uint32(body[4]) | uint32(body[5])<<8 | uint32(body[6])<<16 | uint32(body[7])<<24
		}
	}
}

// cpuTime is a process's CPU time so far, user and system, from
// /proc/PID/stat (proc(5): fields 14 and 15, in clock ticks).
func cpuTime(b *testing.B, pid int) time.Duration {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		b.Fatal(err)
	}
	// The command name, field 2, is in brackets and may hold spaces.
	f := strings.Fields(string(raw[strings.LastIndexByte(string(raw), ')')+2:]))
	utime, _ := strconv.ParseUint(f[11], 10, 64)
	stime, _ := strconv.ParseUint(f[12], 10, 64)
	const hz = 100 // sysconf(_SC_CLK_TCK) on Linux
	return time.Duration(utime+stime) * time.Second / hz
}
