package line

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// simhGreeting is what simh 3.8 sends when a telnet client attaches to a DZ
// line, captured from Debian's simh 3.8.1: its telnet negotiation (IAC WILL
// LINEMODE, SGA, ECHO and BINARY, IAC DO BINARY) and its banner.
const simhGreeting = "\xff\xfb\"\xff\xfb\x03\xff\xfb\x01\xff\xfb\x00\xff\xfd\x00\n\r\nConnected to the PDP-11 simulator DZ device, line 0\r\n\n"

// openLine opens a session on a fake line whose peer greets like simh, and
// hands back the peer for the test to script.
func openLine(t *testing.T) (*fakeLine, *peer, *client, *Session) {
	t.Helper()
	f := newFakeLine(t)
	s := NewSession("127.0.0.1", f.port())
	c := newClient(t, s)
	accepted := make(chan *peer, 1)
	go func() {
		p, err := f.accept(t)
		if err == nil {
			err = p.write(simhGreeting)
		}
		if err != nil {
			t.Error(err)
		}
		accepted <- p
	}()
	text, _ := split(t, c.call("open", nil))
	if !strings.Contains(text, "Connected to the PDP-11 simulator DZ device") {
		t.Fatalf("open returned %q, want the greeting", text)
	}
	select {
	case p := <-accepted:
		return f, p, c, s
	case <-time.After(patience):
		t.Fatal("no peer")
	}
	return nil, nil, nil, nil
}

func TestOpenFiltersGreetingAndIsIdempotent(t *testing.T) {
	f := newFakeLine(t)
	s := NewSession("127.0.0.1", f.port())
	c := newClient(t, s)
	script(t, func() error {
		p, err := f.accept(t)
		if err != nil {
			return err
		}
		// Telnet negotiation split inside its sequences, VT52 noise and NUL
		// padding around simh's banner.
		return p.write("\xff", "\xfb", "\x01\xff\xfb\x03\xff\xfa\x18", "\x01\xff", "\xf0",
			"\x1bH\x1bJ\x00\x00\r", "\nConnected to the PDP-10 simulator\x1bY", "7", "( \r\n\r\n\r\n\r\n")
	})
	text, trailer := split(t, c.call("open", nil))
	if text != "\nConnected to the PDP-10 simulator\n" {
		t.Errorf("greeting %q, want the banner alone, filtered and collapsed", text)
	}
	if want := fmt.Sprintf("[quiet | open 127.0.0.1:%d]", f.port()); trailer != want {
		t.Errorf("trailer %q, want %q", trailer, want)
	}

	again := c.call("open", nil)
	if want := fmt.Sprintf("[already open | open 127.0.0.1:%d]", f.port()); again != want {
		t.Errorf("second open: %q, want %q", again, want)
	}
	other := c.call("open", map[string]any{"port": 1})
	if !strings.Contains(other, "already open; close() first to open 127.0.0.1:1") {
		t.Errorf("open to another port while open: %q", other)
	}
	if n := f.accepts.Load(); n != 1 {
		t.Errorf("the fake line saw %d connections, want 1", n)
	}
}

func TestSendPutsEscapesOnTheWire(t *testing.T) {
	_, p, c, _ := openLine(t)
	tests := []struct {
		args map[string]any
		wire string
	}{
		{map[string]any{"input": "~z"}, "\x1a\r"},
		{map[string]any{"input": "foo~ej"}, "foo\x1bj\r"},
		{map[string]any{"input": "~c~g~d~s~o~t~~"}, "\x03\x07\x7f\x13\x0f\t~\r"},
		{map[string]any{"input": "a~rb~nc"}, "a\rb\nc\r"},
		{map[string]any{"input": "~x00~x7F~xff~-"}, "\x00\x7f\xff"},
		{map[string]any{"input": "one\ntwo\r\nthree"}, "one\rtwo\rthree\r"},
		{map[string]any{"input": "one\ntwo\r\n", "raw": true}, "one\ntwo\r\n"},
		{map[string]any{"input": "~z~e", "raw": true}, "\x1a\x1b"},
		{map[string]any{"input": ""}, "\r"},
	}
	for _, tt := range tests {
		tt.args["timeout_ms"] = 0
		_, trailer := split(t, c.call("send", tt.args))
		if err := p.expect(tt.wire); err != nil {
			t.Errorf("send(%q): %v", tt.args["input"], err)
		}
		if got := reason(t, trailer); got != ReasonTimeout {
			t.Errorf("send(%q) with timeout_ms=0 and a silent line: reason %q, want timeout", tt.args["input"], got)
		}
	}
}

