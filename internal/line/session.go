// Package line holds one raw TCP terminal line to a PiDP-10 (simh running
// ITS) and offers it to an agent as MCP tools: open, send, read, peek,
// status and close. It is the behaviour of spec/pidp10-mcp.md.
//
// The connection belongs to the process, not to tool calls. A reader
// goroutine drains the socket from the moment it opens, filters the bytes to
// plain text and keeps the last 256 KB as scrollback, whatever the agent is
// doing. A call to send or read returns only what arrived since the previous
// call. When the socket dies the line is marked dead with its reason, and it
// stays dead: the package never reconnects by itself, because the port is a
// single terminal line and a second connection would fight the first for it.
package line

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"time"

	"colophon/internal/quote"
)

// scrollbackSize is how much filtered text the line keeps (spec: "a 256 KB
// scrollback").
const scrollbackSize = 256 << 10

// The defaults of the spec's tool signatures.
const (
	DefaultSendTimeout = 10000 * time.Millisecond // send(timeout_ms=10000)
	DefaultReadTimeout = 2000 * time.Millisecond  // read(timeout_ms=2000)
	DefaultQuiet       = 700 * time.Millisecond   // quiet_ms=700
	DefaultPeekChars   = 2000                     // peek(last_n_chars=2000)
)

const (
	// dialTimeout bounds open's connect, so an unreachable host is an
	// error rather than a hang.
	dialTimeout = 10 * time.Second
	// moreSettle is how long a bare "--More--" must stand alone at the end
	// of the output before it is answered, in case the rest of the long
	// form " (Space=yes, Rubout=no)" is still on its way: a tail that comes
	// up to a second later makes one prompt with it (issue 19, item 8).
	moreSettle = time.Second
)

// writeTimeout bounds a write to a line whose peer has stopped reading:
// the call fails, and the line stays open. A variable so that the tests
// need not wait it out.
var writeTimeout = 10 * time.Second

// The reasons send and read return.
const (
	ReasonMatched   = "matched"    // expect matched the new output
	ReasonQuiet     = "quiet"      // the line was silent for quiet_ms after output
	ReasonTimeout   = "timeout"    // timeout_ms elapsed
	ReasonMoreLimit = "more_limit" // a --More-- prompt came after 20 answered pages
	// ReasonDead and ReasonClosed are for a call that cannot go on waiting
	// because the socket died, or close() ended it, under the call; the
	// trailer says why. They are not among the spec's four, which all
	// assume a live line, but waiting out timeout_ms on a dead socket
	// would only hide the news.
	ReasonDead   = "dead"
	ReasonClosed = "closed"
)

// lineState is the life of the one connection.
type lineState int

const (
	notOpened lineState = iota
	open
	dead   // the peer closed it, or an error broke it
	closed // close() or process teardown
)

// Session is the terminal line. Its methods are safe to call from several
// goroutines: open, send and read take turns, while peek, status and close go
// ahead at any time (close so that it can end a read that is waiting).
type Session struct {
	defaultHost string
	defaultPort int

	calls sync.Mutex // open, send and read: one conversation at a time

	writing sync.Mutex // one writer on the socket at a time

	// closing is held through a whole Close, so that a second Close (the
	// process's teardown, as a signal's is under way) returns only once
	// the reset is sent: a process that exited between them would have
	// the kernel close the socket with a FIN, not a reset.
	closing sync.Mutex

	mu      sync.Mutex
	changed chan struct{} // closed and replaced whenever the line has news

	conn       *net.TCPConn
	readerDone chan struct{}
	host       string
	port       int
	state      lineState
	reason     string // why the line is dead or closed
	opened     time.Time

	bytesIn     int64     // raw bytes received on this connection
	bytesOut    int64     // raw bytes sent
	lastArrival time.Time // when the last raw bytes arrived

	filter     filter
	scrollback []byte // filtered text; the last scrollbackSize bytes count
	total      int64  // filtered bytes produced on this connection
	cursor     int64  // where the next send or read starts returning text

	// morePending says that the stream ends in a --More-- prompt nobody
	// answered: a read with auto_more answers it and goes on from there.
	morePending bool
}

// NewSession returns a line that is not open yet. open() without arguments
// connects to host and port.
func NewSession(host string, port int) *Session {
	return &Session{defaultHost: host, defaultPort: port, changed: make(chan struct{})}
}

// Collect says when send and read stop collecting output and return.
type Collect struct {
	Expect   *regexp.Regexp // return when this matches the new output; nil for none
	Timeout  time.Duration  // return after this long in any case
	Quiet    time.Duration  // return after this much silence, once output has begun
	AutoMore bool           // answer --More-- prompts with a space, up to 20 pages
}

