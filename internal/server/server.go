// Package server is colophon-mcp's protocol layer: the Model Context Protocol
// server, built on the official Go SDK, that an agent's client speaks to over
// standard input and output.
//
// The SDK does most of the protocol. This package adds what the spec asks
// beyond it:
//
//   - the protocol revisions exactly as "What it answers" has them, by a
//     wrapper around the SDK's connection (revision.go), which also answers
//     every request made before the client's input ends;
//   - the build's name in the _meta of the answers to server/discover,
//     tools/list and tools/call, and nowhere else but serverInfo ("The name of
//     the build");
//   - the instructions an agent reads first (instructions.go);
//   - a seam for the tools, which checks arguments so that a wrong kind is
//     refused with its name and missing ones are listed (tool.go);
//   - a door that hands the client's tool calls to the host one at a time,
//     in the order they came, so that requests to one machine run in that
//     order though the SDK runs each call on a goroutine of its own
//     (door.go).
//
// Each tool is a thin adapter onto internal/host (tools.go): decode its
// arguments, ask the host, encode the answer. The descriptions an agent
// reads for each tool are in descriptions.go.
package server

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"colophon/internal/build"
	"colophon/internal/host"
	"colophon/internal/quote"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Name is the name the server gives itself, in serverInfo and beside the
// build in the _meta of its answers.
const Name = "colophon-mcp"

// Options configure a Server.
type Options struct {
	// Build is the build's name, 0.0.0+mcp.<commit>.emulator.<commit> as
	// "The name of the build" gives it. Empty means build.Name(), this
	// program's own.
	Build string

	// Host holds the machines the tools stand up and drive. Nil means a
	// host of its own that reads firmware from nowhere: machines can be
	// asked for, and each is refused naming the firmware it lacks.
	Host *host.Host

	// StopGrace is how long Serve goes on writing answers once its
	// client's input has ended or its context is done; 0 means
	// DefaultStopGrace, which keeps a process's end within a second. The
	// calls still running answerGrace before it ends are cancelled. A
	// test that holds every answer to being written sets it long: Serve
	// still returns as soon as they are.
	StopGrace time.Duration

	// Instructions, if not empty, follow the server's own instructions:
	// the window's account of itself (window.go).
	Instructions string
	// NoTools builds the server without its tools, for colophon-mcp
	// proxy, which lists and answers the tools of the window it
	// forwards to (window.go).
	NoTools bool
}

// A Server is one colophon-mcp server. Over stdio it serves one client at
// a time (Serve); over HTTP, any number at once (HTTP).
type Server struct {
	impl    *mcp.Implementation
	mcp     *mcp.Server
	opts    Options
	host    *host.Host
	serving chan struct{} // holds a token while a client is served
	// door hands the client's tool calls over one at a time, in the order
	// they came (see door); it is the connection's while one is served.
	door atomic.Pointer[door]

	// stopping is cancelled when the server stops: every call's context is
	// cancelled with it (see cancellable), so that a run ends between
	// instructions and is answered, and the process ends within a second.
	stopping context.Context
	stop     context.CancelFunc
	// calls is the context of the calls of the connection Serve serves,
	// cancelled as it ends; nil over HTTP, where stopping serves.
	calls atomic.Pointer[context.Context]

	// tools is held by ChangeTools while it changes the tool list, and by
	// each tools/list while it reads it, so that a list is the one before
	// a change or the one after, never half of it: the SDK takes each
	// tool added or removed on its own, and a client told of a change
	// early (the SDK tells 10 ms after the first) would list a part.
	tools sync.RWMutex
}

// New builds a server with its tools.
func New(opts Options) *Server {
	if opts.Build == "" {
		opts.Build = build.Name()
	}
	if opts.StopGrace <= 0 {
		opts.StopGrace = DefaultStopGrace
	}
	if opts.Host == nil {
		opts.Host = host.New(host.Options{Build: opts.Build})
	}
	impl := &mcp.Implementation{Name: Name, Title: "Colophon", Version: opts.Build}
	stopping, stop := context.WithCancel(context.Background())
	s := &Server{
		stopping: stopping,
		stop:     stop,
		impl:     impl,
		opts:     opts,
		host:     opts.Host,
		mcp: mcp.NewServer(impl, &mcp.ServerOptions{
			Instructions: Instructions + opts.Instructions,
			// The revisions the spec's "What it answers" names, newest
			// first. The SDK then answers an initialize that asks for any
			// other, 2025-03-26 say, in 2025-11-25, as the spec asks.
			SupportedProtocolVersions: revisions,
			// The tool list may change while a client is connected (the
			// window's dev mode, ChangeTools), and each client is told. The
			// SDK answers prompts/list whatever is declared, with none; the
			// capability says so, as a 2026-07-28 client's server/discover
			// must match what the server answers. The server logs nothing
			// to the client.
			Capabilities: &mcp.ServerCapabilities{
				Tools:   &mcp.ToolCapabilities{ListChanged: true},
				Prompts: &mcp.PromptCapabilities{},
			},
			// Session IDs are the SDK's own, random, and used only over
			// HTTP, in the Mcp-Session-Id header: no answer holds one.
		}),
		serving: make(chan struct{}, 1),
	}
	s.mcp.AddReceivingMiddleware(quoteShort, s.nameTheBuild, s.wholeList, s.inOrder, s.cancellable)
	if !opts.NoTools {
		s.addTools()
	}
	return s
}

// ErrBusy is returned by Serve while another client is being served.
var ErrBusy = errors.New("colophon-mcp serves one client at a time, and one is connected")

