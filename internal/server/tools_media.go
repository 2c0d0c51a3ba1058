package server

import "github.com/modelcontextprotocol/go-sdk/mcp"

// addMediaTools adds the tools that give a machine its media and write
// them out: disc_insert and disc_save (spec, "Discs and tapes").
func (s *Server) addMediaTools() {
	h := s.host
	addTool(s.mcp, &mcp.Tool{Name: "disc_insert", Title: "Put a disc in a CPC's drive", Description: discInsertDescription, Annotations: writes}, h.DiscInsert)
	addTool(s.mcp, &mcp.Tool{Name: "disc_save", Title: "Write a CPC's disc to a file", Description: discSaveDescription, Annotations: writesFile}, h.DiscSave)
}

// writesFile is a tool that writes a new file and changes no machine.
var writesFile = &mcp.ToolAnnotations{DestructiveHint: new(bool), OpenWorldHint: new(bool)}
