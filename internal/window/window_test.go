package window

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"colophon/internal/firmware"
	"colophon/internal/host"
	"colophon/internal/server"
	"colophon/internal/shared"
)

// The issue's lists (issue 16, "Watching and driving tools").
var (
	issueWatching = []string{"machine_list", "inspect", "peek", "find", "compare", "monitor", "screen", "disassemble", "journal"}
	issueDriving  = []string{"run", "step", "call", "set", "poke", "type", "disc_insert", "disc_save", "tape_insert",
		"snapshot_save", "state_keep", "state_restore", "state_drop", "state_save"}
)

// TestWatchingAndDrivingAreTheIssuesLists holds the rule that classifies
// the tools (RoleOf) to every tool the server lists: those it calls
// watching are exactly the issue's, machine_open and machine_close are
// not served, and every other tool, the issue's driving ones among them
// and any tool added since, drives. A read-only tool added to the server
// fails here until it is named in the issue's list, or the rule says why
// not.
func TestWatchingAndDrivingAreTheIssuesLists(t *testing.T) {
	var watching, absentTools []string
	for _, tool := range server.New(server.Options{}).Tools() {
		switch RoleOf(tool) {
		case Watching:
			watching = append(watching, tool.Name)
		case Absent:
			absentTools = append(absentTools, tool.Name)
		case Driving:
			if slices.Contains(issueWatching, tool.Name) {
				t.Errorf("%s drives by the rule, but the issue has it watch", tool.Name)
			}
			if !slices.Contains(issueDriving, tool.Name) {
				t.Logf("%s drives, by the rule; the issue does not name it", tool.Name)
			}
		}
		if slices.Contains(issueDriving, tool.Name) && RoleOf(tool) != Driving {
			t.Errorf("%s is %s by the rule; the issue has it drive", tool.Name, RoleOf(tool))
		}
	}
	sort.Strings(watching)
	want := slices.Sorted(slices.Values(issueWatching))
	if !slices.Equal(watching, want) {
		t.Errorf("the watching tools are %q, want the issue's %q", watching, want)
	}
	if !slices.Equal(absentTools, []string{"machine_open", "machine_close"}) {
		t.Errorf("the tools not served are %q, want machine_open and machine_close", absentTools)
	}
	if RoleOf(&mcp.Tool{Name: "dev_mode"}) != Watching {
		t.Error("dev_mode is not always listed")
	}
}

// testHost is a host on the shared firmware.
func testHost(tb testing.TB) *host.Host {
	tb.Helper()
	return host.New(host.Options{Firmware: firmware.Loader{Dirs: []string{shared.TestPath(tb, "roms")}}, Build: "test"})
}

// startWindow runs a window for the test on a free port, and answers it
// with the address it serves at.
func startWindow(tb testing.TB, opts Options) (*Window, string) {
	tb.Helper()
	if opts.Host == nil {
		opts.Host = testHost(tb)
	}
	if opts.Sessions == "" {
		opts.Sessions = filepath.Join(tb.TempDir(), "sessions.json")
	}
	w, err := New(opts)
	if err != nil {
		tb.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- w.Serve(ctx, ln) }()
	tb.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			tb.Errorf("the window ended with %v", err)
		}
	})
	return w, "http://" + ln.Addr().String()
}

// A client is an MCP client of the window's, counting the times it is
// told the tool list changed.
type client struct {
	*mcp.ClientSession
	changed chan struct{}
}

// connect connects a client in revision (2026-07-28 when "", the go-sdk's
// latest, which listens for changes with subscriptions/listen).
func connect(tb testing.TB, base, revision string) *client {
	tb.Helper()
	c := &client{changed: make(chan struct{}, 16)}
	mc := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { c.changed <- struct{}{} },
	})
	var opts *mcp.ClientSessionOptions
	if revision != "" {
		opts = &mcp.ClientSessionOptions{ProtocolVersion: revision}
	}
	s, err := mc.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: base + "/mcp"}, opts)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	c.ClientSession = s
	return c
}

func (c *client) names(tb testing.TB) []string {
	tb.Helper()
	var names []string
	for t, err := range c.Tools(context.Background(), nil) {
		if err != nil {
			tb.Fatal(err)
		}
		names = append(names, t.Name)
	}
	sort.Strings(names)
	return names
}

// call calls a tool and answers its text, and whether it was refused.
func (c *client) call(tb testing.TB, name string, args any) (string, bool) {
	tb.Helper()
	res, err := c.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		tb.Fatalf("%s: %v", name, err)
	}
	var text []string
	for _, ct := range res.Content {
		if t, ok := ct.(*mcp.TextContent); ok {
			text = append(text, t.Text)
		}
	}
	return strings.Join(text, "\n"), res.IsError
}

// told waits until the client is told the tool list changed.
func (c *client) told(tb testing.TB, what string) {
	tb.Helper()
	select {
	case <-c.changed:
	case <-time.After(10 * time.Second):
		tb.Fatalf("%s: the client was not told the tool list changed", what)
	}
}

