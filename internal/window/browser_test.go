package window

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"colophon/internal/host"
)

// The page's tests, in a headless Chromium driven by its DevTools protocol
// (cdp_test.go), each against a window of its own.

// monitorPNG calls monitor and answers the picture and the tick.
func monitorPNG(tb testing.TB, c *client, handle string, text bool) ([]byte, host.Monitor) {
	tb.Helper()
	res, err := c.CallTool(context.Background(), &mcp.CallToolParams{Name: "monitor", Arguments: map[string]any{"handle": handle, "text": text}})
	if err != nil || res.IsError {
		tb.Fatalf("monitor: %v %+v", err, res)
	}
	var m host.Monitor
	var pic []byte
	for _, ct := range res.Content {
		switch ct := ct.(type) {
		case *mcp.TextContent:
			if err := json.Unmarshal([]byte(ct.Text), &m); err != nil {
				tb.Fatal(err)
			}
		case *mcp.ImageContent:
			pic = ct.Data
		}
	}
	return pic, m
}

// samePixels compares two pictures colour by colour, and says where they
// first differ.
func samePixels(a, b []byte) error {
	ia, err := png.Decode(bytes.NewReader(a))
	if err != nil {
		return err
	}
	ib, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		return err
	}
	if ia.Bounds() != ib.Bounds() {
		return fmt.Errorf("sizes %v and %v", ia.Bounds(), ib.Bounds())
	}
	r := ia.Bounds()
	diff := 0
	var first image.Point
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			r1, g1, b1, _ := ia.At(x, y).RGBA()
			r2, g2, b2, _ := ib.At(x, y).RGBA()
			if r1>>8 != r2>>8 || g1>>8 != g2>>8 || b1>>8 != b2>>8 {
				if diff == 0 {
					first = image.Pt(x, y)
				}
				diff++
			}
		}
	}
	if diff > 0 {
		return fmt.Errorf("%d pixels differ, the first at %v: %v and %v", diff, first, ia.At(first.X, first.Y), ib.At(first.X, first.Y))
	}
	return nil
}

// pauseAndSettle pauses the machine with the page's button, and waits until
// the page shows the picture of the tick it stopped at, which it answers.
func pauseAndSettle(tb testing.TB, p *page, w *Window) uint64 {
	tb.Helper()
	p.eval(tb, `document.getElementById("pause").click()`, nil)
	p.until(tb, "the page shows the machine paused", `window.colophon.status && window.colophon.status.paused`, 10*time.Second)
	tick := w.frames.tickNow()
	p.until(tb, "the page shows the paused frame", fmt.Sprintf(`window.colophon.tick === %d`, tick), 10*time.Second)
	return tick
}

// TestPageShowsTheMonitor: the page's canvas holds the monitor's picture at
// the frame it shows, pixel for pixel the PNG monitor answers at that tick,
// on a CPC and a Spectrum; and on a CPC, shown at its own size, so does a
// screenshot of the page where the canvas is.
func TestPageShowsTheMonitor(t *testing.T) {
	b := startBrowser(t)
	for _, machine := range []string{"cpc6128", "spectrum48"} {
		t.Run(machine, func(t *testing.T) {
			w, base := startWindow(t, Options{Machine: machine})
			c := connect(t, base, "2025-11-25")
			p := b.open(t, base+"/")
			p.until(t, "the page shows the machine running", `window.colophon.frames > 10 && window.colophon.tick > 3000000`, 20*time.Second)
			tick := pauseAndSettle(t, p, w)
			want, m := monitorPNG(t, c, w.Handle(), false)
			if m.Tick != tick {
				t.Fatalf("monitor answers tick %d; the page shows %d", m.Tick, tick)
			}
			var url string
			p.eval(t, `document.getElementById("screen").toDataURL("image/png")`, &url)
			if err := samePixels(dataURL(t, url), want); err != nil {
				t.Errorf("the canvas and monitor's PNG at tick %d: %v", tick, err)
			}
			if machine != "cpc6128" {
				return
			}
			var rect []float64
			p.eval(t, `(() => { const r = document.getElementById("screen").getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; })()`, &rect)
			if rect[2] != float64(m.Width) || rect[3] != float64(m.Height) {
				t.Fatalf("the canvas is shown at %vx%v, not the picture's %dx%d", rect[2], rect[3], m.Width, m.Height)
			}
			shot := p.screenshot(t, rect[0], rect[1], rect[2], rect[3])
			if err := samePixels(shot, want); err != nil {
				t.Errorf("a screenshot of the page's canvas and monitor's PNG at tick %d: %v", tick, err)
			}
		})
	}
}

