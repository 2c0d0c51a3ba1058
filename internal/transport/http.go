package transport

import (
	"bytes"
	"colophon/internal/quote"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The HTTP headers of the streamable transport.
const (
	sessionHeader  = "Mcp-Session-Id"
	revisionHeader = "Mcp-Protocol-Version"
)

// Path is where the endpoint answers.
const Path = "/mcp"

// Modern is the first revision in which every request stands alone,
// naming its revision in its _meta and in the Mcp-Protocol-Version header,
// with no initialize and no session.
const Modern = "2026-07-28"

// HTTPOptions configure an HTTP.
type HTTPOptions struct {
	// Revisions are the revisions the server speaks, as its
	// ServerOptions.SupportedProtocolVersions gives them. A request naming
	// any other in its Mcp-Protocol-Version header is refused with -32022
	// and these. Nil means the go-sdk's own list.
	Revisions []string

	// Sessions is the file the legacy sessions are kept in, so that they
	// outlast the process. Empty keeps them in memory only.
	Sessions string

	// IdleTimeout ends a legacy session no request has named for so long;
	// its client is then answered 404 and opens another, as the transport
	// has it do. 0 means an hour.
	IdleTimeout time.Duration

	// MaxSessions caps the legacy sessions held, live or kept: opening one
	// more ends the one named least recently. 0 means 1000.
	MaxSessions int

	// Retry is the time an SSE stream asks its client to wait before it
	// reconnects, given as the stream's first field. 0 means a second.
	Retry time.Duration

	// Logger logs what the SDK's handlers log. Nil logs nothing.
	Logger *slog.Logger

	// Warnings is where the transport says what it did about a problem it
	// got past: a sessions file that held no sessions, moved aside. Nil is
	// os.Stderr.
	Warnings io.Writer

	// NamesItself, if set, says which methods' answers carry the server's
	// name in their _meta, io.modelcontextprotocol/serverInfo. The SDK puts
	// it in every 2026-07-28 result; from the others it is taken off here.
	// Nil leaves the SDK's way.
	NamesItself func(method string) bool
}

// An HTTP serves one MCP server over streamable HTTP, both eras on one
// endpoint:
//
//   - A request whose Mcp-Protocol-Version header names 2026-07-28, or that
//     names a revision in its _meta and no session, goes to the go-sdk's
//     stateless handler, which answers it alone, in the revision it names:
//     server/discover, tools/list, tools/call, and subscriptions/listen,
//     the stream on which such a client is told the tool list changed.
//   - Any other goes to the SDK's stateful handler, where initialize opens a
//     session in 2025-11-25 or 2025-06-18 and Mcp-Session-Id names it.
//     Its standalone stream (GET) carries notifications/tools/list_changed.
//
// Around the SDK this adds: the Origin and Host checks; the revisions held
// to those the server speaks, refused with -32022 as on stdio; sessions
// kept in a file and opened again after a restart, under the id their
// client knows; idle sessions ended and their number capped; and retry:
// at the head of every SSE stream, beside the SDK's priming event, so a
// client knows when to resume one.
type HTTP struct {
	srv       *mcp.Server
	opts      HTTPOptions
	stateful  *mcp.StreamableHTTPHandler
	stateless *mcp.StreamableHTTPHandler
	store     *store
	events    *eventStore
	retry     []byte
	now       func() time.Time

	restoring sync.Mutex // one restore at a time, so one session is opened once
}

// NewHTTP serves srv, reading the sessions kept in opts.Sessions. It adds
// a middleware to srv that records each session initialize opens, so srv
// is served by one HTTP.
func NewHTTP(srv *mcp.Server, opts HTTPOptions) (*HTTP, error) {
	if opts.IdleTimeout <= 0 {
		opts.IdleTimeout = time.Hour
	}
	if opts.MaxSessions <= 0 {
		opts.MaxSessions = 1000
	}
	if opts.Retry <= 0 {
		opts.Retry = time.Second
	}
	if opts.Revisions == nil {
		opts.Revisions = []string{Modern, "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}
	}
	if opts.Warnings == nil {
		opts.Warnings = os.Stderr
	}
	st, err := openStore(opts.Sessions, opts.MaxSessions, opts.IdleTimeout, time.Now(), opts.Warnings)
	if err != nil {
		return nil, err
	}
	h := &HTTP{
		srv:    srv,
		opts:   opts,
		store:  st,
		events: newEventStore(maxEventBytes, maxStreams),
		retry:  fmt.Appendf(nil, "retry: %d\n\n", opts.Retry.Milliseconds()),
		now:    time.Now,
	}
	get := func(*http.Request) *mcp.Server { return srv }
	h.stateful = mcp.NewStreamableHTTPHandler(get, &mcp.StreamableHTTPOptions{
		// The priming event that 2025-11-25 asks each stream to open with,
		// and a stream resumed after a dropped connection, need the events
		// kept; this store bounds them, and its records of streams, for all
		// sessions (events.go).
		EventStore:                 h.events,
		SessionTimeout:             opts.IdleTimeout,
		DisableLocalhostProtection: true, // local() checks Host, and Origin too
		MaxRequestBodyBytes:        MaxMessage,
		Logger:                     opts.Logger,
	})
	h.stateless = mcp.NewStreamableHTTPHandler(get, &mcp.StreamableHTTPOptions{
		Stateless:                    true,
		DisableLocalhostProtection:   true,
		MaxRequestBodyBytes:          MaxMessage,
		PropagateRequestCancellation: true,
		Logger:                       opts.Logger,
	})
	srv.AddReceivingMiddleware(h.track)
	return h, nil
}

// Close writes the sessions to the file a last time, with when each was
// last named, and then ends those this process serves; they stay kept, for
// the next process to open again.
func (h *HTTP) Close() error {
	h.store.mu.Lock()
	h.store.frozen = true
	var live []*mcp.ServerSession
	for _, s := range h.store.sessions {
		if s.live != nil {
			live = append(live, s.live)
		}
	}
	h.store.mu.Unlock()
	err := h.store.close()
	for _, ss := range live {
		ss.Close()
	}
	return err
}

// Serve serves the endpoint at /mcp on ln until ctx is done, then closes
// every connection at once (a stream stays open as long as its client
// wants, so waiting for them could take for ever) and closes h.
func (h *HTTP) Serve(ctx context.Context, ln net.Listener) error {
	mux := http.NewServeMux()
	mux.Handle(Path, h)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	var err error
	select {
	case err = <-served:
	case <-ctx.Done():
		srv.Close()
		<-served
	}
	if cerr := h.Close(); err == nil {
		err = cerr
	}
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}

// Extra is the value kept beside the sessions under key, if any.
func (h *HTTP) Extra(key string) json.RawMessage {
	h.store.mu.Lock()
	defer h.store.mu.Unlock()
	return h.store.extra[key]
}

// SetExtra keeps v beside the sessions under key, and writes the file.
func (h *HTTP) SetExtra(key string, v json.RawMessage) {
	h.store.mu.Lock()
	h.store.extra[key] = v
	h.store.mu.Unlock()
	h.store.changed()
}

// Flush waits until the file holds every change made so far.
func (h *HTTP) Flush() error { return h.store.flush() }

// Sessions is how many legacy sessions are held, live or kept.
func (h *HTTP) Sessions() int {
	h.store.mu.Lock()
	defer h.store.mu.Unlock()
	return len(h.store.sessions)
}

// ServeHTTP serves one request to the endpoint.
func (h *HTTP) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !local(w, r) {
		return
	}
	var msgs []peeked
	if r.Method == http.MethodPost {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxMessage))
		if err != nil {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				writeError(w, http.StatusRequestEntityTooLarge, nil, jsonrpc.CodeInvalidRequest,
					fmt.Sprintf("the request's body is longer than %d bytes, the most a message may take here", MaxMessage), nil)
				return
			}
			writeError(w, http.StatusBadRequest, nil, jsonrpc.CodeParseError, fmt.Sprintf("reading the request's body: %v", err), nil)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		msgs = peek(body)
	}
	for _, m := range msgs {
		if why := MethodTrouble(m.method); why != "" {
			writeError(w, http.StatusBadRequest, m.id, jsonrpc.CodeInvalidRequest, "invalid request: "+why, nil)
			return
		}
	}
	id := firstID(msgs)
	if v := r.Header.Get(revisionHeader); v != "" && !slices.Contains(h.opts.Revisions, v) {
		writeError(w, http.StatusBadRequest, id, mcp.CodeUnsupportedProtocolVersion,
			fmt.Sprintf("unsupported protocol version: the %s header names %s, which this server does not speak; it speaks %s",
				revisionHeader, quote.String(v), strings.Join(h.opts.Revisions, ", ")),
			mcp.UnsupportedProtocolVersionData{Supported: h.opts.Revisions, Requested: v})
		return
	}
	if h.modern(r, msgs) {
		if h.opts.NamesItself != nil && len(msgs) == 1 && !h.opts.NamesItself(msgs[0].method) {
			w = &unnamed{ResponseWriter: w}
		}
		h.stateless.ServeHTTP(&sseWriter{ResponseWriter: w, retry: h.retry}, r)
		return
	}
	w = &sseWriter{ResponseWriter: w, retry: h.retry}
	h.serveLegacy(w, r, msgs, id)
}