func (c *client) notTold(tb testing.TB, what string) {
	tb.Helper()
	select {
	case <-c.changed:
		tb.Fatalf("%s: the client was told the tool list changed", what)
	default:
	}
}

// TestDevModeWatchingAndDriving: with dev mode off, as the window opens,
// a client of either era is listed only the watching tools and dev_mode,
// and a driving call is refused naming dev mode; turning dev mode on, by
// the tool, tells both clients the list changed and lists the driving
// tools, and a run then moves the machine the page shows; turning it off
// by the page's switch tells them again and takes them off.
func TestDevModeWatchingAndDriving(t *testing.T) {
	w, base := startWindow(t, Options{Machine: "cpc6128"})
	legacy := connect(t, base, "2025-11-25")
	modern := connect(t, base, "")
	clients := map[string]*client{"2025-11-25": legacy, "2026-07-28": modern}
	watching := slices.Sorted(slices.Values(append(slices.Clone(issueWatching), "dev_mode")))
	for era, c := range clients {
		if got := c.names(t); !slices.Equal(got, watching) {
			t.Errorf("%s: dev mode off lists %q, want %q", era, got, watching)
		}
	}
	handle := w.Handle()
	text, refused := legacy.call(t, "run", map[string]any{"handle": handle, "frames": 1})
	if !refused || !strings.Contains(text, "dev mode is off") || !strings.Contains(text, "dev_mode") {
		t.Errorf("run with dev mode off: %v %q, want a refusal naming dev mode", refused, text)
	}
	text, refused = modern.call(t, "machine_open", map[string]any{"machine": "spectrum48"})
	if !refused || !strings.Contains(text, "not served in the window") {
		t.Errorf("machine_open: %v %q, want a refusal", refused, text)
	}
	text, refused = modern.call(t, "machine_list", map[string]any{})
	if refused || !strings.Contains(text, `"handle":"`+handle+`","machine":"cpc6128"`) {
		t.Errorf("machine_list: %q", text)
	}
	legacy.notTold(t, "before dev mode turned")

	text, refused = modern.call(t, "dev_mode", map[string]any{"on": true})
	if refused || !strings.Contains(text, `"dev_mode":true`) {
		t.Fatalf("dev_mode on: %q", text)
	}
	all := slices.Sorted(slices.Values(append(slices.Clone(watching), w.Driving()...)))
	for era, c := range clients {
		c.told(t, era+", dev mode on")
		if got := c.names(t); !slices.Equal(got, all) {
			t.Errorf("%s: dev mode on lists %q, want %q", era, got, all)
		}
	}
	if !w.DevMode() {
		t.Error("the window's dev mode is off")
	}
	before := w.frames.tickNow()
	text, refused = legacy.call(t, "run", map[string]any{"handle": handle, "frames": 200})
	if refused {
		t.Fatalf("run with dev mode on: %q", text)
	}
	var moved host.Moved
	json.Unmarshal([]byte(text), &moved)
	if moved.Frames != 200 || moved.Ticks < 199*79872 || moved.Tick < before+moved.Ticks {
		t.Errorf("the run moved %+v from tick %d", moved, before)
	}
	// The machine the person sees is where the run left it, or past, as
	// soon as the loop has published it after the run.
	deadline := time.Now().Add(5 * time.Second)
	for now := w.frames.tickNow(); now < moved.Tick; now = w.frames.tickNow() {
		if time.Now().After(deadline) {
			t.Fatalf("the page shows tick %d, before the run's end %d", now, moved.Tick)
		}
		time.Sleep(time.Millisecond)
	}

	// The page's switch.
	resp, err := http.Post(base+"/control", "application/json", strings.NewReader(`{"dev_mode":false}`))
	if err != nil {
		t.Fatal(err)
	}
	var st Status
	json.NewDecoder(resp.Body).Decode(&st)
	resp.Body.Close()
	if st.DevMode {
		t.Error("the page's switch left dev mode on")
	}
	for era, c := range clients {
		c.told(t, era+", dev mode off")
		if got := c.names(t); !slices.Equal(got, watching) {
			t.Errorf("%s: dev mode off again lists %q", era, got)
		}
	}
}

// tickNow is the tick of the picture published last.
func (f *frames) tickNow() uint64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.tick
}

