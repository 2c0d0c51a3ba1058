package server

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestListIsNeverHalfAChange: a tools/list made while ChangeTools is part
// way through a change is answered with the list as the change leaves it,
// never with half of it. The proxy mirrors the window's list by removing
// its tools and adding each of the window's; a client told of the change
// while the SDK was still adding them listed a part (seen in
// window.test.mjs on a loaded machine: dev mode on listed run, not type).
func TestListIsNeverHalfAChange(t *testing.T) {
	s := New(Options{Build: testBuild, NoTools: true})
	w := dial(t, s)
	noop := func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{}, nil
	}
	tool := func(name string) *mcp.Tool {
		return &mcp.Tool{Name: name, InputSchema: map[string]any{"type": "object"}}
	}

	halfway, finish, changed := make(chan struct{}), make(chan struct{}), make(chan struct{})
	go func() {
		defer close(changed)
		s.ChangeTools(func(m *mcp.Server) {
			m.AddTool(tool("first"), noop)
			close(halfway)
			<-finish
			m.AddTool(tool("second"), noop)
		})
	}()
	<-halfway

	// A list asked for now waits for the change. The change is let go once
	// the list is answered or after a while; answered before that, the
	// list is held to the whole change all the same, so that a slow
	// machine can only make the test weaker, never fail it wrongly.
	listed := make(chan reply, 1)
	go func() {
		listed <- w.call("tools/list", withMeta(modern, map[string]any{}))
	}()
	var r reply
	select {
	case r = <-listed:
		close(finish)
	case <-time.After(200 * time.Millisecond):
		close(finish)
		r = <-listed
	}
	<-changed
	var names []string
	for _, t := range mustResult(t, "tools/list", r)["tools"].([]any) {
		names = append(names, t.(map[string]any)["name"].(string))
	}
	if !slices.Contains(names, "first") || !slices.Contains(names, "second") {
		t.Errorf("listed %v during a change that adds first and second", names)
	}
}
