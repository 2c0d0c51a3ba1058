package host

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"colophon/internal/cpckeys"
	"colophon/internal/machine"

	"colophon/internal/quote"
	"colophon/internal/watch"
)

// Moved is what run, step, call and type answer: the ticks the request
// took, the frames the monitor retraced in them, and the machine's tick
// since it was stood up (spec, "Time"; T-2).
type Moved struct {
	Handle       string `json:"handle" jsonschema:"the machine"`
	Ticks        uint64 `json:"ticks" jsonschema:"the ticks the request took: processor T-states, 79872 to a CPC's standard frame and 69888 to a Spectrum's"`
	Frames       uint64 `json:"frames" jsonschema:"the frames the monitor retraced in those ticks"`
	Tick         uint64 `json:"tick" jsonschema:"the machine's tick since it was stood up, from power-on or from its snapshot"`
	Instructions uint64 `json:"instructions" jsonschema:"the instructions the processor ran to their end"`
	Stop         string `json:"stop" jsonschema:"why the request ended: done, halted, unsettled, until (at a match of until), full (a gathering or a count filled), cancelled; for a call, limit; for a clean run, handler"`

	// What conditions found (spec, "Stopping and watching").
	Until    watch.Match   `json:"until,omitzero" jsonschema:"the match until stopped at"`
	Gathered []watch.Match `json:"gathered,omitzero" jsonschema:"the matches gather listed, or gather_last kept, oldest first"`
	Count    watch.Counted `json:"count,omitzero" jsonschema:"what count counted, by address or by pc"`
	Ranges   watch.Ranged  `json:"ranges,omitzero" jsonschema:"what count counted, by range"`
	File     Written       `json:"file,omitzero" jsonschema:"the file gather and count were written to, with path"`
}

// The stops: machine.Stop's names, and call's and run's own.
const (
	stopDone    = "done"
	stopLimit   = "limit"   // a call whose routine had not come back within its ticks
	stopHandler = "handler" // a clean run still inside a handler a standard frame later
)

func moved(m *Machine, r machine.Result) Moved {
	return Moved{
		Handle: m.handle, Ticks: r.Ticks, Frames: r.Frames, Tick: m.m.Tick(),
		Instructions: r.Instructions, Stop: r.Stop.String(),
	}
}

// RunArgs are run's arguments. Exactly one of Frames and Ticks is given.
type RunArgs struct {
	Handle string  `json:"handle" jsonschema:"the machine to run" maxLength:"64"`
	Frames *uint64 `json:"frames,omitempty" jsonschema:"run until the monitor has retraced this many frames, 1 to 1500; a CPC's run stops after twice a standard frame's ticks for each frame asked if its frames do not come" minimum:"1" maximum:"1500"`
	Ticks  *uint64 `json:"ticks,omitempty" jsonschema:"run this many ticks, 1 to the ticks of 1500 standard frames: 119808000 on a CPC, 104832000 on a Spectrum" minimum:"1"`
	Keys   []Key   `json:"keys,omitempty" jsonschema:"keys to hold down from the run's start to its end, on top of those held already: by the names on the machine's keyboard, or on a CPC by the firmware's key number; 80 at most, as many as a CPC has" maxItems:"80"`
	Clean  bool    `json:"clean,omitempty" jsonschema:"once the run is over, run on an instruction at a time to the first instruction boundary outside every interrupt's response and handler, so that a call made next finds the machine as its main program leaves it; at most a standard frame's ticks more"`
	Conditions
}

// runEntry is run as the journal enters it.
type runEntry struct {
	Frames *uint64 `json:"frames,omitempty"`
	Ticks  *uint64 `json:"ticks,omitempty"`
	Keys   []Key   `json:"keys,omitempty"`
	Clean  bool    `json:"clean,omitempty"`
	conditionsEntry
}

// Key is a key as a request names it: by the name printed on it, a JSON
// string, or on a CPC by the number its firmware gives it, its line of the
// matrix times eight and its bit, a JSON number (spec, "Keys and typing";
// KEY-2, KEY-3). It is kept as given, for the journal.
type Key struct{ raw json.RawMessage }

// UnmarshalJSON keeps the key as given.
func (k *Key) UnmarshalJSON(b []byte) error {
	k.raw = append(json.RawMessage(nil), bytes.TrimSpace(b)...)
	return nil
}

// MarshalJSON writes the key as it was given.
func (k Key) MarshalJSON() ([]byte, error) { return k.raw, nil }

// KeyNamed is a key given by its name.
func KeyNamed(name string) Key {
	b, _ := json.Marshal(name)
	return Key{raw: b}
}

// KeyNumbered is a CPC's key given by its firmware number.
func KeyNumbered(n int) Key { return Key{raw: json.RawMessage(strconv.Itoa(n))} }

