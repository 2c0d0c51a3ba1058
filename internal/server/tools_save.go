package server

import "github.com/modelcontextprotocol/go-sdk/mcp"

// addSaveTools adds the tools that write a machine to a file: snapshot_save,
// in the format the command line's --save writes, and state_save, which
// keeps all of it for machine_open in another server (spec, "Saving a
// machine" and "Keeping a machine").
func (s *Server) addSaveTools() {
	h := s.host
	addTool(s.mcp, &mcp.Tool{Name: "snapshot_save", Title: "Write a machine to a snapshot file", Description: snapshotSaveDescription, Annotations: writesFile}, h.SnapshotSave)
	addTool(s.mcp, &mcp.Tool{Name: "state_save", Title: "Write a state to a file", Description: stateSaveDescription, Annotations: writesFile}, h.StateSave)
}
