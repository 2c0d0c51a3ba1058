package server

import "github.com/modelcontextprotocol/go-sdk/mcp"

// addStateTools adds the tools that keep a machine in the server's memory
// and put it back: state_keep, state_restore and state_drop (spec,
// "Keeping a machine"). None moves a machine forward; state_restore puts
// one back, and so is no read.
func (s *Server) addStateTools() {
	h := s.host
	addTool(s.mcp, &mcp.Tool{Name: "state_keep", Title: "Keep a machine as it stands", Description: stateKeepDescription, Annotations: writes}, h.StateKeep)
	addTool(s.mcp, &mcp.Tool{Name: "state_restore", Title: "Put a machine back as a state kept it", Description: stateRestoreDescription, Annotations: writes}, h.StateRestore)
	addTool(s.mcp, &mcp.Tool{Name: "state_drop", Title: "Let a state go", Description: stateDropDescription, Annotations: writes}, h.StateDrop)
}
