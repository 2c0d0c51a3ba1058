package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"colophon/internal/quote"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The protocol revisions the server speaks, newest first, as the spec's
// "What it answers" names them: 2026-07-28, in which every request names
// its revision in its _meta, and the two that open with initialize.
const (
	modern       = "2026-07-28"
	revision1125 = "2025-11-25"
	revision0618 = "2025-06-18"
)

var revisions = []string{modern, revision1125, revision0618}

// negotiate gives the revision an initialize asking for asked is answered
// in: the one asked for where the server speaks it, and 2025-11-25 for any
// other ("What it answers"), 2026-07-28 among them, since that revision has
// no initialize (checklist, ambiguity A-2).
func negotiate(asked string) string {
	if asked == revision1125 || asked == revision0618 {
		return asked
	}
	return revision1125
}

// A revisionTransport wraps a transport so that every request is held to
// the revisions the server speaks before the SDK sees it.
type revisionTransport struct {
	inner mcp.Transport
	door  *door // hands the tool calls over in order; nil for none
	// ending is told when the client's input ends; cancelCalls cancels
	// the calls still running, once they have had their time, which is
	// stopGrace less answerGrace. Either may be nil.
	ending, cancelCalls func()
	stopGrace           time.Duration
}

// Connect connects the inner transport and wraps its connection.
func (t *revisionTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	rc := &revisionConn{inner: c, pending: make(map[jsonrpc.ID]string), door: t.door, ending: t.ending, cancelCalls: t.cancelCalls, stopGrace: t.stopGrace}
	rc.answered = sync.NewCond(&rc.mu)
	return rc, nil
}

// SupportsProtocolVersion tells the SDK which revisions server/discover
// lists: those the server speaks, where the inner transport can carry them.
func (t *revisionTransport) SupportsProtocolVersion(v string) bool {
	if !slices.Contains(revisions, v) {
		return false
	}
	if s, ok := t.inner.(mcp.ProtocolVersionSupporter); ok {
		return s.SupportsProtocolVersion(v)
	}
	return true
}

// A revisionConn holds each request to the revision it is made in.
//
// The SDK answers a request that names 2026-07-28 in its _meta in that
// revision, and an initialize in the revision negotiated. But it reads any
// other revision a request names in its _meta as no revision at all, so a
// request naming 2024-11-05 is answered as though it named none; and once a
// 2026-07-28 request has come, it answers requests naming no revision
// without an initialize. The spec answers a request only in a revision the
// server speaks, and refuses the rest. So, before the SDK sees a call:
//
//   - A call naming 2026-07-28 goes on; the SDK answers it in 2026-07-28.
//   - A call naming a revision the server does not speak is refused with
//     -32022 and {supported, requested}, supported being all three.
//   - A call naming 2025-11-25 or 2025-06-18 goes on only on a connection
//     that initialize opened in that revision, since only initialize opens
//     those; otherwise it is refused with -32022, supported being the
//     revisions this connection answers in: 2026-07-28, and the one
//     initialize opened, if it did.
//   - A call naming no revision goes on if it is initialize, opening the
//     connection, or ping, which those revisions allow before initialize, or
//     if initialize has opened the connection. Otherwise it is in no
//     revision at all, and is refused as an invalid request that says how to
//     name one.
//   - A second initialize, or one after 2026-07-28 requests, is refused as an
//     invalid request: initialize opens a connection, and this one is open.
//
// On the way out, the connection takes the server's name off the _meta of
// every answer but those to server/discover, tools/list and tools/call,
// where the SDK puts it on all of them for 2026-07-28 ("The name of the
// build").
//
// And when the client's input ends, the connection answers what it was
// asked before it lets the SDK see the end. The SDK (v1.8.0) takes the end
// of input for the end of the connection and drops the answers not yet
// written (go-sdk issue #1061), so a client that writes its requests and
// closes its end, as a shell pipe does, would get none; but the end of
// input means no more requests, not no more answers.
//
// A JSON-RPC batch, which only 2025-03-26 allowed, never reaches it: the
// stdio transport (internal/transport) answers one -32600, as it answers
// every line that is no message, and reads on.
type revisionConn struct {
	inner               mcp.Connection
	door                *door
	ending, cancelCalls func()
	stopGrace           time.Duration

	mu sync.Mutex
	// opened is the revision initialize opened the connection in, or "".
	// It is set as the initialize goes on, so that a call sent before its
	// answer is held to it, and confirmed or cleared by the answer.
	opened string
	// spokeModern is set once a 2026-07-28 call has gone on.
	spokeModern bool
	// pending holds the method of each call that went on, until it is
	// answered.
	pending map[jsonrpc.ID]string
	// answered is signalled as pending shrinks, and as the connection
	// closes.
	answered *sync.Cond
	closed   bool
}