// keyNames turns keys as given into the names a machine holds them by.
func keyNames(k *kind, keys []Key) ([]string, error) {
	names := make([]string, len(keys))
	for i, key := range keys {
		arg := fmt.Sprintf("keys[%d]", i)
		var name string
		if err := json.Unmarshal(key.raw, &name); err == nil {
			names[i] = name
			continue
		}
		var n int
		if err := json.Unmarshal(key.raw, &n); err != nil {
			return nil, fmt.Errorf("argument %q is %s; a key is its name, a string, or on a CPC its number, 0 to 79", arg, quote.Bytes(key.raw))
		}
		if !k.cpc {
			return nil, fmt.Errorf("argument %q is %d; a Spectrum's keys go by the names on them, such as \"SPACE\" or \"CAPS\"", arg, n)
		}
		c, err := cpckeys.Numbered(n)
		if err != nil {
			return nil, fmt.Errorf("argument %q: %w", arg, err)
		}
		names[i] = c.Name()
	}
	return names, nil
}

// Run runs a machine by frames or by ticks, holding keys from its start to
// its end (T-6 to T-17, KEY-1). A run past the limits is refused, naming
// the limit, and nothing runs.
func (h *Host) Run(ctx context.Context, a RunArgs) (Moved, error) {
	return with(h, ctx, a.Handle, func(m *Machine) (Moved, error) {
		mm := m.m
		switch {
		case a.Frames == nil && a.Ticks == nil:
			return Moved{}, errors.New(`run needs "frames" or "ticks": how far to run`)
		case a.Frames != nil && a.Ticks != nil:
			return Moved{}, errors.New(`run takes "frames" or "ticks", not both`)
		case a.Frames != nil:
			if *a.Frames == 0 {
				return Moved{}, errors.New(`argument "frames" is 0; a run is of 1 frame at least`)
			}
			if err := machine.CheckFrames(*a.Frames); err != nil {
				return Moved{}, fmt.Errorf("argument \"frames\": %w", err)
			}
		default:
			if *a.Ticks == 0 {
				return Moved{}, errors.New(`argument "ticks" is 0; a run is of 1 tick at least`)
			}
			if err := machine.CheckTicks(mm, *a.Ticks); err != nil {
				return Moved{}, fmt.Errorf("argument \"ticks\": %w", err)
			}
		}
		if err := m.room("this run", runSpan(mm, a)); err != nil {
			return Moved{}, err
		}
		keys, err := keyNames(m.kind, a.Keys)
		if err != nil {
			return Moved{}, err
		}
		in, ok := mm.(machine.Interrupts)
		if a.Clean && !ok {
			return Moved{}, fmt.Errorf("argument \"clean\": %s keeps no account of its interrupt handlers in this build", m.kind.name)
		}
		if err := notCancelled(ctx); err != nil {
			return Moved{}, err
		}
		w, err := m.watching(a.Conditions)
		if err != nil {
			return Moved{}, err
		}
		before := mm.Held()
		if len(keys) > 0 {
			if err := mm.Hold(append(append([]string(nil), before...), keys...)); err != nil {
				w.abandon()
				return Moved{}, fmt.Errorf("argument \"keys\": %w", err)
			}
		}
		if err := w.start(m); err != nil {
			w.abandon()
			return Moved{}, err
		}
		tick := mm.Tick()
		var r machine.Result
		var stop string
		// The most ticks the run may take: a CPC's frames may take twice
		// a standard frame's.
		total := given64(a.Ticks, 0)
		if a.Frames != nil {
			total = *a.Frames * mm.StandardFrame()
			if m.kind.cpc {
				total *= 2
			}
		}
		m.follow(ctx, total, func(*machine.Control) {
			if a.Frames != nil {
				r = mm.RunFrames(*a.Frames)
			} else {
				r = mm.RunTicks(*a.Ticks)
			}
			stop = r.Stop.String()
			if a.Clean {
				// Watched and cancellable as the run is, so that nothing
				// of it is lost.
				r, stop = cleanStop(in, r)
			}
		})
		w.stop(m)
		if len(a.Keys) > 0 {
			if err := mm.Hold(before); err != nil {
				// The keys were held a moment ago by these very names.
				panic(fmt.Sprintf("host: letting the keys of a run go: %v", err))
			}
		}
		mv := moved(m, r)
		mv.Stop = stop
		if r.Stop == machine.Stopped || r.Stop == machine.Cancelled {
			mv.Stop = w.stopped(r.Stop)
		}
		entry := runEntry{Frames: a.Frames, Ticks: a.Ticks, Keys: a.Keys, Clean: a.Clean}
		ferr := w.answer(m, &mv)
		entry.conditionsEntry = w.entry
		if r.Stop == machine.Cancelled || ferr != nil {
			// The run is entered as the run it was, so that the journal
			// leads to where the machine stands: its ticks, clean steps
			// and all, and without a file that was not written (PATH-8).
			ran := r.Ticks
			entry.Frames, entry.Ticks, entry.Clean = nil, &ran, false
		}
		if ferr != nil {
			entry.conditionsEntry = conditionsEntry{Until: w.entry.Until}
		}
		m.enter("run", tick, entry)
		if ferr != nil {
			return Moved{}, fmt.Errorf("the run went %d ticks to tick %d, where the machine stands at PC &%04X, but %w", r.Ticks, mm.Tick(), pcOf(m), ferr)
		}
		return mv, nil
	})
}

