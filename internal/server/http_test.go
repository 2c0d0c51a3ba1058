package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"colophon/internal/host"
	"colophon/internal/transport"
)

// An httpServer is a colophon-mcp server serving streamable HTTP on a
// loopback port, as colophon-mcp --http serves it.
type httpServer struct {
	url  string
	srv  *Server
	web  *transport.HTTP
	stop func() // stops it as a process stops: its sessions stay in the file
}

func serveHTTP(t testing.TB, h *host.Host, opts transport.HTTPOptions) *httpServer {
	t.Helper()
	srv := New(Options{Build: testBuild, Host: h})
	web, err := srv.HTTP(opts)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- web.Serve(ctx, ln) }()
	var once sync.Once
	stop := func() {
		once.Do(func() {
			srv.Stop()
			cancel()
			if err := <-done; err != nil {
				t.Errorf("Serve: %v", err)
			}
		})
	}
	t.Cleanup(stop)
	return &httpServer{url: "http://" + ln.Addr().String() + transport.Path, srv: srv, web: web, stop: stop}
}

// An httpClient speaks MCP to an endpoint by hand: a session of 2025-11-25
// or 2025-06-18 it opened with initialize, or, with modern set, requests of
// 2026-07-28, each alone.
type httpClient struct {
	t        testing.TB
	url      string
	modern   bool
	session  string
	revision string
	next     int
}

