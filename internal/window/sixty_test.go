package window

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"colophon/internal/host"
)

// TestWindowPacesTheLink holds issue 16's "in real time (50 or 60 Hz as
// the machine's links say)" by the machine's own ticks, not the wall
// clock: a CPC wired for 60 Hz, whose firmware reads the link as it starts
// and programs the 6845 for 262 lines of 64 microseconds, runs frames of
// 16768 microseconds, about 60 to a second of the time the loop gives
// them; wired for 50 Hz, 312 lines, 19968 microseconds, 50 to a second;
// a Spectrum's, 69888 T-states, also 19968 microseconds.
// The window's journal opens the machine with sixty_hz as it was wired,
// and made again it stands where the window's does, picture and all.
func TestWindowPacesTheLink(t *testing.T) {
	// A CPC's longest instruction, rounded up to whole microseconds; a
	// Spectrum's, 23 T-states at 3.5 MHz, is shorter.
	const slop = 8 * time.Microsecond
	for _, c := range []struct {
		machine string
		sixty   bool
		frame   time.Duration // the firmware's frame, once it has started
		rate    int           // frames in a second of machine time
	}{
		{"cpc6128", false, 19968 * time.Microsecond, 50},
		{"cpc6128", true, 16768 * time.Microsecond, 60},
		// The Spectrum's ULA makes every frame 69888 T-states at 3.5
		// MHz (FUSE's 48K timings; the Spectrum has no link).
		{"spectrum48", false, 19968 * time.Microsecond, 50},
	} {
		h := testHost(t)
		w, err := New(Options{Host: h, Machine: c.machine, SixtyHz: c.sixty, Sessions: filepath.Join(t.TempDir(), "sessions.json")})
		if err != nil {
			t.Fatal(err)
		}
		// The loop's own frames, run here without the loop, so that no
		// wall clock enters: the firmware starts in under 100 frames.
		for range 100 {
			if _, err := w.frame(); err != nil {
				t.Fatal(err)
			}
		}
		var second time.Duration
		for i := range c.rate {
			ticks, err := w.frame()
			if err != nil {
				t.Fatal(err)
			}
			// A frame ends at the first instruction after the retrace,
			// so each is the firmware's frame within an instruction's
			// time, and the frames together within one more.
			if d := w.machineTime(ticks); d < c.frame-slop || d > c.frame+slop {
				t.Errorf("%s, sixty_hz %v: frame %d lasts %v of machine time, want %v", c.machine, c.sixty, i, d, c.frame)
			}
			second += w.machineTime(ticks)
		}
		if want := time.Duration(c.rate) * c.frame; second < want-slop || second > want+slop {
			t.Errorf("%s, sixty_hz %v: %d frames last %v of machine time, want %v", c.machine, c.sixty, c.rate, second, want)
		}
		// 60 frames of 16768 microseconds are 1.006 s; 50 of 19968, 0.998.
		if second < 990*time.Millisecond || second > 1010*time.Millisecond {
			t.Errorf("%s, sixty_hz %v: %d frames last %v of machine time, want a second within 1%%", c.machine, c.sixty, c.rate, second)
		}
		w.owner.Release()
		w.mcp.Close()

		ctx := context.Background()
		var journal []host.Entry
		for start := 0; ; {
			page, err := h.Journal(ctx, host.JournalArgs{Handle: w.Handle(), Start: &start})
			if err != nil {
				t.Fatal(err)
			}
			journal = append(journal, page.Entries...)
			if page.Next == nil {
				break
			}
			start = *page.Next
		}
		if got := strings.Contains(string(journal[0].Arguments), `"sixty_hz":true`); got != c.sixty {
			t.Errorf("%s, sixty_hz %v: the journal opens the machine with %s", c.machine, c.sixty, journal[0].Arguments)
		}
		again := testHost(t)
		var handle string
		for _, e := range journal {
			switch e.Tool {
			case "machine_open":
				var a host.OpenArgs
				if err := json.Unmarshal(e.Arguments, &a); err != nil {
					t.Fatal(err)
				}
				o, err := again.Open(ctx, a)
				if err != nil {
					t.Fatal(err)
				}
				handle = o.Handle
			case "run":
				var a host.RunArgs
				if err := json.Unmarshal(e.Arguments, &a); err != nil {
					t.Fatal(err)
				}
				a.Handle = handle
				if _, err := again.Run(ctx, a); err != nil {
					t.Fatal(err)
				}
			default:
				t.Fatalf("the journal holds %s", e.Tool)
			}
		}
		wm, want, err := h.Monitor(ctx, host.MonitorArgs{Handle: w.Handle()})
		if err != nil {
			t.Fatal(err)
		}
		gm, got, err := again.Monitor(ctx, host.MonitorArgs{Handle: handle})
		if err != nil {
			t.Fatal(err)
		}
		if gm.Tick != wm.Tick || !bytes.Equal(got, want) {
			t.Errorf("%s, sixty_hz %v: the journal made again stands at tick %d (the window's %d), its picture the same: %v", c.machine, c.sixty, gm.Tick, wm.Tick, bytes.Equal(got, want))
		}
		if c.machine != "cpc6128" {
			continue
		}
		fifty, err := again.Inspect(ctx, host.InspectArgs{Handle: handle, Path: "fifty_hz"})
		if err != nil {
			t.Fatal(err)
		}
		if b, _ := json.Marshal(fifty.Value); string(b) != map[bool]string{true: "false", false: "true"}[c.sixty] {
			t.Errorf("%s, sixty_hz %v: made again, its fifty_hz link is %s", c.machine, c.sixty, b)
		}
	}
}