// Reply is what open, send, read and close hand back.
type Reply struct {
	Text   string // new output, filtered and collapsed; answered prompts removed
	Reason string // why collecting stopped; empty when nothing was collected
	Pages  int    // --More-- prompts answered
	Lost   int64  // characters that fell out of the scrollback before being read
	Note   string // a remark for the trailer, such as "already open"
	Line   string // the line's state after the call
}

// Open connects to host:port, or to the defaults for empty host and zero
// port, and returns the greeting the line sends in its first moments. If the
// line is already open it reports that instead: open is idempotent. A new
// connection starts a new scrollback.
func (s *Session) Open(ctx context.Context, host string, port int) (Reply, error) {
	if host == "" {
		host = s.defaultHost
	}
	if port == 0 {
		port = s.defaultPort
	}
	if port < 1 || port > 65535 {
		return Reply{}, fmt.Errorf("port: %d is outside 1..65535", port)
	}
	s.calls.Lock()
	defer s.calls.Unlock()

	s.mu.Lock()
	if s.state == open {
		r := Reply{Note: "already open", Line: s.lineLocked()}
		if host != s.host || port != s.port {
			r.Note = "already open; close() first to open " + quote.Raw(net.JoinHostPort(host, fmt.Sprint(port)))
		}
		s.mu.Unlock()
		return r, nil
	}
	s.mu.Unlock()

	addr := net.JoinHostPort(host, fmt.Sprint(port))
	d := net.Dialer{Timeout: dialTimeout}
	c, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return Reply{}, fmt.Errorf("open %s: %s", quote.Raw(addr), dialFault(err))
	}
	conn := c.(*net.TCPConn)

	s.mu.Lock()
	s.conn = conn
	s.readerDone = make(chan struct{})
	s.host, s.port = host, port
	s.state, s.reason = open, ""
	s.opened = time.Now()
	s.bytesIn, s.bytesOut = 0, 0
	s.lastArrival = time.Time{}
	s.filter = filter{}
	s.scrollback = s.scrollback[:0]
	s.total, s.cursor = 0, 0
	s.morePending = false
	go s.readLoop(conn, s.readerDone)
	mark := s.bytesIn
	s.mu.Unlock()

	// The greeting is collected the way read collects with its defaults.
	return s.collect(ctx, Collect{Timeout: DefaultReadTimeout, Quiet: DefaultQuiet, AutoMore: true}, mark, 0)
}

// Send writes input, expanded by Expand, and collects the output it causes.
func (s *Session) Send(ctx context.Context, input string, raw bool, c Collect) (Reply, error) {
	wire, err := Expand(input, raw)
	if err != nil {
		return Reply{}, err
	}
	if err := c.check(); err != nil {
		return Reply{}, err
	}
	s.calls.Lock()
	defer s.calls.Unlock()

	s.mu.Lock()
	if s.state != open {
		err := s.notOpenLocked()
		s.mu.Unlock()
		return Reply{}, err
	}
	conn := s.conn
	// Whatever is sent answers a waiting --More-- itself: a space pages on,
	// a rubout flushes. Either way it is no longer ours to answer.
	s.morePending = false
	// Bytes that arrive from here on are the response, even the echo that
	// can beat the write's return.
	mark := s.bytesIn
	s.mu.Unlock()

	if err := s.write(conn, wire); err != nil {
		return Reply{}, err
	}
	return s.collect(ctx, c, mark, 0)
}

// Read collects output without sending anything. Output already waiting
// counts as arrived, so a read of a line that has gone quiet returns at once.
// On a line that has died, Read still returns what arrived before the end.
func (s *Session) Read(ctx context.Context, c Collect) (Reply, error) {
	if err := c.check(); err != nil {
		return Reply{}, err
	}
	s.calls.Lock()
	defer s.calls.Unlock()

	s.mu.Lock()
	if s.state != open {
		if s.cursor < s.total {
			s.mu.Unlock()
			return s.collect(ctx, c, -1, 0)
		}
		err := s.notOpenLocked()
		s.mu.Unlock()
		return Reply{}, err
	}
	mark := s.bytesIn
	if s.cursor < s.total {
		mark = -1 // output is waiting: the first byte has arrived already
	}
	pages := 0
	conn := s.conn
	answer := c.AutoMore && s.morePending
	s.morePending = false
	s.mu.Unlock()

	if answer {
		// The previous call stopped at a prompt (more_limit, or auto_more
		// off); read goes on from there.
		s.mu.Lock()
		mark = s.bytesIn
		s.mu.Unlock()
		if err := s.write(conn, []byte{' '}); err != nil {
			return Reply{}, err
		}
		pages = 1
	}
	return s.collect(ctx, c, mark, pages)
}

