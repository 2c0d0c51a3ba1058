package host

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"testing"

	"colophon/internal/inspect"
	"colophon/internal/media/tape/tapetest"
)

// TestEveryFieldsRange holds issue 19's item 3 over every field set
// reaches, on each kind of machine: the most each field holds is taken,
// and the machine holds it, keeping it through a state and running a frame
// and painting its picture from it; one past it is refused, and so is -1
// where a field is signed, with the machine as it was; a fixed or
// read-only field refuses any value but its own. The walk reads the
// fields from the machine, so a field added is walked too.
//
// The most a field holds is its tag's max, or its type's, unless a
// Validate narrows it as the machine stands (a 6845's register by its
// type, a 64K CPC's mmr): then it is the largest value set takes, found
// from the top down.
func TestEveryFieldsRange(t *testing.T) {
	for _, tt := range []struct {
		machine string
		crtc    int
		tape    bool // with a tape in its deck, which its fields then reach into
	}{
		{"spectrum48", 0, false},
		{"spectrum48", 0, true},
		{"cpc464", 1, false},
		{"cpc6128", 0, true},
		{"cpc6128", 3, false},
	} {
		t.Run(fmt.Sprintf("%s_crtc%d_tape%v", tt.machine, tt.crtc, tt.tape), func(t *testing.T) {
			walkRanges(t, tt.machine, tt.crtc, tt.tape)
		})
	}
}