// modern reports whether a request is one of 2026-07-28's: its header
// names that revision or a later one, or it names a revision in its _meta
// and opens no session, where the stateless handler refuses it for the
// header it lacks, as that revision asks.
func (h *HTTP) modern(r *http.Request, msgs []peeked) bool {
	if v := r.Header.Get(revisionHeader); v != "" {
		return v >= Modern
	}
	if r.Method != http.MethodPost || r.Header.Get(sessionHeader) != "" {
		return false
	}
	for _, m := range msgs {
		if m.revision != "" && m.method != "initialize" {
			return true
		}
	}
	return false
}

// serveLegacy serves a request of the revisions that open with
// initialize.
func (h *HTTP) serveLegacy(w http.ResponseWriter, r *http.Request, msgs []peeked, id json.RawMessage) {
	sid := r.Header.Get(sessionHeader)
	if sid == "" {
		if r.Method == http.MethodPost {
			switch {
			case calls(msgs, "initialize"):
				h.makeRoom()
			case len(msgs) == 1 && msgs[0].method == "ping":
				// A ping may come before initialize.
			default:
				writeError(w, http.StatusBadRequest, id, jsonrpc.CodeInvalidRequest,
					fmt.Sprintf("no %s header: open a session with initialize, asking for %s, and name it in this header; or name %s in the %s header and each request's _meta, which needs no session",
						sessionHeader, strings.Join(legacy(h.opts.Revisions), " or "), Modern, revisionHeader), nil)
				return
			}
		}
		h.stateful.ServeHTTP(w, r)
		return
	}
	inner, ok := h.lookup(r.Context(), sid)
	if !ok {
		writeError(w, http.StatusNotFound, id, jsonrpc.CodeInvalidRequest,
			fmt.Sprintf("session %s is not one this server holds: it ended, idle for %v or closed, or was never opened here; open a new one with initialize",
				quote.String(sid), h.opts.IdleTimeout), nil)
		return
	}
	if calls(msgs, "initialize") {
		writeError(w, http.StatusBadRequest, id, jsonrpc.CodeInvalidRequest,
			fmt.Sprintf("initialize has already opened session %s; a new session is opened by an initialize that names none", quote.String(sid)), nil)
		return
	}
	r.Header.Set(sessionHeader, inner)
	if r.Method == http.MethodGet {
		h.resuming(r, sid)
	}
	h.stateful.ServeHTTP(w, r)
}

