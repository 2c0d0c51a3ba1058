package transport

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"
	"unicode/utf8"

	"colophon/internal/quote"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxMessage is the most bytes one message may take, on a line of stdio or
// in the body of an HTTP request. The largest a tool takes is far smaller:
// a poke of 64K bytes as pairs of digits is 128K.
const MaxMessage = 4 << 20

// A Stdio is MCP's stdio transport: one JSON-RPC message to a line, each
// line ended by a newline.
//
// The go-sdk's own reads a stream of JSON values, so a line cut short
// swallows the next, and it ends the connection at the first that is no
// message, or at a line past its limit; a server then loses every machine
// for one bad line. This one judges each line alone (DecodeLine), answers
// a bad one with the error JSON-RPC 2.0 gives it, and goes on reading.
type Stdio struct {
	Reader io.Reader
	Writer io.Writer
	// MaxLine is the longest line read, newline excluded; 0 means
	// MaxMessage. A longer line is answered -32600 naming the limit, and
	// skipped to its end without being held.
	MaxLine int

	// Ended, if set, is told when the input ends, before the connection
	// drains: pidp10-mcp closes its line there, so that a call waiting on
	// it returns at once.
	Ended func()
	// Drain is how long, once the input ends, the connection goes on
	// answering the calls it has read before it reports the end: the end
	// of input means no more requests, not no more answers, but the go-sdk
	// drops the answers not yet written when it sees the end (go-sdk issue
	// #1061). 0 reports the end at once, for a server that drains itself
	// (colophon-mcp's revision.go).
	Drain time.Duration
}

// Connect starts reading lines.
func (t *Stdio) Connect(context.Context) (mcp.Connection, error) {
	max := t.MaxLine
	if max <= 0 {
		max = MaxMessage
	}
	c := &stdioConn{
		w:       t.Writer,
		read:    make(chan readResult),
		done:    make(chan struct{}),
		limit:   max,
		ended:   t.Ended,
		drain:   t.Drain,
		pending: map[jsonrpc.ID]bool{},
	}
	c.answered = sync.NewCond(&c.mu)
	go c.readLines(bufio.NewReaderSize(t.Reader, 64<<10))
	return c, nil
}

type readResult struct {
	msg jsonrpc.Message
	err error
}

type stdioConn struct {
	limit int
	ended func()
	drain time.Duration

	mu       sync.Mutex
	pending  map[jsonrpc.ID]bool // calls read and not yet answered
	answered *sync.Cond

	wmu sync.Mutex // one message written at a time, whole
	w   io.Writer

	read      chan readResult
	done      chan struct{}
	closeOnce sync.Once
}

// readLines reads until the input ends or the connection closes, handing
// each message to Read and answering each line that is none.
func (c *stdioConn) readLines(r *bufio.Reader) {
	for {
		line, tooLong, err := readLine(r, c.limit)
		if len(line) > 0 || tooLong {
			var msg jsonrpc.Message
			var answer []byte
			if tooLong {
				answer = errorAnswer(jsonrpc.CodeInvalidRequest,
					fmt.Sprintf("a line longer than %d bytes, the most a message may take here, was skipped to its end", c.limit))
			} else {
				msg, answer = DecodeLine(line)
			}
			if answer != nil {
				if werr := c.writeLine(answer); werr != nil {
					c.deliver(readResult{err: werr})
					return
				}
			}
			if msg != nil {
				// A call is pending from the moment it is read, not from
				// when Read hands it on: the input may end between the
				// two, and the drain must wait for its answer too.
				if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() && c.drain > 0 {
					c.mu.Lock()
					c.pending[req.ID] = true
					c.mu.Unlock()
				}
				if !c.deliver(readResult{msg: msg}) {
					return
				}
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = io.EOF // the client's end of input
				if c.ended != nil {
					c.ended()
				}
				c.waitForAnswers()
			}
			c.deliver(readResult{err: err})
			return
		}
	}
}

// waitForAnswers waits until every call read has been answered, or the
// drain's time is up, or the connection closes.
func (c *stdioConn) waitForAnswers() {
	if c.drain <= 0 {
		return
	}
	up := false
	timer := time.AfterFunc(c.drain, func() {
		c.mu.Lock()
		up = true
		c.answered.Broadcast()
		c.mu.Unlock()
	})
	defer timer.Stop()
	c.mu.Lock()
	defer c.mu.Unlock()
	for len(c.pending) > 0 && !up && !isClosed(c.done) {
		c.answered.Wait()
	}
}

