package line

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// patience bounds every wait in these tests, so a broken server fails a test
// instead of hanging it.
const patience = 10 * time.Second

// patienceMS is patience as a tool's quiet_ms: a call that should end on
// what arrives, not on silence, waits this long for the next byte, which a
// machine ten times slower than the test's still sends in time.
const patienceMS = int(patience / time.Millisecond)

// fakeLine is an ITS-like terminal line on 127.0.0.1: a TCP listener whose
// connections the test scripts by hand. It counts the connections it
// accepts, which is how a test sees that the server never reconnects.
type fakeLine struct {
	ln      net.Listener
	accepts atomic.Int32
	conns   chan net.Conn
}

func newFakeLine(t *testing.T) *fakeLine {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("listen on loopback: %v", err)
	}
	f := &fakeLine{ln: ln, conns: make(chan net.Conn, 16)}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			f.accepts.Add(1)
			f.conns <- c
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		for {
			select {
			case c := <-f.conns:
				c.Close()
			default:
				return
			}
		}
	})
	return f
}

func (f *fakeLine) port() int { return f.ln.Addr().(*net.TCPAddr).Port }

// accept waits for the server's next connection. It is safe in a script's
// goroutine, where t.Fatal is not.
func (f *fakeLine) accept(t *testing.T) (*peer, error) {
	select {
	case c := <-f.conns:
		t.Cleanup(func() { c.Close() })
		return &peer{conn: c.(*net.TCPConn)}, nil
	case <-time.After(patience):
		return nil, errors.New("the server did not connect to the fake line")
	}
}

// peer is the far end of one connection: the ITS side.
type peer struct {
	conn *net.TCPConn
	got  []byte // received but not yet consumed by expect
}

// write sends chunks as separate TCP segments, pausing between them so the
// server's reader sees them in separate reads, as split IAC sequences and
// prompts would arrive from a real line.
func (p *peer) write(chunks ...string) error {
	for i, c := range chunks {
		if i > 0 {
			time.Sleep(15 * time.Millisecond)
		}
		if _, err := p.conn.Write([]byte(c)); err != nil {
			return fmt.Errorf("peer write: %w", err)
		}
	}
	return nil
}

// expect reads until the received bytes begin with want, and consumes them.
func (p *peer) expect(want string) error {
	deadline := time.Now().Add(patience)
	buf := make([]byte, 4096)
	for len(p.got) < len(want) {
		_ = p.conn.SetReadDeadline(deadline)
		n, err := p.conn.Read(buf)
		p.got = append(p.got, buf[:n]...)
		if err != nil {
			return fmt.Errorf("peer waiting for %q, got %q: %w", want, p.got, err)
		}
	}
	if !bytes.HasPrefix(p.got, []byte(want)) {
		return fmt.Errorf("peer received %q, want %q", p.got, want)
	}
	p.got = p.got[len(want):]
	return nil
}

// quietFor reports an error if anything arrives within d.
func (p *peer) quietFor(d time.Duration) error {
	if len(p.got) > 0 {
		return fmt.Errorf("peer has unexpected bytes %q", p.got)
	}
	_ = p.conn.SetReadDeadline(time.Now().Add(d))
	buf := make([]byte, 256)
	n, err := p.conn.Read(buf)
	if n > 0 {
		return fmt.Errorf("peer received unexpected %q", buf[:n])
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return nil
	}
	return fmt.Errorf("peer read while expecting quiet: %v", err)
}

// script runs the ITS side in the background; its error, if any, is reported
// when the test ends. Run it before the call that it answers.
func script(t *testing.T, steps func() error) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- steps() }()
	t.Cleanup(func() {
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("fake line: %v", err)
			}
		case <-time.After(patience):
			t.Errorf("fake line script did not finish")
		}
	})
}

// client drives a Session through the real MCP server, in process, through
// the SDK's own client over in-memory transports.
type client struct {
	t  *testing.T
	cs *mcp.ClientSession
}

func newClient(t *testing.T, s *Session) *client {
	t.Helper()
	ctx := context.Background()
	serverT, clientT := mcp.NewInMemoryTransports()
	ss, err := NewServer(s, "test").Connect(ctx, serverT, nil)
	if err != nil {
		t.Fatalf("server connect: %v", err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "line-test", Version: "0"}, nil).Connect(ctx, clientT, nil)
	if err != nil {
		t.Fatalf("client connect: %v", err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Close()
		s.Close()
	})
	return &client{t: t, cs: cs}
}

// call invokes a tool and returns its text; a tool error fails the test.
func (c *client) call(name string, args map[string]any) string {
	c.t.Helper()
	text, isError := c.try(name, args)
	if isError {
		c.t.Fatalf("%s(%v) failed: %s", name, args, text)
	}
	return text
}

// fails invokes a tool that must fail and returns the error text.
func (c *client) fails(name string, args map[string]any) string {
	c.t.Helper()
	text, isError := c.try(name, args)
	if !isError {
		c.t.Fatalf("%s(%v) succeeded with %q, want an error", name, args, text)
	}
	return text
}

func (c *client) try(name string, args map[string]any) (string, bool) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*patience)
	defer cancel()
	res, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		c.t.Fatalf("%s(%v): protocol error: %v", name, args, err)
	}
	var parts []string
	for _, content := range res.Content {
		tc, ok := content.(*mcp.TextContent)
		if !ok {
			c.t.Fatalf("%s: content %T, want text", name, content)
		}
		parts = append(parts, tc.Text)
	}
	if len(parts) != 1 {
		c.t.Fatalf("%s: %d content blocks, want 1", name, len(parts))
	}
	return parts[0], res.IsError
}

// split separates a response into its text and its one trailer line.
func split(t *testing.T, response string) (text, trailer string) {
	t.Helper()
	i := strings.LastIndex(response, "\n")
	text, trailer = "", response
	if i >= 0 {
		text, trailer = response[:i], response[i+1:]
	}
	if !strings.HasPrefix(trailer, "[") || !strings.HasSuffix(trailer, "]") {
		t.Fatalf("response %q does not end in one [trailer] line", response)
	}
	return text, trailer
}

// reason is the first field of a trailer.
func reason(t *testing.T, trailer string) string {
	t.Helper()
	return strings.SplitN(strings.Trim(trailer, "[]"), " | ", 2)[0]
}