func walkRanges(t *testing.T, name string, crtcType int, tape bool) {
	h := stateHost(t)
	ctx := context.Background()
	a := OpenArgs{Machine: MachineName(name)}
	if name != "spectrum48" {
		a.CRTC = ptr(CRTCType(crtcType))
	}
	o := must(h.Open(ctx, a))
	hd := o.Handle
	if tape {
		file := writeFile(t, "prog.tap", tapetest.SpectrumProgram("colophon", 10, pokeProgram))
		if name != "spectrum48" {
			file = writeFile(t, "bin.cdt", tapetest.CPCBinary("MARKER", 0x4000, 0x4000, cpcMarker))
		}
		must(h.TapeInsert(ctx, TapeInsertArgs{Handle: hd, Path: file}))
	}
	must(h.Run(ctx, RunArgs{Handle: hd, Frames: ptr(uint64(60))}))
	start := must(h.StateKeep(ctx, StateKeepArgs{Handle: hd})).State
	root := must(machineOf(t, h, hd).inspectRoot())
	fields := must(inspect.Fields(root))

	set := func(path string, v any) error {
		b := must(json.Marshal(map[string]any{path: v}))
		_, err := h.Set(ctx, SetArgs{Handle: hd, Values: b})
		return err
	}
	// refused holds a value to be refused, with the machine as it was.
	refused := func(path string, v any, why string) {
		t.Helper()
		before := lookAt(t, h, hd)
		if err := set(path, v); err == nil {
			t.Errorf("%s: set %v was taken; %s", path, v, why)
			must(h.StateRestore(ctx, StateArgs{Handle: hd, State: start}))
			return
		}
		if d := lookAt(t, h, hd).differ(before); d != "" {
			t.Errorf("%s: set %v was refused and changed the machine: %s", path, v, d)
		}
	}

	walked := 0
	for _, f := range fields {
		leaf, err := inspect.LeafOf(root, f.Path)
		if err != nil {
			t.Fatalf("%s: %v", f.Path, err)
		}
		switch {
		case leaf.Fixed || leaf.ReadOnly:
			// Of 0 and its max, one at least is not what it holds.
			held := must(inspect.Get(root, f.Path))
			for _, v := range []uint64{0, leaf.Max} {
				if set(f.Path, v) == nil {
					if now := must(inspect.Get(root, f.Path)); now != held {
						t.Errorf("%s: fixed or read-only, and set %d changed it from %v to %v", f.Path, v, held, now)
					}
					must(h.StateRestore(ctx, StateArgs{Handle: hd, State: start}))
					continue
				}
				refused(f.Path, v, "it is fixed or read-only")
			}
			continue
		case !leaf.Integer:
			continue // a bool holds both its values
		}
		var held uint64
		if leaf.Max > 0xFFFF {
			held = wideHeld(t, root, f.Path)
		}
		top, ok := largestTaken(t, set, f.Path, leaf, held)
		must(h.StateRestore(ctx, StateArgs{Handle: hd, State: start}))
		if !ok {
			t.Errorf("%s: set takes no value from 0 to %d", f.Path, leaf.Max)
			continue
		}
		if top < leaf.Max {
			refused(f.Path, top+1, fmt.Sprintf("%d is the most it holds", top))
		} else if !leaf.Signed {
			refused(f.Path, json.Number(strconv.FormatUint(top, 10)+"0"), "it is past the type")
		}
		if leaf.Signed {
			refused(f.Path, -1, "it holds nothing below 0")
		}

		// The machine holds the most: through a state, a frame and its
		// picture.
		if err := set(f.Path, top); err != nil {
			t.Errorf("%s: set %d, taken a moment ago: %v", f.Path, top, err)
			continue
		}
		atTop := must(inspect.Get(root, f.Path))
		kept := must(h.StateKeep(ctx, StateKeepArgs{Handle: hd})).State
		if _, err := h.StateRestore(ctx, StateArgs{Handle: hd, State: kept}); err != nil {
			t.Errorf("%s: at %d, the state kept does not restore: %v", f.Path, top, err)
		} else if got := must(inspect.Get(root, f.Path)); got != atTop {
			t.Errorf("%s: set %d, read %v, kept and restored, reads %v", f.Path, top, atTop, got)
		}
		if _, err := h.Run(ctx, RunArgs{Handle: hd, Frames: ptr(uint64(1))}); err != nil {
			t.Errorf("%s: at %d, a frame's run: %v", f.Path, top, err)
		}
		if _, _, err := h.Monitor(ctx, MonitorArgs{Handle: hd}); err != nil {
			t.Errorf("%s: at %d, then a frame, monitor: %v", f.Path, top, err)
		}
		if _, err := h.StateKeep(ctx, StateKeepArgs{Handle: hd}); err != nil {
			t.Errorf("%s: at %d, then a frame, state_keep: %v", f.Path, top, err)
		}
		must(h.StateRestore(ctx, StateArgs{Handle: hd, State: start}))
		for _, s := range must(h.StateKeep(ctx, StateKeepArgs{Handle: hd})).States {
			if s != start {
				must(h.StateDrop(ctx, StateArgs{Handle: hd, State: s}))
			}
		}
		walked++
	}
	t.Logf("%s: %d integer fields walked to their most", name, walked)
}

// wideHeld reads what a wide integer leaf holds, as bits.
func wideHeld(t *testing.T, root any, path string) uint64 {
	t.Helper()
	switch x := must(inspect.Get(root, path)).(type) {
	case uint64:
		return x
	case int64:
		return uint64(x)
	default:
		t.Fatalf("%s reads %T, not an integer", path, x)
	}
	return 0
}

// largestTaken finds the most set takes at a leaf: its max where a set of
// it is taken, else the largest below, from the top down for a narrow
// field and by halving for a wide one. held is what the leaf holds, which
// set always takes.
func largestTaken(t *testing.T, set func(string, any) error, path string, leaf inspect.Leaf, held uint64) (uint64, bool) {
	t.Helper()
	if set(path, leaf.Max) == nil {
		return leaf.Max, true
	}
	if leaf.Max <= 0xFFFF {
		for v := leaf.Max; v > 0; v-- {
			if set(path, v-1) == nil {
				return v - 1, true
			}
		}
		return 0, false
	}
	// Wide: what it holds is taken, the max is not.
	lo, hi := held, leaf.Max
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if set(path, mid) == nil {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo, true
}