// answer is a JSON-RPC answer as the tests read it.
type answer struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int64           `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
}

var client http.Client

// legacyClient opens a session with initialize in revision.
func legacyClient(t testing.TB, url, revision string) *httpClient {
	t.Helper()
	c := &httpClient{t: t, url: url, revision: revision}
	status, res, header := c.post("initialize", map[string]any{
		"protocolVersion": revision, "capabilities": map[string]any{"roots": map[string]any{}},
		"clientInfo": map[string]any{"name": "http-test", "version": "1"},
	}, nil)
	if status != http.StatusOK || res.Error != nil {
		t.Fatalf("initialize: %d %+v", status, res)
	}
	c.session = header.Get("Mcp-Session-Id")
	if c.session == "" {
		t.Fatal("initialize gave no Mcp-Session-Id")
	}
	if status := c.notify("notifications/initialized"); status != http.StatusAccepted {
		t.Fatalf("notifications/initialized: %d", status)
	}
	return c
}

func modernClient(t testing.TB, url string) *httpClient {
	return &httpClient{t: t, url: url, modern: true, revision: transport.Modern}
}

func (c *httpClient) request(method string, params map[string]any) *http.Request {
	c.t.Helper()
	if params == nil {
		params = map[string]any{}
	}
	msg := map[string]any{"jsonrpc": "2.0", "method": method, "params": params}
	if !strings.HasPrefix(method, "notifications/") {
		c.next++
		msg["id"] = c.next
	}
	if c.modern {
		params["_meta"] = map[string]any{
			mcp.MetaKeyProtocolVersion:                   transport.Modern,
			"io.modelcontextprotocol/clientCapabilities": map[string]any{},
			"io.modelcontextprotocol/clientInfo":         map[string]any{"name": "http-test", "version": "1"},
		}
	}
	body, err := json.Marshal(msg)
	if err != nil {
		c.t.Fatal(err)
	}
	req, err := http.NewRequest(http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if c.session != "" {
		req.Header.Set("Mcp-Session-Id", c.session)
	}
	if c.session != "" || c.modern {
		req.Header.Set("Mcp-Protocol-Version", c.revision)
	}
	if c.modern {
		req.Header.Set("Mcp-Method", method)
		if name, ok := params["name"].(string); ok {
			req.Header.Set("Mcp-Name", name)
		}
	}
	return req
}

// post sends one call and reads its answer, from JSON or an SSE stream.
func (c *httpClient) post(method string, params map[string]any, header http.Header) (int, answer, http.Header) {
	c.t.Helper()
	req := c.request(method, params)
	for k, v := range header {
		req.Header[k] = v
	}
	res, err := client.Do(req)
	if err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
	defer res.Body.Close()
	return res.StatusCode, readAnswer(c.t, res, c.next), res.Header
}

func (c *httpClient) notify(method string) int {
	c.t.Helper()
	res, err := client.Do(c.request(method, nil))
	if err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode
}

// readAnswer reads the answer to call id from a response.
func readAnswer(t testing.TB, res *http.Response, id int) answer {
	t.Helper()
	var a answer
	if !strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		body, _ := io.ReadAll(res.Body)
		if json.Unmarshal(body, &a) != nil {
			a.Error = &struct {
				Code    int64           `json:"code"`
				Message string          `json:"message"`
				Data    json.RawMessage `json:"data"`
			}{Message: string(body)}
		}
		return a
	}
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 0, 1<<16), 16<<20)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok || data == "" {
			continue
		}
		a = answer{}
		if json.Unmarshal([]byte(data), &a) == nil && string(a.ID) == fmt.Sprint(id) {
			return a
		}
	}
	t.Fatalf("the stream ended without the answer to %d", id)
	return a
}

// call calls a tool and decodes its structured answer into out, failing
// on a refusal.
func (c *httpClient) call(tool string, args map[string]any, out any) {
	c.t.Helper()
	text, isError := c.tool(tool, args)
	if isError {
		c.t.Fatalf("%s %v refused: %s", tool, args, text)
	}
	if out != nil {
		if err := json.Unmarshal([]byte(text), out); err != nil {
			c.t.Fatalf("%s: %v in %s", tool, err, text)
		}
	}
}

// tool calls a tool and returns its answer's text and whether it is a
// refusal.
func (c *httpClient) tool(name string, args map[string]any) (string, bool) {
	c.t.Helper()
	if args == nil {
		args = map[string]any{}
	}
	status, a, _ := c.post("tools/call", map[string]any{"name": name, "arguments": args}, nil)
	if status != http.StatusOK || a.Error != nil {
		c.t.Fatalf("tools/call %s: HTTP %d, %+v", name, status, a.Error)
	}
	var r struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
		StructuredContent json.RawMessage `json:"structuredContent"`
		IsError           bool            `json:"isError"`
	}
	if err := json.Unmarshal(a.Result, &r); err != nil {
		c.t.Fatal(err)
	}
	if len(r.StructuredContent) > 0 && !r.IsError {
		return string(r.StructuredContent), false
	}
	if len(r.Content) == 0 {
		c.t.Fatalf("tools/call %s: no content in %s", name, a.Result)
	}
	return r.Content[0].Text, r.IsError
}

// TestHTTPBothEras (issue 15): a client of 2025-11-25, one of 2025-06-18
// and one of 2026-07-28 are served at once on one endpoint; handles are the
// server's, so each sees the machine another stood up, and runs it.
func TestHTTPBothEras(t *testing.T) {
	s := serveHTTP(t, romsHost(t), transport.HTTPOptions{Sessions: filepath.Join(t.TempDir(), "sessions.json")})
	a := legacyClient(t, s.url, "2025-11-25")
	b := legacyClient(t, s.url, "2025-06-18")
	m := modernClient(t, s.url)

	var opened host.Opened
	a.call("machine_open", map[string]any{"machine": "spectrum48"}, &opened)
	var moved host.Moved
	b.call("run", map[string]any{"handle": opened.Handle, "frames": 1}, &moved)
	var list MachineList
	m.call("machine_list", nil, &list)
	if len(list.Machines) != 1 || list.Machines[0].Handle != opened.Handle || list.Machines[0].Tick != moved.Tick {
		t.Fatalf("the modern client lists %+v, want %s at tick %d", list.Machines, opened.Handle, moved.Tick)
	}

	// The build's name is in the _meta of tools/list in both eras.
	for _, c := range []*httpClient{a, m} {
		_, res, _ := c.post("tools/list", nil, nil)
		var r struct {
			Meta map[string]map[string]string `json:"_meta"`
		}
		json.Unmarshal(res.Result, &r)
		if got := r.Meta[mcp.MetaKeyServerInfo]["version"]; got != testBuild {
			t.Errorf("tools/list in %s names the build %q, want %q", c.revision, got, testBuild)
		}
	}
}

// TestHTTPRefusals: a revision the server does not speak is refused with
// -32022 and those it does, HTTP 400, as on stdio; a legacy request with no
// session, and a session the server does not hold, are refused saying what
// to do.
func TestHTTPRefusals(t *testing.T) {
	s := serveHTTP(t, host.New(host.Options{Build: testBuild}), transport.HTTPOptions{})
	c := modernClient(t, s.url)
	status, a, _ := c.post("tools/list", nil, http.Header{"Mcp-Protocol-Version": {"2024-11-05"}})
	if status != http.StatusBadRequest || a.Error == nil || a.Error.Code != mcp.CodeUnsupportedProtocolVersion ||
		!strings.Contains(string(a.Data()), `"supported":["2026-07-28","2025-11-25","2025-06-18"]`) || string(a.ID) != "1" {
		t.Errorf("2024-11-05: HTTP %d, %s %+v", status, a.ID, a.Error)
	}

	// A method no MCP method is as long as is refused, quoted short.
	long := strings.Repeat("A", 5000)
	status, a, _ = c.post(long, nil, nil)
	if status != http.StatusBadRequest || a.Error == nil || a.Error.Code != -32600 ||
		!strings.Contains(a.Error.Message, `"method" is 5000 characters long, "AAAA`) || len(a.Error.Message) > 300 {
		t.Errorf("a method of 5000 characters: HTTP %d, %.300v", status, a.Error)
	}

	l := &httpClient{t: t, url: s.url}
	status, a, _ = l.post("tools/list", nil, nil)
	if status != http.StatusBadRequest || a.Error == nil || a.Error.Code != -32600 || !strings.Contains(a.Error.Message, "initialize") {
		t.Errorf("no session: HTTP %d, %+v", status, a.Error)
	}
	l.session, l.revision = "NOSUCHSESSION", "2025-11-25"
	status, a, _ = l.post("tools/list", nil, nil)
	if status != http.StatusNotFound || a.Error == nil || !strings.Contains(a.Error.Message, "open a new one with initialize") {
		t.Errorf("unknown session: HTTP %d, %+v", status, a.Error)
	}
}

