package line

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Issue 19, item 8: what pidp10-mcp did wrong with a careless peer or agent,
// each held here.

// TestExpectBeforeMore: an expect that matches the output before a
// --More-- prompt in the same read ends the call, and no space is sent:
// whichever comes first decides, and the match is first in the text.
func TestExpectBeforeMore(t *testing.T) {
	_, p, c, _ := openLine(t)
	script(t, func() error {
		if err := p.expect(":listf\r"); err != nil {
			return err
		}
		if err := p.write("\r\nTARGET found\r\n--More-- (Space=yes, Rubout=no)"); err != nil {
			return err
		}
		// The server must not answer the prompt: a space here would page
		// on past what the caller stopped at.
		return p.quietFor(500 * time.Millisecond)
	})
	text, trailer := split(t, c.call("send", map[string]any{"input": ":listf", "expect": "TARGET", "quiet_ms": patienceMS}))
	if reason(t, trailer) != ReasonMatched || !strings.Contains(trailer, "| open") || strings.Contains(trailer, "answered") {
		t.Errorf("send: %q %s, want matched with no prompt answered", text, trailer)
	}
	if !strings.Contains(text, "TARGET found") {
		t.Errorf("send text %q", text)
	}
	if !strings.Contains(c.call("status", nil), "--More-- prompt is waiting") {
		t.Error("status does not say the prompt is waiting for the agent")
	}
}

// TestMoreTailArrivesLate: a bare --More-- whose "(Space=yes, Rubout=no)"
// tail comes a while later is one prompt, answered once, and removed whole.
// The tail is sent once the server holds the bare prompt, and has held it
// for a tenth of the second it waits for a tail without answering: the
// waits are on events, and the one on the clock has a tenfold margin
// (issue 19, item 12).
func TestMoreTailArrivesLate(t *testing.T) {
	_, p, c, s := openLine(t)
	script(t, func() error {
		if err := p.expect(":listf\r"); err != nil {
			return err
		}
		if err := p.write("\r\nfile 01 a\r\n--More--"); err != nil {
			return err
		}
		if err := holds(s, "--More--"); err != nil {
			return err
		}
		if err := p.quietFor(moreSettle / 10); err != nil {
			return fmt.Errorf("while the bare prompt waits for its tail: %w", err)
		}
		if err := p.write(" (Space=yes, Rubout=no)"); err != nil {
			return err
		}
		if err := p.expect(" "); err != nil {
			return err
		}
		if err := p.write("\r\nfile 02 a\r\n*"); err != nil {
			return err
		}
		return p.quietFor(moreSettle / 10) // one space, not two
	})
	text, trailer := split(t, c.call("send", map[string]any{"input": ":listf", "expect": `\*$`, "quiet_ms": patienceMS}))
	if want := "\nfile 01 a\n\nfile 02 a\n*"; text != want {
		t.Errorf("text %q, want %q", text, want)
	}
	if !strings.Contains(trailer, "1 --More-- answered") {
		t.Errorf("trailer %s, want one prompt answered", trailer)
	}
}