// resuming drops the Last-Event-ID of the first standalone stream a
// session opened again after a restart asks for. The id was given by the
// process before, whose events are gone, and this process numbers its own
// from 0 again: resumed after it, the stream would pass over the events
// this process kept for the client before it reconnected. Without it, the
// stream begins with all of them.
func (h *HTTP) resuming(r *http.Request, sid string) {
	id := r.Header.Get("Last-Event-ID")
	s := h.store
	s.mu.Lock()
	defer s.mu.Unlock()
	rec := s.sessions[sid]
	if rec == nil || !rec.reopened || rec.streamed {
		return
	}
	if id == "" || strings.HasPrefix(id, "_") { // the standalone stream's ids are "_N"
		rec.streamed = true
		r.Header.Del("Last-Event-ID")
	}
}

// lookup finds the SDK's session for the session a client names, opening
// it again if it was kept from before a restart; it marks it named now.
func (h *HTTP) lookup(ctx context.Context, sid string) (inner string, ok bool) {
	s := h.store
	s.mu.Lock()
	rec := s.sessions[sid]
	if rec != nil {
		rec.Seen = h.now()
		inner = rec.inner
	}
	s.mu.Unlock()
	switch {
	case rec == nil:
		return "", false
	case inner != "":
		return inner, true
	}
	// Kept from before a restart: open it again, once, as its client
	// first opened it.
	h.restoring.Lock()
	defer h.restoring.Unlock()
	s.mu.Lock()
	rec, inner = s.sessions[sid], ""
	var params *mcp.InitializeParams
	var revision string
	if rec != nil {
		inner, params, revision = rec.inner, rec.Initialize, rec.Revision
	}
	s.mu.Unlock()
	switch {
	case rec == nil:
		return "", false
	case inner != "":
		return inner, true
	}
	inner, err := h.reopen(ctx, sid, params, revision)
	if err != nil {
		if h.opts.Logger != nil {
			h.opts.Logger.Warn("opening a kept session again", "session", sid, "error", err)
		}
		s.mu.Lock()
		delete(s.sessions, sid)
		s.mu.Unlock()
		s.changed()
		return "", false
	}
	return inner, true
}

