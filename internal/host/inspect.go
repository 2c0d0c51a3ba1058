package host

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"colophon/internal/inspect"
	"colophon/internal/machine"
)

// InspectArgs are inspect's arguments.
type InspectArgs struct {
	Handle string `json:"handle" jsonschema:"the machine to read" maxLength:"64"`
	Path   string `json:"path,omitempty" jsonschema:"the field to read, as a C expression names it: cpu.pc, crtc.registers[12], gate_array.inks; a struct or an array reads whole; the whole machine if not given or empty" minLength:"0" maxLength:"128"`
}

// Inspected is inspect's answer.
type Inspected struct {
	Handle string `json:"handle" jsonschema:"the machine"`
	Path   string `json:"path" jsonschema:"the field read"`
	Value  any    `json:"value" jsonschema:"its value: a number, a bool, an enumerator's name, or an object or a list of those, fields in the struct's order"`
}

// Inspect reads the machine's own struct by a path (IS-1 to IS-4). It is a
// read: it moves nothing and is not entered in the journal.
func (h *Host) Inspect(ctx context.Context, a InspectArgs) (Inspected, error) {
	return with(h, ctx, a.Handle, func(m *Machine) (Inspected, error) {
		root, err := m.inspectRoot()
		if err != nil {
			return Inspected{}, err
		}
		v, err := inspect.Get(root, a.Path)
		if err != nil {
			return Inspected{}, fmt.Errorf("argument \"path\": %w", err)
		}
		return Inspected{Handle: m.handle, Path: a.Path, Value: v}, nil
	})
}

// SetArgs are set's arguments.
type SetArgs struct {
	Handle string          `json:"handle" jsonschema:"the machine to write" maxLength:"64"`
	Values json.RawMessage `json:"values" jsonschema:"the fields to write, as an object of paths and values"`
}

// Set is set's answer: each field written, as it reads now.
type SetAnswer struct {
	Handle string          `json:"handle" jsonschema:"the machine"`
	Values json.RawMessage `json:"values" jsonschema:"each path given, in the order given, with the value it now reads"`
}

type setEntry struct {
	Values json.RawMessage `json:"values"`
}

// Set writes fields of the machine's struct by their paths, every value
// given or none (IS-5 to IS-10). The journal keeps the values as they were
// given (W-23).
func (h *Host) Set(ctx context.Context, a SetArgs) (SetAnswer, error) {
	return with(h, ctx, a.Handle, func(m *Machine) (SetAnswer, error) {
		fs, given, err := decodeValues("values", a.Values)
		if err != nil {
			return SetAnswer{}, err
		}
		if len(fs) == 0 {
			return SetAnswer{}, errors.New(`argument "values" is empty; give the fields to write, as {"cpu.pc": "&4000"}`)
		}
		tick := m.m.Tick()
		if err := m.set(fs); err != nil {
			return SetAnswer{}, err
		}
		m.enter("set", tick, setEntry{Values: given})
		now, err := m.readBack(fs)
		if err != nil {
			return SetAnswer{}, err
		}
		return SetAnswer{Handle: m.handle, Values: now}, nil
	})
}

// set writes fields, all or none.
func (m *Machine) set(fs []inspect.Field) error {
	root, err := m.inspectRoot()
	if err != nil {
		return err
	}
	cpu, _ := m.processor()
	var halted bool
	var pc uint16
	if cpu != nil {
		halted, pc = cpu.Halted, cpu.PC
	}
	// The machine's AfterSet works out again what it derives from its
	// fields: a CPC its memory map, a Spectrum its ULA's place in the
	// frame (IS-10).
	if err := inspect.SetMany(root, fs); err != nil {
		return fmt.Errorf("argument \"values\": %w; nothing was written", err)
	}
	// A processor written as no longer halted is carried past its HALT
	// (spec, "Time"; T-15), as an interrupt's response carries it: while
	// halted, PC stands on the HALT opcode (package z80), so it moves on by
	// one, unless the set wrote PC itself.
	if cpu != nil && halted && !cpu.Halted && cpu.PC == pc {
		cpu.PC++
	}
	return nil
}

// readBack reads each path given, as it now stands, into one object in the
// order given.
func (m *Machine) readBack(fs []inspect.Field) (json.RawMessage, error) {
	root, err := m.inspectRoot()
	if err != nil {
		return nil, err
	}
	now := make([]inspect.Field, len(fs))
	for i, f := range fs {
		v, err := inspect.Get(root, f.Path)
		if err != nil {
			return nil, err
		}
		now[i] = inspect.Field{Path: f.Path, Value: v}
	}
	b, err := inspect.MarshalFields(now)
	return json.RawMessage(b), err
}

// decodeValues reads an object of paths and values as given, in its order,
// numbers kept whole, and returns it for the journal, which keeps the
// values as they were given (W-23).
func decodeValues(arg string, raw json.RawMessage) ([]inspect.Field, json.RawMessage, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, nil, fmt.Errorf("argument %q is missing", arg)
	}
	fs, err := inspect.UnmarshalFields(raw)
	if err != nil {
		return nil, nil, fmt.Errorf("argument %q must be an object of paths and values, such as {\"cpu.pc\": \"&4000\"}: %w", arg, err)
	}
	// Written again as read, each value in the form it came in, a number's
	// digits and a string's text alike; only the JSON around them is made
	// plain (& as &, not \u0026).
	b, err := inspect.MarshalFields(fs)
	if err != nil {
		return nil, nil, fmt.Errorf("argument %q: %w", arg, err)
	}
	return fs, json.RawMessage(b), nil
}

func (m *Machine) inspectRoot() (any, error) {
	if r, ok := m.m.(machine.Inspectable); ok {
		return r.InspectRoot(), nil
	}
	return nil, fmt.Errorf("%s offers no view of its fields in this build", m.kind.name)
}
