package server

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// addTools adds every tool the server has. The others join machine_list as
// the host that stands machines up comes to be.
func (s *Server) addTools() {
	addTool(s.mcp, &mcp.Tool{
		Name:        "machine_list",
		Title:       "List the machines standing",
		Description: machineListDescription,
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: new(bool)},
	}, s.machineList)
}

const machineListDescription = `Names every machine standing in this server, in the order machine_open stood them up, with the states kept of each.

Takes no arguments. Reads only: it moves no machine and is not entered in any journal.

Answers {"machines": [...]}, empty when no machine stands. Each machine has:
- handle: the name machine_open gave it, which every other tool takes to name it.
- machine: what it was built as: cpc464, cpc664, cpc6128 or spectrum48.
- tick: its tick since it was stood up, counted from power-on, or from the snapshot or state file it was opened from. A tick is one cycle of the processor's clock: 79872 to a CPC's standard frame, 69888 to a Spectrum's.
- states: the states kept of it with state_keep and not yet let go with state_drop, oldest first, each by the name state_restore takes.`

// machineListArgs is machine_list's arguments: none.
type machineListArgs struct{}

// MachineList is machine_list's answer.
type MachineList struct {
	Machines []MachineSummary `json:"machines" jsonschema:"the machines standing, in the order they were stood up"`
}

// A MachineSummary is one machine as machine_list names it.
type MachineSummary struct {
	Handle  string   `json:"handle" jsonschema:"the name machine_open gave the machine, which every other tool takes"`
	Machine string   `json:"machine" jsonschema:"what it was built as: cpc464, cpc664, cpc6128 or spectrum48"`
	Tick    uint64   `json:"tick" jsonschema:"its tick since it was stood up: from power-on, or from its snapshot or state file"`
	States  []string `json:"states" jsonschema:"the states kept of it and not yet dropped, oldest first, by the names state_restore takes"`
}

func (s *Server) machineList(ctx context.Context, _ machineListArgs) (MachineList, error) {
	list := MachineList{Machines: []MachineSummary{}}
	if s.opts.Machines == nil {
		return list, nil
	}
	machines, err := s.opts.Machines(ctx)
	if err != nil {
		return MachineList{}, fmt.Errorf("listing the machines: %w", err)
	}
	for _, m := range machines {
		if m.States == nil {
			m.States = []string{} // an empty list, not null
		}
		list.Machines = append(list.Machines, m)
	}
	return list, nil
}
