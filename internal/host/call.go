package host

import (
	"context"
	"encoding/json"
	"fmt"

	"colophon/internal/inspect"
	"colophon/internal/machine"
)

// CallArgs are call's arguments.
type CallArgs struct {
	Handle  string          `json:"handle" jsonschema:"the machine whose routine to call" maxLength:"64"`
	Address Address         `json:"address" jsonschema:"where the routine begins, as the processor reads it"`
	Values  json.RawMessage `json:"values,omitempty" jsonschema:"fields to write before the call, as set writes them: an object of paths and values, such as {\"cpu.a\": 65, \"cpu.h\": \"&C0\"}"`
	Ticks   uint64          `json:"ticks,omitempty" jsonschema:"the most ticks the call may take, 1 to the ticks of 1500 standard frames, which it may take if not given"`
	Conditions
}

type callEntry struct {
	Address string          `json:"address"`
	Values  json.RawMessage `json:"values,omitempty"`
	Ticks   uint64          `json:"ticks,omitempty"`
	conditionsEntry
}

// Call runs a routine the machine holds as its own CALL would (spec, "What
// a machine holds", call; CALL-1 to CALL-10): the values given are written
// first, as set writes them; the program counter is pushed where the stack
// pointer stands; and the call ends when the processor comes back to that
// address with the stack pointer where it was, between instructions. A
// processor halted on HALT is halted there again. The call is held to the
// ticks of 1500 standard frames, as a run is, and stops sooner at a
// HALT that leaves interrupts disabled, as a run does.
//
// It is refused, with the machine as it was, inside a chain of prefixes,
// which is no place between instructions, and where the return address
// would be pushed under a ROM, where it would not read back (CALL-6,
// CALL-7).
func (h *Host) Call(ctx context.Context, a CallArgs) (Moved, error) {
	return with(h, ctx, a.Handle, func(m *Machine) (Moved, error) {
		cpu, err := m.processor()
		if err != nil {
			return Moved{}, err
		}
		mem, err := m.memory()
		if err != nil {
			return Moved{}, err
		}
		addr, err := parseAddress("address", string(a.Address), 0xFFFF)
		if err != nil {
			return Moved{}, err
		}
		if cpu.Prefix != 0 {
			return Moved{}, fmt.Errorf("the processor stands inside a chain of prefixes (&%02X), which is no place between instructions: step 1 to finish the instruction, then call", cpu.Prefix)
		}
		if err := m.room("this call", callSpan(m.m)); err != nil {
			return Moved{}, err
		}
		limit := machine.MaxFrames * m.m.StandardFrame()
		if a.Ticks > limit {
			return Moved{}, fmt.Errorf("argument \"ticks\" is %d; a call runs at most %d, the ticks of %d standard frames", a.Ticks, limit, machine.MaxFrames)
		}
		if a.Ticks > 0 {
			limit = a.Ticks
		}
		if err := notCancelled(ctx); err != nil {
			return Moved{}, err
		}

		// The values are written first, as set writes them (CALL-4);
		// what they replace is kept, so that a call refused after them
		// leaves the machine as it was.
		var fs []inspect.Field
		var given json.RawMessage
		var undo []inspect.Field
		pc := cpu.PC
		if len(a.Values) > 0 {
			if fs, given, err = decodeValues("values", a.Values); err != nil {
				return Moved{}, err
			}
			if undo, err = m.leaves(fs); err != nil {
				return Moved{}, err
			}
			if err := m.set(fs); err != nil {
				return Moved{}, err
			}
		}
		var w *watching
		refuse := func(err error) (Moved, error) {
			if w != nil {
				w.abandon()
			}
			if undo != nil {
				if uerr := m.set(undo); uerr != nil {
					panic(fmt.Sprintf("host: taking back a refused call's values: %v", uerr))
				}
				cpu.PC = pc // which a value that ended HALT moved on
			}
			return Moved{}, err
		}
		if cpu.Prefix != 0 {
			return refuse(fmt.Errorf("argument \"values\" leaves the processor inside a chain of prefixes (&%02X), which is no place to call from", cpu.Prefix))
		}
		sp, ret := cpu.SP, cpu.PC
		hi, lo := sp-1, sp-2
		for _, at := range []uint16{hi, lo} {
			if s := mem.Source(at); s.ROM {
				return refuse(fmt.Errorf("the stack pointer is &%04X, so the return address would be pushed at &%04X, where %s answers reads: it would not read back. Point cpu.sp at RAM (with values) to call from here",
					sp, at, romName(m, s)))
			}
		}

		// The conditions are the last thing checked, since a file they
		// write is made as they are read (PATH-6).
		if w, err = m.watching(a.Conditions); err != nil {
			return refuse(err)
		}

		tick := m.m.Tick()
		t0, f0 := m.m.Tick(), m.m.Frames()
		halted := cpu.Halted
		// As CALL nn does it: the return address pushed high byte first,
		// PC and WZ set to the routine (UM0080, CALL nn; MEMPTR).
		cpu.Halted = false
		mem.Poke(hi, uint8(ret>>8))
		mem.Poke(lo, uint8(ret))
		cpu.SP = lo
		cpu.PC = uint16(addr)
		cpu.WZ = uint16(addr)
		cpu.Q, cpu.P, cpu.EI = 0, false, false

		if err := w.start(m); err != nil {
			return refuse(err)
		}
		var n uint64
		stop := stopLimit
		// The address pushed is the routine's to return to while it stands
		// where it was pushed; once anything else is written there, no
		// later return to it is the routine's (returned).
		intact := true
		m.follow(ctx, limit, func(ctl *machine.Control) {
			for m.m.Tick()-t0 < limit {
				r := m.m.Step(1)
				n += r.Instructions
				if r.Stop != machine.Done {
					stop = w.stopped(r.Stop)
					break
				}
				slot := uint16(mem.Peek(lo)) | uint16(mem.Peek(hi))<<8
				if returned(&intact, cpu.PC, cpu.SP, slot, ret, sp) {
					stop = stopDone
					// A processor halted on HALT is halted there again
					// (CALL-3): PC stands on the HALT opcode, as it was.
					cpu.Halted = halted
					break
				}
				if ctl != nil && n%machine.ControlInstructions == 0 {
					ctl.Tick.Store(m.m.Tick())
					if ctl.Stop.Load() {
						stop = stopCancelled
						break
					}
				}
			}
		})
		w.stop(m)
		mv := Moved{
			Handle: m.handle, Ticks: m.m.Tick() - t0, Frames: m.m.Frames() - f0, Tick: m.m.Tick(),
			Instructions: n, Stop: stop,
		}
		entry := callEntry{Address: formatAddress(addr), Values: given, Ticks: a.Ticks}
		ferr := w.answer(m, &mv)
		entry.conditionsEntry = w.entry
		if stop == stopCancelled || ferr != nil {
			// Entered as the call it was, for the ticks it took (PATH-8).
			entry.Ticks = mv.Ticks
		}
		if ferr != nil {
			entry.conditionsEntry = conditionsEntry{Until: w.entry.Until}
		}
		m.enter("call", tick, entry)
		if ferr != nil {
			return Moved{}, fmt.Errorf("the call went %d ticks to tick %d, where the machine stands at PC &%04X, but %w", mv.Ticks, m.m.Tick(), cpu.PC, ferr)
		}
		return mv, nil
	})
}

