package host

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"colophon/internal/firmware"
	"colophon/internal/shared"
	"colophon/internal/watch"
)

// newHostFirmware reads the shared firmware.
func newHostFirmware(tb testing.TB) firmware.Loader {
	return firmware.Loader{Dirs: []string{shared.TestPath(tb, "roms")}}
}

// A rig is one machine of a host, for the tests of stopping and watching:
// requests made of it fail the test when they are refused.
type rig struct {
	t      testing.TB
	h      *Host
	ctx    context.Context
	handle string
}

// newRig stands a machine up at power-on.
func newRig(t testing.TB, name string) *rig {
	t.Helper()
	h := New(Options{Firmware: newHostFirmware(t), Build: "test"})
	return rigOn(t, h, name)
}

// rigOn stands a machine up on h.
func rigOn(t testing.TB, h *Host, name string) *rig {
	t.Helper()
	o, err := h.Open(context.Background(), OpenArgs{Machine: MachineName(name)})
	if err != nil {
		t.Fatal(err)
	}
	return &rig{t: t, h: h, ctx: context.Background(), handle: o.Handle}
}

// twin stands up a second machine on the same host, with the same
// requests made of it as of r so far: the journal's entries replayed.
func (r *rig) twin() *rig {
	r.t.Helper()
	j := r.entries()
	o := rigOn(r.t, r.h, j[0].args()["machine"].(string))
	for _, e := range j[1:] {
		o.replay(e)
	}
	return o
}

// entries reads the whole journal.
func (r *rig) entries() []Entry {
	r.t.Helper()
	var out []Entry
	start := 0
	for {
		p, err := r.h.Journal(r.ctx, JournalArgs{Handle: r.handle, Start: &start})
		if err != nil {
			r.t.Fatal(err)
		}
		out = append(out, p.Entries...)
		if p.Next == nil {
			return out
		}
		start = *p.Next
	}
}

func (e Entry) args() map[string]any {
	var m map[string]any
	if err := json.Unmarshal(e.Arguments, &m); err != nil {
		panic(err)
	}
	return m
}

// replay makes one journal entry's request of r.
func (r *rig) replay(e Entry) {
	r.t.Helper()
	var err error
	switch e.Tool {
	case "run":
		var a RunArgs
		if err = json.Unmarshal(e.Arguments, &a); err == nil {
			a.Handle = r.handle
			_, err = r.h.Run(r.ctx, a)
		}
	case "call":
		var a CallArgs
		if err = json.Unmarshal(e.Arguments, &a); err == nil {
			a.Handle = r.handle
			_, err = r.h.Call(r.ctx, a)
		}
	case "set":
		var a SetArgs
		if err = json.Unmarshal(e.Arguments, &a); err == nil {
			a.Handle = r.handle
			_, err = r.h.Set(r.ctx, a)
		}
	case "poke":
		var a PokeArgs
		if err = json.Unmarshal(e.Arguments, &a); err == nil {
			a.Handle = r.handle
			_, err = r.h.Poke(r.ctx, a)
		}
	case "step":
		var a StepArgs
		if err = json.Unmarshal(e.Arguments, &a); err == nil {
			a.Handle = r.handle
			_, err = r.h.Step(r.ctx, a)
		}
	case "type":
		var a TypeArgs
		if err = json.Unmarshal(e.Arguments, &a); err == nil {
			a.Handle = r.handle
			_, err = r.h.Type(r.ctx, a)
		}
	default:
		err = fmt.Errorf("no replay of %s", e.Tool)
	}
	if err != nil {
		r.t.Fatalf("replaying %s %s: %v", e.Tool, e.Arguments, err)
	}
}

// frames runs n frames.
func (r *rig) frames(n uint64) Moved {
	r.t.Helper()
	return r.run(RunArgs{Frames: &n})
}

// run makes a run of r, which must not be refused.
func (r *rig) run(a RunArgs) Moved {
	r.t.Helper()
	mv, err := r.runErr(a)
	if err != nil {
		r.t.Fatal(err)
	}
	return mv
}

