package host

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"colophon/internal/machine"
	"colophon/internal/machine/cpc"
	"colophon/internal/media/dsk"
	"colophon/internal/media/dsk/dsktest"
	"colophon/internal/media/tape/tapetest"
)

// A keptCase is one of the spec's kept machines (KEEP-3, KEEP-16): a
// machine stood up to where it is kept, and the requests that run it on
// from there to an end that says it did what it was doing.
type keptCase struct {
	name  string
	start func(t *testing.T, h *Host) string
	runOn func(t *testing.T, h *Host, a string)
	ended func(t *testing.T, h *Host, a string) bool
}

// keptCases are a 6128 kept while AMSDOS writes its disc, its disc
// controller inside a WRITE DATA; a CPC kept partway through RUN"; and a
// Spectrum kept partway through LOAD "".
var keptCases = []keptCase{
	{
		name: "cpc6128 writing its disc",
		start: func(t *testing.T, h *Host) string {
			ctx := context.Background()
			a := openCPC(t, h)
			must(h.DiscInsert(ctx, DiscInsertArgs{Handle: a, Path: discFile(t, "blank.dsk", dsktest.DATA())}))
			must(h.Type(ctx, TypeArgs{Handle: a, Text: "10 PRINT \"EXAMPLE\"\nsave\"example\n"}))
			for range 20000 {
				if fdcWriting(t, h, a) {
					return a
				}
				must(h.Run(ctx, RunArgs{Handle: a, Ticks: ptr(uint64(1000))}))
			}
			t.Fatal("AMSDOS never wrote")
			return ""
		},
		runOn: func(t *testing.T, h *Host, a string) {
			ctx := context.Background()
			must(h.Run(ctx, RunArgs{Handle: a, Ticks: ptr(uint64(200 * cpc.TicksPerFrame))}))
			must(h.Type(ctx, TypeArgs{Handle: a, Text: "cat\n"}))
			must(h.Run(ctx, RunArgs{Handle: a, Ticks: ptr(uint64(150 * cpc.TicksPerFrame))}))
		},
		ended: func(t *testing.T, h *Host, a string) bool {
			return strings.Contains(cpcScreen(t, h, a), "EXAMPLE .BAS   1K")
		},
	},
	{
		name: "cpc464 partway through RUN\"",
		start: func(t *testing.T, h *Host) string {
			ctx := context.Background()
			a := must(h.Open(ctx, OpenArgs{Machine: "cpc464"})).Handle
			must(h.TapeInsert(ctx, TapeInsertArgs{Handle: a, Path: writeFile(t, "bin.cdt", tapetest.CPCBinary("MARKER", 0x4000, 0x4000, cpcMarker))}))
			must(h.Run(ctx, RunArgs{Handle: a, Frames: ptr(uint64(78))}))
			must(h.Type(ctx, TypeArgs{Handle: a, Text: "RUN\"\n"}))
			must(h.Run(ctx, RunArgs{Handle: a, Frames: ptr(uint64(10)), Keys: []Key{KeyNamed("SPACE")}}))
			must(h.Run(ctx, RunArgs{Handle: a, Frames: ptr(uint64(700))}))
			if r := deckOf(t, h, a).TapeDeck().Reader; r.Pulses == 0 || r.Ended {
				t.Fatalf("not partway through the tape: %+v", r)
			}
			return a
		},
		runOn: func(t *testing.T, h *Host, a string) {
			must(h.Run(context.Background(), RunArgs{Handle: a, Frames: ptr(uint64(600))}))
		},
		ended: func(t *testing.T, h *Host, a string) bool { return peekByte(t, h, a, 0x5000) == 0x42 },
	},
	{
		name: "spectrum48 partway through LOAD \"\"",
		start: func(t *testing.T, h *Host) string {
			ctx := context.Background()
			a := must(h.Open(ctx, OpenArgs{Machine: "spectrum48"})).Handle
			must(h.Run(ctx, RunArgs{Handle: a, Frames: ptr(uint64(128))}))
			must(h.TapeInsert(ctx, TapeInsertArgs{Handle: a, Path: writeFile(t, "prog.tap", tapetest.SpectrumProgram("colophon", 10, pokeProgram))}))
			must(h.Type(ctx, TypeArgs{Handle: a, Text: "j\"\"\n"}))
			must(h.Run(ctx, RunArgs{Handle: a, Frames: ptr(uint64(600))}))
			if r := deckOf(t, h, a).TapeDeck().Reader; r.Pulses == 0 || r.Ended {
				t.Fatalf("not partway through the tape: %+v", r)
			}
			return a
		},
		runOn: func(t *testing.T, h *Host, a string) {
			must(h.Run(context.Background(), RunArgs{Handle: a, Frames: ptr(uint64(300))}))
		},
		ended: func(t *testing.T, h *Host, a string) bool { return peekByte(t, h, a, 32768) == 123 },
	},
}