// reopening is the context key under which a session opened again carries
// the id its client knows it by, for track.
type reopening struct{}

// reopen opens a session kept from before a restart, as its client first
// opened it: the same initialize, and the initialized notification, sent
// to the SDK's handler from here. It returns the SDK's id for it.
func (h *HTTP) reopen(ctx context.Context, sid string, params *mcp.InitializeParams, revision string) (string, error) {
	p, err := json.Marshal(params)
	if err != nil {
		return "", err
	}
	ctx = context.WithValue(context.WithoutCancel(ctx), reopening{}, sid)
	init := fmt.Appendf(nil, `{"jsonrpc":"2.0","id":"reopen","method":"initialize","params":%s}`, p)
	rec := newRecorder()
	h.stateful.ServeHTTP(rec, internalPost(ctx, init, "", ""))
	inner := rec.Header().Get(sessionHeader)
	if rec.code != http.StatusOK || inner == "" {
		return "", fmt.Errorf("initialize answered %d: %s", rec.code, quote.Bytes(rec.body.Bytes()))
	}
	rec = newRecorder()
	h.stateful.ServeHTTP(rec, internalPost(ctx, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`), inner, revision))
	if rec.code != http.StatusAccepted {
		return "", fmt.Errorf("notifications/initialized answered %d: %s", rec.code, quote.Bytes(rec.body.Bytes()))
	}
	return inner, nil
}

func internalPost(ctx context.Context, body []byte, sid, revision string) *http.Request {
	r, _ := http.NewRequestWithContext(ctx, http.MethodPost, "http://localhost/mcp", bytes.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	if sid != "" {
		r.Header.Set(sessionHeader, sid)
	}
	if revision != "" {
		r.Header.Set(revisionHeader, revision)
	}
	return r
}

// track is receiving middleware that records each session initialize
// opens over HTTP, and forgets it when it ends.
func (h *HTTP) track(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if method != "initialize" || err != nil {
			return res, err
		}
		ss, ok := req.GetSession().(*mcp.ServerSession)
		result, ok2 := res.(*mcp.InitializeResult)
		params, ok3 := req.GetParams().(*mcp.InitializeParams)
		if !ok || !ok2 || !ok3 || ss.ID() == "" {
			return res, err // stdio, or a request with no session
		}
		sid, _ := ctx.Value(reopening{}).(string)
		h.opened(ss, sid, result.ProtocolVersion, params)
		return res, err
	}
}

// opened records a session initialize opened: a new one, under the SDK's
// own id, or one kept from before a restart, under sid.
func (h *HTTP) opened(ss *mcp.ServerSession, sid, revision string, params *mcp.InitializeParams) {
	s := h.store
	now := h.now()
	reopened := sid != ""
	if !reopened {
		sid = ss.ID()
	}
	s.mu.Lock()
	rec := s.sessions[sid]
	if rec == nil {
		rec = &session{ID: sid, Opened: now}
		s.sessions[sid] = rec
	}
	rec.Revision, rec.Initialize, rec.Seen = revision, params, now
	rec.live, rec.inner = ss, ss.ID()
	rec.reopened, rec.streamed = reopened, false
	s.byInner[ss.ID()] = sid
	s.mu.Unlock()
	s.changed()
	go func() {
		ss.Wait()
		h.ended(sid, ss)
	}()
}

// ended forgets a session that ended: its client closed it, or it was
// idle too long, or it made room for another. One that ends because the
// server is stopping stays kept.
func (h *HTTP) ended(sid string, ss *mcp.ServerSession) {
	s := h.store
	s.mu.Lock()
	delete(s.byInner, ss.ID())
	rec := s.sessions[sid]
	if rec == nil || rec.live != ss {
		s.mu.Unlock()
		return
	}
	if s.frozen {
		rec.live, rec.inner = nil, ""
		s.mu.Unlock()
		return
	}
	delete(s.sessions, sid)
	s.mu.Unlock()
	s.changed()
}

// makeRoom ends kept sessions idle past the limit, and then the ones
// named least recently until one more fits under the cap.
func (h *HTTP) makeRoom() {
	s := h.store
	now := h.now()
	var ending []*mcp.ServerSession
	s.mu.Lock()
	for id, rec := range s.sessions {
		if rec.live == nil && now.Sub(rec.Seen) > h.opts.IdleTimeout {
			delete(s.sessions, id)
		}
	}
	for len(s.sessions) >= h.opts.MaxSessions {
		var oldest *session
		for _, rec := range s.sessions {
			if oldest == nil || rec.Seen.Before(oldest.Seen) || (rec.Seen.Equal(oldest.Seen) && rec.ID < oldest.ID) {
				oldest = rec
			}
		}
		delete(s.sessions, oldest.ID)
		if oldest.live != nil {
			ending = append(ending, oldest.live)
		}
	}
	s.mu.Unlock()
	s.changed()
	for _, ss := range ending {
		ss.Close()
	}
}

// A peeked message is what routing needs of one message in a body.
type peeked struct {
	id       json.RawMessage
	method   string
	revision string // named in params._meta, or ""
}

// peek reads the messages of a POST's body as far as routing needs; what
// is wrong with them is the SDK's to answer.
func peek(body []byte) []peeked {
	var raw []json.RawMessage
	if t := bytes.TrimSpace(body); len(t) > 0 && t[0] == '[' {
		if json.Unmarshal(t, &raw) != nil {
			return nil
		}
	} else {
		raw = []json.RawMessage{body}
	}
	var out []peeked
	for _, m := range raw {
		var p struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Meta map[string]any `json:"_meta"`
			} `json:"params"`
		}
		if json.Unmarshal(m, &p) != nil {
			continue
		}
		v, _ := p.Params.Meta[mcp.MetaKeyProtocolVersion].(string)
		out = append(out, peeked{id: p.ID, method: p.Method, revision: v})
	}
	return out
}

// calls reports whether a body carries a call of method.
func calls(msgs []peeked, method string) bool {
	for _, m := range msgs {
		if m.method == method {
			return true
		}
	}
	return false
}

// firstID is the id of the body's first call, to answer a refusal with.
func firstID(msgs []peeked) json.RawMessage {
	for _, m := range msgs {
		if len(m.id) > 0 {
			return m.id
		}
	}
	return nil
}

func legacy(revisions []string) []string {
	var out []string
	for _, v := range revisions {
		if v < Modern {
			out = append(out, v)
		}
	}
	return out
}

// writeError answers a request with a JSON-RPC error, in a body of
// application/json with the HTTP status the transport gives it.
func writeError(w http.ResponseWriter, status int, id json.RawMessage, code int64, message string, data any) {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	e := struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
		Data    any    `json:"data,omitempty"`
	}{code, message, data}
	body, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   any             `json:"error"`
	}{"2.0", id, e})
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	w.Write(body)
}

// An sseWriter puts retry: at the head of an SSE stream, before the first
// event, so that a client whose stream breaks knows how long to wait
// before it resumes it. A block of only a retry field dispatches no event
// (the HTML standard's EventSource parsing), so the SDK's priming event
// still comes first.
type sseWriter struct {
	http.ResponseWriter
	retry   []byte
	started bool
}

func (w *sseWriter) WriteHeader(code int) {
	if w.started {
		w.ResponseWriter.WriteHeader(code)
		return
	}
	w.started = true
	w.ResponseWriter.WriteHeader(code)
	if code == http.StatusOK && strings.HasPrefix(w.Header().Get("Content-Type"), "text/event-stream") {
		w.ResponseWriter.Write(w.retry)
	}
}

func (w *sseWriter) Write(b []byte) (int, error) {
	if !w.started {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(b)
}

func (w *sseWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *sseWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// An unnamed writer takes the server's name off the _meta of the results
// in the SSE events written through it. The SDK writes each event in one
// Write, so each is rewritten whole.
type unnamed struct {
	http.ResponseWriter
}

var serverInfoKey = []byte(`"` + mcp.MetaKeyServerInfo + `"`)

func (w *unnamed) Write(b []byte) (int, error) {
	if !bytes.Contains(b, serverInfoKey) {
		return w.ResponseWriter.Write(b)
	}
	lines := bytes.Split(b, []byte("\n"))
	for i, l := range lines {
		if data, ok := bytes.CutPrefix(l, []byte("data: ")); ok {
			lines[i] = append([]byte("data: "), withoutName(data)...)
		}
	}
	if _, err := w.ResponseWriter.Write(bytes.Join(lines, []byte("\n"))); err != nil {
		return 0, err
	}
	return len(b), nil
}

func (w *unnamed) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *unnamed) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// withoutName takes the server's name off a JSON-RPC answer's result's
// _meta, and the _meta off if nothing else is in it; it leaves anything
// else as it was.
func withoutName(data []byte) []byte {
	var msg map[string]json.RawMessage
	if json.Unmarshal(data, &msg) != nil {
		return data
	}
	var result map[string]json.RawMessage
	if json.Unmarshal(msg["result"], &result) != nil {
		return data
	}
	var meta map[string]json.RawMessage
	if json.Unmarshal(result["_meta"], &meta) != nil {
		return data
	}
	if _, ok := meta[mcp.MetaKeyServerInfo]; !ok {
		return data
	}
	delete(meta, mcp.MetaKeyServerInfo)
	if len(meta) == 0 {
		delete(result, "_meta")
	} else {
		result["_meta"], _ = json.Marshal(meta)
	}
	msg["result"], _ = json.Marshal(result)
	out, err := json.Marshal(msg)
	if err != nil {
		return data
	}
	return out
}

// A recorder keeps an answer the server gives itself.
type recorder struct {
	header http.Header
	code   int
	body   bytes.Buffer
}

func newRecorder() *recorder { return &recorder{header: http.Header{}} }

func (r *recorder) Header() http.Header { return r.header }
func (r *recorder) WriteHeader(code int) {
	if r.code == 0 {
		r.code = code
	}
}
func (r *recorder) Write(b []byte) (int, error) {
	r.WriteHeader(http.StatusOK)
	return r.body.Write(b)
}
func (r *recorder) Flush() {}