// Peek returns the last n characters of the scrollback, collapsed, without
// moving the point from which send and read return output.
func (s *Session) Peek(n int) (Reply, error) {
	if n < 1 {
		return Reply{}, fmt.Errorf("last_n_chars: %d is less than 1", n)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	_, window := s.windowLocked()
	shown := len(window)
	if n < shown {
		shown = n
	}
	return Reply{
		Text: collapse(string(window[len(window)-shown:])),
		Note: fmt.Sprintf("peek: last %d of %d chars in scrollback", shown, len(window)),
		Line: s.lineLocked(),
	}, nil
}

// Status describes the line: connected or not, host:port, uptime, bytes
// each way, output waiting to be read, and why it died if it did.
func (s *Session) Status() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var b strings.Builder
	connected := "no"
	switch s.state {
	case open:
		connected = "yes"
	case dead:
		connected = "no: the line is dead"
	case closed:
		connected = "no: closed"
	}
	fmt.Fprintf(&b, "connected: %s\n", connected)
	if s.state == notOpened {
		fmt.Fprintf(&b, "line: %s (open() connects here)\n", net.JoinHostPort(s.defaultHost, fmt.Sprint(s.defaultPort)))
		return b.String()
	}
	fmt.Fprintf(&b, "line: %s\n", net.JoinHostPort(s.host, fmt.Sprint(s.port)))
	if s.state == open {
		fmt.Fprintf(&b, "uptime: %s\n", time.Since(s.opened).Round(time.Second))
	}
	fmt.Fprintf(&b, "bytes: %d received, %d sent\n", s.bytesIn, s.bytesOut)
	start, _ := s.windowLocked()
	pending := s.total - max(s.cursor, start)
	fmt.Fprintf(&b, "pending: %d chars unread\n", pending)
	if lost := start - s.cursor; lost > 0 {
		fmt.Fprintf(&b, "lost: %d unread chars fell out of the %d-byte scrollback\n", lost, scrollbackSize)
	}
	if s.morePending {
		b.WriteString("pager: a --More-- prompt is waiting (read answers it; send ~d flushes)\n")
	}
	if s.reason != "" {
		fmt.Fprintf(&b, "reason: %s\n", s.reason)
	}
	return b.String()
}

// Close resets the connection so the emulator frees the line at once:
// SO_LINGER is set to zero, so the kernel sends RST instead of FIN and
// nothing is left half-closed holding the line busy. Close is also the
// process's teardown, on exit and on SIGTERM and SIGHUP. Output that had not
// been read stays readable.
func (s *Session) Close() Reply {
	s.closing.Lock()
	defer s.closing.Unlock()
	s.mu.Lock()
	if s.state != open {
		r := Reply{Note: "not open", Line: s.lineLocked()}
		s.mu.Unlock()
		return r
	}
	s.state, s.reason = closed, "close() reset the connection"
	conn, done := s.conn, s.readerDone
	s.mu.Unlock()

	hardClose(conn)
	<-done // the reader has seen the end; nothing more arrives

	s.mu.Lock()
	defer s.mu.Unlock()
	s.notifyLocked()
	return Reply{Note: "hard close (SO_LINGER 0): the peer saw a reset", Line: s.lineLocked()}
}

// dialFault says why a dial failed without the address, which the net
// package's errors repeat whole (a DNS error twice over) and the caller
// quotes short.
func dialFault(err error) string {
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return "lookup: " + dns.Err
	}
	var op *net.OpError
	if errors.As(err, &op) && op.Err != nil {
		return op.Err.Error()
	}
	return quote.Raw(err.Error())
}

// hardClose closes conn with SO_LINGER 0. A zero linger time makes TCP abort
// the connection on close: unsent data is discarded and an RST goes to the
// peer instead of a FIN (W. R. Stevens, UNIX Network Programming vol. 1,
// 3rd ed., section 7.5, SO_LINGER; net.TCPConn.SetLinger documents the
// discard for sec == 0).
func hardClose(conn *net.TCPConn) {
	_ = conn.SetLinger(0)
	_ = conn.Close()
}