// fdcWriting reports whether the disc controller is inside a WRITE DATA,
// well into a sector.
func fdcWriting(t *testing.T, h *Host, a string) bool {
	ctx := context.Background()
	num := func(path string) uint64 {
		switch v := must(h.Inspect(ctx, InspectArgs{Handle: a, Path: path})).Value.(type) {
		case uint64:
			return v
		case int64:
			return uint64(v)
		}
		t.Fatalf("%s is not a number", path)
		return 0
	}
	phase := must(h.Inspect(ctx, InspectArgs{Handle: a, Path: "fdc.phase"})).Value
	return phase == "execution" && num("fdc.code")&0x1F == 0x05 && num("fdc.count") > 100
}

// discsOf answers the discs in a CPC's drives as disc_save writes them, or
// none for a machine without drives.
func discsOf(t *testing.T, h *Host, a string) []string {
	var out []string
	if _, ok := machineOf(t, h, a).m.(machine.Discs); !ok {
		return nil
	}
	for _, drive := range []string{"A", "B"} {
		d, err := h.DiscSave(context.Background(), DiscSaveArgs{Handle: a, Drive: drive, Path: filepath.Join(t.TempDir(), "disc.dsk")})
		if err != nil {
			out = append(out, "none")
			continue
		}
		out = append(out, d.File.SHA256)
	}
	return out
}

// TestKEEP16KeptMachinesFromFiles is the spec's test of the state file
// (KEEP-8 to KEEP-16, W-9, J-5): each kept machine's state, written by
// state_save once the machine has run on, is opened by a host of its own,
// as another server of the same build opens it, and stands as the state
// put back stands, field for field and byte for byte, its journal the
// state's; run on as the machine ran on, it comes to the same end, its
// answers, RAM, picture and discs the same. Writing the state leaves the
// machine it was kept of as it stood.
func TestKEEP16KeptMachinesFromFiles(t *testing.T) {
	ctx := context.Background()
	for _, c := range keptCases {
		t.Run(c.name, func(t *testing.T) {
			h := stateHost(t)
			a := c.start(t, h)
			kept := must(h.StateKeep(ctx, StateKeepArgs{Handle: a}))
			if c.ended(t, h, a) {
				t.Fatal("it had ended before it was kept")
			}
			c.runOn(t, h, a)
			if !c.ended(t, h, a) {
				t.Fatal("run on, it did not end")
			}
			end, endDiscs := lookAt(t, h, a), discsOf(t, h, a)

			path := filepath.Join(t.TempDir(), "kept.state")
			saved := must(h.StateSave(ctx, StateSaveArgs{Handle: a, State: kept.State, Path: path}))
			b := must(os.ReadFile(path))
			sum := sha256.Sum256(b)
			if saved.File.Path != path || saved.File.SHA256 != hex.EncodeToString(sum[:]) || saved.File.Kind != "state" ||
				saved.Tick != kept.Tick || saved.State != kept.State || saved.Build != "test" || saved.Journal != len(machineOf(t, h, a).states[0].journal) {
				t.Errorf("state_save answered %+v", saved)
			}
			if d := end.differ(lookAt(t, h, a)); d != "" {
				t.Fatalf("writing the state moved the machine:\n%s", d)
			}

			other := stateHost(t)
			o := must(other.Open(ctx, OpenArgs{Machine: MachineName(machineOf(t, h, a).kind.name), State: path}))
			if o.Tick != kept.Tick || o.State == nil || o.State.By != "fields" || o.State.Build != "test" || o.State.Tick != kept.Tick {
				t.Errorf("machine_open answered %+v, %+v", o, o.State)
			}
			if f := o.Files[len(o.Files)-1]; f != saved.File {
				t.Errorf("machine_open names the state file %+v, state_save %+v", f, saved.File)
			}

			must(h.StateRestore(ctx, StateArgs{Handle: a, State: kept.State}))
			if d := lookAt(t, h, a).differ(lookAt(t, other, o.Handle)); d != "" {
				t.Fatalf("opened from its file, the machine is not the state put back:\n%s", d)
			}
			c.runOn(t, other, o.Handle)
			if d := end.differ(lookAt(t, other, o.Handle)); d != "" {
				t.Errorf("run on from its file, the machine does not end where the machine kept ended:\n%s", d)
			}
			if got := discsOf(t, other, o.Handle); !slices.Equal(got, endDiscs) {
				t.Errorf("run on from its file, the discs are %v; the machine kept ended with %v", got, endDiscs)
			}
		})
	}
}