// Read reads the next message the SDK is to see, answering itself every
// call the revisions refuse.
func (c *revisionConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		msg, err := c.inner.Read(ctx)
		if err != nil {
			if errors.Is(err, io.EOF) {
				c.drain(ctx)
			}
			return nil, err
		}
		req, ok := msg.(*jsonrpc.Request)
		if !ok {
			return msg, nil // an answer to one of the server's own calls
		}
		if !req.IsCall() {
			// A notification has no answer to refuse it with. One that
			// cancels a call means that call will not be answered.
			if req.Method == "notifications/cancelled" {
				c.cancelled(req.Params)
			}
			return msg, nil
		}
		refusal := c.admit(req)
		if refusal == nil {
			if req.Method == "tools/call" && c.door != nil {
				c.door.enter(ctx, req.ID)
			}
			return req, nil
		}
		if err := c.inner.Write(ctx, &jsonrpc.Response{ID: req.ID, Error: refusal}); err != nil {
			return nil, err
		}
	}
}

// admit decides whether a call goes on to the SDK, and records it if it
// does. It returns the error to refuse it with otherwise.
func (c *revisionConn) admit(req *jsonrpc.Request) *jsonrpc.Error {
	named, hasRevision, err := namedRevision(req.Params)
	if err != nil {
		return err
	}

	c.mu.Lock()
	defer c.mu.Unlock()

	if hasRevision {
		switch {
		case named == modern:
			if req.Method != "initialize" {
				c.spokeModern = true
			}
			// An initialize naming 2026-07-28 goes on too: the SDK refuses
			// it, as that revision has no initialize.
			c.pending[req.ID] = req.Method
			return nil
		case !slices.Contains(revisions, named):
			return unsupported(named, revisions,
				fmt.Sprintf("protocol revision %q is not one this server speaks", named))
		case req.Method == "initialize":
			if asked := initializeAsks(req.Params); asked != named {
				return &jsonrpc.Error{
					Code: jsonrpc.CodeInvalidParams,
					Message: fmt.Sprintf("initialize names revision %q in its _meta but asks for %s in protocolVersion; give one revision",
						named, quote.String(asked)),
				}
			}
			// It opens the connection in the revision it names, below.
		case c.opened != named:
			speaks := []string{modern}
			why := fmt.Sprintf("revision %q is spoken only on a connection initialize opened in it, and initialize has not opened this one", named)
			if c.opened != "" {
				speaks = append(speaks, c.opened)
				why = fmt.Sprintf("revision %q is spoken only on a connection initialize opened in it, and initialize opened this one in %q", named, c.opened)
			}
			return unsupported(named, speaks, why)
		default:
			c.pending[req.ID] = req.Method
			return nil
		}
	}

	switch {
	case req.Method == "initialize":
		if c.opened != "" {
			return invalidRequest(fmt.Sprintf("initialize has already opened this connection, in %q", c.opened))
		}
		if c.spokeModern {
			return invalidRequest(fmt.Sprintf("this connection already speaks %q, which has no initialize; initialize must open a connection", modern))
		}
		c.opened = negotiate(initializeAsks(req.Params))
	case req.Method == "ping", c.opened != "":
	default:
		return invalidRequest(fmt.Sprintf(
			"%s names no protocol revision, and no initialize opened this connection: name %q in _meta[%q], or open the connection with initialize asking for %q or %q",
			quote.String(req.Method), modern, mcp.MetaKeyProtocolVersion, revision1125, revision0618))
	}
	c.pending[req.ID] = req.Method
	return nil
}