// holds waits, boundedly, until the session's scrollback ends with text.
// It is safe in a script's goroutine, where t.Fatal is not.
func holds(s *Session, text string) error {
	deadline := time.Now().Add(patience)
	for {
		s.mu.Lock()
		_, window := s.windowLocked()
		ok := strings.HasSuffix(string(window), text)
		s.mu.Unlock()
		if ok {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the server never held %q", text)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestStraySubnegotiationIsBounded: an IAC SB with no IAC SE swallows at
// most maxSubnegotiation bytes; then the filter gives up and passes them,
// so a line that sent one by mistake is not silent for ever.
func TestStraySubnegotiationIsBounded(t *testing.T) {
	text := strings.Repeat("the rest of the session ", 200) // 4800 bytes
	var f filter
	got := string(f.write(nil, append([]byte{iac, sb}, text...)))
	if got != text {
		t.Errorf("after a stray IAC SB, the filter passed %d of %d bytes", len(got), len(text))
	}
	// A real one is still removed, whole, though split over reads.
	var g filter
	out := g.write(nil, []byte{'a', iac, sb, 31, 0, 80})
	out = g.write(out, []byte{0, 24, iac, se, 'b'})
	if string(out) != "ab" {
		t.Errorf("a window-size subnegotiation left %q", out)
	}
}

// TestPeekLargerThanScrollback: a peek past the scrollback's length shows
// all of it, and is not refused.
func TestPeekLargerThanScrollback(t *testing.T) {
	_, p, c, s := openLine(t)
	if err := p.write("one\r\ntwo\r\n"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, s, func(s *Session) bool { return strings.Contains(string(s.scrollback), "two") })
	text, trailer := split(t, c.call("peek", map[string]any{"last_n_chars": 100_000_000}))
	if !strings.HasSuffix(text, "one\ntwo\n") || !strings.Contains(trailer, "peek: last") {
		t.Errorf("peek: %q %s", text, trailer)
	}
}

// TestWriteToAPeerThatStoppedReading: a send the peer does not read fails
// the call after the write's time runs out, and the line stays open: once
// the peer reads again, the next send goes through.
func TestWriteToAPeerThatStoppedReading(t *testing.T) {
	defer func(d time.Duration) { writeTimeout = d }(writeTimeout)
	writeTimeout = 300 * time.Millisecond
	_, p, c, s := openLine(t)
	// Sends of the longest input, until more than both ends' buffers hold
	// has gone, so that a write must stall (the kernel's send buffer grows
	// to 4 MiB, net.ipv4.tcp_wmem); called directly, so that no failure
	// message quotes them.
	chunk := strings.Repeat("x", maxInputLength)
	ctx, cancel := context.WithTimeout(context.Background(), 2*patience)
	defer cancel()
	msg := ""
	for sent := 0; msg == ""; sent += len(chunk) {
		if sent > 64<<20 {
			t.Fatalf("%d bytes sent to a peer that reads nothing, and no write stalled", sent)
		}
		res, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: "send", Arguments: map[string]any{"input": chunk, "raw": true, "quiet_ms": 0, "timeout_ms": 0}})
		if err != nil {
			t.Fatalf("send after %d bytes to a peer not reading: protocol error %v", sent, err)
		}
		if res.IsError {
			msg = res.Content[0].(*mcp.TextContent).Text
		}
	}
	if !strings.Contains(msg, "stopped reading") || !strings.Contains(msg, "stays open") {
		t.Errorf("send to a peer not reading: %q", msg)
	}
	// The peer drains megabytes before it reads the next send: however
	// slowly, that send's write waits for it.
	writeTimeout = patience
	s.mu.Lock()
	state := s.state
	s.mu.Unlock()
	if state != open {
		t.Fatalf("the line is %v after the write failed, want open", state)
	}
	// The peer reads what was written, and the line carries on.
	done := make(chan error, 1)
	go func() {
		p.conn.SetReadDeadline(time.Now().Add(patience))
		buf := make([]byte, 1<<20)
		total := 0
		var tail []byte // the last bytes read, so "after" split over reads is seen
		for {
			n, err := p.conn.Read(buf)
			total += n
			if err != nil {
				done <- fmt.Errorf("after %d bytes (tail %q): %w", total, tail, err)
				return
			}
			tail = append(tail, buf[:n]...)
			if len(tail) > 64 {
				tail = tail[len(tail)-64:]
			}
			if strings.Contains(string(tail), "after\r") {
				done <- p.write("\r\nstill here\r\n")
				return
			}
		}
	}()
	text, _ := split(t, c.call("send", map[string]any{"input": "after", "expect": "still here", "quiet_ms": patienceMS}))
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, "still here") {
		t.Errorf("send after the stall: %q", text)
	}
}
