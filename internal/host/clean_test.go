package host

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"colophon/internal/machine"
)

// TestCleanRunThenCall is issue 18's clean stop: a run stopped anywhere in
// a 6128's first frames after boot, with clean, ends outside every
// interrupt handler, and a call of TXT OUTPUT there with A=&41 prints A
// and leaves the machine running on unharmed: with A set back as it was,
// PRINT 2+2 still answers 4. The same calls made where the plain run ends,
// inside the firmware's interrupt entry, corrupt the machine at some of
// them: the entry has exchanged the register sets (EXX), and the LOW JUMP
// that TXT OUTPUT's jumpblock entry is then writes the interrupted
// program's C to the Gate Array through the wrong BC, which is why call's
// description warns of it.
func TestCleanRunThenCall(t *testing.T) {
	h := newHost(t)
	ctx := context.Background()
	handle := booted(t, h, "cpc6128")
	kept, err := h.StateKeep(ctx, StateKeepArgs{Handle: handle})
	if err != nil {
		t.Fatal(err)
	}
	m := machineOf(t, h, handle)
	cpu, _ := m.processor()
	// callA calls TXT OUTPUT with A=&41, sets A back, and reports
	// whether the A came out and BASIC still answers.
	callA := func() bool {
		t.Helper()
		a := cpu.A
		if c, err := h.Call(ctx, CallArgs{Handle: handle, Address: "&BB5A", Values: json.RawMessage(`{"cpu.a": 65}`)}); err != nil || c.Stop != stopDone {
			t.Fatalf("the call: %+v, %v", c, err)
		}
		if _, err := h.Set(ctx, SetArgs{Handle: handle, Values: json.RawMessage(`{"cpu.a": ` + itoa(int(a)) + `}`)}); err != nil {
			t.Fatal(err)
		}
		h.Run(ctx, RunArgs{Handle: handle, Frames: ptr(uint64(3))})
		printed := strings.Contains(strings.Join(cpcText(t, h, handle), "|"), "Ready|A")
		h.Type(ctx, TypeArgs{Handle: handle, Text: "PRINT 2+2\n"})
		h.Run(ctx, RunArgs{Handle: handle, Frames: ptr(uint64(10))})
		// The A stands where BASIC's cursor stood, and the typing goes
		// on after it.
		return printed && strings.Contains(strings.Join(cpcText(t, h, handle), "|"), "|APRINT 2+2| 4|Ready|")
	}
	inside, harmed := 0, 0
	for n := uint64(1); n <= 200; n++ {
		ticks := n * 97
		if _, err := h.StateRestore(ctx, StateArgs{Handle: handle, State: kept.State}); err != nil {
			t.Fatal(err)
		}
		if _, err := h.Run(ctx, RunArgs{Handle: handle, Ticks: &ticks}); err != nil {
			t.Fatal(err)
		}
		if !m.m.(machine.Interrupts).InHandler() {
			continue
		}
		inside++
		if !callA() {
			harmed++
		}
		h.StateRestore(ctx, StateArgs{Handle: handle, State: kept.State})
		r, err := h.Run(ctx, RunArgs{Handle: handle, Ticks: &ticks, Clean: true})
		if err != nil || r.Stop != stopDone || r.Ticks <= ticks {
			t.Fatalf("the clean run of %d ticks: %+v, %v", ticks, r, err)
		}
		if m.m.(machine.Interrupts).InHandler() || !cpu.IFF1 || cpu.PC >= 0xB900 && cpu.PC < 0xBA00 {
			t.Errorf("the clean run of %d ticks ends inside a handler: PC &%04X, IFF1 %v", ticks, cpu.PC, cpu.IFF1)
		}
		if !callA() {
			t.Errorf("after the clean run of %d ticks, the call harmed the machine: %s", ticks, strings.Join(cpcText(t, h, handle), "|"))
		}
	}
	if inside < 5 || harmed == 0 {
		t.Errorf("%d runs ended inside a handler, and a call harmed %d of them", inside, harmed)
	}
	t.Logf("%d runs ended inside a handler, and a call there harmed %d of them", inside, harmed)

	// A run by frames ends just past the retrace, inside the handler
	// of the frame's interrupt (spec, "What a machine holds", call).
	h.StateRestore(ctx, StateArgs{Handle: handle, State: kept.State})
	h.Run(ctx, RunArgs{Handle: handle, Frames: ptr(uint64(1))})
	if !m.m.(machine.Interrupts).InHandler() {
		t.Errorf("a run by frames ends outside a handler, at &%04X", cpu.PC)
	}
	h.StateRestore(ctx, StateArgs{Handle: handle, State: kept.State})
	r, _ := h.Run(ctx, RunArgs{Handle: handle, Frames: ptr(uint64(1)), Clean: true})
	if r.Frames != 1 || m.m.(machine.Interrupts).InHandler() {
		t.Errorf("a clean run by frames: %+v, at &%04X", r, cpu.PC)
	}
	if !callA() {
		t.Errorf("after a clean run by frames, the call harmed the machine: %s", strings.Join(cpcText(t, h, handle), "|"))
	}
}

