package host

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"colophon/internal/inspect"
	"colophon/internal/machine"
)

// TestT1TickReadOnly holds T-1 and issue 19's item 4: only run, step,
// call and type move a machine, so set refuses to write its tick, though
// it takes the tick it holds, as a whole processor written back does.
func TestT1TickReadOnly(t *testing.T) {
	h := stateHost(t)
	ctx := context.Background()
	for _, name := range []string{"cpc6128", "spectrum48"} {
		o := must(h.Open(ctx, OpenArgs{Machine: MachineName(name)}))
		must(h.Run(ctx, RunArgs{Handle: o.Handle, Frames: ptr(uint64(2))}))
		before := lookAt(t, h, o.Handle)
		_, err := h.Set(ctx, SetArgs{Handle: o.Handle, Values: []byte(`{"cpu.tick": 5}`)})
		if err == nil || !strings.Contains(err.Error(), "cpu.tick: it is ") || !strings.Contains(err.Error(), "set cannot change it: it moves only as the machine runs") {
			t.Errorf("%s: set cpu.tick 5: %v; want it refused as read-only", name, err)
		}
		if after := lookAt(t, h, o.Handle); !reflect.DeepEqual(after, before) {
			t.Errorf("%s: a refused set of the tick changed the machine", name)
		}
		cpu := must(h.Inspect(ctx, InspectArgs{Handle: o.Handle, Path: "cpu"}))
		whole := must(inspect.MarshalFields([]inspect.Field{{Path: "cpu", Value: cpu.Value}}))
		if _, err := h.Set(ctx, SetArgs{Handle: o.Handle, Values: whole}); err != nil {
			t.Errorf("%s: set the whole processor as it reads: %v", name, err)
		}
	}
}

// TestLargestTick holds item 4: a machine brought to within a few
// thousand ticks of the largest tick, as only a state's restore can, runs
// what fits, and refuses any request whose end could pass that tick,
// naming it, with the machine as it was.
func TestLargestTick(t *testing.T) {
	h := stateHost(t)
	ctx := context.Background()
	for _, name := range []string{"cpc6128", "spectrum48"} {
		o := must(h.Open(ctx, OpenArgs{Machine: MachineName(name)}))
		must(h.Run(ctx, RunArgs{Handle: o.Handle, Frames: ptr(uint64(2))}))
		m := machineOf(t, h, o.Handle)
		root := must(m.inspectRoot())
		fs := must(inspect.Fields(root))
		const near = machine.MaxTick - 10000
		for i := range fs {
			if fs[i].Path == "cpu.tick" {
				fs[i].Value = uint64(near)
			}
		}
		if err := inspect.Restore(root, fs); err != nil {
			t.Fatalf("%s: restore at tick %d: %v", name, uint64(near), err)
		}
		before := lookAt(t, h, o.Handle)
		refused := []struct {
			what string
			err  error
		}{
			{"run 20000 ticks", second(h.Run(ctx, RunArgs{Handle: o.Handle, Ticks: ptr(uint64(20000))}))},
			{"run 1 frame", second(h.Run(ctx, RunArgs{Handle: o.Handle, Frames: ptr(uint64(1))}))},
			{"step 100000", second(h.Step(ctx, StepArgs{Handle: o.Handle, Instructions: 100000}))},
			{"call", second(h.Call(ctx, CallArgs{Handle: o.Handle, Address: "&0038"}))},
			{"type", second(h.Type(ctx, TypeArgs{Handle: o.Handle, Text: "A"}))},
		}
		for _, r := range refused {
			if r.err == nil || !strings.Contains(r.err.Error(), "past tick 4611686018427387904, the largest tick a machine reaches") {
				t.Errorf("%s: %s near the largest tick: %v; want it refused naming the tick", name, r.what, r.err)
			}
		}
		if after := lookAt(t, h, o.Handle); !reflect.DeepEqual(after, before) {
			t.Errorf("%s: refused requests changed the machine", name)
		}
		// What fits still runs, and the machine reads.
		mv := must(h.Run(ctx, RunArgs{Handle: o.Handle, Ticks: ptr(uint64(1000))}))
		if mv.Tick < uint64(near)+1000 || mv.Tick > uint64(near)+1000+instructionMost {
			t.Errorf("%s: ran 1000 ticks from %d to %d", name, uint64(near), mv.Tick)
		}
		must(h.Step(ctx, StepArgs{Handle: o.Handle, Instructions: 10}))
		if _, _, err := h.Monitor(ctx, MonitorArgs{Handle: o.Handle}); err != nil {
			t.Errorf("%s: monitor near the largest tick: %v", name, err)
		}
		// And no state puts a machine past it.
		for i := range fs {
			if fs[i].Path == "cpu.tick" {
				fs[i].Value = uint64(machine.MaxTick + 1)
			}
		}
		if err := inspect.Restore(root, fs); err == nil || !strings.Contains(err.Error(), "cpu.tick: 4611686018427387905 is out of range") {
			t.Errorf("%s: restore past the largest tick: %v", name, err)
		}
	}
}

// second is the error of a request's answer.
func second[T any](_ T, err error) error { return err }

// TestMachineNamesAnyCase holds issue 19's item 9: a machine's name is
// taken in any case, and answered and journaled as the catalogue spells it.
func TestMachineNamesAnyCase(t *testing.T) {
	h := stateHost(t)
	o, err := h.Open(context.Background(), OpenArgs{Machine: "SPECTRUM48"})
	if err != nil || o.Machine != "spectrum48" {
		t.Fatalf("open SPECTRUM48: %+v, %v", o, err)
	}
	if j := machineOf(t, h, o.Handle).journal; len(j) != 1 || !strings.Contains(string(j[0].Arguments), `"machine":"spectrum48"`) {
		t.Errorf("journaled as %s", j[0].Arguments)
	}
}

// TestLongPathsQuotedShort holds issue 19's item 2 for the files a request
// names: a path past 4096 bytes is refused by its length, read or written,
// and one that cannot be reached is named in a refusal of a line or two.
func TestLongPathsQuotedShort(t *testing.T) {
	long := strings.Repeat("d/", 2100) + "x.sna"
	if _, _, err := readInput("snapshot", long, sizeRule{most: 49179, exact: true, why: "a 48K snapshot"}); err == nil || !strings.Contains(err.Error(), "a path is at most 4096") {
		t.Errorf("reading a path of %d bytes: %v", len(long), err)
	}
	if _, err := writeNew("snapshot", long, []byte{1}); err == nil || !strings.Contains(err.Error(), "a path is at most 4096") {
		t.Errorf("writing a path of %d bytes: %v", len(long), err)
	}
	deep := t.TempDir() + "/" + strings.Repeat("no/", 1300) + "x.sna"
	for _, err := range []error{
		second(writeNew("snapshot", deep, []byte{1})),
		func() error {
			_, _, err := readInput("snapshot", deep, sizeRule{most: 49179, exact: true, why: "a 48K snapshot"})
			return err
		}(),
	} {
		if err == nil || len(err.Error()) > 400 {
			t.Errorf("a path of %d bytes that cannot be reached: %d bytes of refusal: %.200v", len(deep), len(fmt.Sprint(err)), err)
		}
	}
}
