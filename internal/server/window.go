package server

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// What colophon-mcp's window and proxy need of the server (issue 16): a
// tool list that changes while clients are connected, tool calls refused
// before they reach the host, and the dev_mode tool. The window's own
// machinery is in internal/window, the proxy's in internal/proxy.

// shelves keeps, for each SDK server this package builds, every tool
// added to it with its handler, so that a tool taken off the list can be
// put back on it: the SDK's server adds and removes tools, but gives none
// back.
var shelves sync.Map // *mcp.Server → *shelf

// A shelf is one server's tools, in the order they were added.
type shelf struct {
	mu     sync.Mutex
	order  []string
	tools  map[string]shelved
	hidden map[string]bool
}

type shelved struct {
	tool    *mcp.Tool
	handler mcp.ToolHandler
}

func shelfOf(m *mcp.Server) *shelf {
	if v, ok := shelves.Load(m); ok {
		return v.(*shelf)
	}
	v, _ := shelves.LoadOrStore(m, &shelf{tools: map[string]shelved{}, hidden: map[string]bool{}})
	return v.(*shelf)
}

// shelve adds a tool to m, keeping it on m's shelf.
func shelve(m *mcp.Server, t *mcp.Tool, h mcp.ToolHandler) {
	sh := shelfOf(m)
	sh.mu.Lock()
	if _, ok := sh.tools[t.Name]; !ok {
		sh.order = append(sh.order, t.Name)
	}
	sh.tools[t.Name] = shelved{t, h}
	delete(sh.hidden, t.Name)
	sh.mu.Unlock()
	m.AddTool(t, h)
}

// Tools are every tool the server was built with, listed or hidden, in
// the order they were added, each as tools/list gives it.
func (s *Server) Tools() []*mcp.Tool {
	sh := shelfOf(s.mcp)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	out := make([]*mcp.Tool, 0, len(sh.order))
	for _, n := range sh.order {
		t := *sh.tools[n].tool
		out = append(out, &t)
	}
	return out
}

// Hide takes the named tools off the list, keeping them for Show; every
// client is told the list changed (ChangeTools). A name the server has no
// tool by, or one hidden already, is passed over.
func (s *Server) Hide(names ...string) {
	sh := shelfOf(s.mcp)
	sh.mu.Lock()
	var off []string
	for _, n := range names {
		if _, ok := sh.tools[n]; ok && !sh.hidden[n] {
			sh.hidden[n] = true
			off = append(off, n)
		}
	}
	sh.mu.Unlock()
	if len(off) > 0 {
		s.ChangeTools(func(m *mcp.Server) { m.RemoveTools(off...) })
	}
}

// Show puts hidden tools back on the list, and every client is told.
func (s *Server) Show(names ...string) {
	sh := shelfOf(s.mcp)
	sh.mu.Lock()
	var on []shelved
	for _, n := range sh.order {
		if sh.hidden[n] && slices.Contains(names, n) {
			delete(sh.hidden, n)
			on = append(on, sh.tools[n])
		}
	}
	sh.mu.Unlock()
	if len(on) > 0 {
		s.ChangeTools(func(m *mcp.Server) {
			for _, t := range on {
				m.AddTool(t.tool, t.handler)
			}
		})
	}
}

// Refuse has the server answer a call of a tool that why names a reason
// for with a refusal giving that reason, as a tool refuses a request,
// before the tool or the host sees it; why answers "" for a call to let
// through. The window refuses its driving tools so while dev mode is off.
func (s *Server) Refuse(why func(tool string) string) {
	s.Intercept(func(next mcp.MethodHandler) mcp.MethodHandler {
		answer := s.nameTheBuild(func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			call, _ := req.(*mcp.CallToolRequest)
			return AnswerIn(req, refusal(errors.New(why(call.Params.Name)))), nil
		})
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if call, ok := req.(*mcp.CallToolRequest); ok && method == "tools/call" && call.Params != nil && why(call.Params.Name) != "" {
				return answer(ctx, method, req)
			}
			return next(ctx, method, req)
		}
	})
}

