package transport

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// An sseEvent is one event of an SSE stream.
type sseEvent struct{ id, name, data string }

// readEvents reads a stream's events until it ends or n are read; blocks
// of only comments or retry: dispatch nothing, as in the HTML standard's
// EventSource parsing, and an event with no data (the priming event) is
// kept, since it carries an id.
func readEvents(r *bufio.Reader, n int) ([]sseEvent, error) {
	var out []sseEvent
	var e sseEvent
	fields := false
	for len(out) < n {
		line, err := r.ReadString('\n')
		if err != nil {
			if errors.Is(err, io.EOF) {
				return out, nil
			}
			return out, err
		}
		line = strings.TrimRight(line, "\r\n")
		switch {
		case line == "":
			if fields && (e.id != "" || e.data != "") {
				out = append(out, e)
			}
			e, fields = sseEvent{}, false
		case strings.HasPrefix(line, ":"), strings.HasPrefix(line, "retry:"):
		default:
			k, v, _ := strings.Cut(line, ":")
			v = strings.TrimPrefix(v, " ")
			switch k {
			case "id":
				e.id = v
			case "event":
				e.name = v
			case "data":
				e.data += v
			}
			fields = true
		}
	}
	return out, nil
}

// post sends a 2025-11-25 message to the endpoint, in session sid if any.
func post(ctx context.Context, t *testing.T, url, sid, body string) *http.Response {
	t.Helper()
	r, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	if sid != "" {
		r.Header.Set(sessionHeader, sid)
		r.Header.Set(revisionHeader, "2025-11-25")
	}
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatalf("POST %s: %v", body, err)
	}
	return resp
}

// progress is the progress number an event carries, or -1 if it is none.
func progress(e sseEvent) float64 {
	var m struct {
		Method string `json:"method"`
		Params struct {
			Progress float64 `json:"progress"`
		} `json:"params"`
	}
	if json.Unmarshal([]byte(e.data), &m) != nil || m.Method != "notifications/progress" {
		return -1
	}
	return m.Params.Progress
}