func TestBadArgumentsAreNamedAndNothingIsSent(t *testing.T) {
	_, p, c, _ := openLine(t)
	tests := []struct {
		tool string
		args map[string]any
		want string
	}{
		{"send", map[string]any{"input": "~q"}, "unknown escape ~q"},
		{"send", map[string]any{"input": "abc~"}, "lone ~"},
		{"send", map[string]any{}, "input"},
		{"send", map[string]any{"input": "x", "expect": "("}, "expect"},
		{"send", map[string]any{"input": "x", "timeout_ms": -1}, "timeout_ms"},
		{"send", map[string]any{"input": "x", "quiet_ms": -5}, "quiet_ms"},
		{"send", map[string]any{"input": "x", "bogus": 1}, "bogus"},
		{"read", map[string]any{"timeout_ms": "soon"}, "timeout_ms"},
		{"read", map[string]any{"expect": "[a-"}, "expect"},
		{"peek", map[string]any{"last_n_chars": 0}, "last_n_chars"},
		{"open", map[string]any{"port": 70000}, "port"},
	}
	for _, tt := range tests {
		msg := c.fails(tt.tool, tt.args)
		if !strings.Contains(msg, tt.want) {
			t.Errorf("%s(%v): error %q does not name %q", tt.tool, tt.args, msg, tt.want)
		}
	}
	if err := p.quietFor(200 * time.Millisecond); err != nil {
		t.Errorf("after rejected calls: %v", err)
	}
}

func TestExpectQuietAndTimeout(t *testing.T) {
	t.Run("expect matches before the line goes quiet", func(t *testing.T) {
		_, p, c, _ := openLine(t)
		matched := make(chan struct{})
		script(t, func() error {
			if err := p.expect(":listf\r"); err != nil {
				return err
			}
			if err := p.write(":listf\r\n", "FOO   BAR\r\n*"); err != nil {
				return err
			}
			// The late line comes once the send has returned, however
			// slowly either side runs.
			<-matched
			return p.write("late\r\n")
		})
		text, trailer := split(t, c.call("send", map[string]any{"input": ":listf", "expect": `\*$`, "quiet_ms": patienceMS}))
		close(matched)
		if text != ":listf\nFOO   BAR\n*" || reason(t, trailer) != ReasonMatched {
			t.Errorf("send: %q %s, want the listing and reason matched", text, trailer)
		}
		// What came after the match is the next call's.
		text, trailer = split(t, c.call("read", map[string]any{"expect": `late\n`, "quiet_ms": patienceMS, "timeout_ms": patienceMS}))
		if text != "late\n" || reason(t, trailer) != ReasonMatched {
			t.Errorf("read: %q %s, want only the late line", text, trailer)
		}
	})

	t.Run("the quiet timer starts at the first byte", func(t *testing.T) {
		_, p, c, _ := openLine(t)
		script(t, func() error {
			if err := p.expect("slow\r"); err != nil {
				return err
			}
			// Silent for far longer than quiet_ms before saying anything.
			time.Sleep(800 * time.Millisecond)
			return p.write("done\r\n")
		})
		start := time.Now()
		// The timeout is far past the 800 ms, so that only the first
		// byte and the quiet after it end the call.
		text, trailer := split(t, c.call("send", map[string]any{"input": "slow", "quiet_ms": 100, "timeout_ms": patienceMS}))
		if text != "done\n" || reason(t, trailer) != ReasonQuiet {
			t.Errorf("send: %q %s, want the late output and reason quiet", text, trailer)
		}
		if waited := time.Since(start); waited < 800*time.Millisecond {
			t.Errorf("returned after %v, before the first byte could arrive", waited)
		}
	})

	t.Run("no output runs to the timeout", func(t *testing.T) {
		_, _, c, _ := openLine(t)
		start := time.Now()
		text, trailer := split(t, c.call("send", map[string]any{"input": "x", "timeout_ms": 300, "quiet_ms": 50}))
		if text != "" || reason(t, trailer) != ReasonTimeout {
			t.Errorf("send: %q %s, want nothing and reason timeout", text, trailer)
		}
		if waited := time.Since(start); waited < 300*time.Millisecond {
			t.Errorf("returned after %v, before timeout_ms", waited)
		}
	})

	t.Run("output that never pauses runs to the timeout", func(t *testing.T) {
		_, p, c, _ := openLine(t)
		stop := make(chan struct{})
		script(t, func() error {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return nil
				case <-time.After(30 * time.Millisecond):
				}
				if err := p.write(fmt.Sprintf("%d ", i)); err != nil {
					return err
				}
			}
		})
		// A write every 30 ms: a machine ten times slower still leaves
		// gaps well short of quiet_ms.
		text, trailer := split(t, c.call("read", map[string]any{"timeout_ms": 3000, "quiet_ms": 1500}))
		close(stop)
		if reason(t, trailer) != ReasonTimeout || !strings.HasPrefix(text, "0 1 2 ") {
			t.Errorf("read: %q %s, want a stream of numbers and reason timeout", text, trailer)
		}
	})

	t.Run("read of output already waiting returns once quiet", func(t *testing.T) {
		_, p, c, s := openLine(t)
		if err := p.write("waiting\r\n"); err != nil {
			t.Fatal(err)
		}
		waitFor(t, s, func(s *Session) bool { return s.total > 0 })
		time.Sleep(120 * time.Millisecond)
		start := time.Now()
		text, trailer := split(t, c.call("read", map[string]any{"quiet_ms": 100, "timeout_ms": 5000}))
		if text != "waiting\n" || reason(t, trailer) != ReasonQuiet {
			t.Errorf("read: %q %s", text, trailer)
		}
		if waited := time.Since(start); waited > 2*time.Second {
			t.Errorf("read of waiting output took %v", waited)
		}
	})
}