// TestKEEP18FramesFromFile: a run by frames from a state file, kept at a
// tick in the middle of a frame and of an instruction's wait, ends where it
// ends on the machine kept, its answer the same; and so does a stretch
// gathered, every write to the screen's first line listed.
func TestKEEP18FramesFromFile(t *testing.T) {
	ctx := context.Background()
	for _, c := range branchCases {
		t.Run(c.machine, func(t *testing.T) {
			h := stateHost(t)
			a := must(h.Open(ctx, OpenArgs{Machine: MachineName(c.machine)})).Handle
			must(h.Run(ctx, RunArgs{Handle: a, Frames: ptr(c.boot), Keys: []Key{KeyNamed("A")}}))
			must(h.Run(ctx, RunArgs{Handle: a, Ticks: ptr(uint64(31337))}))
			path := filepath.Join(t.TempDir(), "mid.state")
			must(h.StateSave(ctx, StateSaveArgs{Handle: a, Path: path}))
			// The file opens where the machine was kept, mid-frame and
			// mid-wait, and opens alike each time it is opened.
			first := stateHost(t)
			o := must(first.Open(ctx, OpenArgs{Machine: MachineName(c.machine), State: path}))
			kept := lookAt(t, h, a)
			if d := kept.differ(lookAt(t, first, o.Handle)); d != "" {
				t.Errorf("opened from its file, the machine does not stand where it was kept:\n%s", d)
			}
			other := stateHost(t)
			b := must(other.Open(ctx, OpenArgs{Machine: MachineName(c.machine), State: path})).Handle
			if d := lookAt(t, first, o.Handle).differ(lookAt(t, other, b)); d != "" {
				t.Errorf("opened twice from one file, the two machines differ:\n%s", d)
			}

			screen := "&C000"
			if c.machine == "spectrum48" {
				screen = "&4000"
			}
			gather := RunArgs{Frames: ptr(uint64(7)), Keys: []Key{KeyNamed("B")}}
			gather.Gather = []Condition{{Kind: "write", Address: Address(screen), AddressTo: Address("&FFFF")}}
			for _, r := range []RunArgs{{Frames: ptr(uint64(5))}, gather, {Frames: ptr(uint64(3))}} {
				r.Handle = a
				live := answer(t, must(h.Run(ctx, r)))
				r.Handle = b
				if got := answer(t, must(other.Run(ctx, r))); got != live {
					t.Errorf("run %s: from the file it answered\n%s\nand on the machine kept\n%s", must(json.Marshal(r)), got, live)
				}
			}
			if d := lookAt(t, h, a).differ(lookAt(t, other, b)); d != "" {
				t.Errorf("run by frames, the machine from the file ends elsewhere:\n%s", d)
			}
		})
	}
}

