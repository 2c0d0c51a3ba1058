package server

import (
	"context"
	"encoding/json"
	"reflect"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"colophon/internal/host"
)

// The longest an address or a key's name may be as a string: more than
// any address's digits with their prefix and spaces, and any key's name.
const (
	maxAddressLength = 32
	maxROMLength     = 8 // "lower", or a number's digits with room for spaces
	maxKeyLength     = 32
)

// The schemas of the host's own argument types, whose JSON is not what
// their Go kinds would say.
func init() {
	names := make([]any, 0, 4)
	for _, n := range host.MachineNames() {
		names = append(names, n)
	}
	typeSchemas[reflect.TypeFor[host.MachineName]()] = &jsonschema.Schema{
		Type: "string", Enum: names,
		Description: "the machine, by the emulator's command line's name for it",
	}
	typeSchemas[reflect.TypeFor[host.CRTCType]()] = &jsonschema.Schema{
		Type: "integer", Minimum: jsonschema.Ptr(0.0), Maximum: jsonschema.Ptr(4.0),
		Description: "a 6845 type, 0 to 4, as the CRTC Compendium numbers them",
	}
	typeSchemas[reflect.TypeFor[host.Address]()] = &jsonschema.Schema{
		AnyOf: []*jsonschema.Schema{
			{Type: "string", MinLength: jsonschema.Ptr(1), MaxLength: jsonschema.Ptr(maxAddressLength), Description: "hexadecimal after &, $, # or 0x (&BB06, $BB06, #BB06, 0xBB06), or decimal digits (47878)"},
			{Type: "integer", Minimum: jsonschema.Ptr(0.0), Description: "the address in decimal"},
		},
	}
	typeSchemas[reflect.TypeFor[host.ReadAddress]()] = &jsonschema.Schema{
		AnyOf: []*jsonschema.Schema{
			{Type: "string", MinLength: jsonschema.Ptr(1), MaxLength: jsonschema.Ptr(maxAddressLength), Description: "hexadecimal after &, $, # or 0x (&BB06, $BB06, #BB06, 0xBB06), decimal digits (47878), or cpu.sp or cpu.pc for the address that register holds"},
			{Type: "integer", Minimum: jsonschema.Ptr(0.0), Description: "the address in decimal"},
		},
	}
	typeSchemas[reflect.TypeFor[host.ROMSelect]()] = &jsonschema.Schema{
		AnyOf: []*jsonschema.Schema{
			{Type: "string", MinLength: jsonschema.Ptr(1), MaxLength: jsonschema.Ptr(maxROMLength), Description: "lower, for the lower ROM; or an upper ROM's number in decimal digits, 0 to 255"},
			{Type: "integer", Minimum: jsonschema.Ptr(0.0), Maximum: jsonschema.Ptr(255.0), Description: "an upper ROM's number"},
		},
	}
	typeSchemas[reflect.TypeFor[host.Key]()] = &jsonschema.Schema{
		AnyOf: []*jsonschema.Schema{
			{Type: "string", MinLength: jsonschema.Ptr(1), MaxLength: jsonschema.Ptr(maxKeyLength), Description: "the key's name as its keyboard prints it: SPACE, A, 1, f5, COPY, (FIRE 2) on a CPC; CAPS, SYM, ENTER, A, 1 on a Spectrum"},
			{Type: "integer", Description: "a CPC's key by its firmware number, 0 to 79: its matrix line times 8 plus its bit"},
		},
	}
	typeSchemas[reflect.TypeFor[host.ByteValue]()] = &jsonschema.Schema{
		AnyOf: []*jsonschema.Schema{
			{Type: "string", MinLength: jsonschema.Ptr(1), MaxLength: jsonschema.Ptr(maxAddressLength), Description: "hexadecimal after &, $, # or 0x (&80, $80, #80, 0x80), or decimal digits (128)"},
			{Type: "integer", Minimum: jsonschema.Ptr(0.0), Description: "the byte in decimal, 0 to 255"},
		},
	}
	typeSchemas[reflect.TypeFor[host.Register]()] = &jsonschema.Schema{
		Type: "integer", Description: "a register's number: a PSG's 0 to 15, a 6845's 0 to 31",
	}
	// A value of any kind, such as inspect answers, is one of JSON's kinds,
	// each a branch of its own; null is what a pointer that points nowhere
	// reads as.
	typeSchemas[reflect.TypeFor[any]()] = &jsonschema.Schema{
		AnyOf: []*jsonschema.Schema{
			{Type: "integer"}, {Type: "boolean"}, {Type: "string"},
			{Type: "object"}, {Type: "array"}, {Type: "null"},
		},
	}
	// A journal entry's arguments, and the values set and call write, are
	// objects of the request's own making.
	typeSchemas[reflect.TypeFor[json.RawMessage]()] = &jsonschema.Schema{Type: "object"}
}