// waitFor polls the session, boundedly, until cond holds.
func waitFor(t *testing.T, s *Session, cond func(*Session) bool) {
	t.Helper()
	deadline := time.Now().Add(patience)
	for {
		s.mu.Lock()
		ok := cond(s)
		s.mu.Unlock()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the session never reached the expected state")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// pager plays ITS listing pages pages, each ending in a --More-- prompt
// except the last, which ends at DDT's * prompt. It answers the first
// command byte sequence want, then a space for each prompt.
func pager(p *peer, want string, pages int, prompt []string) error {
	if err := p.expect(want); err != nil {
		return err
	}
	for i := 1; i <= pages; i++ {
		page := fmt.Sprintf("\r\nfile %02d a\r\nfile %02d b\r\n", i, i)
		if i == pages {
			return p.write(page + "*")
		}
		if err := p.write(append([]string{page}, prompt...)...); err != nil {
			return err
		}
		if err := p.expect(" "); err != nil {
			return fmt.Errorf("page %d: %w", i, err)
		}
	}
	return nil
}

// listing is the text pager's pages 1 to n, collapsed.
func listing(from, to int) string {
	var b strings.Builder
	for i := from; i <= to; i++ {
		fmt.Fprintf(&b, "\nfile %02d a\nfile %02d b\n", i, i)
	}
	return b.String()
}

func TestMorePagesAreAnsweredAndRemoved(t *testing.T) {
	prompts := map[string][]string{
		"long form in one piece": {"--More-- (Space=yes, Rubout=no)"},
		"long form split":        {"--Mo", "re-- (Space=", "yes, Rubout=no)"},
		"bare form":              {"--More--"},
	}
	for _, name := range []string{"long form in one piece", "long form split", "bare form"} {
		t.Run(name, func(t *testing.T) {
			_, p, c, _ := openLine(t)
			script(t, func() error { return pager(p, ":listf\r", 4, prompts[name]) })
			// Only expect ends the call: the pages come when the script's
			// goroutine runs, which on a loaded machine may be long after
			// the default quiet_ms (issue 19, item 12).
			text, trailer := split(t, c.call("send", map[string]any{"input": ":listf", "expect": `\*$`, "quiet_ms": patienceMS, "timeout_ms": maxWaitMS}))
			// Each answered prompt leaves the empty line it stood on, and
			// collapsing joins it to the page's blank first line.
			want := listing(1, 4) + "*"
			if text != want {
				t.Errorf("text:\n%q\nwant\n%q", text, want)
			}
			if want := "[matched | 3 --More-- answered | open"; !strings.HasPrefix(trailer, want) {
				t.Errorf("trailer %q, want it to start %q", trailer, want)
			}
		})
	}
}

func TestMoreLimitThenReadContinues(t *testing.T) {
	_, p, c, _ := openLine(t)
	const pages = 25 // 24 prompts: 20 answered by send, 4 by read
	script(t, func() error { return pager(p, ":listf\r", pages, []string{"--More-- (Space=yes, Rubout=no)"}) })

	text, trailer := split(t, c.call("send", map[string]any{"input": ":listf", "quiet_ms": patienceMS, "timeout_ms": maxWaitMS}))
	if reason(t, trailer) != ReasonMoreLimit || !strings.Contains(trailer, "20 --More-- answered") {
		t.Fatalf("send trailer %q, want more_limit after 20 pages", trailer)
	}
	if want := listing(1, 21) + "--More-- (Space=yes, Rubout=no)"; text != want {
		t.Errorf("send text:\n%q\nwant pages 1-21 and the unanswered prompt:\n%q", text, want)
	}
	if !strings.Contains(c.call("status", nil), "--More-- prompt is waiting") {
		t.Error("status does not mention the waiting prompt")
	}

	text, trailer = split(t, c.call("read", map[string]any{"expect": `\*$`, "quiet_ms": patienceMS, "timeout_ms": maxWaitMS}))
	if want := listing(22, pages) + "*"; text != want {
		t.Errorf("read text:\n%q\nwant\n%q", text, want)
	}
	if reason(t, trailer) != ReasonMatched || !strings.Contains(trailer, "4 --More-- answered") {
		t.Errorf("read trailer %q, want matched after 4 more pages", trailer)
	}
}

func TestRuboutFlushesInsteadOfPaging(t *testing.T) {
	t.Run("auto_more off leaves the prompt for the agent", func(t *testing.T) {
		_, p, c, _ := openLine(t)
		script(t, func() error {
			if err := p.expect(":listf\r"); err != nil {
				return err
			}
			if err := p.write("\r\nfile 01\r\n--More-- (Space=yes, Rubout=no)"); err != nil {
				return err
			}
			// The rubout, and not a space, is what the pager must see.
			if err := p.expect("\x7f\r"); err != nil {
				return err
			}
			return p.write("\r\nFLUSHED\r\n*")
		})
		text, trailer := split(t, c.call("send", map[string]any{"input": ":listf", "auto_more": false, "expect": `Rubout=no\)$`, "quiet_ms": patienceMS}))
		if text != "\nfile 01\n--More-- (Space=yes, Rubout=no)" || reason(t, trailer) != ReasonMatched {
			t.Errorf("send: %q %s, want the page with its prompt, unanswered", text, trailer)
		}
		text, trailer = split(t, c.call("send", map[string]any{"input": "~d", "expect": `\*$`, "quiet_ms": patienceMS}))
		if text != "\nFLUSHED\n*" || reason(t, trailer) != ReasonMatched {
			t.Errorf("send ~d: %q %s", text, trailer)
		}
	})

	t.Run("after more_limit", func(t *testing.T) {
		_, p, c, _ := openLine(t)
		script(t, func() error {
			if err := p.expect(":listf\r"); err != nil {
				return err
			}
			for i := 0; i <= maxMorePages; i++ {
				if err := p.write(fmt.Sprintf("\r\npage %d\r\n--More-- (Space=yes, Rubout=no)", i)); err != nil {
					return err
				}
				if i < maxMorePages {
					if err := p.expect(" "); err != nil {
						return err
					}
				}
			}
			if err := p.expect("\x7f\r"); err != nil {
				return err
			}
			return p.write("\r\nFLUSHED\r\n*")
		})
		// The call waits on the prompts, not on the clock.
		_, trailer := split(t, c.call("send", map[string]any{"input": ":listf", "quiet_ms": patienceMS, "timeout_ms": maxWaitMS}))
		if reason(t, trailer) != ReasonMoreLimit {
			t.Fatalf("send: trailer %q, want more_limit", trailer)
		}
		text, _ := split(t, c.call("send", map[string]any{"input": "~d", "expect": `\*$`, "quiet_ms": patienceMS}))
		if text != "\nFLUSHED\n*" {
			t.Errorf("send ~d: %q", text)
		}
	})
}

func TestPeerDiesAndIsNotReconnected(t *testing.T) {
	f, p, c, _ := openLine(t)
	script(t, func() error {
		if err := p.expect("logout\r"); err != nil {
			return err
		}
		if err := p.write("bye\r\n"); err != nil {
			return err
		}
		return p.conn.Close()
	})
	text, trailer := split(t, c.call("send", map[string]any{"input": "logout", "timeout_ms": patienceMS, "quiet_ms": patienceMS}))
	if text != "bye\n" || reason(t, trailer) != ReasonDead {
		t.Errorf("send: %q %s, want the last words and reason dead", text, trailer)
	}
	if !strings.Contains(trailer, "DEAD 127.0.0.1:") || !strings.Contains(trailer, "the peer closed the connection") {
		t.Errorf("trailer %q does not say the line died and why", trailer)
	}

	msg := c.fails("send", map[string]any{"input": "hello"})
	if !strings.Contains(msg, "dead (the peer closed the connection)") || !strings.Contains(msg, "open()") {
		t.Errorf("send on a dead line: %q", msg)
	}
	if msg := c.fails("read", nil); !strings.Contains(msg, "dead") {
		t.Errorf("read on a dead line: %q", msg)
	}
	status := c.call("status", nil)
	for _, want := range []string{"connected: no: the line is dead", "reason: the peer closed the connection", "bytes: "} {
		if !strings.Contains(status, want) {
			t.Errorf("status %q lacks %q", status, want)
		}
	}
	if peek := c.call("peek", nil); !strings.Contains(peek, "bye") || !strings.Contains(peek, "DEAD") {
		t.Errorf("peek after death: %q", peek)
	}
	// Give a background reconnect every chance to happen.
	time.Sleep(300 * time.Millisecond)
	if n := f.accepts.Load(); n != 1 {
		t.Fatalf("the fake line saw %d connections; the server must never reconnect by itself", n)
	}

	// Reopening is the agent's explicit decision.
	script(t, func() error {
		p, err := f.accept(t)
		if err != nil {
			return err
		}
		return p.write("again\r\n")
	})
	text, trailer = split(t, c.call("open", nil))
	if text != "again\n" || !strings.Contains(trailer, "open 127.0.0.1:") {
		t.Errorf("reopen: %q %s", text, trailer)
	}
	if n := f.accepts.Load(); n != 2 {
		t.Errorf("connections after an explicit open: %d, want 2", n)
	}
}

func TestUnreadOutputSurvivesDeath(t *testing.T) {
	_, p, c, s := openLine(t)
	if err := p.write("last words\r\n"); err != nil {
		t.Fatal(err)
	}
	p.conn.Close()
	waitFor(t, s, func(s *Session) bool { return s.state == dead })
	text, trailer := split(t, c.call("read", nil))
	if text != "last words\n" || reason(t, trailer) != ReasonDead {
		t.Errorf("read after death: %q %s", text, trailer)
	}
}

func TestCloseResetsTheConnection(t *testing.T) {
	_, p, c, _ := openLine(t)
	response := c.call("close", nil)
	if !strings.Contains(response, "SO_LINGER 0") || !strings.Contains(response, "closed 127.0.0.1:") {
		t.Errorf("close: %q", response)
	}
	_ = p.conn.SetReadDeadline(time.Now().Add(patience))
	n, err := p.conn.Read(make([]byte, 64))
	if !errors.Is(err, syscall.ECONNRESET) {
		t.Errorf("peer read after close: %d bytes, %v; want a reset (ECONNRESET), not a FIN", n, err)
	}
	if again := c.call("close", nil); !strings.Contains(again, "not open") {
		t.Errorf("second close: %q", again)
	}
	if msg := c.fails("send", map[string]any{"input": "x"}); !strings.Contains(msg, "closed") {
		t.Errorf("send after close: %q", msg)
	}
}

func TestCloseEndsAWaitingRead(t *testing.T) {
	_, _, c, s := openLine(t)
	done := make(chan string, 1)
	go func() {
		res, err := c.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "read", Arguments: map[string]any{"timeout_ms": 60000}})
		if err != nil || len(res.Content) != 1 {
			done <- fmt.Sprint("read failed: ", err)
			return
		}
		done <- res.Content[0].(*mcp.TextContent).Text
	}()
	// Close once the read is under way: it holds the session's turn.
	deadline := time.Now().Add(patience)
	for s.calls.TryLock() {
		s.calls.Unlock()
		if time.Now().After(deadline) {
			t.Fatal("the read never started")
		}
		time.Sleep(5 * time.Millisecond)
	}
	s.Close()
	select {
	case got := <-done:
		if !strings.HasPrefix(got, "[closed | closed 127.0.0.1:") {
			t.Errorf("read ended by close: %q", got)
		}
	case <-time.After(patience):
		t.Fatal("close did not end a waiting read")
	}
}

