package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"colophon/internal/build"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// patience bounds every wait, so a broken server fails instead of hanging.
const patience = 10 * time.Second

func TestParseConfig(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		args []string
		want config
		err  string
	}{
		{name: "defaults from the spec",
			want: config{host: "pidp10.local", port: 10018, httpHost: "127.0.0.1", httpPort: 8010}},
		{name: "environment",
			env:  map[string]string{"PIDP10_HOST": "ka10", "PIDP10_PORT": "10020", "PIDP10_MCP_HOST": "::1", "PIDP10_MCP_PORT": "9000"},
			want: config{host: "ka10", port: 10020, httpHost: "::1", httpPort: 9000}},
		{name: "flags win over the environment",
			env:  map[string]string{"PIDP10_HOST": "ka10", "PIDP10_PORT": "10020"},
			args: []string{"--host", "its", "--port=10030", "--http", "--http-host", "localhost", "--http-port", "0"},
			want: config{host: "its", port: 10030, http: true, httpHost: "localhost", httpPort: 0}},
		{name: "bad PIDP10_PORT", env: map[string]string{"PIDP10_PORT": "ten"}, err: `PIDP10_PORT="ten" is not a port number`},
		{name: "bad PIDP10_MCP_PORT", env: map[string]string{"PIDP10_MCP_PORT": "x"}, err: "PIDP10_MCP_PORT"},
		{name: "port out of range", args: []string{"--port", "70000"}, err: "--port (PIDP10_PORT) 70000 is outside 1..65535"},
		{name: "http port out of range", args: []string{"--http-port", "-1"}, err: "--http-port"},
		{name: "empty host", args: []string{"--host", ""}, err: "--host (PIDP10_HOST) is empty"},
		{name: "unknown flag", args: []string{"--telnet"}, err: "flag provided but not defined: -telnet"},
		{name: "stray argument", args: []string{"pidp10.local"}, err: `unexpected argument "pidp10.local"`},
		{name: "version", args: []string{"--version"},
			want: config{host: "pidp10.local", port: 10018, httpHost: "127.0.0.1", httpPort: 8010, version: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseConfig(tt.args, func(k string) string { return tt.env[k] }, io.Discard)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("config %+v, want %+v", got, tt.want)
			}
		})
	}
}

// TestVersion: --version prints the build's name, and nothing else, and
// touches no line.
func TestVersion(t *testing.T) {
	var out, errs bytes.Buffer
	if err := run([]string{"--version"}, func(string) string { return "" }, &out, &errs); err != nil {
		t.Fatalf("--version: %v, stderr %q", err, errs.String())
	}
	if out.String() != build.Name()+"\n" || errs.Len() != 0 {
		t.Errorf("--version printed %q and %q on stderr, want %q", out.String(), errs.String(), build.Name())
	}
}