// TestKEEP1StateFileKeepsEverything writes machines where a snapshot
// could not, and where the board keeps what no snapshot holds: inside a
// chain of prefixes, inside an interrupt's handler with the account of
// handlers open, with keys held by set, a 6128 with its second 64K paged
// in; each opened from its file stands as it stood and runs on alike,
// clean stops and all (KEEP-1, KEEP-9, KEEP-11).
func TestKEEP1StateFileKeepsEverything(t *testing.T) {
	ctx := context.Background()
	for _, c := range branchCases {
		for _, where := range []string{"prefixes", "handler", "paged"} {
			if where == "paged" && c.machine != "cpc6128" {
				continue
			}
			t.Run(c.machine+" "+where, func(t *testing.T) {
				h := stateHost(t)
				a := must(h.Open(ctx, OpenArgs{Machine: MachineName(c.machine)})).Handle
				must(h.Run(ctx, RunArgs{Handle: a, Frames: ptr(c.boot)}))
				switch where {
				case "prefixes":
					c.chain(t, h, a)
					for i := 0; must(h.Run(ctx, RunArgs{Handle: a, Ticks: ptr(uint64(1))})).Stop != "unsettled"; i++ {
						if i == 100 {
							t.Fatal("no run stopped inside the chain")
						}
					}
				case "handler":
					for i := 0; !machineOf(t, h, a).m.(machine.Interrupts).InHandler(); i++ {
						if i == 100000 {
							t.Fatal("never inside a handler")
						}
						must(h.Step(ctx, StepArgs{Handle: a, Instructions: 1}))
					}
				case "paged":
					must(h.Poke(ctx, PokeArgs{Handle: a, Address: "&14000", Bytes: "C9 C9 C9", RAM: true}))
					must(h.Set(ctx, SetArgs{Handle: a, Values: json.RawMessage(`{"mmr": "&C4", "keyboard.lines[8]": "&F7"}`)}))
				}
				path := filepath.Join(t.TempDir(), where+".state")
				must(h.StateSave(ctx, StateSaveArgs{Handle: a, Path: path}))
				other := stateHost(t)
				b := must(other.Open(ctx, OpenArgs{Machine: MachineName(c.machine), State: path})).Handle
				if d := lookAt(t, h, a).differ(lookAt(t, other, b)); d != "" {
					t.Fatalf("opened from its file, the machine is not the one written:\n%s", d)
				}
				for _, r := range []RunArgs{{Ticks: ptr(uint64(1000)), Clean: true}, {Frames: ptr(uint64(20))}} {
					r.Handle = a
					live := answer(t, must(h.Run(ctx, r)))
					r.Handle = b
					if got := answer(t, must(other.Run(ctx, r))); got != live {
						t.Errorf("run %s: from the file it answered\n%s\nand on the machine written\n%s", must(json.Marshal(r)), got, live)
					}
				}
				must(h.Type(ctx, TypeArgs{Handle: a, Text: c.text}))
				must(other.Type(ctx, TypeArgs{Handle: b, Text: c.text}))
				if d := lookAt(t, h, a).differ(lookAt(t, other, b)); d != "" {
					t.Errorf("run on, the machine from the file ends elsewhere:\n%s", d)
				}
			})
		}
	}
}