func TestScrollbackOverflow(t *testing.T) {
	_, p, c, s := openLine(t)
	// 300 KB of numbered lines, more than the 256 KB scrollback, written
	// while nobody reads.
	const lines = 300 * 1024 / 16
	var b strings.Builder
	for i := 0; i < lines; i++ {
		fmt.Fprintf(&b, "line %09d\r\n", i) // 16 bytes, 15 after filtering
	}
	b.WriteString("*")
	if err := p.write(b.String()); err != nil {
		t.Fatal(err)
	}
	waitFor(t, s, func(s *Session) bool { return s.bytesIn == int64(len(simhGreeting)+b.Len()) })

	filtered := int64(lines*15 + 1)
	status := c.call("status", nil)
	if want := fmt.Sprintf("lost: %d unread chars", filtered-scrollbackSize); !strings.Contains(status, want) {
		t.Errorf("status %q lacks %q", status, want)
	}
	peek := c.call("peek", map[string]any{"last_n_chars": 31})
	if want := fmt.Sprintf("line %09d\nline %09d\n*\n[peek: last 31 of %d chars in scrollback | open", lines-2, lines-1, scrollbackSize); !strings.HasPrefix(peek, want) {
		t.Errorf("peek: %q, want it to start %q", peek, want)
	}

	text, trailer := split(t, c.call("read", nil))
	if len(text) != scrollbackSize || !strings.HasSuffix(text, fmt.Sprintf("line %09d\n*", lines-1)) {
		t.Errorf("read returned %d chars ending %q, want the whole %d-byte scrollback", len(text), text[max(0, len(text)-40):], scrollbackSize)
	}
	if want := fmt.Sprintf("%d chars lost: scrollback overflow", filtered-scrollbackSize); !strings.Contains(trailer, want) {
		t.Errorf("trailer %q lacks %q", trailer, want)
	}
}

