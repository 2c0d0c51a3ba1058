package server

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// testBuild is the build name the tests give the server, in the spec's form.
const testBuild = "0.0.0+mcp.0123456789abcdef0123456789abcdef01234567.dirty.emulator.0123456789abcdef0123456789abcdef01234567"

// A wire is a raw JSON-RPC client on a pipe to a served Server: the tests
// write the lines a client would and read the server's lines back, so that
// nothing of the SDK's client stands between them and the protocol.
type wire struct {
	t      testing.TB
	toSrv  *io.PipeWriter
	lines  *bufio.Scanner
	nextID int
}

// dial serves s on a pipe and returns a client on the other end.
func dial(t testing.TB, s *Server) *wire {
	t.Helper()
	clientToServer, fromClient := io.Pipe()
	toClient, serverToClient := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- s.Serve(ctx, &mcp.IOTransport{Reader: clientToServer, Writer: serverToClient})
		serverToClient.Close()
	}()
	t.Cleanup(func() {
		fromClient.Close()
		<-done
		cancel()
	})
	lines := bufio.NewScanner(toClient)
	lines.Buffer(make([]byte, 0, 1<<20), 16<<20)
	return &wire{t: t, toSrv: fromClient, lines: lines}
}

// newWire serves a new server with the test build name.
func newWire(t *testing.T) *wire {
	t.Helper()
	return dial(t, New(Options{Build: testBuild}))
}

// closeInput ends the client's input, as a shell pipe does after its last
// request.
func (w *wire) closeInput() {
	w.t.Helper()
	if err := w.toSrv.Close(); err != nil {
		w.t.Fatal(err)
	}
}

// recvAll reads the server's lines until it stops writing.
func (w *wire) recvAll() []string {
	var lines []string
	for w.lines.Scan() {
		lines = append(lines, w.lines.Text())
	}
	return lines
}

// send writes one raw line to the server.
func (w *wire) send(line string) {
	w.t.Helper()
	if _, err := io.WriteString(w.toSrv, line+"\n"); err != nil {
		w.t.Fatalf("writing %s: %v", line, err)
	}
}

// recv reads the server's next line.
func (w *wire) recv() string {
	w.t.Helper()
	if !w.lines.Scan() {
		w.t.Fatalf("the server sent no line: %v", w.lines.Err())
	}
	return w.lines.Text()
}

// A reply is one decoded answer.
type reply struct {
	Raw    string // the line as the server wrote it
	ID     any
	Result map[string]any
	Error  *struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	}
}

func decodeReply(t testing.TB, line string) reply {
	t.Helper()
	var r reply
	var wireForm struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      any             `json:"id"`
		Result  json.RawMessage `json:"result"`
		Error   json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal([]byte(line), &wireForm); err != nil {
		t.Fatalf("the server wrote %s, which is no JSON-RPC: %v", line, err)
	}
	r.Raw, r.ID = line, wireForm.ID
	if wireForm.Result != nil {
		if err := json.Unmarshal(wireForm.Result, &r.Result); err != nil {
			t.Fatalf("result of %s: %v", line, err)
		}
	}
	if wireForm.Error != nil {
		if err := json.Unmarshal(wireForm.Error, &r.Error); err != nil {
			t.Fatalf("error of %s: %v", line, err)
		}
	}
	return r
}

// call sends a request with the next ID and reads its answer.
func (w *wire) call(method string, params any) reply {
	w.t.Helper()
	w.nextID++
	id := w.nextID
	line := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q`, id, method)
	if params != nil {
		p, err := json.Marshal(params)
		if err != nil {
			w.t.Fatal(err)
		}
		line += `,"params":` + string(p)
	}
	w.send(line + "}")
	r := decodeReply(w.t, w.recv())
	if r.ID != float64(id) {
		w.t.Fatalf("%s: asked with id %d, answered %s", method, id, r.Raw)
	}
	return r
}

// notify sends a notification.
func (w *wire) notify(method string) {
	w.t.Helper()
	w.send(fmt.Sprintf(`{"jsonrpc":"2.0","method":%q}`, method))
}

// modernMeta is the _meta every 2026-07-28 request carries.
func modernMeta() map[string]any {
	return map[string]any{
		mcp.MetaKeyProtocolVersion:    modern,
		mcp.MetaKeyClientInfo:         map[string]any{"name": "wire-test", "version": "1"},
		mcp.MetaKeyClientCapabilities: map[string]any{},
	}
}

// withMeta returns params with a _meta naming revision, or modernMeta for
// 2026-07-28.
func withMeta(revision string, params map[string]any) map[string]any {
	p := map[string]any{}
	for k, v := range params {
		p[k] = v
	}
	if revision == modern {
		p["_meta"] = modernMeta()
	} else {
		p["_meta"] = map[string]any{mcp.MetaKeyProtocolVersion: revision}
	}
	return p
}

// initialize opens the connection in the revision asked for, and sends the
// initialized notification, as a client of those revisions does.
func (w *wire) initialize(asked string) reply {
	w.t.Helper()
	r := w.call("initialize", initializeParams(asked))
	if r.Error == nil {
		w.notify("notifications/initialized")
	}
	return r
}

func initializeParams(asked string) map[string]any {
	return map[string]any{
		"protocolVersion": asked,
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": "wire-test", "version": "1"},
	}
}

// mustResult fails unless r is a result.
func mustResult(t testing.TB, what string, r reply) map[string]any {
	t.Helper()
	if r.Error != nil || r.Result == nil {
		t.Fatalf("%s: want a result, got %s", what, r.Raw)
	}
	return r.Result
}

// mustError fails unless r is an error with the code.
func mustError(t testing.TB, what string, r reply, code int) {
	t.Helper()
	if r.Error == nil {
		t.Fatalf("%s: want error %d, got %s", what, code, r.Raw)
	}
	if r.Error.Code != code {
		t.Fatalf("%s: want error %d, got %s", what, code, r.Raw)
	}
}
