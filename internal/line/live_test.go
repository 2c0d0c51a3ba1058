package line

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The acceptance tests against a real PiDP-10 running ITS. They take the
// single terminal line for their duration, so they run only when asked:
//
//	PIDP10_LIVE=1                      run them
//	PIDP10_LIVE_SLOW=1                 ...including the 190-second idle test
//	PIDP10_HOST, PIDP10_PORT           the line (default pidp10.local:10018)
//	PIDP10_USER                        who logs in (default guest)
//	PIDP10_LISTF_DIR                   a directory big enough to page (default sys;)
//
// ITS cannot be run where these tests are written (no KA10 simulator or ITS
// disk images offline), so they have not been run against it here; the simh
// test is what runs everywhere.

// liveITS returns a client on a session to the configured line, or skips.
func liveITS(t *testing.T) *client {
	t.Helper()
	if os.Getenv("PIDP10_LIVE") != "1" {
		t.Skip("set PIDP10_LIVE=1 to run the acceptance tests against a real PiDP-10 running ITS")
	}
	host := envOr("PIDP10_HOST", "pidp10.local")
	port, err := strconv.Atoi(envOr("PIDP10_PORT", "10018"))
	if err != nil {
		t.Fatalf("PIDP10_PORT: %v", err)
	}
	c := newClient(t, NewSession(host, port))
	_, trailer := split(t, c.call("open", nil))
	if !strings.Contains(trailer, "open ") {
		t.Fatalf("open: %s", trailer)
	}
	return c
}

func envOr(name, fallback string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return fallback
}

// callITS types ^Z, which calls ITS on a fresh line, and waits for DDT.
func callITS(t *testing.T, c *client) {
	t.Helper()
	text, trailer := split(t, c.call("send", map[string]any{"input": "~z", "expect": "Happy hacking|ITS", "timeout_ms": 20000}))
	if reason(t, trailer) != ReasonMatched {
		t.Fatalf("^Z: %q %s, want ITS's greeting", text, trailer)
	}
	c.call("read", map[string]any{"timeout_ms": 3000})
}

func TestLiveSession(t *testing.T) {
	c := liveITS(t)
	callITS(t, c)

	user := envOr("PIDP10_USER", "guest")
	text, trailer := split(t, c.call("send", map[string]any{"input": ":login " + user, "timeout_ms": 15000}))
	if r := reason(t, trailer); r != ReasonQuiet && r != ReasonMatched {
		t.Errorf(":login: %q %s", text, trailer)
	}

	// DDT evaluates 2+2= at once and prints 4.
	text, trailer = split(t, c.call("send", map[string]any{"input": "2+2=~-", "expect": "4"}))
	if reason(t, trailer) != ReasonMatched {
		t.Errorf("2+2=: %q %s, want DDT to print 4", text, trailer)
	}
	c.call("send", map[string]any{"input": "", "timeout_ms": 3000})

	// A directory listing long enough to page: the pager is answered and
	// its prompts do not reach the text.
	dir := envOr("PIDP10_LISTF_DIR", "sys;")
	text, trailer = split(t, c.call("send", map[string]any{"input": ":listf " + dir, "timeout_ms": 60000, "quiet_ms": 2000}))
	if !strings.Contains(trailer, "--More-- answered") {
		t.Errorf(":listf %s: trailer %s, want answered pages (choose a bigger PIDP10_LISTF_DIR)", dir, trailer)
	}
	if reason(t, trailer) != ReasonMoreLimit && strings.Contains(text, "--More--") {
		t.Errorf(":listf %s: an answered prompt is left in the text:\n%s", dir, text)
	}
	if reason(t, trailer) == ReasonMoreLimit {
		// Flush the rest rather than page through it.
		c.call("send", map[string]any{"input": "~d", "timeout_ms": 5000})
	}

	c.call("send", map[string]any{"input": ":logout", "timeout_ms": 10000})
	if got := c.call("close", nil); !strings.Contains(got, "SO_LINGER 0") {
		t.Errorf("close: %q", got)
	}
}

// TestLiveThreeMinuteGapDoesNotDropTheSession is the regression test for the
// failure that motivated the server: a client that thinks for three minutes
// between calls must find the session exactly where it left it.
func TestLiveThreeMinuteGapDoesNotDropTheSession(t *testing.T) {
	if os.Getenv("PIDP10_LIVE_SLOW") != "1" {
		t.Skip("set PIDP10_LIVE=1 and PIDP10_LIVE_SLOW=1 to sit idle on the line for 190 seconds")
	}
	c := liveITS(t)
	callITS(t, c)
	time.Sleep(190 * time.Second)
	if status := c.call("status", nil); !strings.Contains(status, "connected: yes") {
		t.Fatalf("after 190 s idle: %s", status)
	}
	text, trailer := split(t, c.call("send", map[string]any{"input": "2+2=~-", "expect": "4"}))
	if reason(t, trailer) != ReasonMatched {
		t.Errorf("after 190 s idle, 2+2=: %q %s", text, trailer)
	}
	c.call("close", nil)
}