// Intercept adds receiving middleware to the server, ahead of its own:
// the proxy's, which answers tools/list and tools/call from the window.
func (s *Server) Intercept(mw mcp.Middleware) {
	s.mcp.AddReceivingMiddleware(mw)
}

// A DevMode is the window's dev mode, which the dev_mode tool reads and
// turns.
type DevMode interface {
	// DevMode reports whether dev mode is on.
	DevMode() bool
	// SetDevMode turns dev mode on or off; turning it either way tells
	// every client that the tool list changed.
	SetDevMode(on bool)
	// Driving names the tools listed only while dev mode is on.
	Driving() []string
}

// DevModeArgs are dev_mode's arguments.
type DevModeArgs struct {
	On *bool `json:"on,omitempty" jsonschema:"true turns dev mode on, listing the tools that change the machine; false turns it off; left out, dev mode stays as it is and is only read"`
}

// DevModeAnswer is dev_mode's answer.
type DevModeAnswer struct {
	DevMode bool     `json:"dev_mode" jsonschema:"whether dev mode is on now"`
	Driving []string `json:"driving" jsonschema:"the tools that change the machine, listed and served only while dev mode is on"`
}

// AddDevMode adds the dev_mode tool, which reads and turns d.
func (s *Server) AddDevMode(d DevMode) {
	addTool(s.mcp, &mcp.Tool{Name: "dev_mode", Title: "Read or turn the window's dev mode", Description: devModeDescription, Annotations: writesNothingBeyond},
		func(ctx context.Context, a DevModeArgs) (DevModeAnswer, error) {
			if a.On != nil {
				d.SetDevMode(*a.On)
			}
			return DevModeAnswer{DevMode: d.DevMode(), Driving: d.Driving()}, nil
		})
}

// writesNothingBeyond is dev_mode's annotations: it changes no machine,
// only which tools are served, and doing it twice is doing it once.
var writesNothingBeyond = &mcp.ToolAnnotations{IdempotentHint: true, DestructiveHint: new(bool), OpenWorldHint: new(bool)}

// AnswerIn makes a tool call's answer, made by middleware rather than by
// the SDK's own tools/call, one of the revision the call was made in: in
// 2026-07-28 a result names its resultType, complete here, and a client of
// that revision refuses one that does not; in the revisions before it a
// result has no such field. The SDK sets the field only on the answers of
// its own tools/call, and keeps it where no one else can set it but by
// decoding it, as a client does.
func AnswerIn(req mcp.Request, res *mcp.CallToolResult) *mcp.CallToolResult {
	plain := &mcp.CallToolResult{Meta: res.Meta, Content: res.Content, StructuredContent: res.StructuredContent, IsError: res.IsError}
	if !ModernCall(req) {
		return plain
	}
	b, err := json.Marshal(plain)
	var fields map[string]json.RawMessage
	if err != nil || json.Unmarshal(b, &fields) != nil {
		return plain
	}
	fields["resultType"] = json.RawMessage(`"complete"`)
	var out mcp.CallToolResult
	if b, err = json.Marshal(fields); err != nil || json.Unmarshal(b, &out) != nil {
		return plain
	}
	if e := res.GetError(); e != nil {
		out.SetError(e)
		out.Content = plain.Content
	}
	return &out
}

// ModernCall reports whether a request was made in 2026-07-28 or later:
// on a connection no initialize opened, as the SDK judges it.
func ModernCall(req mcp.Request) bool {
	ss, ok := req.GetSession().(*mcp.ServerSession)
	if !ok || ss == nil {
		return false
	}
	if p := ss.InitializeParams(); p != nil && p.ProtocolVersion != "" {
		return p.ProtocolVersion >= modern
	}
	return true
}
