package main

import (
	"context"
	"os"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"colophon/internal/server"
)

// testTriggerEnv, set to 1, gives the server a tool that changes its tool
// list, for the tests that hold a client to being told of a change across
// a restart (test/clients/http.test.mjs). It is for tests only: the tool
// list changes for real in the window's dev mode (issue 16), through the
// same server.ChangeTools. The tool is named as the MCP conformance suite
// names its own such hook.
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
	})
}