func (r *rig) runErr(a RunArgs) (Moved, error) {
	a.Handle = r.handle
	return r.h.Run(r.ctx, a)
}

// runTicks runs n ticks with conditions c.
func (r *rig) runTicks(n uint64, c Conditions) Moved {
	r.t.Helper()
	return r.run(RunArgs{Ticks: &n, Conditions: c})
}

// call makes a call of r, which must not be refused.
func (r *rig) call(a CallArgs) Moved {
	r.t.Helper()
	a.Handle = r.handle
	mv, err := r.h.Call(r.ctx, a)
	if err != nil {
		r.t.Fatal(err)
	}
	return mv
}

// set writes fields, given as JSON.
func (r *rig) set(values string) {
	r.t.Helper()
	if _, err := r.h.Set(r.ctx, SetArgs{Handle: r.handle, Values: json.RawMessage(values)}); err != nil {
		r.t.Fatal(err)
	}
}

// poke writes bytes at an address.
func (r *rig) poke(addr uint16, b ...byte) {
	r.t.Helper()
	if _, err := r.h.Poke(r.ctx, PokeArgs{Handle: r.handle, Address: Address(fmt.Sprintf("&%04X", addr)), Bytes: watch.HexBytes(b)}); err != nil {
		r.t.Fatal(err)
	}
}

// program pokes code at addr and points the processor at it.
func (r *rig) program(addr uint16, code ...byte) {
	r.t.Helper()
	r.poke(addr, code...)
	r.set(fmt.Sprintf(`{"cpu.pc": %d}`, addr))
}

// peek reads n bytes from addr, or from cpu.sp or cpu.pc, as peek answers
// them.
func (r *rig) peek(addr string, n int) Peeked {
	r.t.Helper()
	p, err := r.h.Peek(r.ctx, PeekArgs{Handle: r.handle, Address: ReadAddress(addr), Length: &n})
	if err != nil {
		r.t.Fatal(err)
	}
	p.Handle = ""
	return p
}

// inspect reads a field.
func (r *rig) inspect(path string) any {
	r.t.Helper()
	v, err := r.h.Inspect(r.ctx, InspectArgs{Handle: r.handle, Path: path})
	if err != nil {
		r.t.Fatal(err)
	}
	return v.Value
}

// num reads a number field.
func (r *rig) num(path string) uint64 {
	r.t.Helper()
	switch v := r.inspect(path).(type) {
	case uint64:
		return v
	case int64:
		return uint64(v)
	case bool:
		if v {
			return 1
		}
		return 0
	}
	r.t.Fatalf("%s is no number", path)
	return 0
}

// tick is the machine's tick.
func (r *rig) tick() uint64 { r.t.Helper(); return r.num("cpu.tick") }

// asJSON writes v as the answers do.
func asJSON(v any) string {
	b, err := marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// hexes writes addresses as the answers do.
func hexes(as ...uint16) []string {
	out := make([]string, len(as))
	for i, a := range as {
		out[i] = watch.Address(uint32(a))
	}
	return out
}

// field lists one field of each match, by a function.
func field(ms []watch.Match, f func(watch.Match) string) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = f(m)
	}
	return out
}

func same(a, b []string) bool { return strings.Join(a, "|") == strings.Join(b, "|") }

// Conditions a test names often.
func execAt(a string) Condition { return Condition{Kind: "exec", Address: Address(a)} }
func execIn(lo, hi string) Condition {
	return Condition{Kind: "exec", Address: Address(lo), AddressTo: Address(hi)}
}
func writeAt(a string) Condition { return Condition{Kind: "write", Address: Address(a)} }
func writeIn(lo, hi string) Condition {
	return Condition{Kind: "write", Address: Address(lo), AddressTo: Address(hi)}
}
func readIn(lo, hi string) Condition {
	return Condition{Kind: "read", Address: Address(lo), AddressTo: Address(hi)}
}