// TestPageKeysReachTheMachine: PRINT 2+2 typed into a cpc6128's page, the
// capitals with Shift and + as the PC's Shift and =, reaches the machine,
// whose screen then reads 4; and the journal, which holds the person's
// keys as runs, makes the machine again, picture for picture.
func TestPageKeysReachTheMachine(t *testing.T) {
	b := startBrowser(t)
	w, base := startWindow(t, Options{Machine: "cpc6128"})
	c := connect(t, base, "")
	p := b.open(t, base+"/")
	screen := func() []string {
		_, m := monitorPNG(t, c, w.Handle(), true)
		return m.Text
	}
	screenShows(t, screen, "the CPC did not say Ready", func(s []string) bool {
		return slices.ContainsFunc(s, func(l string) bool { return strings.TrimSpace(l) == "Ready" })
	})
	framesPass(t, w, 5)
	p.eval(t, `document.getElementById("screen").focus()`, nil)
	shift := func(typ string) {
		p.do(t, "Input.dispatchKeyEvent", map[string]any{"type": typ, "key": "Shift", "code": "ShiftLeft", "modifiers": 8, "windowsVirtualKeyCode": 16})
	}
	shift("rawKeyDown")
	for _, l := range "PRINT" {
		p.press(t, stroke{key: string(l), code: "Key" + string(l), shift: true, vk: int(l)})
	}
	shift("keyUp")
	p.press(t, stroke{key: " ", code: "Space", vk: 32})
	p.press(t, stroke{key: "2", code: "Digit2", vk: 50})
	shift("rawKeyDown")
	p.press(t, stroke{key: "+", code: "Equal", shift: true, vk: 187})
	shift("keyUp")
	p.press(t, stroke{key: "2", code: "Digit2", vk: 50})
	p.press(t, stroke{key: "Enter", code: "Enter", vk: 13})

	screenShows(t, screen, "typed into the page, the screen does not read PRINT 2+2, then 4, then Ready", func(s []string) bool {
		return strings.Contains(strings.Join(trimmed(s), "|"), "|PRINT 2+2|4|Ready")
	})

	// The journal makes the machine again.
	pauseAndSettle(t, p, w)
	want, m := monitorPNG(t, c, w.Handle(), false)
	var journal []host.Entry
	for start := 0; ; {
		text, refused := c.call(t, "journal", map[string]any{"handle": w.Handle(), "start": start})
		if refused {
			t.Fatal(text)
		}
		var page host.JournalPage
		json.Unmarshal([]byte(text), &page)
		journal = append(journal, page.Entries...)
		if page.Next == nil {
			break
		}
		start = *page.Next
	}
	keyed := 0
	for _, e := range journal {
		if e.Tool == "run" && strings.Contains(string(e.Arguments), `"keys"`) {
			keyed++
		}
	}
	if keyed < 10 {
		t.Errorf("the journal holds %d runs with keys for the 13 keys typed", keyed)
	}
	h := testHost(t)
	ctx := context.Background()
	var again string
	for _, e := range journal {
		switch e.Tool {
		case "machine_open":
			var a host.OpenArgs
			json.Unmarshal(e.Arguments, &a)
			o, err := h.Open(ctx, a)
			if err != nil {
				t.Fatal(err)
			}
			again = o.Handle
		case "run":
			var a host.RunArgs
			json.Unmarshal(e.Arguments, &a)
			a.Handle = again
			if _, err := h.Run(ctx, a); err != nil {
				t.Fatal(err)
			}
		default:
			t.Fatalf("the journal holds %s", e.Tool)
		}
	}
	gm, got, err := h.Monitor(ctx, host.MonitorArgs{Handle: again})
	if err != nil {
		t.Fatal(err)
	}
	if gm.Tick != m.Tick || !bytes.Equal(got, want) {
		t.Errorf("the journal made again stands at tick %d (the window's %d), its picture the same: %v", gm.Tick, m.Tick, bytes.Equal(got, want))
	}
}