// TestKEEP15StateFileJournalAndFiles: a machine stood up from a state
// file carries the state's journal on, the first entry its machine_open
// with the snapshot it was opened from, and names the files its journal
// names, the firmware and that snapshot; machine_open names what it read
// for this open, the firmware and the state file (KEEP-15, J-5, FILE-1).
// Requests made of it then are entered after the state's.
func TestKEEP15StateFileJournalAndFiles(t *testing.T) {
	ctx := context.Background()
	h := stateHost(t)
	a := must(h.Open(ctx, OpenArgs{Machine: "spectrum48"})).Handle
	must(h.Run(ctx, RunArgs{Handle: a, Frames: ptr(uint64(130))}))
	snap := filepath.Join(t.TempDir(), "first.sna")
	must(h.SnapshotSave(ctx, SnapshotSaveArgs{Handle: a, Path: snap}))
	s := must(h.Open(ctx, OpenArgs{Machine: "spectrum48", Snapshot: snap}))
	must(h.Type(ctx, TypeArgs{Handle: s.Handle, Text: "p6*7\n"}))
	path := filepath.Join(t.TempDir(), "typed.state")
	saved := must(h.StateSave(ctx, StateSaveArgs{Handle: s.Handle, Path: path}))
	want := must(h.Journal(ctx, JournalArgs{Handle: s.Handle}))

	other := stateHost(t)
	o := must(other.Open(ctx, OpenArgs{Machine: "spectrum48", State: path}))
	if len(o.Files) != 2 || o.Files[0].Kind != "firmware" || o.Files[0] != s.Files[0] || o.Files[1] != saved.File {
		t.Errorf("machine_open names the files %+v; want the firmware and the state file", o.Files)
	}
	got := must(other.Journal(ctx, JournalArgs{Handle: o.Handle}))
	if string(must(json.Marshal(got.Entries))) != string(must(json.Marshal(want.Entries))) || !slices.Equal(got.Files, want.Files) {
		t.Errorf("opened from its file, the journal is\n%+v\nwant the state's\n%+v", got, want)
	}
	if len(got.Files) != 2 || got.Files[1].Kind != "snapshot" || got.Files[1].Path != snap {
		t.Errorf("the journal names the files %+v; want the firmware and the snapshot", got.Files)
	}
	if o.State.Journal != want.Total {
		t.Errorf("machine_open says the journal holds %d entries; it holds %d", o.State.Journal, want.Total)
	}
	must(other.Run(ctx, RunArgs{Handle: o.Handle, Frames: ptr(uint64(2))}))
	after := must(other.Journal(ctx, JournalArgs{Handle: o.Handle}))
	if after.Total != want.Total+1 || after.Entries[after.Total-1].Tool != "run" || after.Entries[after.Total-1].Tick != saved.Tick {
		t.Errorf("a run made of it is entered as %+v", after.Entries[after.Total-1])
	}

	// Replayed on this build, the journal makes the machine again.
	r := replayJournal(t, stateHost(t), want.Entries)
	_ = r
}

// TestStateSaveRefusals: state_save without a path, over a file, of a
// state the machine does not hold; machine_open of a state file with a
// snapshot or a crtc beside it, or naming another machine; each refused
// with the machine as it stood and nothing written or stood up.
func TestStateSaveRefusals(t *testing.T) {
	ctx := context.Background()
	h := stateHost(t)
	a := openCPC(t, h)
	dir := t.TempDir()
	good := filepath.Join(dir, "good.state")
	must(h.StateSave(ctx, StateSaveArgs{Handle: a, Path: good}))
	before := lookAt(t, h, a)
	for _, c := range []struct {
		args StateSaveArgs
		want string
	}{
		{StateSaveArgs{Handle: a}, `"path" is missing`},
		{StateSaveArgs{Handle: a, Path: good}, "already there"},
		{StateSaveArgs{Handle: a, Path: filepath.Join(dir, "x.state"), State: "s1"}, `holds no state "s1"`},
		{StateSaveArgs{Handle: "m7", Path: filepath.Join(dir, "x.state")}, `"m7"`},
	} {
		if _, err := h.StateSave(ctx, c.args); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("state_save %+v: %v; want %q", c.args, err, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "x.state")); err == nil {
		t.Error("a refused state_save wrote its file")
	}
	if d := before.differ(lookAt(t, h, a)); d != "" {
		t.Errorf("refused, the machine changed:\n%s", d)
	}
	other := stateHost(t)
	for _, c := range []struct {
		args OpenArgs
		want string
	}{
		{OpenArgs{Machine: "cpc464", State: good}, `it holds a "cpc6128", and argument "machine" is cpc464`},
		{OpenArgs{Machine: "cpc6128", State: good, CRTC: ptr(CRTCType(1))}, `"crtc" is given with "state"`},
		{OpenArgs{Machine: "cpc6128", State: good, Snapshot: good}, `"snapshot" and "state" are both given`},
		{OpenArgs{Machine: "cpc6128", State: filepath.Join(dir, "none.state")}, "cannot be reached"},
		{OpenArgs{Machine: "cpc6128", State: dir}, "not a regular file"},
	} {
		if _, err := other.Open(ctx, c.args); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("machine_open %+v: %v; want %q", c.args, err, c.want)
		}
	}
	if l := must(other.List(ctx)); len(l) != 0 {
		t.Errorf("refused opens stood machines up: %+v", l)
	}
	_ = bytes.Equal
}

