// Package transport carries MCP's JSON-RPC messages for both of this
// repository's servers, colophon-mcp and pidp10-mcp, so that each way in is
// written once:
//
//   - stdio (stdio.go): one message to a line, as MCP's stdio transport
//     delimits them. A line that is no message is answered, -32700 or
//     -32600 with id null as JSON-RPC 2.0 asks, and reading goes on; so is a
//     line longer than the limit, naming it. DecodeLine is that judgement
//     for one line, for the fuzz targets.
//   - streamable HTTP (http.go): one endpoint, /mcp, that serves both eras
//     of the protocol at once. A request in the 2026-07-28 revision is served
//     statelessly, as that revision has every request stand alone; a client
//     of 2025-11-25 or 2025-06-18 opens a session with initialize and names
//     it in Mcp-Session-Id. Sessions are kept in a file (sessions.go), so a
//     client keeps its session across a restart of the server; idle ones
//     expire and their number is capped; a file that holds none is moved
//     aside and the server starts without them. A legacy client whose SSE
//     stream broke resumes it with Last-Event-ID and is sent what it
//     missed, from events kept in a store bounded in bytes and in streams
//     (events.go). A request whose Origin or Host is not this machine's is
//     refused (origin.go).
//
// Both stand on the official go-sdk: the SDK's streamable handler, in its
// stateful and stateless modes, does the protocol's work on HTTP; this
// package routes requests between them, holds the revisions to what the
// server speaks, and carries sessions over restarts.
package transport