// TestCleanRunSpectrum ends a Spectrum's run by frames, inside the 48K
// ROM's MASK-INT handler at &0038 as every one does, and its clean run
// after the handler's RET, with interrupts enabled again; and the clean
// run is journaled with its clean.
func TestCleanRunSpectrum(t *testing.T) {
	h := newHost(t)
	ctx := context.Background()
	handle := booted(t, h, "spectrum48")
	m := machineOf(t, h, handle)
	cpu, _ := m.processor()
	if !m.m.(machine.Interrupts).InHandler() {
		t.Errorf("a run by frames ends outside the handler, at &%04X", cpu.PC)
	}
	r, err := h.Run(ctx, RunArgs{Handle: handle, Frames: ptr(uint64(1)), Clean: true})
	if err != nil || r.Stop != stopDone || m.m.(machine.Interrupts).InHandler() || !cpu.IFF1 || cpu.PC >= 0x0038 && cpu.PC <= 0x0052 {
		t.Errorf("the clean run: %+v, %v, at &%04X, IFF1 %v", r, err, cpu.PC, cpu.IFF1)
	}
	j, err := h.Journal(ctx, JournalArgs{Handle: handle})
	if err != nil {
		t.Fatal(err)
	}
	last := j.Entries[len(j.Entries)-1]
	if last.Tool != "run" || !strings.Contains(string(last.Arguments), `"clean":true`) {
		t.Errorf("the clean run is journaled as %s %s", last.Tool, last.Arguments)
	}
}

// TestHandlersAccount holds machine.Handlers to its rules: a handler ends
// where the processor comes back to the address pushed with the stack
// where it stood; one nested in another ends first; one accepted just as
// another came back replaces it.
func TestHandlersAccount(t *testing.T) {
	var h machine.Handlers
	h.Enter(0xC000, 0x1234)
	if !h.Inside(0x0038, 0xBFFE) || h.Inside(0x1234, 0xC000) {
		t.Error("one handler")
	}
	h.Enter(0xBFF0, 0x0050) // nested, from inside the first
	h.Fetched(0x0050, 0xBFF0)
	if !h.Inside(0x0051, 0xBFF0) {
		t.Error("back from the nested handler is still inside the first")
	}
	h.Fetched(0x1234, 0xBFFE) // the address, but not the stack
	if !h.Inside(0x1235, 0xBFFE) {
		t.Error("the return address with another stack ended the handler")
	}
	h.Enter(0xC000, 0x1234) // accepted as the first comes back
	h.Fetched(0x1234, 0xC000)
	if h.Inside(0x1234, 0xC000) || h.Active() {
		t.Error("both handlers came back to &1234")
	}
}