// TestKEEP17DiscFromStateFile is the spec's test (KEEP-17): a 6128 that
// has catalogued its disc, its disc controller and drive as AMSDOS set
// them up and its motor still turning, is written to a state file and to
// a snapshot. Opened from the state file, it saves a file of 8K, which
// runs across two tracks of its DATA disc, catalogues it, and loads it
// back byte for byte. Opened from the snapshot, with the same disc put
// in, it finds no disc: the snapshot lost the motor and the controller,
// and AMSDOS, which believes both ready, says the disc is missing.
func TestKEEP17DiscFromStateFile(t *testing.T) {
	ctx := context.Background()
	h := stateHost(t)
	a := openCPC(t, h)
	blank := discFile(t, "blank.dsk", dsktest.DATA())
	must(h.DiscInsert(ctx, DiscInsertArgs{Handle: a, Path: blank}))
	must(h.Type(ctx, TypeArgs{Handle: a, Text: "cat\n"}))
	must(h.Run(ctx, RunArgs{Handle: a, Ticks: ptr(uint64(40 * cpc.TicksPerFrame))}))
	if must(h.Inspect(ctx, InspectArgs{Handle: a, Path: "fdc.units[0].motor"})).Value != true {
		t.Fatal("the drive's motor has stopped already")
	}
	dir := t.TempDir()
	state, snap := filepath.Join(dir, "catalogued.state"), filepath.Join(dir, "catalogued.sna")
	must(h.StateSave(ctx, StateSaveArgs{Handle: a, Path: state}))
	must(h.SnapshotSave(ctx, SnapshotSaveArgs{Handle: a, Path: snap}))

	pattern := make([]byte, 0x2000)
	for i := range pattern {
		pattern[i] = byte(i*7 + i>>8)
	}
	save := func(h *Host, b string) string {
		must(h.Poke(ctx, PokeArgs{Handle: b, Address: "&4000", Bytes: hexPairs(pattern)}))
		must(h.Type(ctx, TypeArgs{Handle: b, Text: "save\"big\",b,&4000,&2000\n"}))
		must(h.Run(ctx, RunArgs{Handle: b, Ticks: ptr(uint64(300 * cpc.TicksPerFrame))}))
		must(h.Type(ctx, TypeArgs{Handle: b, Text: "cat\n"}))
		must(h.Run(ctx, RunArgs{Handle: b, Ticks: ptr(uint64(100 * cpc.TicksPerFrame))}))
		return cpcScreen(t, h, b)
	}

	fromState := stateHost(t)
	b := must(fromState.Open(ctx, OpenArgs{Machine: "cpc6128", State: state})).Handle
	if screen := save(fromState, b); !strings.Contains(screen, "BIG     .BIN   9K\n169K free") {
		t.Fatalf("from the state file, the save was not catalogued:\n%s", screen)
	}
	out := filepath.Join(dir, "saved.dsk")
	must(fromState.DiscSave(ctx, DiscSaveArgs{Handle: b, Path: out}))
	d := must(dsk.Read(must(os.ReadFile(out))))
	var tracks []int
	for c := range d.Cylinders() {
		tr := d.Track(c, 0)
		var data []byte
		for i := range tr.Sectors() {
			s := tr.Sector(i)
			for j := range s.Size {
				data = append(data, d.Byte(s, 0, j))
			}
		}
		for at := 0; at+64 <= len(pattern); at += 64 {
			if bytes.Contains(data, pattern[at:at+64]) {
				tracks = append(tracks, c)
				break
			}
		}
	}
	if len(tracks) < 2 {
		t.Errorf("the file's bytes lie on tracks %v; want two at least", tracks)
	}
	// BASIC loads a file only above its HIMEM, which MEMORY moves down.
	must(fromState.Poke(ctx, PokeArgs{Handle: b, Address: "&4000", Bytes: hexPairs(make([]byte, len(pattern)))}))
	must(fromState.Type(ctx, TypeArgs{Handle: b, Text: "memory &3fff:load\"big\"\n"}))
	must(fromState.Run(ctx, RunArgs{Handle: b, Ticks: ptr(uint64(200 * cpc.TicksPerFrame))}))
	var back []byte
	for at := 0x4000; at < 0x4000+len(pattern); at += 4096 {
		p := must(fromState.Peek(ctx, PeekArgs{Handle: b, Address: ReadAddress(formatAddress(uint32(at))), Length: ptr(4096)}))
		back = append(back, must(parseBytes("bytes", p.Bytes))...)
	}
	if !bytes.Equal(back, pattern) {
		i := 0
		for i < len(back) && back[i] == pattern[i] {
			i++
		}
		t.Errorf("loaded back, the file is not what was saved, from byte %d:\n%s", i, cpcScreen(t, fromState, b))
	}

	fromSnapshot := stateHost(t)
	c := must(fromSnapshot.Open(ctx, OpenArgs{Machine: "cpc6128", Snapshot: snap})).Handle
	must(fromSnapshot.DiscInsert(ctx, DiscInsertArgs{Handle: c, Path: blank}))
	if screen := save(fromSnapshot, c); !strings.Contains(screen, "Drive A: disc missing") || strings.Contains(screen, "BIG") {
		t.Errorf("from the snapshot, the save found its disc:\n%s", screen)
	}
}