func (a answer) Data() json.RawMessage {
	if a.Error == nil {
		return nil
	}
	return a.Error.Data
}

// TestHTTPOriginAndHost (issue 15): a foreign Origin, a foreign Host, and a
// request naming 0.0.0.0 when the server listens on 127.0.0.1 are each
// refused 403; this machine's names pass.
func TestHTTPOriginAndHost(t *testing.T) {
	s := serveHTTP(t, host.New(host.Options{Build: testBuild}), transport.HTTPOptions{})
	port := s.url[len("http://127.0.0.1:"):strings.LastIndex(s.url, "/")]
	for _, tt := range []struct {
		header, value string
		want          int
	}{
		{"Origin", "http://evil.example", http.StatusForbidden},
		{"Origin", "http://evil.example:" + port, http.StatusForbidden},
		{"Host", "evil.example:" + port, http.StatusForbidden},
		{"Host", "0.0.0.0:" + port, http.StatusForbidden},
		{"Origin", "http://localhost:" + port, http.StatusOK},
		{"Host", "localhost:" + port, http.StatusOK},
		{"", "", http.StatusOK},
	} {
		c := modernClient(t, s.url)
		req := c.request("tools/list", nil)
		if tt.header == "Host" {
			req.Host = tt.value
		} else if tt.header != "" {
			req.Header.Set(tt.header, tt.value)
		}
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != tt.want {
			t.Errorf("%s %q: HTTP %d (%s), want %d", tt.header, tt.value, res.StatusCode, body, tt.want)
		}
	}
}