// Write writes a message from the SDK, taking the server's name off the
// answers that do not carry it, and learning the revision initialize
// opened the connection in from its answer.
func (c *revisionConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	resp, ok := msg.(*jsonrpc.Response)
	if !ok {
		return c.inner.Write(ctx, msg)
	}
	c.mu.Lock()
	method, known := c.pending[resp.ID]
	if known && method == "initialize" {
		c.opened = openedBy(resp)
	}
	c.mu.Unlock()

	if known && !namesTheBuild(method) {
		stripped, err := withoutServerInfo(resp)
		if err != nil {
			return err
		}
		msg = stripped
	}
	err := c.inner.Write(ctx, msg)

	// Answered only once written, so that the end of input waits for it.
	c.mu.Lock()
	delete(c.pending, resp.ID)
	c.answered.Broadcast()
	c.mu.Unlock()
	if c.door != nil {
		c.door.answered(resp.ID)
	}
	return err
}

// Close closes the inner connection.
func (c *revisionConn) Close() error {
	c.mu.Lock()
	c.closed = true
	c.answered.Broadcast()
	c.mu.Unlock()
	if c.door != nil {
		c.door.close()
	}
	return c.inner.Close()
}

// drain waits until every call that went on has been answered, or the
// connection has closed, or ctx is done. The end of input means no more
// requests, not no more answers; but the process ends within a second of
// it whatever runs (issue 19, item 7): so the calls still running
// answerGrace before Serve gives up waiting, at StopGrace, have their
// contexts cancelled, and a run stops between instructions and is
// answered with what it did.
func (c *revisionConn) drain(ctx context.Context) {
	if c.ending != nil {
		c.ending()
	}
	if c.cancelCalls != nil {
		defer time.AfterFunc(max(c.stopGrace-answerGrace, 0), c.cancelCalls).Stop()
	}
	stop := context.AfterFunc(ctx, func() {
		c.mu.Lock()
		c.answered.Broadcast()
		c.mu.Unlock()
	})
	defer stop()
	c.mu.Lock()
	defer c.mu.Unlock()
	for len(c.pending) > 0 && !c.closed && ctx.Err() == nil {
		c.answered.Wait()
	}
}

// answerGrace is how long a call cancelled as Serve's StopGrace runs out
// has to stop and be answered: a run stops within ControlTicks of its
// machine's time, well under a millisecond. With DefaultStopGrace, the
// calls running as the client's input ends have 500 ms to end by
// themselves.
const answerGrace = 400 * time.Millisecond

// cancelled forgets a call a client has cancelled: the protocol has it go
// unanswered ("Cancellation"), so the end of input does not wait for it.
func (c *revisionConn) cancelled(params json.RawMessage) {
	var p struct {
		RequestID any `json:"requestId"`
	}
	if json.Unmarshal(params, &p) != nil {
		return
	}
	id, err := jsonrpc.MakeID(p.RequestID)
	if err != nil {
		return
	}
	c.mu.Lock()
	delete(c.pending, id)
	c.answered.Broadcast()
	c.mu.Unlock()
	// A call cancelled before it reached its tool may never line up.
	if c.door != nil {
		c.door.answered(id)
	}
}

// SessionID is the inner connection's.
func (c *revisionConn) SessionID() string { return c.inner.SessionID() }