// given64 is what an optional number argument holds, or def where it is
// left out.
func given64(n *uint64, def uint64) uint64 {
	if n == nil {
		return def
	}
	return *n
}

// pcOf is where the machine's processor stands, or 0 where it offers none.
func pcOf(m *Machine) uint16 {
	if c, err := m.processor(); err == nil {
		return c.PC
	}
	return 0
}

// StepArgs are step's arguments.
type StepArgs struct {
	Handle       string `json:"handle" jsonschema:"the machine to step" maxLength:"64"`
	Instructions int    `json:"instructions" jsonschema:"how many instructions to run, 1 to 100000" minimum:"1" maximum:"100000"`
}

type stepEntry struct {
	Instructions int `json:"instructions"`
}

// Step runs instructions, each to its end and through the response to an
// interrupt taken there (T-10).
func (h *Host) Step(ctx context.Context, a StepArgs) (Moved, error) {
	return with(h, ctx, a.Handle, func(m *Machine) (Moved, error) {
		if err := machine.CheckInstructions(a.Instructions); err != nil {
			return Moved{}, fmt.Errorf("argument \"instructions\" is %d; a step is of 1 to %d instructions", a.Instructions, machine.MaxInstructions)
		}
		if err := m.room("this step", stepSpan(a.Instructions)); err != nil {
			return Moved{}, err
		}
		if err := notCancelled(ctx); err != nil {
			return Moved{}, err
		}
		tick := m.m.Tick()
		var r machine.Result
		m.follow(ctx, 0, func(*machine.Control) { r = m.m.Step(a.Instructions) })
		// A step cancelled part way is entered as the step it was.
		m.enter("step", tick, stepEntry{Instructions: int(r.Instructions)})
		mv := moved(m, r)
		if r.Stop == machine.Cancelled {
			mv.Stop = stopCancelled
		}
		return mv, nil
	})
}

// TypeArgs are type's arguments.
type TypeArgs struct {
	Handle string `json:"handle" jsonschema:"the machine to type at" maxLength:"64"`
	Text   string `json:"text" jsonschema:"the text to type, in ASCII: at most 250 characters on a CPC, 166 on a Spectrum; a newline is RETURN or ENTER" maxLength:"250"`
	Ticks  uint64 `json:"ticks,omitempty" jsonschema:"stop typing after this many ticks, at the end of the instruction standing there, letting the keys up; what the journal gives a typing that was cancelled part way"`
}

type typeEntry struct {
	Text  string `json:"text"`
	Ticks uint64 `json:"ticks,omitempty"`
}

// Type types text as the command line's --type does (KEY-4 to KEY-14). A
// text with a character no key types, or past the length limit, is
// refused before a key goes down (KEY-9, KEY-10).
func (h *Host) Type(ctx context.Context, a TypeArgs) (Moved, error) {
	return with(h, ctx, a.Handle, func(m *Machine) (Moved, error) {
		if a.Text == "" {
			return Moved{}, errors.New(`argument "text" is empty; give the text to type`)
		}
		if err := m.room("this typing", typeSpan(m.m)); err != nil {
			return Moved{}, err
		}
		if err := notCancelled(ctx); err != nil {
			return Moved{}, err
		}
		tick := m.m.Tick()
		var r machine.Result
		var err error
		m.follow(ctx, 0, func(*machine.Control) { r, err = m.m.TypeFor(a.Text, a.Ticks) })
		if err != nil {
			return Moved{}, fmt.Errorf("argument \"text\": %w", err)
		}
		entry := typeEntry{Text: a.Text, Ticks: a.Ticks}
		mv := moved(m, r)
		if r.Stop == machine.Cancelled {
			// A typing cancelled part way is entered as the typing it
			// was: the same text, for the ticks it took.
			entry.Ticks = r.Ticks
			mv.Stop = stopCancelled
		}
		m.enter("type", tick, entry)
		return mv, nil
	})
}

// cleanStop carries a run on from where it ended, an instruction at a time,
// to the first instruction boundary where the processor is outside every
// interrupt's response and handler, as the board accounts for them
// (machine.Handlers): the response runs whole within the instruction it
// follows, so a boundary inside a chain of prefixes is no boundary, and one
// inside a handler is left by running on until the handler comes back. It
// runs at most a standard frame's ticks more, where a handler that never
// comes back leaves it with the stop "handler", and stops where a HALT
// with interrupts disabled would hold the processor for good.
func cleanStop(in machine.Interrupts, r machine.Result) (machine.Result, string) {
	mm := in.(machine.Machine)
	limit := mm.Tick() + mm.StandardFrame()
	for r.Stop == machine.Unsettled || r.Stop == machine.Done && in.InHandler() {
		if mm.Tick() >= limit {
			return r, stopHandler
		}
		s := mm.Step(1)
		r.Ticks += s.Ticks
		r.Frames += s.Frames
		r.Instructions += s.Instructions
		r.Stop = s.Stop
	}
	return r, r.Stop.String()
}