// TestHTTPSessionOutlastsRestart (issue 15): a legacy client's session is
// kept in the file; the server stops and another starts on the same file,
// and the client's next call, naming the same session, is answered
// without a new initialize. The machine it opened is gone, and the first
// call naming it says the server restarted; a new machine gets a new
// handle.
func TestHTTPSessionOutlastsRestart(t *testing.T) {
	file := filepath.Join(t.TempDir(), "sessions.json")
	first := serveHTTP(t, romsHost(t), transport.HTTPOptions{Sessions: file})
	c := legacyClient(t, first.url, "2025-06-18")
	var opened host.Opened
	c.call("machine_open", map[string]any{"machine": "spectrum48"}, &opened)
	first.stop()

	kept, err := os.ReadFile(file)
	if err != nil || !strings.Contains(string(kept), c.session) || !strings.Contains(string(kept), `"revision": "2025-06-18"`) {
		t.Fatalf("the sessions file holds %s (%v); want session %s in 2025-06-18", kept, err, c.session)
	}

	second := serveHTTP(t, romsHost(t), transport.HTTPOptions{Sessions: file})
	c.url = second.url
	var list MachineList
	c.call("machine_list", nil, &list)
	if len(list.Machines) != 0 {
		t.Errorf("after the restart machine_list names %+v, want none", list.Machines)
	}
	text, refused := c.tool("run", map[string]any{"handle": opened.Handle, "frames": 1})
	if !refused || !strings.Contains(text, "the server restarted") || !strings.Contains(text, opened.Handle) {
		t.Errorf("run naming %s after the restart: %q (refused %v)", opened.Handle, text, refused)
	}
	var again host.Opened
	c.call("machine_open", map[string]any{"machine": "spectrum48"}, &again)
	if again.Handle == opened.Handle {
		t.Errorf("the machine opened after the restart is %s again", again.Handle)
	}

	// Closing it (DELETE) removes it from the file.
	req, _ := http.NewRequest(http.MethodDelete, c.url, nil)
	req.Header.Set("Mcp-Session-Id", c.session)
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	waitFor(t, "the closed session to leave the file", func() bool {
		second.web.Flush()
		b, _ := os.ReadFile(file)
		return !strings.Contains(string(b), c.session)
	})
}

// waitFor waits for cond, which an event elsewhere makes true, for as long
// as a machine ten times slower than this one would need.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestHTTPSessionsExpireAndAreCapped (issue 15): a session idle past the
// limit ends, and its client is told to open another; opening one past the
// cap ends the one named least recently.
func TestHTTPSessionsExpireAndAreCapped(t *testing.T) {
	s := serveHTTP(t, host.New(host.Options{Build: testBuild}), transport.HTTPOptions{
		Sessions: filepath.Join(t.TempDir(), "sessions.json"), IdleTimeout: 300 * time.Millisecond, MaxSessions: 3,
	})
	idle := legacyClient(t, s.url, "2025-11-25")
	waitFor(t, "the idle session to end", func() bool { return s.web.Sessions() == 0 })
	status, a, _ := idle.post("tools/list", nil, nil)
	if status != http.StatusNotFound || a.Error == nil {
		t.Errorf("a call on an expired session: HTTP %d %+v, want 404", status, a.Error)
	}

	capped := serveHTTP(t, host.New(host.Options{Build: testBuild}), transport.HTTPOptions{MaxSessions: 3})
	var cs []*httpClient
	for range 5 {
		cs = append(cs, legacyClient(t, capped.url, "2025-11-25"))
		if n := capped.web.Sessions(); n > 3 {
			t.Fatalf("%d sessions held, cap 3", n)
		}
	}
	for i, c := range cs {
		status, _, _ := c.post("tools/list", nil, nil)
		want := http.StatusOK
		if i < 2 {
			want = http.StatusNotFound
		}
		if status != want {
			t.Errorf("session %d of 5: HTTP %d, want %d", i+1, status, want)
		}
	}
}

