package server

import (
	"encoding/json"
	"fmt"
	"strconv"

	"colophon/internal/quote"
	"colophon/internal/transport"
)

// machinesKept is the key under which the sessions file keeps how many
// machines the server has stood up (host.ContinueAfter).
const machinesKept = "colophon-mcp.machines_opened"

// HTTP serves the server over streamable HTTP, to any number of clients at
// once, in every revision it speaks (internal/transport): a client of
// 2026-07-28 sends each request alone, and one of 2025-11-25 or 2025-06-18
// opens a session that outlasts a restart of the process, kept in
// opts.Sessions. Handles are the server's, so two clients may look at one
// machine, and a machine's requests run in the order they reach it.
//
// Machines live in memory and do not outlast the process. The sessions
// file keeps how many were stood up, so that the next process gives no
// handle twice and tells a client naming an old one that it was lost.
func (s *Server) HTTP(opts transport.HTTPOptions) (*transport.HTTP, error) {
	opts.Revisions = revisions
	opts.NamesItself = namesTheBuild
	h, err := transport.NewHTTP(s.mcp, opts)
	if err != nil {
		return nil, err
	}
	var before int
	if raw := h.Extra(machinesKept); raw != nil {
		if err := json.Unmarshal(raw, &before); err != nil || before < 0 {
			h.Close()
			return nil, fmt.Errorf("the sessions file %s keeps %s as %s, not a count of machines (delete the file to start afresh)",
				opts.Sessions, machinesKept, quote.Bytes(raw))
		}
	}
	s.host.ContinueAfter(before, func(opened int) {
		h.SetExtra(machinesKept, json.RawMessage(strconv.Itoa(opened)))
	})
	return h, nil
}
