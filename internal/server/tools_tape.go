package server

import "github.com/modelcontextprotocol/go-sdk/mcp"

// addTapeTools adds tape_insert, which puts a tape in a machine's deck
// (spec, "Discs and tapes").
func (s *Server) addTapeTools() {
	addTool(s.mcp, &mcp.Tool{Name: "tape_insert", Title: "Put a tape in a machine's deck", Description: tapeInsertDescription, Annotations: writes}, s.host.TapeInsert)
}
