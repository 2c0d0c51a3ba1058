// Package proxy is colophon-mcp proxy (issue 16;
// ../../../shared/spec/window-mcp.md, "why a proxy in front?"): an MCP
// server on standard input and output that forwards its client's tool
// calls to whichever window is running, so that a client registered once
// outlives any number of windows.
//
// It holds a request to the window's /alive open, which the window answers
// with its headers and never finishes: the request ends when the window's
// process does, however it ends, SIGKILL included. While no window runs it
// asks for /alive again a few times a second. Each time a window appears,
// goes, or is replaced by another, the proxy's tool list changes and the
// client is told (notifications/tools/list_changed, or on its
// subscriptions/listen stream): with a window, the list is the window's,
// as the window lists it and changes it when its dev mode turns; without
// one, it is the window's watching tools without dev_mode, each saying no
// window is running, and every call is refused saying so.
//
// The client's side is internal/server's, in every revision it speaks; the
// window's side is the go-sdk's client over streamable HTTP.
package proxy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"colophon/internal/build"
	"colophon/internal/server"
	"colophon/internal/transport"
	"colophon/internal/window"
)

// NoWindow is what the proxy answers while no window runs.
const NoWindow = "no window is running; start one with colophon-mcp window"

// Options configure a Proxy.
type Options struct {
	// Window is the window's address, http://127.0.0.1:7637.
	Window string
	// Poll is how often the proxy looks for a window while none runs. 0
	// means 200ms.
	Poll time.Duration
	// Logger logs the windows coming and going. Nil logs nothing.
	Logger *slog.Logger
}

// A Proxy forwards one client's tool calls to whichever window runs.
type Proxy struct {
	opts Options
	srv  *server.Server
	http *http.Client

	catalogue []*mcp.Tool // what is listed while no window runs

	mu     sync.Mutex
	up     *upstream // the window forwarded to, or nil
	listed []string  // the names of the tools listed now
}

// An upstream is one window the proxy is connected to.
type upstream struct {
	instance string
	session  *mcp.ClientSession
	refresh  sync.Mutex // one refresh of the list at a time
}

// New builds a proxy to the window at opts.Window.
func New(opts Options) *Proxy {
	if opts.Poll <= 0 {
		opts.Poll = 200 * time.Millisecond
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	p := &Proxy{
		opts: opts,
		srv:  server.New(server.Options{NoTools: true, Instructions: server.WindowInstructions + server.ProxyInstructions}),
		// The requests to the window are all to this machine; none
		// needs a proxy of the system's own.
		http: &http.Client{Transport: &http.Transport{Proxy: nil, MaxIdleConnsPerHost: 4}},
	}
	p.catalogue = Catalogue()
	p.srv.Intercept(p.forward)
	p.mirror(p.catalogue)
	return p
}

// Catalogue is what the proxy lists while no window runs: the window's
// watching tools, without dev_mode, which only a window has, each saying
// that no window runs.
func Catalogue() []*mcp.Tool {
	var out []*mcp.Tool
	for _, t := range server.New(server.Options{}).Tools() {
		if window.RoleOf(t) != window.Watching {
			continue
		}
		t.Description = "(" + NoWindow + ".)\n\n" + t.Description
		out = append(out, t)
	}
	return out
}

// Serve serves the client over t, and follows the windows, until the
// client goes or ctx is done.
func (p *Proxy) Serve(ctx context.Context, t mcp.Transport) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		p.watch(ctx)
	}()
	err := p.srv.Serve(ctx, t)
	cancel()
	<-watched
	return err
}

// Stop stops the proxy's server: every call forwarded is cancelled.
func (p *Proxy) Stop() { p.srv.Stop() }

// watch follows the windows until ctx is done: it holds /alive open while
// one runs, and asks again every Poll while none does.
func (p *Proxy) watch(ctx context.Context) {
	for ctx.Err() == nil {
		p.follow(ctx)
		select {
		case <-ctx.Done():
		case <-time.After(p.opts.Poll):
		}
	}
}