// readLoop drains the socket for as long as it lives, whatever the tool
// calls are doing, so the peer never stalls on a full window and output is
// never tied to the pace of the agent.
func (s *Session) readLoop(conn *net.TCPConn, done chan struct{}) {
	defer close(done)
	buf := make([]byte, 4096)
	for {
		n, err := conn.Read(buf)
		s.mu.Lock()
		if s.conn != conn {
			// A failed write killed this connection and open() has made
			// a new one since: nothing here is news any more.
			s.mu.Unlock()
			return
		}
		if n > 0 {
			s.receiveLocked(buf[:n])
		}
		if err != nil {
			if s.state == open {
				s.state, s.reason = dead, describe(err)
				hardClose(conn)
			}
			s.notifyLocked()
			s.mu.Unlock()
			return
		}
		s.notifyLocked()
		s.mu.Unlock()
	}
}

// describe words the error that ended the reader.
func describe(err error) string {
	switch {
	case errors.Is(err, io.EOF):
		return "the peer closed the connection"
	case errors.Is(err, syscall.ECONNRESET):
		return "the peer reset the connection"
	}
	return "read: " + err.Error()
}

// receiveLocked takes in raw bytes from the socket.
func (s *Session) receiveLocked(raw []byte) {
	s.bytesIn += int64(len(raw))
	s.lastArrival = time.Now()
	before := len(s.scrollback)
	s.scrollback = s.filter.write(s.scrollback, raw)
	added := len(s.scrollback) - before
	if added == 0 {
		return
	}
	s.total += int64(added)
	s.morePending = false // text after a prompt: it is no longer waiting
	// Let the buffer run to twice the scrollback before moving it down, so
	// the copy happens once per 256 KB rather than on every read.
	if len(s.scrollback) > 2*scrollbackSize {
		s.scrollback = append(s.scrollback[:0], s.scrollback[len(s.scrollback)-scrollbackSize:]...)
	}
}

// windowLocked returns the scrollback and the stream offset where it starts.
func (s *Session) windowLocked() (start int64, text []byte) {
	text = s.scrollback
	if len(text) > scrollbackSize {
		text = text[len(text)-scrollbackSize:]
	}
	return s.total - int64(len(text)), text
}

// notifyLocked wakes every call waiting for news from the line.
func (s *Session) notifyLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// write puts bytes on the wire. A failed write kills the line like a failed
// read would: it is marked dead with the reason, and not reopened.
func (s *Session) write(conn *net.TCPConn, b []byte) error {
	s.writing.Lock()
	defer s.writing.Unlock()
	_ = conn.SetWriteDeadline(time.Now().Add(writeTimeout))
	n, err := conn.Write(b)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.bytesOut += int64(n)
	if errors.Is(err, os.ErrDeadlineExceeded) && s.state == open && s.conn == conn {
		// The peer has stopped reading: its window is full. That is the
		// call's failure, not the line's, which may read again.
		return fmt.Errorf("send: the line took %d of %d bytes in %v and then stopped reading; the line stays open (read, or send ~d, once it reads again)", n, len(b), writeTimeout)
	}
	if err != nil {
		if s.state == open && s.conn == conn {
			s.state, s.reason = dead, "write: "+err.Error()
			hardClose(conn)
			s.notifyLocked()
		}
		return fmt.Errorf("send: %s", s.reason)
	}
	return nil
}

// span is a stretch of the filtered stream, by absolute offsets.
type span struct{ start, end int64 }