func TestScrollbackIsUnabridged(t *testing.T) {
	_, p, c, s := openLine(t)
	script(t, func() error {
		if err := p.expect("x\r"); err != nil {
			return err
		}
		return p.write("a   \r\n\r\n\r\n\r\nb\t\r\n*")
	})
	text, _ := split(t, c.call("send", map[string]any{"input": "x", "expect": `\*`, "quiet_ms": patienceMS}))
	if text != "a\n\nb\n*" {
		t.Errorf("returned text %q, want trailing whitespace and blank runs collapsed", text)
	}
	s.mu.Lock()
	_, window := s.windowLocked()
	s.mu.Unlock()
	if !strings.HasSuffix(string(window), "a   \n\n\n\nb\t\n*") {
		t.Errorf("scrollback ends %q, want the text unabridged", window)
	}
}

func TestStatus(t *testing.T) {
	f := newFakeLine(t)
	s := NewSession("127.0.0.1", f.port())
	c := newClient(t, s)
	if got := c.call("status", nil); !strings.Contains(got, "connected: no") || !strings.Contains(got, fmt.Sprintf("127.0.0.1:%d (open() connects here)", f.port())) {
		t.Errorf("status before open: %q", got)
	}
	if msg := c.fails("send", map[string]any{"input": "x"}); !strings.Contains(msg, "not open") {
		t.Errorf("send before open: %q", msg)
	}
	sent := make(chan struct{})
	script(t, func() error {
		p, err := f.accept(t)
		if err != nil {
			return err
		}
		if err := p.write("\xff\xfb\x01hi\r\n"); err != nil {
			return err
		}
		if err := p.expect("abc\r"); err != nil {
			return err
		}
		// After send has returned, so that the output waits unread.
		<-sent
		return p.write("unread\r\n")
	})
	c.call("open", nil)
	c.call("send", map[string]any{"input": "abc", "timeout_ms": 0})
	close(sent)
	waitFor(t, s, func(s *Session) bool { return s.bytesIn == 15 })
	got := c.call("status", nil)
	for _, want := range []string{
		"connected: yes",
		fmt.Sprintf("line: 127.0.0.1:%d", f.port()),
		"uptime: ",
		"bytes: 15 received, 4 sent",
		"pending: 7 chars unread",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("status %q lacks %q", got, want)
		}
	}
}