// Every tool's annotations say what it touches: a read moves and writes
// nothing, and no tool reaches beyond the server and its files.
var (
	reads  = &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: new(bool)}
	writes = &mcp.ToolAnnotations{DestructiveHint: new(bool), OpenWorldHint: new(bool)}
)

// addTools adds every tool the server has, each a thin adapter onto the
// host.
func (s *Server) addTools() {
	h := s.host
	addTool(s.mcp, &mcp.Tool{Name: "machine_open", Title: "Stand a machine up", Description: machineOpenDescription, Annotations: writes}, h.Open)
	addTool(s.mcp, &mcp.Tool{Name: "machine_list", Title: "List the machines standing", Description: machineListDescription, Annotations: reads}, s.machineList)
	addTool(s.mcp, &mcp.Tool{Name: "machine_close", Title: "Put a machine away", Description: machineCloseDescription, Annotations: writes}, h.Close)
	addTool(s.mcp, &mcp.Tool{Name: "run", Title: "Run a machine by frames or ticks", Description: runDescription, Annotations: writes}, h.Run)
	addTool(s.mcp, &mcp.Tool{Name: "step", Title: "Run a machine by instructions", Description: stepDescription, Annotations: writes}, h.Step)
	addTool(s.mcp, &mcp.Tool{Name: "call", Title: "Call a routine in a machine", Description: callDescription, Annotations: writes}, h.Call)
	addTool(s.mcp, &mcp.Tool{Name: "inspect", Title: "Read a machine's fields", Description: inspectDescription, Annotations: reads}, h.Inspect)
	addTool(s.mcp, &mcp.Tool{Name: "set", Title: "Write a machine's fields", Description: setDescription, Annotations: writes}, h.Set)
	addTool(s.mcp, &mcp.Tool{Name: "peek", Title: "Read a machine's memory", Description: peekDescription, Annotations: reads}, h.Peek)
	addTool(s.mcp, &mcp.Tool{Name: "poke", Title: "Write a machine's memory", Description: pokeDescription, Annotations: writes}, h.Poke)
	addTool(s.mcp, &mcp.Tool{Name: "type", Title: "Type text at a machine", Description: typeDescription, Annotations: writes}, h.Type)
	addContentTool(s.mcp, &mcp.Tool{Name: "monitor", Title: "Show a machine's monitor", Description: monitorDescription, Annotations: reads}, s.monitor)
	addTool(s.mcp, &mcp.Tool{Name: "journal", Title: "Read what was done to a machine", Description: journalDescription, Annotations: reads}, h.Journal)
	s.addReadingTools()
	s.addStateTools()
	s.addTapeTools()
	s.addMediaTools()
	s.addSaveTools()
}

// machineListArgs is machine_list's arguments: none.
type machineListArgs struct{}

// MachineList is machine_list's answer.
type MachineList struct {
	Machines []host.Summary `json:"machines" jsonschema:"the machines standing, in the order they were stood up"`
}

func (s *Server) machineList(ctx context.Context, _ machineListArgs) (MachineList, error) {
	list, err := s.host.List(ctx)
	return MachineList{Machines: list}, err
}

// monitor answers the picture as PNG image content beside the JSON.
func (s *Server) monitor(ctx context.Context, a host.MonitorArgs) (host.Monitor, []mcp.Content, error) {
	m, png, err := s.host.Monitor(ctx, a)
	if err != nil {
		return host.Monitor{}, nil, err
	}
	return m, []mcp.Content{&mcp.ImageContent{Data: png, MIMEType: "image/png"}}, nil
}