// Serve speaks to one client over t until the client goes or ctx is done.
// Every request passes the revision rules of "What it answers" first (see
// revision.go).
func (s *Server) Serve(ctx context.Context, t mcp.Transport) error {
	select {
	case s.serving <- struct{}{}:
		defer func() { <-s.serving }()
	default:
		return ErrBusy
	}
	d := newDoor()
	s.door.Store(d)
	defer s.door.Store(nil)

	// The calls of this connection end with it: when its input ends, or
	// ctx does (a signal), or the server stops.
	calls, cancelCalls := context.WithCancel(s.stopping)
	defer cancelCalls()
	s.calls.Store(&calls)
	defer s.calls.Store(nil)
	ending := make(chan struct{})
	var once sync.Once
	end := func() { once.Do(func() { close(ending) }) }
	defer context.AfterFunc(ctx, func() { cancelCalls(); end() })()

	ran := make(chan error, 1)
	go func() {
		ran <- s.mcp.Run(ctx, &revisionTransport{inner: t, door: d, ending: end, cancelCalls: cancelCalls, stopGrace: s.opts.StopGrace})
	}()
	select {
	case err := <-ran:
		return err
	case <-ending:
	}
	// The client's input ended, or a signal came: what is asked is
	// answered if it can be in time (revision.go, drain), and the server
	// is done within a second whatever runs (issue 19, item 7). A run the
	// SDK still waits on is left to end by itself, its context cancelled.
	select {
	case err := <-ran:
		return err
	case <-time.After(s.opts.StopGrace):
		return ctx.Err()
	}
}

// DefaultStopGrace is how long Serve goes on once its client's input has
// ended or its context is done: the answers written in that time are
// written, and then Serve returns whatever still runs. With the calls
// cancelled answerGrace before it, a process ends within a second.
const DefaultStopGrace = 900 * time.Millisecond

// Stop stops the server for good: every call running or waiting, over
// stdio or HTTP, has its context cancelled, so that a run stops between
// instructions and is answered. A program stops its server so as it ends.
func (s *Server) Stop() { s.stop() }

// cancellable is receiving middleware that cancels each request's context
// when the server stops, or the connection Serve serves ends. The SDK ends a connection only once its running
// calls return, and does not cancel them; a run asked for 1500 frames
// would hold the process that long.
func (s *Server) cancellable(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		stopping := s.stopping
		if c := s.calls.Load(); c != nil {
			stopping = *c
		}
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		defer context.AfterFunc(stopping, cancel)()
		return next(ctx, method, req)
	}
}

// ChangeTools changes the tool list, adding or removing tools through the
// SDK's server as change does, and so tells every client the list changed:
// a client of 2025-11-25 or 2025-06-18 is sent
// notifications/tools/list_changed on its connection (over HTTP, its
// session's stream), and a client of 2026-07-28 on each
// subscriptions/listen stream it holds open asking for it. The window's
// dev mode shows and hides its driving tools through it (issue 16).
func (s *Server) ChangeTools(change func(*mcp.Server)) {
	s.tools.Lock()
	defer s.tools.Unlock()
	change(s.mcp)
}

// wholeList is receiving middleware that holds tools/list to a tool list
// no change is making (see Server.tools).
func (s *Server) wholeList(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method == "tools/list" {
			s.tools.RLock()
			defer s.tools.RUnlock()
		}
		return next(ctx, method, req)
	}
}

// inOrder is receiving middleware that tells the door when a tool call has
// taken its place in line at the host, or has been answered without, so
// that the door hands over the next (see door).
func (s *Server) inOrder(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		d := s.door.Load()
		if method != "tools/call" || d == nil {
			return next(ctx, method, req)
		}
		var once sync.Once
		leave := func() { once.Do(d.leave) }
		defer leave()
		return next(host.WithArrival(ctx, leave), method, req)
	}
}

// quoteShort is receiving middleware that quotes short the name of a tool
// or a prompt the SDK refuses as unknown, which it quotes whole: what a
// client sent is quoted 80 characters at most (issue 19, item 2).
func quoteShort(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		var rpc *jsonrpc.Error
		if err == nil || !errors.As(err, &rpc) {
			return res, err
		}
		var what, name string
		switch r := req.(type) {
		case *mcp.CallToolRequest:
			if r.Params != nil {
				what, name = "tool", r.Params.Name
			}
		case *mcp.GetPromptRequest:
			if r.Params != nil {
				what, name = "prompt", r.Params.Name
			}
		}
		if what == "" || rpc.Message != fmt.Sprintf("unknown %s %q", what, name) {
			return res, err
		}
		return nil, &jsonrpc.Error{Code: rpc.Code, Message: fmt.Sprintf("unknown %s %s", what, quote.String(name)), Data: rpc.Data}
	}
}

// namesTheBuild reports whether the answer to method carries the server's
// name and the build's in its _meta. The spec ("The name of the build")
// names these three; a ping's answer, an error and the SDK's empty answers
// for what the server does not offer carry neither.
func namesTheBuild(method string) bool {
	switch method {
	case "server/discover", "tools/list", "tools/call":
		return true
	}
	return false
}

// nameTheBuild is receiving middleware that puts the server's name and the
// build's in the _meta of the answers that carry them, in every revision.
// The SDK does so itself only for 2026-07-28, and there for every answer;
// the connection takes the name off the others (revision.go).
func (s *Server) nameTheBuild(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if err != nil || res == nil || !namesTheBuild(method) {
			return res, err
		}
		meta := res.GetMeta()
		if meta == nil {
			meta = map[string]any{}
		}
		meta[mcp.MetaKeyServerInfo] = s.impl
		res.SetMeta(meta)
		return res, nil
	}
}