func TestToolsMatchTheSpec(t *testing.T) {
	c := newClient(t, NewSession("127.0.0.1", 1))
	res, err := c.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	// spec/pidp10-mcp.md, "Tools": names, arguments and defaults.
	want := map[string]map[string]any{
		"open":   {"host": nil, "port": nil},
		"send":   {"input": nil, "expect": nil, "timeout_ms": 10000.0, "quiet_ms": 700.0, "auto_more": true, "raw": false},
		"read":   {"timeout_ms": 2000.0, "expect": nil, "quiet_ms": 700.0, "auto_more": true},
		"peek":   {"last_n_chars": 2000.0},
		"status": {},
		"close":  {},
	}
	if len(res.Tools) != len(want) {
		t.Errorf("%d tools, want %d", len(res.Tools), len(want))
	}
	for _, tool := range res.Tools {
		args, ok := want[tool.Name]
		if !ok {
			t.Errorf("unexpected tool %q", tool.Name)
			continue
		}
		schema := tool.InputSchema.(map[string]any)
		props, _ := schema["properties"].(map[string]any)
		if len(props) != len(args) {
			t.Errorf("%s has %d arguments, want %d", tool.Name, len(props), len(args))
		}
		for name, def := range args {
			p, ok := props[name].(map[string]any)
			if !ok {
				t.Errorf("%s lacks argument %s", tool.Name, name)
				continue
			}
			if p["default"] != def {
				t.Errorf("%s(%s) default %v, want %v", tool.Name, name, p["default"], def)
			}
		}
		required, _ := schema["required"].([]any)
		if tool.Name == "send" {
			if len(required) != 1 || required[0] != "input" {
				t.Errorf("send requires %v, want only input", required)
			}
		} else if len(required) != 0 {
			t.Errorf("%s requires %v, want nothing", tool.Name, required)
		}
	}
}

func TestCancelledCallLeavesOutputForTheNext(t *testing.T) {
	_, p, c, _ := openLine(t)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	// A client that gives up on a long read gets an error...
	if _, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: "read", Arguments: map[string]any{"timeout_ms": 60000}}); err == nil {
		t.Fatal("a cancelled read succeeded")
	}
	// ...and the line is free for the next call, which gets the output.
	if err := p.write("after\r\n"); err != nil {
		t.Fatal(err)
	}
	text, trailer := split(t, c.call("read", map[string]any{"expect": `after\n`, "quiet_ms": patienceMS, "timeout_ms": patienceMS}))
	if text != "after\n" || reason(t, trailer) != ReasonMatched {
		t.Errorf("read after a cancelled read: %q %s", text, trailer)
	}
}