// hexPairs writes bytes as poke takes them.
func hexPairs(b []byte) string { return formatBytes(b) }

// TestStateFileAtEveryStage writes a state file again and again as a 6128
// saves to its disc and as a Spectrum loads from its tape, every few
// thousand ticks, so that the disc controller is caught in every phase
// and stage of its commands, searching, reading, writing, seeking, and
// the tape's reader in every phase of its blocks; each file stood up
// again stands as the machine stood, field for field, and at every tenth
// runs on alike (KEEP-9, KEEP-11 to KEEP-13).
func TestStateFileAtEveryStage(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name  string
		start func(t *testing.T, h *Host) string
		ticks uint64
		times int
	}{
		{"a 6128 saving", func(t *testing.T, h *Host) string {
			a := openCPC(t, h)
			must(h.DiscInsert(ctx, DiscInsertArgs{Handle: a, Path: discFile(t, "blank.dsk", dsktest.DATA())}))
			must(h.Type(ctx, TypeArgs{Handle: a, Text: "10 PRINT \"EXAMPLE\"\nsave\"example\n"}))
			// AMSDOS turns the motor on and waits for it to come up to
			// speed before it asks the controller for anything.
			must(h.Run(ctx, RunArgs{Handle: a, Ticks: ptr(uint64(5600000))}))
			return a
		}, 2999, 800},
		{"a Spectrum loading", keptCases[2].start, 20011, 400},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := stateHost(t)
			a := c.start(t, h)
			m := machineOf(t, h, a)
			seen := map[string]bool{}
			for i := range c.times {
				must(h.Run(ctx, RunArgs{Handle: a, Ticks: ptr(c.ticks)}))
				b, err := m.encodeState(h.opts.Build, m.journal)
				if err != nil {
					t.Fatal(err)
				}
				sf, err := decodeState(b)
				if err != nil {
					t.Fatal(err)
				}
				n, _, err := h.fromState(ctx, m.kind, File{Kind: "state"}, sf)
				if err != nil {
					t.Fatalf("at tick %d: %v", m.m.Tick(), err)
				}
				other := New(h.opts)
				other.register(n)
				if d := lookAt(t, h, a).differ(lookAt(t, other, n.handle)); d != "" {
					t.Fatalf("at tick %d, stood up from its file, the machine differs:\n%s", m.m.Tick(), d)
				}
				for _, p := range []string{"fdc.phase", "fdc.stage", "tape.reader.phase"} {
					if v, err := h.Inspect(ctx, InspectArgs{Handle: a, Path: p}); err == nil {
						seen[p+" "+fmt.Sprint(v.Value)] = true
					}
				}
				if i%10 == 0 {
					keep := must(h.StateKeep(ctx, StateKeepArgs{Handle: a}))
					for _, x := range []struct {
						h *Host
						a string
					}{{h, a}, {other, n.handle}} {
						must(x.h.Run(ctx, RunArgs{Handle: x.a, Ticks: ptr(uint64(50000))}))
					}
					if d := lookAt(t, h, a).differ(lookAt(t, other, n.handle)); d != "" {
						t.Fatalf("from tick %d, run on, the machine from its file differs:\n%s", keep.Tick, d)
					}
					must(h.StateRestore(ctx, StateArgs{Handle: a, State: keep.State}))
					must(h.StateDrop(ctx, StateArgs{Handle: a, State: keep.State}))
				}
			}
			var names []string
			for s := range seen {
				names = append(names, s)
			}
			slices.Sort(names)
			t.Logf("caught at %s", strings.Join(names, ", "))
		})
	}
}

