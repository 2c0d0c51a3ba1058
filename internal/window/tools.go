package window

import (
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A Role is what a tool is to the window.
type Role int

const (
	// Watching tools only look: always listed and served.
	Watching Role = iota
	// Driving tools change the machine: listed and served only while
	// dev mode is on.
	Driving
	// Absent tools the window does not serve at all.
	Absent
)

func (r Role) String() string {
	return [...]string{"watching", "driving", "absent"}[r]
}

// absent are the tools the window does not serve: it stands its one
// machine up itself, from its command line, and never puts it away.
var absent = []string{"machine_open", "machine_close"}

// RoleOf classifies a tool by a rule, not a list, so that a tool another
// part of the server adds is classified as it is added: a tool whose
// annotations say it only reads (readOnlyHint, which every tool of the
// server states, internal/server's reads and writes) watches; dev_mode,
// which changes only what is listed, watches; machine_open and
// machine_close are absent; every other tool drives.
// TestWatchingAndDrivingAreTheIssuesLists holds the rule to tools/list.
func RoleOf(t *mcp.Tool) Role {
	switch {
	case slices.Contains(absent, t.Name):
		return Absent
	case t.Name == "dev_mode":
		return Watching
	case t.Annotations != nil && t.Annotations.ReadOnlyHint:
		return Watching
	}
	return Driving
}
