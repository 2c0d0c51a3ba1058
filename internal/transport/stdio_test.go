package transport

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// errorLine is a JSON-RPC error answer as the tests read one.
type errorLine struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result"`
	Error   *struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// The malformed lines of issue 19, item 1: each is answered with the code
// JSON-RPC 2.0 gives it and id null, and the line after it is read and
// answered as though nothing had come before.
var malformed = []struct {
	name, line string
	code       int64
	says       string
}{
	{"not JSON", `hello`, -32700, "parse error"},
	{"byte-order mark", "\xef\xbb\xbf" + `{"jsonrpc":"2.0","id":1,"method":"ping"}`, -32700, "byte-order mark"},
	{"batch", `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, -32600, "batch"},
	{"jsonrpc 1.0", `{"jsonrpc":"1.0","id":1,"method":"ping"}`, -32600, `"jsonrpc" is "\"1.0\""`},
	{"jsonrpc missing", `{"id":1,"method":"ping"}`, -32600, `"jsonrpc" is missing`},
	{"object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, -32600, `"id" is`},
	{"fractional id", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, -32600, "integer"},
	{"bare number", `42`, -32600, "JSON object"},
	{"bare string", `"ping"`, -32600, "JSON object"},
	{"two objects", `{"jsonrpc":"2.0","id":1,"method":"ping"}{"jsonrpc":"2.0","id":2,"method":"ping"}`, -32700, "comes more"},
	{"trailing garbage", `{"jsonrpc":"2.0","id":1,"method":"ping"} x`, -32700, "parse error"},
	{"cut short", `{"nrpc":`, -32700, "parse error"},
	{"method not a string", `{"jsonrpc":"2.0","id":1,"method":7}`, -32600, `"method" is`},
	{"params not an object", `{"jsonrpc":"2.0","id":1,"method":"ping","params":3}`, -32600, `"params" is`},
	{"neither request nor answer", `{"jsonrpc":"2.0","id":1}`, -32600, "has a \"method\""},
	{"capital key", `{"JSONRPC":"2.0","id":1,"method":"ping"}`, -32600, `"jsonrpc" is missing`},
	// The SDK would answer method not found, quoting the name whole.
	{"a method longer than any", `{"jsonrpc":"2.0","id":1,"method":"` + strings.Repeat("A", 5000) + `"}`, -32600, `"method" is 5000 characters long, "AAAA`},
}

func TestDecodeLineRefusesMalformed(t *testing.T) {
	for _, c := range malformed {
		t.Run(c.name, func(t *testing.T) {
			msg, answer := DecodeLine([]byte(c.line))
			if msg != nil {
				t.Fatalf("DecodeLine(%.200q) gave a message", c.line)
			}
			checkError(t, answer, c.code, c.says)
		})
	}
}

func checkError(t *testing.T, answer []byte, code int64, says string) {
	t.Helper()
	var e errorLine
	if err := json.Unmarshal(answer, &e); err != nil {
		t.Fatalf("answer %q is no JSON: %v", answer, err)
	}
	if e.JSONRPC != "2.0" || string(e.ID) != "null" || e.Error == nil {
		t.Fatalf("answer %s: want a JSON-RPC 2.0 error with id null", answer)
	}
	if e.Error.Code != code {
		t.Errorf("answer %s: code %d, want %d", answer, e.Error.Code, code)
	}
	if !strings.Contains(e.Error.Message, says) {
		t.Errorf("answer %s: message does not say %q", answer, says)
	}
	if len(answer) > 400 {
		t.Errorf("answered in %d bytes: %.300s…", len(answer), answer)
	}
}

func TestDecodeLineTakesMessages(t *testing.T) {
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":"a","method":"ping","params":{}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":3,"result":{}}`,
		"  {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\r",
	} {
		msg, answer := DecodeLine([]byte(line))
		if msg == nil || answer != nil {
			t.Errorf("DecodeLine(%q) = %v, %s; want the message", line, msg, answer)
		}
	}
	if msg, answer := DecodeLine([]byte(" \t")); msg != nil || answer != nil {
		t.Errorf("a blank line gave %v, %s; want nothing", msg, answer)
	}
}

// stdioServer serves an MCP server with no tools over a Stdio on pipes, and
// returns the client's ends.
func stdioServer(t *testing.T, maxLine int) (in io.WriteCloser, out *bufio.Scanner) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	srv := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = srv.Run(ctx, &Stdio{Reader: inR, Writer: outW, MaxLine: maxLine})
		outW.Close()
	}()
	t.Cleanup(func() {
		inW.Close()
		cancel()
		<-done
	})
	sc := bufio.NewScanner(outR)
	sc.Buffer(make([]byte, 0, 1<<16), 1<<20)
	return inW, sc
}

func nextLine(t *testing.T, out *bufio.Scanner) []byte {
	t.Helper()
	got := make(chan bool, 1)
	go func() { got <- out.Scan() }()
	select {
	case ok := <-got:
		if !ok {
			t.Fatalf("the server wrote no more: %v", out.Err())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no answer within 30s")
	}
	return out.Bytes()
}

// TestStdioGoesOnAfterMalformedLines (issue 19, item 1): a server on this
// transport answers each malformed line and then answers a good request
// made after it, on the same connection.
func TestStdioGoesOnAfterMalformedLines(t *testing.T) {
	in, out := stdioServer(t, 0)
	write := func(s string) {
		t.Helper()
		if _, err := io.WriteString(in, s+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	write(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	nextLine(t, out)
	write(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for i, c := range malformed {
		write(c.line)
		checkError(t, nextLine(t, out), c.code, c.says)
		write(`{"jsonrpc":"2.0","id":` + itoa(i+1) + `,"method":"ping"}`)
		var e errorLine
		if err := json.Unmarshal(nextLine(t, out), &e); err != nil || string(e.ID) != itoa(i+1) || e.Result == nil {
			t.Fatalf("after %s, the ping was answered %+v (%v)", c.name, e, err)
		}
	}
}

// TestStdioLineOverTheLimit: a line past the limit is answered -32600
// naming the limit, and the next line is read.
func TestStdioLineOverTheLimit(t *testing.T) {
	in, out := stdioServer(t, 1000)
	go func() {
		io.WriteString(in, `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"`+strings.Repeat("a", 100000)+`"}}`+"\n")
		io.WriteString(in, `{"jsonrpc":"2.0","id":2,"method":"ping"}`+"\n")
	}()
	checkError(t, nextLine(t, out), -32600, "longer than 1000 bytes")
	var e errorLine
	if err := json.Unmarshal(nextLine(t, out), &e); err != nil || string(e.ID) != "2" {
		t.Fatalf("the ping after the long line was answered %+v (%v)", e, err)
	}
}

// TestStdioLastLineWithoutNewline: input that ends without a newline still
// delivers its last message, then the end of input.
func TestStdioLastLineWithoutNewline(t *testing.T) {
	c, err := (&Stdio{Reader: strings.NewReader(`{"jsonrpc":"2.0","id":7,"method":"ping"}`), Writer: io.Discard}).Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	msg, err := c.Read(context.Background())
	if req, ok := msg.(*jsonrpc.Request); err != nil || !ok || req.Method != "ping" {
		t.Fatalf("Read = %v, %v; want the ping", msg, err)
	}
	if _, err := c.Read(context.Background()); err != io.EOF {
		t.Fatalf("then Read gave %v, want io.EOF", err)
	}
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

// TestStdioDrainAnswersAfterTheEnd: with Drain, a call read before the
// input ended is answered before the end reaches the server, which the
// go-sdk takes for the end of the connection (go-sdk #1061); and Ended is
// told of the end first.
func TestStdioDrainAnswersAfterTheEnd(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	release := make(chan struct{})
	srv.AddTool(&mcp.Tool{Name: "slow", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			<-release // returns once the input has ended
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil
		})
	in := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow","arguments":{}}}
`)
	var out syncBuffer
	err := srv.Run(context.Background(), &Stdio{Reader: in, Writer: &out, Drain: time.Minute, Ended: func() { close(release) }})
	if err != nil && !errors.Is(err, io.EOF) {
		t.Logf("Run: %v", err)
	}
	if !strings.Contains(out.String(), `"id":2,"result"`) {
		t.Errorf("the call made before the end was not answered: %s", out.String())
	}
}

// A syncBuffer is a bytes.Buffer safe for the server's writers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
