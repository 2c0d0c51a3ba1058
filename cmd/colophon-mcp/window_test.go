package main

import (
	"bufio"
	"context"
	"io"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

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

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r, w := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"window", "--machine", "cpc6128", "--sixty-hz", "--no-browser", "--http-port", "0",
			"--sessions", filepath.Join(t.TempDir(), "sessions.json"), "--roms", shared.TestPath(t, "roms")}, strings.NewReader(""), io.Discard, w)
		w.Close()
	}()
	lines := bufio.NewScanner(r)
	var endpoint string
	for endpoint == "" && lines.Scan() {
		if m := regexp.MustCompile(`MCP at (http://\S+)`).FindStringSubmatch(lines.Text()); m != nil {
			endpoint = m[1]
		}
	}
	if endpoint == "" {
		t.Fatalf("the window said no MCP endpoint: %v", lines.Err())
	}
	go io.Copy(io.Discard, r)
	c, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint}, nil)
	if err != nil {
		t.Fatal(err)
	}
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
	c.Close()
	cancel()
	select {
	case status := <-done:
		if status != 0 {
			t.Errorf("the window ended with status %d", status)
		}
	case <-time.After(time.Minute):
		t.Fatal("the window did not end within a minute of its context")
	}
}