// TestStateSaveDiscReplacedSince: a state kept with one disc in, written
// once another disc has taken the drive, holds the disc it kept, and the
// machine keeps the disc it holds now (KEEP-1, KEEP-10).
func TestStateSaveDiscReplacedSince(t *testing.T) {
	ctx := context.Background()
	h := stateHost(t)
	a := openCPC(t, h)
	must(h.DiscInsert(ctx, DiscInsertArgs{Handle: a, Path: discFile(t, "blank.dsk", dsktest.DATA())}))
	must(h.Type(ctx, TypeArgs{Handle: a, Text: "10 PRINT \"EXAMPLE\"\nsave\"example\n"}))
	must(h.Run(ctx, RunArgs{Handle: a, Ticks: ptr(uint64(150 * cpc.TicksPerFrame))}))
	kept := must(h.StateKeep(ctx, StateKeepArgs{Handle: a}))
	keptDiscs := discsOf(t, h, a)
	must(h.DiscInsert(ctx, DiscInsertArgs{Handle: a, Path: discFile(t, "other.dsk", dsktest.DATA())}))
	now := lookAt(t, h, a)
	nowDiscs := discsOf(t, h, a)
	if slices.Equal(nowDiscs, keptDiscs) {
		t.Fatal("the disc put in is the one kept")
	}
	path := filepath.Join(t.TempDir(), "kept.state")
	must(h.StateSave(ctx, StateSaveArgs{Handle: a, State: kept.State, Path: path}))
	if d := now.differ(lookAt(t, h, a)); d != "" || !slices.Equal(discsOf(t, h, a), nowDiscs) {
		t.Fatalf("writing the state changed the machine:\n%s", d)
	}
	other := stateHost(t)
	o := must(other.Open(ctx, OpenArgs{Machine: "cpc6128", State: path}))
	if got := discsOf(t, other, o.Handle); !slices.Equal(got, keptDiscs) {
		t.Errorf("opened from its file, the discs are %v; the state kept %v", got, keptDiscs)
	}
	catalogues(t, other, o.Handle, "the disc kept", "Drive A: user  0", "EXAMPLE .BAS   1K", "177K free")
}