// TestBuiltBinaryCarriesItsName: the program make builds carries the name
// make computes, as colophon-mcp does: the -X flags reach the variables
// they name, --version prints it, and the server gives it as its version
// in serverInfo, over its real standard streams.
func TestBuiltBinaryCarriesItsName(t *testing.T) {
	const (
		mcpPart = "0123456789abcdef0123456789abcdef01234567.dirty"
		emuPart = "fedcba9876543210fedcba9876543210fedcba98"
		want    = "0.0.0+mcp." + mcpPart + ".emulator." + emuPart
	)
	bin := buildServer(t, "-ldflags", "-X colophon/internal/build.mcp="+mcpPart+" -X colophon/internal/build.emulator="+emuPart)
	out, err := exec.Command(bin, "--version").Output()
	if err != nil || string(out) != want+"\n" {
		t.Errorf("--version: %q, %v; want %q", out, err, want)
	}

	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "PIDP10_HOST=127.0.0.1", "PIDP10_PORT=9")
	cmd.Stdin = strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}` + "\n")
	out, err = cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	var init struct {
		Result struct {
			ServerInfo struct{ Name, Version string } `json:"serverInfo"`
		} `json:"result"`
	}
	if err := json.Unmarshal(bytes.SplitN(out, []byte("\n"), 2)[0], &init); err != nil {
		t.Fatalf("the answer to initialize, %q: %v", out, err)
	}
	if init.Result.ServerInfo.Name != "pidp10-mcp" || init.Result.ServerInfo.Version != want {
		t.Errorf("serverInfo %+v, want pidp10-mcp at %q", init.Result.ServerInfo, want)
	}
}

// buildServer builds this command into a temporary directory, with the
// go build flags given.
func buildServer(t *testing.T, flags ...string) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		goTool = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	bin := filepath.Join(t.TempDir(), "pidp10-mcp")
	out, err := exec.Command(goTool, append(append([]string{"build"}, flags...), "-o", bin, ".")...).CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// lineEnd is the ITS side of a fake terminal line on 127.0.0.1.
type lineEnd struct {
	ln    net.Listener
	conns chan net.Conn
}

func newLineEnd(t *testing.T) *lineEnd {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := &lineEnd{ln: ln, conns: make(chan net.Conn, 4)}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			l.conns <- c
		}
	}()
	t.Cleanup(func() { ln.Close() })
	return l
}

func (l *lineEnd) port() string { return fmt.Sprint(l.ln.Addr().(*net.TCPAddr).Port) }

// answer accepts the server's connection, greets, and echoes one line back
// followed by DDT's prompt. It returns the connection for the test to watch.
func (l *lineEnd) answer(t *testing.T) <-chan net.Conn {
	got := make(chan net.Conn, 1)
	go func() {
		select {
		case c := <-l.conns:
			t.Cleanup(func() { c.Close() })
			c.Write([]byte("\xff\xfb\x01\xff\xfb\x03\r\nConnected to the KA-10 simulator\r\n"))
			r := bufio.NewReader(c)
			_ = c.SetReadDeadline(time.Now().Add(patience))
			if typed, err := r.ReadString('\r'); err == nil {
				c.Write([]byte(typed + "\n*"))
			}
			got <- c
		case <-time.After(patience):
			close(got)
		}
	}()
	return got
}

// expectReset checks that the peer's next read ends in a reset: the server
// closed with SO_LINGER 0, not with a FIN.
// readUntil reads from the peer's end until want has arrived.
func readUntil(c net.Conn, want string) error {
	_ = c.SetReadDeadline(time.Now().Add(patience))
	var got []byte
	buf := make([]byte, 256)
	for !strings.Contains(string(got), want) {
		n, err := c.Read(buf)
		got = append(got, buf[:n]...)
		if err != nil {
			return fmt.Errorf("the peer waiting for %q got %q: %w", want, got, err)
		}
	}
	return nil
}

func expectReset(t *testing.T, c net.Conn) {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(patience))
	buf := make([]byte, 256)
	for {
		n, err := c.Read(buf)
		if err == nil {
			continue // late output, such as an echo
		}
		if !errors.Is(err, syscall.ECONNRESET) {
			t.Errorf("peer's read ended with %d bytes, %v; want a reset (ECONNRESET)", n, err)
		}
		return
	}
}

func callText(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	if res.IsError {
		t.Fatalf("%s failed: %s", name, text)
	}
	return text
}

// session opens the line and types one command through cs.
func session(t *testing.T, cs *mcp.ClientSession, l *lineEnd) net.Conn {
	t.Helper()
	peer := l.answer(t)
	if got := callText(t, cs, "open", nil); !strings.Contains(got, "Connected to the KA-10 simulator") {
		t.Fatalf("open: %q", got)
	}
	if got := callText(t, cs, "send", map[string]any{"input": ":listf", "expect": `\*$`}); !strings.HasPrefix(got, ":listf\n*\n[matched | open 127.0.0.1:") {
		t.Fatalf("send: %q", got)
	}
	c, ok := <-peer
	if !ok {
		t.Fatal("the server never connected to the line")
	}
	return c
}

func TestStdioBinaryTearsDownOnEveryExit(t *testing.T) {
	bin := buildServer(t)
	// "... while a call waits": a send waits ten minutes for output that
	// never comes, and the signal must reset the line at once, not when
	// the call ends (issue 19, item 8).
	for _, ending := range []string{"end of input", "SIGTERM", "SIGHUP", "SIGTERM while a call waits", "SIGHUP while a call waits"} {
		t.Run(ending, func(t *testing.T) {
			l := newLineEnd(t)
			cmd := exec.Command(bin)
			cmd.Env = append(os.Environ(), "PIDP10_HOST=127.0.0.1", "PIDP10_PORT="+l.port())
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			transport := &mcp.CommandTransport{Command: cmd, TerminateDuration: 3 * patience}
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "stdio-test", Version: "0"}, nil).Connect(context.Background(), transport, nil)
			if err != nil {
				t.Fatal(err)
			}
			peer := session(t, cs, l)

			closed := make(chan error, 1)
			if strings.HasSuffix(ending, "while a call waits") {
				waiting := make(chan struct{})
				go func() {
					close(waiting)
					cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "send", Arguments: map[string]any{
						"input": "never answered", "expect": "NEVER", "timeout_ms": 600000, "quiet_ms": 600000}})
				}()
				<-waiting
				// The send is on its way; the peer sees its bytes arrive.
				if err := readUntil(peer, "never answered"); err != nil {
					t.Fatal(err)
				}
				ending = strings.TrimSuffix(ending, " while a call waits")
			}
			switch ending {
			case "end of input":
				// Closing stdin is the client's way to end a stdio server.
				go func() { closed <- cs.Close() }()
			case "SIGTERM":
				cmd.Process.Signal(syscall.SIGTERM)
			case "SIGHUP":
				cmd.Process.Signal(syscall.SIGHUP)
			}
			expectReset(t, peer)
			if ending != "end of input" {
				go func() { closed <- cs.Close() }()
			}
			select {
			case <-closed:
			case <-time.After(2 * patience):
				t.Fatal("the server did not exit")
			}
			if code := cmd.ProcessState.ExitCode(); code != 0 {
				t.Errorf("exit code %d, stderr %q", code, stderr.String())
			}
		})
	}
}

func TestStreamableHTTP(t *testing.T) {
	bin := buildServer(t)
	l := newLineEnd(t)
	cmd := exec.Command(bin, "--http", "--http-port", "0", "--sessions", filepath.Join(t.TempDir(), "sessions.json"))
	cmd.Env = append(os.Environ(), "PIDP10_HOST=127.0.0.1", "PIDP10_PORT="+l.port(), "PIDP10_MCP_HOST=127.0.0.1")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
	})
	announced := make(chan string, 1)
	go func() {
		r := bufio.NewReader(stderr)
		first, _ := r.ReadString('\n')
		announced <- first
		io.Copy(io.Discard, r)
		exited <- cmd.Wait()
	}()
	var endpoint string
	select {
	case first := <-announced:
		i := strings.Index(first, "http://")
		if i < 0 {
			t.Fatalf("server said %q, want its address", first)
		}
		endpoint, _, _ = strings.Cut(strings.TrimSpace(first[i:]), ",")
	case <-time.After(patience):
		t.Fatal("the server did not announce its address")
	}
	if !strings.HasPrefix(endpoint, "http://127.0.0.1:") || !strings.HasSuffix(endpoint, "/mcp") {
		t.Fatalf("endpoint %q, want loopback .../mcp", endpoint)
	}

	cs, err := mcp.NewClient(&mcp.Implementation{Name: "http-test", Version: "0"}, nil).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: endpoint}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	peer := session(t, cs, l)

	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"0"}}}`
	post := func(header, value string) int {
		req, _ := http.NewRequest("POST", endpoint, strings.NewReader(initialize))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if header == "Host" {
			req.Host = value
		} else if header != "" {
			req.Header.Set(header, value)
		}
		res, err := (&http.Client{Timeout: patience}).Do(req)
		if err != nil {
			t.Fatalf("POST with %s %q: %v", header, value, err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res.StatusCode
	}
	port := endpoint[len("http://127.0.0.1:"):strings.LastIndex(endpoint, "/")]
	tests := []struct {
		header, value string
		want          int
	}{
		{"Origin", "http://evil.example", http.StatusForbidden},
		{"Origin", "http://evil.example:" + port, http.StatusForbidden},
		{"Host", "evil.example:" + port, http.StatusForbidden}, // DNS rebinding without Origin
		{"Origin", "http://localhost:" + port, http.StatusOK},
		{"Origin", "http://127.0.0.1:" + port, http.StatusOK},
		{"", "", http.StatusOK}, // a client that is not a browser
	}
	for _, tt := range tests {
		if got := post(tt.header, tt.value); got != tt.want {
			t.Errorf("POST with %s %q: status %d, want %d", tt.header, tt.value, got, tt.want)
		}
	}

	// The line survived the rejected requests and other sessions.
	if got := callText(t, cs, "status", nil); !strings.Contains(got, "connected: yes") {
		t.Errorf("status: %q", got)
	}

	modernEra(t, endpoint)

	cmd.Process.Signal(syscall.SIGTERM)
	expectReset(t, peer)
	select {
	case err := <-exited:
		exited <- err
		if err != nil {
			t.Errorf("server exit after SIGTERM: %v", err)
		}
	case <-time.After(2 * patience):
		t.Fatal("the server did not exit on SIGTERM")
	}
}

// TestMalformedLinesAreAnswered (issue 19, item 1): pidp10-mcp's stdio is
// colophon-mcp's: a line that is no message is answered with a JSON-RPC
// error with id null, and the server reads on.
func TestMalformedLinesAreAnswered(t *testing.T) {
	cmd := exec.Command(buildServer(t))
	cmd.Env = append(os.Environ(), "PIDP10_HOST=127.0.0.1", "PIDP10_PORT=9")
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { in.Close(); cmd.Wait() }()
	lines := bufio.NewScanner(out)
	send := func(s string) string {
		t.Helper()
		if _, err := io.WriteString(in, s+"\n"); err != nil {
			t.Fatal(err)
		}
		if !lines.Scan() {
			t.Fatalf("no answer to %s", s)
		}
		return lines.Text()
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`)
	io.WriteString(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	for line, code := range map[string]string{`{"nrpc":`: "-32700", `"ping"`: "-32600", `{"jsonrpc":"1.0","id":3,"method":"ping"}`: "-32600"} {
		if got := send(line); !strings.Contains(got, `"id":null`) || !strings.Contains(got, `"code":`+code) {
			t.Errorf("%s answered %s, want %s with id null", line, got, code)
		}
	}
	if got := send(`{"jsonrpc":"2.0","id":2,"method":"ping"}`); !strings.Contains(got, `"id":2,"result"`) {
		t.Errorf("the ping after the malformed lines: %s", got)
	}
}

// TestEndOfInputWhileACallWaits (issue 19, items 7 and 8): the input ends
// while a send waits ten minutes for output that never comes; the line is
// reset at once, the send is answered, closed, before the process goes, and
// the process ends.
func TestEndOfInputWhileACallWaits(t *testing.T) {
	l := newLineEnd(t)
	cmd := exec.Command(buildServer(t))
	cmd.Env = append(os.Environ(), "PIDP10_HOST=127.0.0.1", "PIDP10_PORT="+l.port())
	in, _ := cmd.StdinPipe()
	// The output is our own pipe, not StdoutPipe's, which Wait closes as
	// the process ends, perhaps before the last answer has been read.
	out, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { out.Close() })
	cmd.Stdout = w
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() { cmd.Process.Kill() })
	lines := bufio.NewScanner(out)
	write := func(s string) {
		if _, err := io.WriteString(in, s+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	next := func() string {
		if !lines.Scan() {
			t.Fatalf("the server wrote no more: %v", lines.Err())
		}
		return lines.Text()
	}
	// The line greets and then says nothing, whatever it is sent.
	peer := make(chan net.Conn, 1)
	go func() {
		c := <-l.conns
		c.Write([]byte("\r\nConnected to the KA-10 simulator\r\n"))
		peer <- c
	}()
	write(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`)
	next()
	write(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	write(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"open","arguments":{}}}`)
	if got := next(); !strings.Contains(got, "KA-10") {
		t.Fatalf("open: %s", got)
	}
	c := <-peer
	t.Cleanup(func() { c.Close() })
	write(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"send","arguments":{"input":"hello","expect":"NEVER","timeout_ms":600000,"quiet_ms":600000}}}`)
	if err := readUntil(c, "hello"); err != nil {
		t.Fatal(err)
	}
	in.Close()
	expectReset(t, c)
	if got := next(); !strings.Contains(got, `"id":3`) || !strings.Contains(got, "closed") {
		t.Errorf("the waiting send was answered %s, want its answer with reason closed", got)
	}
	select {
	case <-exited:
	case <-time.After(2 * patience):
		t.Fatal("the server did not exit")
	}
}

// modernEra (issue 15): pidp10-mcp over HTTP answers a client of
// 2026-07-28, which opens no session: each request stands alone, naming
// its revision in its _meta and in the MCP-Protocol-Version header, its
// method in Mcp-Method and its tool in Mcp-Name, and is answered in that
// revision. The line the legacy session opened is the one it sees. A
// revision the server does not speak is refused with -32022, listing the
// ones it does and echoing the one asked for, with HTTP 400.
func modernEra(t *testing.T, endpoint string) {
	t.Helper()
	const modern = "2026-07-28"
	type rpcError struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
		Data    struct {
			Supported []string `json:"supported"`
			Requested string   `json:"requested"`
		} `json:"data"`
	}
	call := func(revision, method string, params map[string]any) (int, json.RawMessage, *rpcError) {
		t.Helper()
		if params == nil {
			params = map[string]any{}
		}
		params["_meta"] = map[string]any{
			"io.modelcontextprotocol/protocolVersion":    revision,
			"io.modelcontextprotocol/clientCapabilities": map[string]any{},
			"io.modelcontextprotocol/clientInfo":         map[string]any{"name": "modern-test", "version": "1"},
		}
		body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 7, "method": method, "params": params})
		req, _ := http.NewRequest(http.MethodPost, endpoint, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", revision)
		req.Header.Set("Mcp-Method", method)
		if name, ok := params["name"].(string); ok {
			req.Header.Set("Mcp-Name", name)
		}
		res, err := (&http.Client{Timeout: patience}).Do(req)
		if err != nil {
			t.Fatalf("%s in %s: %v", method, revision, err)
		}
		defer res.Body.Close()
		if res.Header.Get("Mcp-Session-Id") != "" {
			t.Errorf("%s in %s opened session %s; 2026-07-28 has none", method, revision, res.Header.Get("Mcp-Session-Id"))
		}
		raw, _ := io.ReadAll(res.Body)
		// An answer comes as JSON, or as the data of an SSE event.
		msg := raw
		if strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
			msg = nil
			for _, line := range strings.Split(string(raw), "\n") {
				if data, ok := strings.CutPrefix(line, "data: "); ok && strings.Contains(data, `"id":7`) {
					msg = []byte(data)
				}
			}
		}
		var answer struct {
			Result json.RawMessage `json:"result"`
			Error  *rpcError       `json:"error"`
		}
		if err := json.Unmarshal(msg, &answer); err != nil {
			t.Fatalf("%s in %s answered %d: %q, not a JSON-RPC answer", method, revision, res.StatusCode, raw)
		}
		return res.StatusCode, answer.Result, answer.Error
	}

	status, result, rerr := call(modern, "server/discover", nil)
	var discover struct {
		SupportedVersions []string `json:"supportedVersions"`
		Capabilities      struct {
			Tools *struct{} `json:"tools"`
		} `json:"capabilities"`
	}
	if status != http.StatusOK || rerr != nil || json.Unmarshal(result, &discover) != nil ||
		!slices.Contains(discover.SupportedVersions, modern) || discover.Capabilities.Tools == nil {
		t.Errorf("server/discover: %d %s %+v; want the revisions, 2026-07-28 among them, and the tools capability", status, result, rerr)
	}

	status, result, rerr = call(modern, "tools/list", nil)
	var list struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	var names []string
	if status == http.StatusOK && rerr == nil && json.Unmarshal(result, &list) == nil {
		for _, tool := range list.Tools {
			names = append(names, tool.Name)
		}
	}
	slices.Sort(names)
	if want := []string{"close", "open", "peek", "read", "send", "status"}; !slices.Equal(names, want) {
		t.Errorf("tools/list: %d, tools %v (%+v); want %v", status, names, rerr, want)
	}

	status, result, rerr = call(modern, "tools/call", map[string]any{"name": "status", "arguments": map[string]any{}})
	var called struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
		IsError bool `json:"isError"`
	}
	if status != http.StatusOK || rerr != nil || json.Unmarshal(result, &called) != nil || called.IsError ||
		len(called.Content) == 0 || !strings.Contains(called.Content[0].Text, "connected: yes") {
		t.Errorf("tools/call status: %d %s %+v; want the line the legacy session opened, connected", status, result, rerr)
	}

	const unknown = "2099-01-01"
	status, result, rerr = call(unknown, "tools/list", nil)
	if status != http.StatusBadRequest || rerr == nil || rerr.Code != -32022 ||
		!slices.Contains(rerr.Data.Supported, modern) || !slices.Contains(rerr.Data.Supported, "2025-11-25") ||
		rerr.Data.Requested != unknown || !strings.Contains(rerr.Message, unknown) {
		t.Errorf("tools/list in %s: %d %s %+v; want 400 and -32022 naming it, with the revisions spoken", unknown, status, result, rerr)
	}
}
