package main

import (
	"context"
	"os"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"colophon/internal/server"
)

// testTriggerEnv, set to 1, gives the server two tools for tests only,
// named as the MCP conformance suite names its own such hooks:
//
//   - test_trigger_tool_change changes the tool list, for the tests that
//     hold a client to being told of a change, across a restart too
//     (test/clients/http.test.mjs) and on a subscriptions/listen stream
//     (the suite's server-stateless). The list changes for real in the
//     window's dev mode (issue 16), through the same server.ChangeTools.
//   - test_reconnection closes the SSE stream of its own call before it
//     answers, so that its client must resume the stream with
//     Last-Event-ID to be answered (the suite's server-sse-polling). A
//     stream that breaks for real, a proxy's timeout or a dropped
//     connection, is resumed the same way.
const testTriggerEnv = "COLOPHON_MCP_TEST_TRIGGER"

func addTestTrigger(srv *server.Server) {
	if os.Getenv(testTriggerEnv) != "1" {
		return
	}
	var mu sync.Mutex
	shown := false
	changed := &mcp.Tool{
		Name:        "test_changed_tool",
		Description: "A tool that test_trigger_tool_change shows and hides; it does nothing.",
		InputSchema: map[string]any{"type": "object"},
	}
	nothing := func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "nothing"}}}, nil
	}
	srv.ChangeTools(func(m *mcp.Server) {
		m.AddTool(&mcp.Tool{
			Name:        "test_trigger_tool_change",
			Description: "For tests only (" + testTriggerEnv + "=1): shows test_changed_tool if it is hidden and hides it if it is shown, so that every client is told the tool list changed.",
			InputSchema: map[string]any{"type": "object"},
		}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			mu.Lock()
			defer mu.Unlock()
			shown = !shown
			srv.ChangeTools(func(m *mcp.Server) {
				if shown {
					m.AddTool(changed, nothing)
				} else {
					m.RemoveTools(changed.Name)
				}
			})
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "the tool list changed"}}}, nil
		})
		m.AddTool(&mcp.Tool{
			Name:        "test_reconnection",
			Description: "For tests only (" + testTriggerEnv + "=1): closes the SSE stream of this call, then answers; the answer is had by resuming the stream with Last-Event-ID.",
			InputSchema: map[string]any{"type": "object"},
		}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if req.Extra != nil && req.Extra.CloseSSEStream != nil {
				req.Extra.CloseSSEStream(mcp.CloseSSEStreamArgs{RetryAfter: 100 * time.Millisecond})
			}
			// Answer once the client has had time to see its stream end,
			// so the answer is kept for the stream it resumes; it is
			// delivered whenever the client comes back.
			select {
			case <-time.After(200 * time.Millisecond):
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "answered after the stream was closed"}}}, nil
		})
	})
}