// TestHTTPListChanged (issue 15): when the tool list changes, a legacy
// session is sent notifications/tools/list_changed on its stream (GET),
// and a modern client on its subscriptions/listen stream, tagged with the
// listen request's id.
func TestHTTPListChanged(t *testing.T) {
	s := serveHTTP(t, host.New(host.Options{Build: testBuild}), transport.HTTPOptions{})
	legacy := legacyClient(t, s.url, "2025-11-25")
	get, _ := http.NewRequest(http.MethodGet, s.url, nil)
	get.Header.Set("Accept", "text/event-stream")
	get.Header.Set("Mcp-Session-Id", legacy.session)
	get.Header.Set("Mcp-Protocol-Version", legacy.revision)
	stream, err := client.Do(get)
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Body.Close()

	modern := modernClient(t, s.url)
	listen := modern.request("subscriptions/listen", map[string]any{"notifications": map[string]any{"toolsListChanged": true}})
	listening, err := client.Do(listen)
	if err != nil {
		t.Fatal(err)
	}
	defer listening.Body.Close()
	acked := make(chan string, 8)
	go events(listening.Body, acked)
	if first := <-acked; !strings.Contains(first, "notifications/subscriptions/acknowledged") {
		t.Fatalf("the listen stream began with %s", first)
	}
	legacyEvents := make(chan string, 8)
	go events(stream.Body, legacyEvents)

	s.srv.ChangeTools(func(m *mcp.Server) {
		m.AddTool(&mcp.Tool{Name: "extra", InputSchema: map[string]any{"type": "object"}},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{}, nil
			})
	})
	for name, ch := range map[string]chan string{"legacy": legacyEvents, "modern": acked} {
		select {
		case e := <-ch:
			if !strings.Contains(e, "notifications/tools/list_changed") {
				t.Errorf("%s stream: %s", name, e)
			}
			if name == "modern" && !strings.Contains(e, `"io.modelcontextprotocol/subscriptionId":1`) {
				t.Errorf("the listen stream's notice is not tagged with the listen's id: %s", e)
			}
		case <-time.After(30 * time.Second):
			t.Errorf("the %s stream was not told the tool list changed", name)
		}
	}
}

// events sends the data of each SSE event read from r.
func events(r io.Reader, out chan<- string) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok && data != "" {
			out <- data
		}
	}
}

// TestHTTPLoad (issue 15): 20 clients at once, ten of each era, make 200
// runs each over 5 machines. Every answer is right and each machine's come
// in one order: laid end to end by the ticks each began and ended at, a
// machine's runs cover its time without a gap or an overlap, and each
// client's own come in the order it made them.
func TestHTTPLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("4000 runs")
	}
	s := serveHTTP(t, romsHost(t), transport.HTTPOptions{})
	opener := modernClient(t, s.url)
	handles := make([]string, 5)
	for i := range handles {
		var o host.Opened
		opener.call("machine_open", map[string]any{"machine": "spectrum48"}, &o)
		handles[i] = o.Handle
	}
	type ran struct{ from, to uint64 }
	var mu sync.Mutex
	runs := map[string][]ran{}
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var c *httpClient
			if i%2 == 0 {
				c = modernClient(t, s.url)
			} else {
				c = legacyClient(t, s.url, "2025-11-25")
			}
			last := map[string]uint64{}
			for j := range 200 {
				handle := handles[(i+j)%len(handles)]
				ticks := uint64(100 + 7*i + j)
				var m host.Moved
				c.call("run", map[string]any{"handle": handle, "ticks": ticks}, &m)
				if m.Handle != handle || m.Ticks < ticks || m.Ticks > ticks+23 || m.Stop != "done" {
					t.Errorf("client %d run %d of %d ticks on %s: %+v", i, j, ticks, handle, m)
				}
				if m.Tick-m.Ticks < last[handle] {
					t.Errorf("client %d: a run on %s began at %d, before its own run before ended, at %d", i, handle, m.Tick-m.Ticks, last[handle])
				}
				last[handle] = m.Tick
				mu.Lock()
				runs[handle] = append(runs[handle], ran{m.Tick - m.Ticks, m.Tick})
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	for _, h := range handles {
		rs := runs[h]
		if len(rs) != 800 {
			t.Errorf("%s ran %d times, want 800", h, len(rs))
		}
		byStart := map[uint64]ran{}
		for _, r := range rs {
			if _, twice := byStart[r.from]; twice {
				t.Errorf("%s: two runs began at tick %d", h, r.from)
			}
			byStart[r.from] = r
		}
		at := uint64(0)
		for range rs {
			r, ok := byStart[at]
			if !ok {
				t.Fatalf("%s: no run began at tick %d, where the one before ended", h, at)
			}
			at = r.to
		}
	}
}