func trimmed(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.TrimSpace(l)
	}
	return out
}

// TestPageDevModeSwitch: the page's dev-mode switch changes the tool list
// a connected client sees, and the client is told each time.
func TestPageDevModeSwitch(t *testing.T) {
	b := startBrowser(t)
	_, base := startWindow(t, Options{Machine: "spectrum48"})
	c := connect(t, base, "2025-11-25")
	p := b.open(t, base+"/")
	p.until(t, "the page shows the status", `window.colophon.status !== null`, 20*time.Second)
	if slices.Contains(c.names(t), "run") {
		t.Fatal("run is listed with dev mode off")
	}
	p.eval(t, `document.getElementById("devmode").click()`, nil)
	c.told(t, "the switch turned on")
	p.until(t, "the page shows dev mode on", `window.colophon.status.dev_mode === true`, 10*time.Second)
	if !slices.Contains(c.names(t), "run") {
		t.Error("the switch turned on, and run is not listed")
	}
	// The client may be told more than once of one change: what it was
	// told of turning on is let go before the switch turns off, and the
	// list is read once the page shows the window's answer to it.
	drain(c)
	p.eval(t, `document.getElementById("devmode").click()`, nil)
	c.told(t, "the switch turned off")
	p.until(t, "the page shows dev mode off", `window.colophon.status.dev_mode === false`, 10*time.Second)
	if slices.Contains(c.names(t), "run") {
		t.Error("the switch turned off, and run is listed")
	}
}

// drain lets go of what the client has been told so far.
func drain(c *client) {
	for {
		select {
		case <-c.changed:
		default:
			return
		}
	}
}

// TestPageKeysReachTheSpectrum: typed into a spectrum48's page as a
// person types it on the Spectrum's own keyboard (its manual, chapter 1:
// P in the K mode is PRINT; + is SYMBOL SHIFT with K, which the page gives
// the PC's Shift and =), PRINT 2+2 prints 4 at the top of the screen and
// the ROM reports 0 OK.
func TestPageKeysReachTheSpectrum(t *testing.T) {
	b := startBrowser(t)
	w, base := startWindow(t, Options{Machine: "spectrum48"})
	c := connect(t, base, "")
	p := b.open(t, base+"/")
	screen := func() []string {
		_, m := monitorPNG(t, c, w.Handle(), true)
		return trimmed(m.Text)
	}
	screenShows(t, screen, "the Spectrum did not start", func(s []string) bool {
		return slices.Contains(s, "© 1982 Sinclair Research Ltd")
	})
	framesPass(t, w, 5)
	p.eval(t, `document.getElementById("screen").focus()`, nil)
	shift := func(typ string) {
		p.do(t, "Input.dispatchKeyEvent", map[string]any{"type": typ, "key": "Shift", "code": "ShiftLeft", "modifiers": 8, "windowsVirtualKeyCode": 16})
	}
	p.press(t, stroke{key: "p", code: "KeyP", vk: 'P'})
	p.press(t, stroke{key: "2", code: "Digit2", vk: 50})
	shift("rawKeyDown")
	p.press(t, stroke{key: "+", code: "Equal", shift: true, vk: 187})
	shift("keyUp")
	p.press(t, stroke{key: "2", code: "Digit2", vk: 50})
	p.press(t, stroke{key: "Enter", code: "Enter", vk: 13})

	screenShows(t, screen, "typed into the page, the screen does not read 4 at its top and 0 OK, 0:1", func(s []string) bool {
		return len(s) > 0 && s[0] == "4" && slices.ContainsFunc(s, func(l string) bool { return strings.HasPrefix(l, "0 OK, 0:1") })
	})
}