// returned reports whether the routine a call pushed ret for, at sp-2,
// has come back, between instructions: the processor stands at ret with
// the stack pointer at sp again, and the address pushed stood there,
// unchanged, at every instruction's end until then (intact, which it
// keeps; slot is what the two bytes there read now).
//
// That is the routine's own return popping the address pushed (CALL-2): a
// RET, taken or conditional, RETI or RETN, or an interrupt's response
// taken just after one, whose handler's RET comes back to the same place.
// It is a test of the stack rather than of the instruction, a heuristic,
// and what it shuts out is a return that only looks like one: a routine
// that resets the machine, as a CPC's or a Spectrum's routine at &0000
// does, clears or reuses the stack where the address was pushed as the
// firmware starts again, and when the rebooted firmware's first interrupt,
// or its own CALL from the same place as before, later pushes the same
// address at the same place and returns there, that return is not the
// routine's (issue 19, item 6). A routine that overwrites its own return
// address, even to put the same one back, is taken for one that has left
// it: the call runs to its limit.
func returned(intact *bool, pc, spNow, slot, ret, sp uint16) bool {
	if !*intact {
		return false
	}
	if pc == ret && spNow == sp {
		return true
	}
	if slot != ret {
		*intact = false
	}
	return false
}

// leaves reads the values the given paths hold now, leaf by leaf, so that
// writing them back takes a set back whole.
func (m *Machine) leaves(fs []inspect.Field) ([]inspect.Field, error) {
	root, err := m.inspectRoot()
	if err != nil {
		return nil, err
	}
	var out []inspect.Field
	for _, f := range fs {
		v, err := inspect.Get(root, f.Path)
		if err != nil {
			return nil, fmt.Errorf("argument \"values\": %w", err)
		}
		out = append(out, flatten(f.Path, v)...)
	}
	return out, nil
}

// flatten turns a value as inspect.Get gives it into its leaves.
func flatten(path string, v any) []inspect.Field {
	switch x := v.(type) {
	case inspect.Object:
		var out []inspect.Field
		for _, mem := range x {
			out = append(out, flatten(path+"."+mem.Name, mem.Value)...)
		}
		return out
	case []any:
		var out []inspect.Field
		for i, e := range x {
			out = append(out, flatten(fmt.Sprintf("%s[%d]", path, i), e)...)
		}
		return out
	}
	return []inspect.Field{{Path: path, Value: v}}
}

// romName names a ROM for a person.
func romName(m *Machine, s machine.Source) string {
	switch {
	case !m.kind.cpc:
		return "the ROM"
	case s.Upper:
		return fmt.Sprintf("upper ROM %d", s.Number)
	}
	return "the lower ROM"
}