// TestHTTPAbandonedSessionsStayBounded (issue 15): 3000 clients each open
// a session and go; the server holds at most its cap of them, and its
// memory stays bounded.
func TestHTTPAbandonedSessionsStayBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("3000 sessions")
	}
	s := serveHTTP(t, host.New(host.Options{Build: testBuild}), transport.HTTPOptions{
		Sessions: filepath.Join(t.TempDir(), "sessions.json"), MaxSessions: 500,
	})
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapInuse
	}
	for range 500 { // fill to the cap
		legacyClient(t, s.url, "2025-11-25")
	}
	full, goroutines := heap(), runtime.NumGoroutine()
	for range 2500 {
		legacyClient(t, s.url, "2025-11-25")
	}
	waitFor(t, "the sessions past the cap to end", func() bool { return s.web.Sessions() <= 500 })
	after := heap()
	t.Logf("heap in use at 500 sessions %d KiB, after 3000 %d KiB; goroutines %d then %d",
		full>>10, after>>10, goroutines, runtime.NumGoroutine())
	if after > full+full/2 {
		t.Errorf("heap in use grew from %d to %d KiB past the cap", full>>10, after>>10)
	}
	waitFor(t, "the ended sessions' goroutines to go", func() bool { return runtime.NumGoroutine() < goroutines+goroutines/2 })
}

// BenchmarkHTTPCall is one tools/call over streamable HTTP on loopback, a
// machine_list, in each era: a 2026-07-28 request alone, and a call in a
// session of 2025-11-25. Each answer comes as an SSE stream.
func BenchmarkHTTPCall(b *testing.B) {
	s := serveHTTP(b, host.New(host.Options{Build: testBuild}), transport.HTTPOptions{})
	for _, era := range []string{"2026-07-28", "2025-11-25"} {
		b.Run(era, func(b *testing.B) {
			var c *httpClient
			if era == transport.Modern {
				c = modernClient(b, s.url)
			} else {
				c = legacyClient(b, s.url, era)
			}
			for b.Loop() {
				var list MachineList
				c.call("machine_list", nil, &list)
			}
		})
	}
}

// BenchmarkHTTPSessionOpen is initialize and notifications/initialized: a
// legacy client opening a session, written to the sessions file.
func BenchmarkHTTPSessionOpen(b *testing.B) {
	s := serveHTTP(b, host.New(host.Options{Build: testBuild}), transport.HTTPOptions{
		Sessions: filepath.Join(b.TempDir(), "sessions.json"), MaxSessions: 100,
	})
	for b.Loop() {
		legacyClient(b, s.url, "2025-11-25")
	}
}

// TestHTTPNamesTheBuildWhereTheSpecSays ("The name of the build"): over
// HTTP as over stdio, a 2026-07-28 answer to server/discover, tools/list
// or tools/call names the server and the build in its _meta, and the empty
// answers the SDK gives for what the server does not offer do not.
func TestHTTPNamesTheBuildWhereTheSpecSays(t *testing.T) {
	s := serveHTTP(t, host.New(host.Options{Build: testBuild}), transport.HTTPOptions{})
	c := modernClient(t, s.url)
	for method, named := range map[string]bool{
		"server/discover": true, "tools/list": true,
		"prompts/list": false, "resources/list": false, "resources/templates/list": false,
	} {
		_, a, _ := c.post(method, nil, nil)
		if a.Error != nil {
			t.Fatalf("%s: %+v", method, a.Error)
		}
		if got := bytes.Contains(a.Result, []byte(mcp.MetaKeyServerInfo)); got != named {
			t.Errorf("%s's answer names the server: %v, want %v (%s)", method, got, named, a.Result)
		}
	}
}