// TestSSEResumesWithLastEventID: a legacy client whose call's SSE stream
// is cut mid-way resumes it with the id of the last event it had
// (Last-Event-ID, the MCP transport's "Resumability and Redelivery" of
// 2025-06-18 and 2025-11-25) and gets the events it missed, each once, in
// order, numbered on from where it left off, the answer last; resumed
// again from further on, it gets only what follows that.
func TestSSEResumesWithLastEventID(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "resume-test", Version: "1"}, nil)
	gate := make(chan struct{})
	mcp.AddTool(srv, &mcp.Tool{Name: "steps", InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, req *mcp.CallToolRequest, _ map[string]any) (*mcp.CallToolResult, any, error) {
			step := func(n float64) {
				req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: req.Params.GetProgressToken(), Progress: n, Total: 4})
			}
			step(1)
			step(2)
			select { // the stream is cut here
			case <-gate:
			case <-ctx.Done():
				return nil, nil, ctx.Err()
			}
			step(3)
			step(4)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "four steps"}}}, nil, nil
		})
	h, err := NewHTTP(srv, HTTPOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(h)
	t.Cleanup(func() { ts.Close(); h.Close() })
	url := ts.URL + Path
	ctx := context.Background()

	resp := post(ctx, t, url, "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	sid := resp.Header.Get(sessionHeader)
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if sid == "" {
		t.Fatalf("initialize answered %d with no session", resp.StatusCode)
	}
	resp = post(ctx, t, url, sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	resp.Body.Close()

	// The call's stream: the priming event and two steps, then cut.
	callCtx, cut := context.WithCancel(ctx)
	resp = post(callCtx, t, url, sid, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"steps","arguments":{},"_meta":{"progressToken":"p"}}}`)
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != http.StatusOK || !strings.HasPrefix(ct, "text/event-stream") {
		t.Fatalf("tools/call answered %d %s; want an SSE stream", resp.StatusCode, ct)
	}
	before, err := readEvents(bufio.NewReader(resp.Body), 3)
	if err != nil || len(before) != 3 || before[0].data != "" || progress(before[1]) != 1 || progress(before[2]) != 2 {
		t.Fatalf("before the cut the stream carried %+v (%v); want the priming event and steps 1 and 2", before, err)
	}
	stream, _, _ := strings.Cut(before[0].id, "_")
	for i, e := range before {
		if want := fmt.Sprintf("%s_%d", stream, i); e.id != want {
			t.Fatalf("event %d has id %q; want %q", i, e.id, want)
		}
	}
	cut()
	resp.Body.Close()

	// The rest of the call happens while the client is away: steps 3 and
	// 4 and the answer are kept for it.
	close(gate)
	deadline := time.Now().Add(10 * time.Second)
	for {
		n := 0
		for range h.events.After(ctx, sid, stream, 2) {
			n++
		}
		if n == 3 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the call's last three events were not kept within 10s (%d were)", n)
		}
		time.Sleep(5 * time.Millisecond)
	}

	for _, tc := range []struct {
		after string
		want  []string // ids
		steps []float64
	}{
		{before[2].id, []string{stream + "_3", stream + "_4", stream + "_5"}, []float64{3, 4, -1}},
		{stream + "_3", []string{stream + "_4", stream + "_5"}, []float64{4, -1}},
		{stream + "_5", nil, nil},
	} {
		got := resume(t, url, sid, tc.after)
		var ids []string
		var steps []float64
		for _, e := range got {
			ids = append(ids, e.id)
			steps = append(steps, progress(e))
		}
		if fmt.Sprint(ids) != fmt.Sprint(tc.want) || fmt.Sprint(steps) != fmt.Sprint(tc.steps) {
			t.Errorf("resumed after %s: events %v, steps %v; want %v, %v", tc.after, ids, steps, tc.want, tc.steps)
			continue
		}
		if len(got) > 0 {
			last := got[len(got)-1].data
			if !strings.Contains(last, `"id":2`) || !strings.Contains(last, "four steps") {
				t.Errorf("resumed after %s: the last event is %s; want the call's answer", tc.after, last)
			}
		}
	}
}

// resume asks for a stream again after event id, and reads it to its end.
// A stream still held by the cut request is answered 409 until the server
// has seen the cut; a client waits, as retry: asks, and asks again.
func resume(t *testing.T, url, sid, after string) []sseEvent {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		r, _ := http.NewRequest(http.MethodGet, url, nil)
		r.Header.Set("Accept", "text/event-stream")
		r.Header.Set(sessionHeader, sid)
		r.Header.Set(revisionHeader, "2025-11-25")
		r.Header.Set("Last-Event-ID", after)
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatalf("resuming after %s: %v", after, err)
		}
		if resp.StatusCode == http.StatusConflict && time.Now().Before(deadline) {
			resp.Body.Close()
			time.Sleep(10 * time.Millisecond)
			continue
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			body, _ := io.ReadAll(resp.Body)
			t.Fatalf("resuming after %s answered %d: %s", after, resp.StatusCode, bytes.TrimSpace(body))
		}
		events, err := readEvents(bufio.NewReader(resp.Body), 100)
		if err != nil {
			t.Fatalf("reading the resumed stream after %s: %v", after, err)
		}
		return events
	}
}

// TestStandaloneStreamResumes: the same for a session's standalone
// stream, its GET, on which the server tells the client the tool list
// changed: cut after the first notice, resumed after it, the stream
// carries the two sent while the client was away, each once, and then the
// next as it happens.
func TestStandaloneStreamResumes(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "resume-test", Version: "1"}, nil)
	change := func(i int) {
		srv.AddTool(&mcp.Tool{Name: fmt.Sprintf("tool%d", i), InputSchema: map[string]any{"type": "object"}},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{}, nil
			})
	}
	change(0)
	h, err := NewHTTP(srv, HTTPOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(h)
	t.Cleanup(func() { ts.Close(); h.Close() })
	url := ts.URL + Path
	ctx := context.Background()
	resp := post(ctx, t, url, "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	sid := resp.Header.Get(sessionHeader)
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	post(ctx, t, url, sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`).Body.Close()

	// kept waits until the standalone stream has n events kept.
	kept := func(n int) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
			got := 0
			for range h.events.After(ctx, sid, "", -1) {
				got++
			}
			if got == n {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("the standalone stream kept %d events within 10s; want %d", got, n)
			}
		}
	}
	open := func(ctx context.Context, after string) *http.Response {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
			r, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
			r.Header.Set("Accept", "text/event-stream")
			r.Header.Set(sessionHeader, sid)
			r.Header.Set(revisionHeader, "2025-11-25")
			if after != "" {
				r.Header.Set("Last-Event-ID", after)
			}
			resp, err := http.DefaultClient.Do(r)
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode == http.StatusConflict && time.Now().Before(deadline) {
				resp.Body.Close() // the cut stream is still held
				continue
			}
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("GET after %q answered %d", after, resp.StatusCode)
			}
			return resp
		}
	}
	changed := func(events []sseEvent) bool {
		for _, e := range events {
			if !strings.Contains(e.data, "notifications/tools/list_changed") {
				return false
			}
		}
		return true
	}

	getCtx, cut := context.WithCancel(ctx)
	resp = open(getCtx, "")
	change(1)
	first, err := readEvents(bufio.NewReader(resp.Body), 1)
	if err != nil || len(first) != 1 || !changed(first) {
		t.Fatalf("the standalone stream carried %+v (%v); want one list_changed", first, err)
	}
	cut()
	resp.Body.Close()
	kept(1)
	change(2)
	kept(2)
	change(3)
	kept(3)

	resumeCtx, stop := context.WithCancel(ctx)
	defer stop()
	resp = open(resumeCtx, first[0].id)
	defer resp.Body.Close()
	r := bufio.NewReader(resp.Body)
	missed, err := readEvents(r, 2)
	if err != nil || len(missed) != 2 || !changed(missed) || missed[0].id != "_1" || missed[1].id != "_2" {
		t.Fatalf("resumed after %s: %+v (%v); want the two notices missed, _1 and _2", first[0].id, missed, err)
	}
	change(4)
	next, err := readEvents(r, 1)
	if err != nil || len(next) != 1 || !changed(next) || next[0].id != "_3" {
		t.Fatalf("after the missed notices the stream carried %+v (%v); want the next, _3, and nothing twice", next, err)
	}
}