// namedRevision reads the revision a call names in params._meta. A
// revision that is not a string is refused as invalid params.
func namedRevision(params json.RawMessage) (string, bool, *jsonrpc.Error) {
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	// Params that are no object carry no _meta; what is wrong with them
	// is the SDK's to say.
	if len(params) == 0 || json.Unmarshal(params, &p) != nil {
		return "", false, nil
	}
	raw, ok := p.Meta[mcp.MetaKeyProtocolVersion]
	if !ok {
		return "", false, nil
	}
	var v string
	if err := json.Unmarshal(raw, &v); err != nil {
		return "", false, &jsonrpc.Error{
			Code: jsonrpc.CodeInvalidParams,
			Message: fmt.Sprintf("_meta[%q] is %s; it must be a string naming a revision: %s",
				mcp.MetaKeyProtocolVersion, quote.Bytes(raw), strings.Join(revisions, ", ")),
		}
	}
	// A revision is a date; a longer one is refused here, as the -32022
	// refusal's data would give it back whole.
	if n := utf8.RuneCountInString(v); n > maxRevision {
		return "", false, &jsonrpc.Error{
			Code: jsonrpc.CodeInvalidParams,
			Message: fmt.Sprintf("_meta[%q] is %d characters long, %s; a revision is a date, and this server speaks %s",
				mcp.MetaKeyProtocolVersion, n, quote.String(v), strings.Join(revisions, ", ")),
		}
	}
	return v, true, nil
}

// maxRevision is the longest revision a request may name: a revision is
// a date, 2026-07-28, and room is left for a suffix a later one may add.
const maxRevision = 32

// initializeAsks reads the revision an initialize asks for.
func initializeAsks(params json.RawMessage) string {
	var p struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	_ = json.Unmarshal(params, &p) // the SDK refuses params that fail here
	return p.ProtocolVersion
}

// openedBy reads the revision an answer to initialize opened the connection
// in: none if the initialize was refused.
func openedBy(resp *jsonrpc.Response) string {
	if resp.Error != nil {
		return ""
	}
	var r struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	if json.Unmarshal(resp.Result, &r) != nil {
		return ""
	}
	return r.ProtocolVersion
}

// unsupported is the -32022 refusal, with the data the 2026-07-28 revision
// gives it.
func unsupported(requested string, supported []string, why string) *jsonrpc.Error {
	data, _ := json.Marshal(mcp.UnsupportedProtocolVersionData{
		Supported: slices.Clone(supported),
		Requested: requested,
	})
	return &jsonrpc.Error{
		Code:    mcp.CodeUnsupportedProtocolVersion,
		Message: fmt.Sprintf("unsupported protocol version: %s; this connection speaks %s", why, strings.Join(supported, ", ")),
		Data:    data,
	}
}

func invalidRequest(msg string) *jsonrpc.Error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: msg}
}

var serverInfoKey = []byte(`"` + mcp.MetaKeyServerInfo + `"`)

// withoutServerInfo returns resp with the server's name taken off its
// result's _meta, and the _meta itself if nothing else is left in it.
func withoutServerInfo(resp *jsonrpc.Response) (*jsonrpc.Response, error) {
	if resp.Error != nil || !bytes.Contains(resp.Result, serverInfoKey) {
		return resp, nil
	}
	var result map[string]json.RawMessage
	if err := json.Unmarshal(resp.Result, &result); err != nil {
		return nil, fmt.Errorf("reading an answer's result to take the server's name off its _meta: %w", err)
	}
	var meta map[string]json.RawMessage
	if raw, ok := result["_meta"]; ok {
		if err := json.Unmarshal(raw, &meta); err != nil {
			return nil, fmt.Errorf("reading an answer's _meta to take the server's name off it: %w", err)
		}
	}
	if _, ok := meta[mcp.MetaKeyServerInfo]; !ok {
		return resp, nil
	}
	delete(meta, mcp.MetaKeyServerInfo)
	if len(meta) == 0 {
		delete(result, "_meta")
	} else {
		m, err := json.Marshal(meta)
		if err != nil {
			return nil, err
		}
		result["_meta"] = m
	}
	// Keys come out sorted, so the answer stays the same for the same
	// request.
	r, err := json.Marshal(result)
	if err != nil {
		return nil, err
	}
	out := *resp
	out.Result = r
	return &out, nil
}