func isClosed(ch chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// deliver hands r to Read, unless the connection closes first.
func (c *stdioConn) deliver(r readResult) bool {
	select {
	case c.read <- r:
		return true
	case <-c.done:
		return false
	}
}

// readLine reads one line without its newline. A line longer than limit is
// read to its end and dropped, and reported too long; memory stays within
// the limit however long the line. At the end of input the last line may
// lack its newline; err is then io.EOF beside it.
func readLine(r *bufio.Reader, limit int) (line []byte, tooLong bool, err error) {
	var buf []byte
	for {
		frag, err := r.ReadSlice('\n')
		if !tooLong {
			if len(buf)+len(frag) > limit+2 { // room for "\r\n"
				tooLong, buf = true, nil
			} else {
				buf = append(buf, frag...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if tooLong {
			return nil, true, err
		}
		buf = bytes.TrimSuffix(buf, []byte("\n"))
		buf = bytes.TrimSuffix(buf, []byte("\r"))
		if len(buf) > limit {
			return nil, true, err
		}
		return buf, false, err
	}
}

// Read returns the next message the client sent.
func (c *stdioConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case r := <-c.read:
		return r.msg, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.done:
		return nil, io.EOF
	}
}

// Write writes msg as one line.
func (c *stdioConn) Write(_ context.Context, msg jsonrpc.Message) error {
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("encoding a message to write: %w", err)
	}
	err = c.writeLine(data)
	if resp, ok := msg.(*jsonrpc.Response); ok && c.drain > 0 {
		c.mu.Lock()
		delete(c.pending, resp.ID)
		c.answered.Broadcast()
		c.mu.Unlock()
	}
	return err
}

func (c *stdioConn) writeLine(data []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	line := make([]byte, 0, len(data)+1)
	line = append(append(line, data...), '\n')
	_, err := c.w.Write(line)
	return err
}

// Close stops handing messages over. The standard streams stay open: they
// are the process's.
func (c *stdioConn) Close() error {
	c.closeOnce.Do(func() { close(c.done) })
	c.mu.Lock()
	c.answered.Broadcast() // a drain waiting on answers stops waiting
	c.mu.Unlock()
	return nil
}

// SessionID is empty: stdio has one client, and no sessions to tell apart.
func (c *stdioConn) SessionID() string { return "" }

// DecodeLine judges one line of stdio, its newline taken off: it returns
// the message the line carries, or else the bytes that answer it, a
// JSON-RPC error with id null. A line of only white space is neither, and
// is passed over.
//
// JSON-RPC 2.0 answers text that is no JSON with -32700, parse error, and
// JSON that is no request or response with -32600, invalid request; in
// both the id is null, since none could be read with certainty. A line is
// one message: two on a line, or anything after one, is no JSON text. A
// batch is refused, since none of the revisions served allows one.
func DecodeLine(line []byte) (jsonrpc.Message, []byte) {
	trimmed := bytes.TrimSpace(line)
	if len(trimmed) == 0 {
		return nil, nil
	}
	if bytes.HasPrefix(trimmed, []byte("\xef\xbb\xbf")) {
		return nil, errorAnswer(jsonrpc.CodeParseError,
			"parse error: the line begins with a byte-order mark (EF BB BF), which JSON text sent between programs may not (RFC 8259, 8.1)")
	}
	if !json.Valid(trimmed) {
		return nil, errorAnswer(jsonrpc.CodeParseError,
			fmt.Sprintf("parse error: the line is not one JSON value: %s", parseTrouble(trimmed)))
	}
	msg, why := decodeMessage(trimmed)
	if why != "" {
		return nil, errorAnswer(jsonrpc.CodeInvalidRequest, "invalid request: "+why)
	}
	return msg, nil
}

// decodeMessage reads one JSON value as a JSON-RPC 2.0 message, or says
// why it is none.
func decodeMessage(data []byte) (jsonrpc.Message, string) {
	switch data[0] {
	case '{':
	case '[':
		return nil, "a batch (a JSON array) is not taken: each message goes alone, on a line of its own"
	default:
		return nil, fmt.Sprintf("a message is a JSON object, and this is %s", quote.String(string(data)))
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return nil, fmt.Sprintf("the object cannot be read: %v", err)
	}
	// Decoding into a map keeps each key as it was spelt: JSON-RPC's
	// members are matched exactly, where a struct would match any case.
	version, ok := fields["jsonrpc"]
	if !ok {
		return nil, `"jsonrpc" is missing; it must be "2.0"`
	}
	if string(bytes.TrimSpace(version)) != `"2.0"` {
		return nil, fmt.Sprintf(`"jsonrpc" is %s; it must be "2.0"`, quote.String(string(version)))
	}
	if id, ok := fields["id"]; ok {
		var v any
		_ = json.Unmarshal(id, &v)
		switch v := v.(type) {
		case string:
		case float64:
			if v != float64(int64(v)) {
				return nil, fmt.Sprintf(`"id" is %s; a number id must be an integer`, quote.String(string(id)))
			}
		default:
			return nil, fmt.Sprintf(`"id" is %s; it must be a string or an integer`, quote.String(string(id)))
		}
	}
	if method, ok := fields["method"]; ok {
		var m string
		if json.Unmarshal(method, &m) != nil {
			return nil, fmt.Sprintf(`"method" is %s; it must be a string`, quote.String(string(method)))
		}
		if why := MethodTrouble(m); why != "" {
			return nil, why
		}
		if params, ok := fields["params"]; ok {
			if p := bytes.TrimSpace(params); len(p) == 0 || (p[0] != '{' && p[0] != '[') {
				return nil, fmt.Sprintf(`"params" is %s; it must be an object`, quote.String(string(params)))
			}
		}
	} else {
		_, hasID := fields["id"]
		_, hasResult := fields["result"]
		_, hasError := fields["error"]
		if !hasID || hasResult == hasError {
			return nil, `a message has a "method", or else is an answer with an "id" and one of "result" and "error"`
		}
	}
	msg, err := jsonrpc.DecodeMessage(data)
	if err != nil {
		return nil, fmt.Sprintf("the message cannot be read: %v", err)
	}
	return msg, ""
}

// parseTrouble says where JSON text goes wrong, quoting it near there.
func parseTrouble(data []byte) string {
	var v any
	dec := json.NewDecoder(bytes.NewReader(data))
	// Numbers kept as written: a number too large for a float64 is no
	// fault of the JSON's, and the decoder's error would quote it whole.
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		var syn *json.SyntaxError
		if errors.As(err, &syn) {
			return fmt.Sprintf("%v at byte %d, in %s", syn, syn.Offset, quote.String(string(data)))
		}
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return fmt.Sprintf("it ends before its value does: %s", quote.String(string(data)))
		}
		return fmt.Sprintf("%s, in %s", quote.Raw(err.Error()), quote.String(string(data)))
	}
	rest := bytes.TrimSpace(data[dec.InputOffset():])
	return fmt.Sprintf("after a whole value at byte %d comes more, %s; a line carries one message", dec.InputOffset(), quote.String(string(rest)))
}

// MaxMethod is the longest method name a message may carry: no MCP
// method's name comes near it, the longest being
// notifications/resources/list_changed, 36 characters.
const MaxMethod = 64

// MethodTrouble says why a message's method name is refused, or "". A
// name longer than MaxMethod is no MCP method's, and the SDK would answer
// it not found, quoting it whole.
func MethodTrouble(m string) string {
	if n := utf8.RuneCountInString(m); n > MaxMethod {
		return fmt.Sprintf(`"method" is %d characters long, %s; no MCP method's name is longer than %d`, n, quote.String(m), MaxMethod)
	}
	return ""
}

// errorAnswer is a JSON-RPC error answer with id null.
func errorAnswer(code int64, message string) []byte {
	data, err := json.Marshal(struct {
		JSONRPC string        `json:"jsonrpc"`
		ID      any           `json:"id"`
		Error   jsonrpc.Error `json:"error"`
	}{JSONRPC: "2.0", Error: jsonrpc.Error{Code: code, Message: message}})
	if err != nil {
		panic(err) // a struct of strings and numbers always encodes
	}
	return data
}