// screenShows reads the machine's screen until ok holds of it, for a
// minute at most: the machine runs in real time, which a loaded machine
// falls behind.
func screenShows(t *testing.T, screen func() []string, failure string, ok func([]string) bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for s := screen(); !ok(s); s = screen() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: the screen reads %q", failure, s)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// framesPass waits until the window's machine has run n standard frames
// more. BASIC shows its prompt a frame before it reads the keyboard, and a
// key that goes down in that frame is lost, as on the machine itself
// (window.test.mjs in test/clients says more).
func framesPass(t *testing.T, w *Window, n uint64) {
	t.Helper()
	from := w.frames.tickNow()
	deadline := time.Now().Add(time.Minute)
	for w.frames.tickNow() < from+n*w.owner.StandardFrame() {
		if time.Now().After(deadline) {
			t.Fatalf("the machine did not run %d frames in a minute", n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestPageJournalFollowsTheAgent: the page's journal list grows as an
// agent works the machine: a poke the agent makes in dev mode appears in
// it, with its arguments, and so does the run of frames real time makes
// after it; and the list is the journal the agent reads, entry for entry.
func TestPageJournalFollowsTheAgent(t *testing.T) {
	b := startBrowser(t)
	w, base := startWindow(t, Options{Machine: "cpc6128"})
	c := connect(t, base, "")
	p := b.open(t, base+"/")
	listed := func() []string {
		var items []string
		p.eval(t, `[...document.querySelectorAll("#journal li")].map(li => li.textContent)`, &items)
		return items
	}
	p.until(t, "the page lists the machine's opening", `document.querySelector("#journal li .tool").textContent === "machine_open"`, time.Minute)
	before := len(listed())

	if text, refused := c.call(t, "dev_mode", map[string]any{"on": true}); refused {
		t.Fatal(text)
	}
	if text, refused := c.call(t, "poke", map[string]any{"handle": w.Handle(), "address": "&4000", "bytes": "C9 AA 55"}); refused {
		t.Fatal(text)
	}
	// The poke, and a run of real time after it.
	p.until(t, "the page lists the agent's poke and the frames after it",
		`(() => { const tools = [...document.querySelectorAll("#journal li .tool")].map(e => e.textContent);
		          const at = tools.lastIndexOf("poke");
		          return at >= 0 && at + 1 < tools.length && tools[at + 1] === "run"; })()`, time.Minute)
	p.eval(t, `document.getElementById("pause").click()`, nil)
	p.until(t, "the page shows the machine paused", `window.colophon.status.paused`, time.Minute)
	var journal host.JournalPage
	for {
		text, refused := c.call(t, "journal", map[string]any{"handle": w.Handle()})
		if refused {
			t.Fatal(text)
		}
		json.Unmarshal([]byte(text), &journal)
		// The page reads the journal as the status tells it its
		// length, which the pause has told it.
		var shown int
		p.eval(t, `document.querySelectorAll("#journal li").length`, &shown)
		if shown == journal.Total {
			break
		}
		p.until(t, "the page lists the whole journal", fmt.Sprintf(`document.querySelectorAll("#journal li").length === %d`, journal.Total), time.Minute)
	}
	items := listed()
	if len(items) <= before {
		t.Errorf("the page's list did not grow: %d entries before the agent worked, %d after", before, len(items))
	}
	if journal.Next != nil || len(journal.Entries) != len(items) {
		t.Fatalf("the journal has %d entries (next %v); the page lists %d", len(journal.Entries), journal.Next, len(items))
	}
	var count string
	p.eval(t, `document.getElementById("count").textContent`, &count)
	if want := fmt.Sprintf("%d entries", len(items)); count != want {
		t.Errorf("the page counts %q, want %q", count, want)
	}
	poked := false
	for i, e := range journal.Entries {
		// The page writes the arguments as JSON.stringify does: as
		// they came, with nothing escaped that needs no escaping.
		var compact bytes.Buffer
		json.Compact(&compact, e.Arguments)
		want := fmt.Sprintf("%s @%d %s", e.Tool, e.Tick, compact.String())
		if i == len(items)-1 {
			// The last entry, the run real time makes, may have grown
			// by the frame that ran as the pause came after the page
			// read it; paused, the page reads it no more.
			want = fmt.Sprintf("%s @%d ", e.Tool, e.Tick)
			if !strings.HasPrefix(items[i], want) {
				t.Errorf("the page lists the last entry, %d, as %q; the journal has %q", i, items[i], want)
			}
			continue
		}
		if items[i] != want {
			t.Errorf("the page lists entry %d as %q; the journal has %q", i, items[i], want)
		}
		poked = poked || e.Tool == "poke" && strings.Contains(string(e.Arguments), `"C9 AA 55"`)
	}
	if !poked {
		t.Errorf("the page's list has no poke of C9 AA 55: %q", items)
	}
}
