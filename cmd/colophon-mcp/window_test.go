package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"colophon/internal/firmware"
	"colophon/internal/host"
	"colophon/internal/shared"
)

// TestWindowSixtyHz: colophon-mcp window --sixty-hz wires a CPC's link
// for 60 Hz, and its journal's machine_open says so, so that the journal
// makes the machine again (internal/window's TestWindowPacesTheLink holds
// the pace and the replay); a Spectrum, which has no such link, is refused
// before anything is stood up.
func TestWindowSixtyHz(t *testing.T) {
	var errs strings.Builder
	if status := run(context.Background(), []string{"window", "--machine", "spectrum48", "--sixty-hz", "--no-browser"}, strings.NewReader(""), io.Discard, &errs); status != 2 ||
		!strings.Contains(errs.String(), "--sixty-hz is for a CPC: spectrum48 has no 50/60 Hz link") {
		t.Errorf("a Spectrum with --sixty-hz: status %d, %q", status, errs.String())
	}

	ctx := context.Background()
	ended := runWindow(t, "--machine", "cpc6128", "--sixty-hz")
	c := ended.connect(t)
	res, err := c.CallTool(ctx, &mcp.CallToolParams{Name: "journal", Arguments: map[string]any{"handle": "m1"}})
	if err != nil || res.IsError {
		t.Fatalf("journal: %v %+v", err, res)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	if !strings.Contains(text, `"tool":"machine_open","arguments":{"machine":"cpc6128","crtc":0,"sixty_hz":true}`) {
		t.Errorf("the window's journal opens with %.300s", text)
	}
	res, err = c.CallTool(ctx, &mcp.CallToolParams{Name: "inspect", Arguments: map[string]any{"handle": "m1", "path": "fifty_hz"}})
	if err != nil || res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, `"value":false`) {
		t.Errorf("inspect fifty_hz: %v %+v", err, res)
	}
}

// A windowRun is colophon-mcp window run in the test's process, on a free
// port, with the shared firmware and sessions of its own.
type windowRun struct {
	endpoint string // its MCP endpoint
	base     string // its page's address, without the /
}

// runWindow runs colophon-mcp window with args until the test ends, and
// answers where it serves once it says so.
func runWindow(t *testing.T, args ...string) *windowRun {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	r, w := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, append([]string{"window", "--no-browser", "--http-port", "0",
			"--sessions", filepath.Join(t.TempDir(), "sessions.json"), "--roms", shared.TestPath(t, "roms")}, args...), strings.NewReader(""), io.Discard, w)
		w.Close()
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case status := <-done:
			if status != 0 {
				t.Errorf("the window ended with status %d", status)
			}
		case <-time.After(time.Minute):
			t.Error("the window did not end within a minute of its context")
		}
	})
	lines := bufio.NewScanner(r)
	var said []string
	for lines.Scan() {
		said = append(said, lines.Text())
		if m := regexp.MustCompile(`MCP at (http://\S+)`).FindStringSubmatch(lines.Text()); m != nil {
			go io.Copy(io.Discard, r)
			return &windowRun{endpoint: m[1], base: strings.TrimSuffix(m[1], "/mcp")}
		}
	}
	t.Fatalf("the window said no MCP endpoint: %q", said)
	return nil
}