// collect waits for output and returns it. mark is the count of raw bytes
// received before the call began: the quiet timer runs only once bytesIn has
// passed it, so a program that takes five seconds to say anything is not cut
// off at quiet_ms. pages counts prompts the caller already answered.
func (s *Session) collect(ctx context.Context, c Collect, mark int64, pages int) (Reply, error) {
	deadline := time.Now().Add(c.Timeout)
	var answered []span // prompts answered by this call, cut from the reply

	s.mu.Lock()
	defer s.mu.Unlock()
	answeredEnd := s.cursor // prompts before this are dealt with
	reason := ""
	for reason == "" {
		now := time.Now()
		var wake time.Time // besides news from the line and the deadline

		// expect is checked first: whichever comes first, a match or a
		// prompt, decides, and the server never answers a prompt with a
		// space the caller did not want (issue 19, item 8).
		if c.Expect != nil && c.Expect.MatchString(s.pendingLocked(answered)) {
			reason = ReasonMatched
			break
		}
		settling := false
		if c.AutoMore {
			if p, complete, ok := s.trailingPromptLocked(answeredEnd); ok && s.state == open {
				if complete || now.Sub(s.lastArrival) >= moreSettle {
					if pages == maxMorePages {
						reason = ReasonMoreLimit
						break
					}
					answered = append(answered, p)
					answeredEnd = s.total
					pages++
					mark = s.bytesIn // wait afresh for the next page's first byte
					conn := s.conn
					s.mu.Unlock()
					err := s.write(conn, []byte{' '})
					s.mu.Lock()
					if err != nil {
						reason = s.endReasonLocked()
						break
					}
					continue
				}
				wake = s.lastArrival.Add(moreSettle)
				settling = true
			}
		}
		if s.state != open {
			reason = s.endReasonLocked()
			break
		}
		// A bare prompt waiting for its tail is not silence: it is
		// answered once it has stood alone for moreSettle.
		armed := s.bytesIn > mark && !settling
		if armed && now.Sub(s.lastArrival) >= c.Quiet {
			reason = ReasonQuiet
			break
		}
		if !now.Before(deadline) {
			reason = ReasonTimeout
			break
		}

		until := deadline
		if armed && s.lastArrival.Add(c.Quiet).Before(until) {
			until = s.lastArrival.Add(c.Quiet)
		}
		if !wake.IsZero() && wake.Before(until) {
			until = wake
		}
		changed := s.changed
		s.mu.Unlock()
		timer := time.NewTimer(time.Until(until))
		select {
		case <-changed:
		case <-timer.C:
		case <-ctx.Done():
		}
		timer.Stop()
		s.mu.Lock()
		if ctx.Err() != nil {
			// The cursor stays put: the output is still there for the
			// next call.
			return Reply{}, fmt.Errorf("collecting output: %w", ctx.Err())
		}
	}

	if _, _, ok := s.trailingPromptLocked(answeredEnd); ok && s.state == open {
		s.morePending = true
	}
	start, _ := s.windowLocked()
	r := Reply{
		Text:   collapse(s.pendingLocked(answered)),
		Reason: reason,
		Pages:  pages,
		Lost:   max(0, start-s.cursor),
	}
	if reason == ReasonMoreLimit {
		r.Note = "a --More-- prompt is waiting: read continues, send ~d flushes"
	}
	s.cursor = s.total
	r.Line = s.lineLocked()
	return r, nil
}

// endReasonLocked is the reason a call returns when the line is gone.
func (s *Session) endReasonLocked() string {
	if s.state == closed {
		return ReasonClosed
	}
	return ReasonDead
}

// trailingPromptLocked finds a --More-- prompt ending the stream after from.
// It returns the prompt's span, whether it is known to be complete, and
// whether there is one.
func (s *Session) trailingPromptLocked(from int64) (span, bool, bool) {
	start, window := s.windowLocked()
	from = max(from, start)
	tail := string(window[from-start:])
	ps, pe, complete, ok := trailingPrompt(tail)
	return span{from + int64(ps), from + int64(pe)}, complete, ok
}

// pendingLocked is the unread text with the answered prompts cut out.
func (s *Session) pendingLocked(cut []span) string {
	start, window := s.windowLocked()
	pos := max(s.cursor, start)
	var b strings.Builder
	for _, c := range cut {
		if c.end <= pos {
			continue
		}
		if c.start > pos {
			b.Write(window[pos-start : c.start-start])
		}
		pos = c.end
	}
	b.Write(window[pos-start:])
	return b.String()
}

// lineLocked is the line's state in a few words, for a response's trailer.
func (s *Session) lineLocked() string {
	addr := net.JoinHostPort(s.host, fmt.Sprint(s.port))
	switch s.state {
	case open:
		return "open " + addr
	case dead:
		return fmt.Sprintf("DEAD %s: %s; not reconnecting, open() to start again", addr, s.reason)
	case closed:
		return "closed " + addr
	}
	return "not open; open() connects to " + net.JoinHostPort(s.defaultHost, fmt.Sprint(s.defaultPort))
}

// notOpenLocked is the error for a call that needs a live line.
func (s *Session) notOpenLocked() error {
	switch s.state {
	case dead:
		return fmt.Errorf("the line is dead (%s); it is not reconnected automatically: call open() to start a new session", s.reason)
	case closed:
		return errors.New("the line is closed; call open() to connect again")
	}
	return errors.New("the line is not open; call open() first")
}

// check rejects limits that cannot work.
func (c Collect) check() error {
	if c.Timeout < 0 {
		return fmt.Errorf("timeout_ms: %d is negative", c.Timeout.Milliseconds())
	}
	if c.Quiet < 0 {
		return fmt.Errorf("quiet_ms: %d is negative", c.Quiet.Milliseconds())
	}
	return nil
}