// follow connects to the window if one runs, and returns when it has gone.
func (p *Proxy) follow(ctx context.Context) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.opts.Window+window.AlivePath, nil)
	if err != nil {
		return
	}
	resp, err := p.http.Do(req)
	if err != nil {
		return
	}
	defer resp.Body.Close()
	instance := resp.Header.Get(window.InstanceHeader)
	if resp.StatusCode != http.StatusOK || instance == "" {
		p.opts.Logger.Warn("not a window", "address", p.opts.Window, "status", resp.Status)
		return
	}
	up, err := p.connect(ctx, instance)
	if err != nil {
		p.opts.Logger.Warn("connecting to the window", "address", p.opts.Window, "error", err)
		return
	}
	p.opts.Logger.Info("a window runs", "address", p.opts.Window, "instance", instance)
	// The calls go to the window from the moment its tools are listed.
	tools, err := p.tools(ctx, up)
	if err != nil {
		p.opts.Logger.Warn("listing the window's tools", "error", err)
		up.session.Close()
		return
	}
	p.mu.Lock()
	p.up = up
	p.mirrorLocked(tools)
	p.mu.Unlock()

	// The window never finishes its answer: reading ends as its process
	// does, or as the proxy stops.
	io.Copy(io.Discard, resp.Body)

	p.mu.Lock()
	if p.up == up {
		p.up = nil
		if ctx.Err() == nil {
			p.mirrorLocked(p.catalogue)
		}
	}
	p.mu.Unlock()
	up.session.Close()
	p.opts.Logger.Info("the window went", "address", p.opts.Window, "instance", instance)
}

// connect opens a client session with the window.
func (p *Proxy) connect(ctx context.Context, instance string) (*upstream, error) {
	up := &upstream{instance: instance}
	client := mcp.NewClient(&mcp.Implementation{Name: "colophon-mcp-proxy", Version: build.Name()}, &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{},
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
			go p.relist(ctx, up)
		},
	})
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	s, err := client.Connect(cctx, &mcp.StreamableClientTransport{Endpoint: p.opts.Window + transport.Path, HTTPClient: p.http, MaxRetries: -1}, nil)
	if err != nil {
		return nil, err
	}
	up.session = s
	return up, nil
}

// relist lists the window's tools again, as its list changed, and lists
// them as the proxy's.
func (p *Proxy) relist(ctx context.Context, up *upstream) {
	up.refresh.Lock()
	defer up.refresh.Unlock()
	tools, err := p.tools(ctx, up)
	if err != nil {
		p.opts.Logger.Warn("listing the window's tools", "error", err)
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.up == up {
		p.mirrorLocked(tools)
	}
}

// tools lists the window's tools, those the proxy can list as its own.
func (p *Proxy) tools(ctx context.Context, up *upstream) ([]*mcp.Tool, error) {
	var tools []*mcp.Tool
	for t, err := range up.session.Tools(ctx, nil) {
		if err != nil {
			return nil, err
		}
		tools = append(tools, t)
	}
	return Mirrorable(tools, p.opts.Logger), nil
}

// mirror lists tools as the proxy's own, in place of those listed, and so
// tells the client the list changed. A call never reaches their handler:
// forward answers every call.
func (p *Proxy) mirror(tools []*mcp.Tool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.mirrorLocked(tools)
}

// mirrorLocked is mirror with p.mu held.
func (p *Proxy) mirrorLocked(tools []*mcp.Tool) {
	old := p.listed
	p.listed = nil
	p.srv.ChangeTools(func(m *mcp.Server) {
		m.RemoveTools(old...)
		for _, t := range tools {
			m.AddTool(t, p.unforwarded)
			p.listed = append(p.listed, t.Name)
		}
	})
}

func (p *Proxy) unforwarded(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return nil, errors.New("proxy: a call was not forwarded")
}

// forward is receiving middleware that sends every tool call to the window,
// whatever the proxy lists, and answers it as the window does; while no
// window runs, it refuses each.
func (p *Proxy) forward(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		call, ok := req.(*mcp.CallToolRequest)
		if method != "tools/call" || !ok || call.Params == nil {
			return next(ctx, method, req)
		}
		p.mu.Lock()
		up := p.up
		p.mu.Unlock()
		if up == nil {
			return server.AnswerIn(req, refusal(NoWindow)), nil
		}
		res, err := up.session.CallTool(ctx, &mcp.CallToolParams{Name: call.Params.Name, Arguments: call.Params.Arguments, Meta: call.Params.Meta})
		var rpc *jsonrpc.Error
		switch {
		case err == nil && server.ModernCall(req):
			return res, nil // as the window answered it, in 2026-07-28 too
		case err == nil:
			return server.AnswerIn(req, res), nil
		case errors.As(err, &rpc):
			return nil, rpc // the window's own answer
		case ctx.Err() != nil:
			return nil, err
		}
		return server.AnswerIn(req, refusal(fmt.Sprintf("the window went away during the call (%v); %s", err, NoWindow))), nil
	}
}

func refusal(why string) *mcp.CallToolResult {
	res := &mcp.CallToolResult{}
	res.SetError(errors.New(why))
	return res
}
