package host

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"colophon/internal/machine/cpc"
	"colophon/internal/media/sna"
)

// TestSNA1SnapshotSave writes each machine at its prompt and holds the file
// to what the spec says of it (SNA-1, SNA-2, SNA-3, SNA-5, J-4): its name
// by the SHA-256 of what it holds and the machine's tick; a CPC's 256
// bytes of header and then all its RAM by the RAM's own addresses; a
// Spectrum's 27 and then its 48K from &4000 but for the two bytes below the
// stack pointer, which hold the program counter; the machine untouched and
// its journal as it was; and the file opened by machine_open standing as
// the machine stood, its registers and memory.
func TestSNA1SnapshotSave(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		machine string
		frames  uint64
	}{{"cpc464", 80}, {"cpc664", 80}, {"cpc6128", 80}, {"spectrum48", 130}} {
		t.Run(c.machine, func(t *testing.T) {
			h := stateHost(t)
			a := must(h.Open(ctx, OpenArgs{Machine: MachineName(c.machine)})).Handle
			must(h.Run(ctx, RunArgs{Handle: a, Frames: ptr(c.frames)}))
			before := lookAt(t, h, a)
			path := filepath.Join(t.TempDir(), "saved.sna")
			saved := must(h.SnapshotSave(ctx, SnapshotSaveArgs{Handle: a, Path: path}))
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			sum := sha256.Sum256(b)
			if saved.File.Path != path || saved.File.SHA256 != hex.EncodeToString(sum[:]) || saved.File.Kind != "snapshot" || saved.Handle != a {
				t.Errorf("snapshot_save answered %+v", saved)
			}
			mm := machineOf(t, h, a)
			if saved.Tick != mm.m.Tick() {
				t.Errorf("snapshot_save's tick %d is not the machine's %d", saved.Tick, mm.m.Tick())
			}
			if d := before.differ(lookAt(t, h, a)); d != "" {
				t.Errorf("saving changed the machine or its journal:\n%s", d)
			}
			if c, ok := mm.m.(*cpc.CPC); ok {
				if len(b) != 256+len(c.RAM) || !bytes.Equal(b[256:], c.RAM) {
					t.Errorf("the file is %d bytes; want a header of 256 and the %d bytes of RAM after it", len(b), len(c.RAM))
				}
			} else {
				sp := must(h.Inspect(ctx, InspectArgs{Handle: a, Path: "cpu.sp"})).Value.(uint64)
				pc := must(h.Inspect(ctx, InspectArgs{Handle: a, Path: "cpu.pc"})).Value.(uint64)
				if len(b) != sna.Spectrum48Size {
					t.Fatalf("the file is %d bytes, want %d", len(b), sna.Spectrum48Size)
				}
				for addr := 0x4000; addr < 0x10000; addr++ {
					want := before.memory[addr]
					switch uint64(addr) {
					case sp - 2:
						want = byte(pc)
					case sp - 1:
						want = byte(pc >> 8)
					}
					if b[27+addr-0x4000] != want {
						t.Fatalf("&%04X is &%02X in the file, want &%02X", addr, b[27+addr-0x4000], want)
					}
				}
			}
			if j := must(h.Journal(ctx, JournalArgs{Handle: a})); j.Total != 2 {
				t.Errorf("the journal holds %d entries; snapshot_save is not entered (J-4)", j.Total)
			}

			// Opened, the file stands as the machine stood.
			o := must(h.Open(ctx, OpenArgs{Machine: MachineName(c.machine), Snapshot: path}))
			if f := o.Files[len(o.Files)-1]; f.SHA256 != saved.File.SHA256 || f.Kind != "snapshot" {
				t.Errorf("opened, the snapshot is named %+v", f)
			}
			for _, p := range []string{"cpu.pc", "cpu.sp", "cpu.a", "cpu.f", "cpu.h", "cpu.l", "cpu.ix", "cpu.iy", "cpu.i", "cpu.im", "cpu.iff2"} {
				x, errA := h.Inspect(ctx, InspectArgs{Handle: a, Path: p})
				y, errB := h.Inspect(ctx, InspectArgs{Handle: o.Handle, Path: p})
				if (errA == nil) != (errB == nil) || errA == nil && x.Value != y.Value {
					t.Errorf("%s reads %v (%v) on the machine and %v (%v) opened from its snapshot", p, x.Value, errA, y.Value, errB)
				}
			}
			after := lookAt(t, h, o.Handle)
			if before.ram == nil {
				// A Spectrum's two bytes below the stack pointer hold the
				// program counter the file pushed there (SNA-5).
				sp := must(h.Inspect(ctx, InspectArgs{Handle: a, Path: "cpu.sp"})).Value.(uint64)
				copy(after.memory[sp-2:sp], before.memory[sp-2:sp])
			}
			if !bytes.Equal(after.memory[0x4000:], before.memory[0x4000:]) {
				t.Error("opened from its snapshot, the memory from &4000 is not the machine's")
			}
			if before.ram != nil && !bytes.Equal(after.ram, before.ram) {
				t.Error("opened from its snapshot, the RAM is not the machine's")
			}

			// A file already there is not written over (SNA-2).
			if err := os.WriteFile(path, []byte("mine"), 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := h.SnapshotSave(ctx, SnapshotSaveArgs{Handle: a, Path: path}); err == nil || !strings.Contains(err.Error(), "already there") {
				t.Errorf("saving over a file: %v", err)
			}
			if b, _ := os.ReadFile(path); string(b) != "mine" {
				t.Error("the file there was written over")
			}
		})
	}
}

