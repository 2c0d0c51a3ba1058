package server

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"colophon/internal/host"
)

// withProgress gives a request's long run a way to tell the client how
// far it has gone, where the client gave the request a progress token: as
// MCP progress notifications, which the host sends about once a second of
// a run that takes longer (host.WithProgress).
func withProgress(ctx context.Context, req *mcp.CallToolRequest) context.Context {
	if req == nil || req.Params == nil || req.Session == nil {
		return ctx
	}
	token := req.Params.GetProgressToken()
	if token == nil {
		return ctx
	}
	session := req.Session
	return host.WithProgress(ctx, func(done, total float64, message string) {
		p := &mcp.ProgressNotificationParams{ProgressToken: token, Progress: done, Total: total, Message: message}
		// A notification that cannot be sent is no reason to stop the run.
		_ = session.NotifyProgress(ctx, p)
	})
}