// TestPageEndpoints: the picture is answered whole and then by the rows
// that changed, the status and the journal as the page reads them, what
// the page sends refused when it is not what the page sends, and every
// endpoint refused to a page of another site.
func TestPageEndpoints(t *testing.T) {
	w, base := startWindow(t, Options{Machine: "spectrum48"})
	get := func(path string, header ...string) (*http.Response, []byte) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, base+path, nil)
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp, b
	}
	resp, whole := get("/frame?since=0")
	if resp.StatusCode != 200 || string(whole[:4]) != "CFR1" {
		t.Fatalf("/frame: %s %q", resp.Status, whole[:min(8, len(whole))])
	}
	seq := binary.LittleEndian.Uint32(whole[4:])
	width, height := binary.LittleEndian.Uint16(whole[16:]), binary.LittleEndian.Uint16(whole[18:])
	if width != 352 || height != 264 {
		t.Errorf("a Spectrum's picture is %dx%d", width, height)
	}
	colours := int(binary.LittleEndian.Uint16(whole[20:]))
	runsAt := 22 + 3*colours
	if runs := binary.LittleEndian.Uint16(whole[runsAt:]); runs != 1 || len(whole) != runsAt+2+4+352*264 {
		t.Errorf("the whole picture comes as %d runs in %d bytes", runs, len(whole))
	}
	_, next := get("/frame?since=" + itoa(seq))
	if len(next) == 0 || binary.LittleEndian.Uint32(next[4:]) <= seq {
		t.Errorf("the next frame did not come after %d", seq)
	}
	if len(next) >= len(whole) {
		// The Spectrum's border and most of its screen do not change
		// from one frame to the next while it boots.
		t.Logf("the next frame sent %d bytes of %d", len(next), len(whole))
	}
	if resp, b := get("/frame?since=x"); resp.StatusCode != 400 || !strings.Contains(string(b), `since is "x"`) {
		t.Errorf("/frame?since=x: %s %s", resp.Status, b)
	}
	resp, b := get("/status")
	var st Status
	if err := json.Unmarshal(b, &st); err != nil || st.Handle != w.Handle() || st.Machine != "spectrum48" || st.DevMode || st.Paused {
		t.Errorf("/status: %s %s", resp.Status, b)
	}
	resp, b = get("/journal?start=0")
	if resp.StatusCode != 200 || !strings.Contains(string(b), `"tool":"machine_open"`) {
		t.Errorf("/journal: %s %.200s", resp.Status, b)
	}
	post := func(path, body string, header ...string) (*http.Response, string) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, base+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp, string(b)
	}
	if resp, b := post("/keys", `{"type":"press"}`); resp.StatusCode != 400 || !strings.Contains(b, `type is "press"`) {
		t.Errorf("/keys with a bad event: %s %s", resp.Status, b)
	}
	if resp, b := post("/control", `{"pause":true}`); resp.StatusCode != 400 || !strings.Contains(b, "unknown field") {
		t.Errorf("/control with a bad field: %s %s", resp.Status, b)
	}
	for _, path := range []string{"/control", "/keys"} {
		if resp, _ := post(path, `{"paused":true}`, "Origin", "https://example.com"); resp.StatusCode != http.StatusForbidden {
			t.Errorf("POST %s from another site: %s", path, resp.Status)
		}
	}
	if resp, _ := get("/alive", "Origin", "https://example.com"); resp.StatusCode != http.StatusForbidden {
		t.Errorf("/alive from another site: %s", resp.Status)
	}
	if w.Paused() {
		t.Error("a refused control paused the machine")
	}
	// Pause and run.
	if resp, b := post("/control", `{"paused":true}`); resp.StatusCode != 200 || !strings.Contains(b, `"paused":true`) {
		t.Errorf("pausing: %s %s", resp.Status, b)
	}
	time.Sleep(100 * time.Millisecond)
	t0 := w.frames.tickNow()
	time.Sleep(200 * time.Millisecond)
	if t1 := w.frames.tickNow(); t1 != t0 {
		t.Errorf("paused, the machine ran from %d to %d", t0, t1)
	}
	post("/control", `{"paused":false}`)
	for deadline := time.Now().Add(10 * time.Second); w.frames.tickNow() == t0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("run again, the machine stands still")
		}
	}

	// /alive answers its headers, with the window's instance, and then
	// nothing until the window ends.
	req, _ := http.NewRequest(http.MethodGet, base+"/alive", nil)
	// The wait for the body starts once the headers are in, so that a
	// loaded machine's slow answer is not taken for a silent one.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	resp, err := http.DefaultClient.Do(req.WithContext(ctx))
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 || resp.Header.Get(InstanceHeader) == "" {
		t.Errorf("/alive: %s, instance %q", resp.Status, resp.Header.Get(InstanceHeader))
	}
	defer time.AfterFunc(300*time.Millisecond, cancel).Stop()
	n, err := resp.Body.Read(make([]byte, 1))
	if n != 0 || ctx.Err() == nil {
		t.Errorf("/alive answered %d bytes, %v, before the window ended", n, err)
	}
	resp.Body.Close()
}

func itoa(n uint32) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestRefusalNamesItsResultType: a driving call refused with dev mode off,
// made in 2026-07-28, is answered as that revision's clients require, its
// result naming its resultType, complete, though no tool of the SDK's made
// it (server.AnswerIn).
func TestRefusalNamesItsResultType(t *testing.T) {
	w, base := startWindow(t, Options{Machine: "spectrum48"})
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"run","arguments":{"handle":"` + w.Handle() + `","frames":1},` +
		`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"test","version":"0"},"io.modelcontextprotocol/clientCapabilities":{}}}}`
	req, _ := http.NewRequest(http.MethodPost, base+"/mcp", strings.NewReader(body))
	for k, v := range map[string]string{
		"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
		"Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "run",
	} {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), `"isError":true`) || !strings.Contains(string(b), `"resultType":"complete"`) || !strings.Contains(string(b), "dev mode is off") {
		t.Errorf("a refusal in 2026-07-28: %s", b)
	}
}