// TestSNA6UnselectedPSGSaved: a CPC whose sound chip is unselected is
// written with its selected register plus 16 at &5A, against the format's
// notes, and opened again from the file it is unselected with the register
// in the low four bits (SNA-6). A selected chip is written as its register.
func TestSNA6UnselectedPSGSaved(t *testing.T) {
	ctx := context.Background()
	h := stateHost(t)
	a := openCPC(t, h)
	for _, c := range []struct {
		selected bool
		reg      int
		want     byte
	}{{false, 5, 21}, {false, 0, 16}, {true, 5, 5}, {false, 15, 31}} {
		must(h.Set(ctx, SetArgs{Handle: a, Values: []byte(`{"psg.selected": ` + itoa(c.reg) + `, "psg.chip_selected": ` + btoa(c.selected) + `}`)}))
		path := filepath.Join(t.TempDir(), "psg.sna")
		must(h.SnapshotSave(ctx, SnapshotSaveArgs{Handle: a, Path: path}))
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if b[0x5A] != c.want {
			t.Errorf("selected %v, register %d: &5A holds %d, want %d", c.selected, c.reg, b[0x5A], c.want)
		}
		o := must(h.Open(ctx, OpenArgs{Machine: "cpc6128", Snapshot: path}))
		sel := must(h.Inspect(ctx, InspectArgs{Handle: o.Handle, Path: "psg.selected"})).Value
		chip := must(h.Inspect(ctx, InspectArgs{Handle: o.Handle, Path: "psg.chip_selected"})).Value
		if sel != uint64(c.reg) || chip != c.selected {
			t.Errorf("selected %v, register %d: opened, psg.selected %v and chip_selected %v", c.selected, c.reg, sel, chip)
		}
	}
}

// TestSnapshotSaveRefusals: a processor inside a chain of prefixes, which
// no snapshot holds; no path; an unknown machine; each refused with the
// machine as it stood and nothing written.
func TestSnapshotSaveRefusals(t *testing.T) {
	ctx := context.Background()
	for _, c := range branchCases {
		h := stateHost(t)
		a := must(h.Open(ctx, OpenArgs{Machine: MachineName(c.machine)})).Handle
		must(h.Run(ctx, RunArgs{Handle: a, Frames: ptr(c.boot)}))
		c.chain(t, h, a)
		for i := 0; must(h.Run(ctx, RunArgs{Handle: a, Ticks: ptr(uint64(1))})).Stop != "unsettled"; i++ {
			if i == 100 {
				t.Fatal("no run stopped inside the chain")
			}
		}
		before := lookAt(t, h, a)
		path := filepath.Join(t.TempDir(), "chain.sna")
		_, err := h.SnapshotSave(ctx, SnapshotSaveArgs{Handle: a, Path: path})
		if err == nil || !strings.Contains(err.Error(), "prefixes") || !strings.Contains(err.Error(), "step 1") {
			t.Errorf("%s: saved inside a chain of prefixes: %v", c.machine, err)
		}
		if _, err := os.Stat(path); err == nil {
			t.Errorf("%s: a refused save wrote its file", c.machine)
		}
		if _, err := h.SnapshotSave(ctx, SnapshotSaveArgs{Handle: a}); err == nil || !strings.Contains(err.Error(), `"path" is missing`) {
			t.Errorf("%s: no path: %v", c.machine, err)
		}
		if d := before.differ(lookAt(t, h, a)); d != "" {
			t.Errorf("%s: refused, the machine changed:\n%s", c.machine, d)
		}
	}
	h := stateHost(t)
	if _, err := h.SnapshotSave(ctx, SnapshotSaveArgs{Handle: "m9", Path: "x.sna"}); err == nil || !strings.Contains(err.Error(), "m9") {
		t.Errorf("no such machine: %v", err)
	}
}

func btoa(b bool) string {
	if b {
		return "true"
	}
	return "false"
}