// pause pauses the window's real-time running, as the page's button does:
// the machine then moves only as the test's calls move it.
func (wr *windowRun) pause(t *testing.T) {
	t.Helper()
	resp, err := http.Post(wr.base+"/control", "application/json", strings.NewReader(`{"paused":true}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("pausing: %s", resp.Status)
	}
}

func (wr *windowRun) connect(t *testing.T) *mcp.ClientSession {
	t.Helper()
	c, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: wr.endpoint}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// callOK calls a tool the test expects answered, and decodes its text into
// out, if out is not nil.
func callOK(t *testing.T, c *mcp.ClientSession, name string, args map[string]any, out any) string {
	t.Helper()
	res, err := c.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var text string
	for _, ct := range res.Content {
		if tc, ok := ct.(*mcp.TextContent); ok {
			text = tc.Text
		}
	}
	if res.IsError {
		t.Fatalf("%s %v: refused: %s", name, args, text)
	}
	if out != nil {
		if err := json.Unmarshal([]byte(text), out); err != nil {
			t.Fatalf("%s: %v in %.200s", name, err, text)
		}
	}
	return text
}

// screenText is the monitor's picture read as text, trimmed line by line.
func screenText(t *testing.T, c *mcp.ClientSession) []string {
	t.Helper()
	var m struct {
		Text []string `json:"text"`
	}
	callOK(t, c, "monitor", map[string]any{"handle": "m1", "text": true}, &m)
	for i, l := range m.Text {
		m.Text[i] = strings.TrimSpace(l)
	}
	return m.Text
}

// showsInOrder reports whether the screen has lines beginning with each of
// want, in that order.
func showsInOrder(screen, want []string) bool {
	at := 0
	for _, w := range want {
		for at < len(screen) && !strings.HasPrefix(screen[at], w) {
			at++
		}
		if at == len(screen) {
			return false
		}
		at++
	}
	return true
}

// TestWindowMediaFlags: the machine colophon-mcp window stands up has what
// its flags name: --crtc's 6845 type, as inspect names it (the CRTC
// Compendium's part numbers); --disc's disc in drive A and --disc-b's in
// B, as AMSDOS catalogues them with CAT, and |B then CAT, typed through the
// window's MCP in dev mode (the listings are TestMediaCatalogues's, in
// internal/machine/cpc); --tape's tape in the Spectrum's deck, which
// LOAD "" loads from, naming the program and putting its line where the
// ROM's PROG system variable says, byte for byte the tape's; and
// --snapshot's snapshot, from which it runs as a machine stood up from the
// same file and run by the window's journal does, tick, registers and
// picture. Each journal names its media.
func TestWindowMediaFlags(t *testing.T) {
	media := func(elem ...string) string {
		return shared.TestPath(t, append([]string{"testdata", "media"}, elem...)...)
	}
	ctx := context.Background()

	t.Run("crtc and discs", func(t *testing.T) {
		romdump, rogue := media("cpc", "romdump.dsk"), media("cpc", "cpcrogue_basic.dsk")
		c := runWindow(t, "--machine", "cpc6128", "--crtc", "2", "--disc", romdump, "--disc-b", rogue).connect(t)
		var crtc struct {
			Value struct {
				Type string `json:"type"`
			} `json:"value"`
		}
		callOK(t, c, "inspect", map[string]any{"handle": "m1", "path": "crtc"}, &crtc)
		if crtc.Value.Type != "MC6845" {
			t.Errorf("--crtc 2 stood up a 6845 of type %q, want MC6845 (type 2)", crtc.Value.Type)
		}
		var journal host.JournalPage
		callOK(t, c, "journal", map[string]any{"handle": "m1"}, &journal)
		var inserted []string
		for _, e := range journal.Entries {
			switch e.Tool {
			case "machine_open":
				if !strings.Contains(string(e.Arguments), `"crtc":2`) {
					t.Errorf("the journal opens the machine with %s", e.Arguments)
				}
			case "disc_insert":
				var a host.DiscInsertArgs
				json.Unmarshal(e.Arguments, &a)
				inserted = append(inserted, a.Drive+" "+a.Path)
			}
		}
		if want := []string{"A " + romdump, "B " + rogue}; !slices.Equal(inserted, want) {
			t.Errorf("the journal puts in %q, want %q", inserted, want)
		}
		callOK(t, c, "dev_mode", map[string]any{"on": true}, nil)
		callOK(t, c, "run", map[string]any{"handle": "m1", "frames": 150}, nil)
		for _, step := range []struct {
			typed string
			lines []string
		}{
			{"cat\n", []string{"Drive A: user  0", "ROMDUMP .BAS   1K   ROMDUMP .BIN   1K", "176K free"}},
			{"|b\ncat\n", []string{"Drive B: user  0", "ROGUE   .BAS   4K", "174K free"}},
		} {
			callOK(t, c, "type", map[string]any{"handle": "m1", "text": step.typed}, nil)
			callOK(t, c, "run", map[string]any{"handle": "m1", "frames": 150}, nil)
			if s := screenText(t, c); !showsInOrder(s, step.lines) {
				t.Errorf("after %q the screen reads %q, want lines %q", step.typed, s, step.lines)
			}
		}
	})

	t.Run("tape", func(t *testing.T) {
		// standard-tap.tap (libspectrum's tests) holds a header and a
		// program, 10 PRINT "Test", saved without an autostart line.
		tap := media("spectrum", "libspectrum-tests", "standard-tap.tap")
		b, err := os.ReadFile(tap)
		if err != nil {
			t.Fatal(err)
		}
		// The .tap's blocks: a length, then the flag, the bytes and
		// the checksum. The second is the program, after its flag.
		second := b[2+int(b[0])|int(b[1])<<8:]
		program := second[3 : 2+int(second[0])|int(second[1])<<8-1]
		// The deck plays from the tape's insertion, as the window
		// opens: paused at once, the machine then moves only as the
		// test runs it, and LOAD is typed long before the header's five
		// seconds of pilot tone have played.
		wr := runWindow(t, "--machine", "spectrum48", "--tape", tap)
		wr.pause(t)
		c := wr.connect(t)
		if journal := callOK(t, c, "journal", map[string]any{"handle": "m1"}, nil); !strings.Contains(journal, `"tool":"tape_insert","arguments":{"path":"`+tap+`"`) {
			t.Errorf("the journal puts no tape in: %.600s", journal)
		}
		callOK(t, c, "dev_mode", map[string]any{"on": true}, nil)
		for s := screenText(t, c); !showsInOrder(s, []string{"© 1982 Sinclair Research Ltd"}); s = screenText(t, c) {
			var moved host.Moved
			if callOK(t, c, "run", map[string]any{"handle": "m1", "frames": 10}, &moved); moved.Tick > 200*69888 {
				t.Fatalf("the Spectrum has not started in 200 frames: %q", s)
			}
		}
		callOK(t, c, "type", map[string]any{"handle": "m1", "text": `j""` + "\n"}, nil) // J is LOAD in the K mode
		callOK(t, c, "run", map[string]any{"handle": "m1", "frames": 700}, nil)
		if s := screenText(t, c); !showsInOrder(s, []string{"Program: Test", "0 OK, 0:1"}) {
			t.Errorf("after LOAD \"\", the screen reads %q", s)
		}
		// PROG, the system variable at 23635 (the Spectrum manual,
		// chapter 25), says where the program is.
		var prog, line struct {
			Bytes string `json:"bytes"`
		}
		callOK(t, c, "peek", map[string]any{"handle": "m1", "address": 23635, "length": 2}, &prog)
		lohi := strings.Fields(prog.Bytes)
		if len(lohi) != 2 {
			t.Fatalf("PROG reads %q", prog.Bytes)
		}
		at, err := strconv.ParseUint(lohi[1]+lohi[0], 16, 16)
		if err != nil {
			t.Fatalf("PROG reads %q", prog.Bytes)
		}
		callOK(t, c, "peek", map[string]any{"handle": "m1", "address": at, "length": len(program)}, &line)
		if want := fmt.Sprintf("% X", program); line.Bytes != want {
			t.Errorf("the program at PROG (%d) is %s, the tape's %s", at, line.Bytes, want)
		}
	})

	t.Run("snapshot", func(t *testing.T) {
		// The snapshot: a cpc6128 that has printed a line of its own.
		h := host.New(host.Options{Firmware: firmware.Loader{Dirs: []string{shared.TestPath(t, "roms")}}, Build: "test"})
		o, err := h.Open(ctx, host.OpenArgs{Machine: "cpc6128"})
		if err != nil {
			t.Fatal(err)
		}
		frames := uint64(150)
		if _, err := h.Run(ctx, host.RunArgs{Handle: o.Handle, Frames: &frames}); err != nil {
			t.Fatal(err)
		}
		if _, err := h.Type(ctx, host.TypeArgs{Handle: o.Handle, Text: "print \"from the snapshot\"\n"}); err != nil {
			t.Fatal(err)
		}
		sna := filepath.Join(t.TempDir(), "printed.sna")
		if _, err := h.SnapshotSave(ctx, host.SnapshotSaveArgs{Handle: o.Handle, Path: sna}); err != nil {
			t.Fatal(err)
		}

		wr := runWindow(t, "--machine", "cpc6128", "--snapshot", sna)
		// Paused, the window's machine moves only as the test runs it:
		// two frames, so that the monitor has drawn a whole picture.
		wr.pause(t)
		c := wr.connect(t)
		callOK(t, c, "dev_mode", map[string]any{"on": true}, nil)
		callOK(t, c, "run", map[string]any{"handle": "m1", "frames": 2}, nil)
		if s := screenText(t, c); !showsInOrder(s, []string{`print "from the snapshot"`, "from the snapshot", "Ready"}) {
			t.Errorf("the window's machine, from the snapshot, reads %q", s)
		}
		var journal host.JournalPage
		callOK(t, c, "journal", map[string]any{"handle": "m1"}, &journal)
		var opened host.OpenArgs
		json.Unmarshal(journal.Entries[0].Arguments, &opened)
		if journal.Entries[0].Tool != "machine_open" || opened.Snapshot != sna || opened.SnapshotSHA256 == "" {
			t.Errorf("the journal opens with %s %s", journal.Entries[0].Tool, journal.Entries[0].Arguments)
		}
		// The same snapshot, stood up here and run as the window's
		// journal says its frames ran.
		again, err := h.Open(ctx, host.OpenArgs{Machine: "cpc6128", Snapshot: sna})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range journal.Entries[1:] {
			var a host.RunArgs
			if e.Tool != "run" || json.Unmarshal(e.Arguments, &a) != nil {
				t.Fatalf("the journal holds %s %s", e.Tool, e.Arguments)
			}
			a.Handle = again.Handle
			if _, err := h.Run(ctx, a); err != nil {
				t.Fatal(err)
			}
		}
		var cpu struct {
			Value map[string]any `json:"value"`
		}
		callOK(t, c, "inspect", map[string]any{"handle": "m1", "path": "cpu"}, &cpu)
		want, err := h.Inspect(ctx, host.InspectArgs{Handle: again.Handle, Path: "cpu"})
		if err != nil {
			t.Fatal(err)
		}
		var wantCPU map[string]any
		wb, _ := json.Marshal(want.Value)
		json.Unmarshal(wb, &wantCPU)
		if !reflect.DeepEqual(cpu.Value, wantCPU) {
			t.Errorf("the window's Z80 is\n%v\nthe snapshot's, run as its journal says,\n%v", cpu.Value, wantCPU)
		}
		res, err := c.CallTool(ctx, &mcp.CallToolParams{Name: "monitor", Arguments: map[string]any{"handle": "m1"}})
		if err != nil || res.IsError {
			t.Fatalf("monitor: %v %+v", err, res)
		}
		var png []byte
		for _, ct := range res.Content {
			if ic, ok := ct.(*mcp.ImageContent); ok {
				png = ic.Data
			}
		}
		if _, pic, err := h.Monitor(ctx, host.MonitorArgs{Handle: again.Handle}); err != nil || !bytes.Equal(pic, png) {
			t.Errorf("the window's picture is not the snapshot's, run as its journal says (%v)", err)
		}
	})
}

// TestWindowMediaFlagsRefused: a flag whose file or value the machine
// cannot take ends the window before it serves, with status 1 and an
// error that names the flag and the file.
func TestWindowMediaFlagsRefused(t *testing.T) {
	media := func(elem ...string) string {
		return shared.TestPath(t, append([]string{"testdata", "media"}, elem...)...)
	}
	missing := filepath.Join(t.TempDir(), "missing.dsk")
	tap := media("spectrum", "libspectrum-tests", "standard-tap.tap")
	dsk := media("cpc", "romdump.dsk")
	for _, c := range []struct {
		args []string
		says []string
	}{
		{[]string{"--machine", "cpc6128", "--disc", missing}, []string{"--disc " + missing + ":"}},
		{[]string{"--machine", "cpc6128", "--disc-b", tap}, []string{"--disc-b " + tap + ":"}},
		{[]string{"--machine", "spectrum48", "--disc", dsk}, []string{"--disc " + dsk + ":", "spectrum48"}},
		{[]string{"--machine", "cpc6128", "--tape", dsk}, []string{"--tape " + dsk + ":"}},
		{[]string{"--machine", "spectrum48", "--snapshot", tap}, []string{"--snapshot " + tap + ":"}},
		{[]string{"--machine", "cpc6128", "--snapshot", missing}, []string{"--snapshot " + missing + ":"}},
		{[]string{"--machine", "cpc6128", "--crtc", "7"}, []string{"--crtc 7: a 6845 is of type 0 to 4"}},
		{[]string{"--machine", "spectrum48", "--crtc", "1"}, []string{"--crtc: spectrum48 has no 6845"}},
	} {
		var errs strings.Builder
		status := run(context.Background(), append([]string{"window", "--no-browser", "--http-port", "0",
			"--sessions", filepath.Join(t.TempDir(), "sessions.json"), "--roms", shared.TestPath(t, "roms")}, c.args...), strings.NewReader(""), io.Discard, &errs)
		if status != 1 {
			t.Errorf("%q: status %d, want 1; %s", c.args, status, errs.String())
		}
		for _, want := range c.says {
			if !strings.Contains(errs.String(), want) {
				t.Errorf("%q: the error %q does not say %q", c.args, errs.String(), want)
			}
		}
		t.Logf("%q: %s", c.args, strings.TrimSpace(errs.String()))
	}
}
