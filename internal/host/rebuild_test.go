package host

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"colophon/internal/firmware"
	"colophon/internal/shared"
)

// buildHost is a host of a build of another name, reading the shared
// firmware, as a server of another build would.
func buildHost(tb testing.TB, build string) *Host {
	tb.Helper()
	return New(Options{Firmware: firmware.Loader{Dirs: []string{shared.TestPath(tb, "roms")}}, Build: build})
}

// TestKEEP14AnotherBuildRebuilds: a state file another build wrote is not
// read field by field but made again from the journal in its first line,
// request by request, the disc and the tape its requests put in read again
// and held to their hashes; the answer says so, names the files read, and
// the machine stands as the state put back stands, its journal the
// state's (KEEP-14, KEEP-15, J-6). Each of the spec's kept machines is
// made so.
func TestKEEP14AnotherBuildRebuilds(t *testing.T) {
	ctx := context.Background()
	for _, c := range keptCases {
		t.Run(c.name, func(t *testing.T) {
			h := buildHost(t, "0.0.0+mcp.another.emulator.another")
			a := c.start(t, h)
			kept := must(h.StateKeep(ctx, StateKeepArgs{Handle: a}))
			c.runOn(t, h, a)
			end := lookAt(t, h, a)
			path := filepath.Join(t.TempDir(), "other.state")
			must(h.StateSave(ctx, StateSaveArgs{Handle: a, State: kept.State, Path: path}))

			this := stateHost(t)
			o := must(this.Open(ctx, OpenArgs{Machine: MachineName(machineOf(t, h, a).kind.name), State: path}))
			if o.State == nil || o.State.By != "journal" || o.State.Build != "0.0.0+mcp.another.emulator.another" || o.Tick != kept.Tick {
				t.Fatalf("machine_open answered %+v, %+v; want the journal made again", o, o.State)
			}
			if o.Handle != "m1" {
				t.Errorf("the machine made again is %s, not the host's first", o.Handle)
			}
			want := 3 // the firmware, AMSDOS and the state file
			if c.name != "cpc6128 writing its disc" {
				want = 2
			}
			if len(o.Files) != want+1 || o.Files[want-1].Kind != "state" || o.Files[want].Kind == "state" {
				t.Errorf("machine_open names the files %+v; want the firmware, the state file and the medium its journal put in", o.Files)
			}
			must(h.StateRestore(ctx, StateArgs{Handle: a, State: kept.State}))
			if d := lookAt(t, h, a).differ(lookAt(t, this, o.Handle)); d != "" {
				t.Fatalf("made again from its journal, the machine is not the state:\n%s", d)
			}
			c.runOn(t, this, o.Handle)
			if d := end.differ(lookAt(t, this, o.Handle)); d != "" {
				t.Errorf("run on, the machine made again ends elsewhere:\n%s", d)
			}
		})
	}
}

// TestJ7RebuildWritesFilesElsewhere: a journal whose run wrote a file is
// made again writing the file elsewhere, held to the hash the journal
// gives it, and the file the first run wrote is left as it was (J-7,
// A file that no longer holds what the journal's hash says refuses
// the open, naming the entry, and stands nothing up.
func TestJ7RebuildWritesFilesElsewhere(t *testing.T) {
	ctx := context.Background()
	h := buildHost(t, "another")
	a := must(h.Open(ctx, OpenArgs{Machine: "spectrum48"})).Handle
	written := filepath.Join(t.TempDir(), "writes.jsonl")
	r := RunArgs{Handle: a, Frames: ptr(uint64(3))}
	r.Gather = []Condition{{Kind: "write", Address: "&4000", AddressTo: "&57FF"}}
	r.Path = written
	must(h.Run(ctx, r))
	before := must(os.ReadFile(written))
	path := filepath.Join(t.TempDir(), "run.state")
	must(h.StateSave(ctx, StateSaveArgs{Handle: a, Path: path}))

	this := stateHost(t)
	o := must(this.Open(ctx, OpenArgs{Machine: "spectrum48", State: path}))
	if o.State.By != "journal" {
		t.Fatalf("machine_open answered %+v", o.State)
	}
	if d := lookAt(t, h, a).differ(lookAt(t, this, o.Handle)); d != "" {
		t.Errorf("made again, the machine is not the one written:\n%s", d)
	}
	if b, err := os.ReadFile(written); err != nil || string(b) != string(before) {
		t.Errorf("making the journal again wrote over the file the run wrote (%v)", err)
	}

	// A journal whose file would hold something else.
	b := must(os.ReadFile(path))
	line, rest, _ := strings.Cut(string(b), "\n")
	var l map[string]json.RawMessage
	if err := json.Unmarshal([]byte(line), &l); err != nil {
		t.Fatal(err)
	}
	var j []Entry
	if err := json.Unmarshal(l["journal"], &j); err != nil {
		t.Fatal(err)
	}
	var args map[string]any
	if err := json.Unmarshal(j[1].Arguments, &args); err != nil {
		t.Fatal(err)
	}
	if args["path_sha256"] == nil {
		t.Fatalf("the run is entered without its file's hash: %s", j[1].Arguments)
	}
	args["path_sha256"] = strings.Repeat("0", 64)
	j[1].Arguments = must(json.Marshal(args))
	l["journal"] = must(json.Marshal(j))
	bad := filepath.Join(t.TempDir(), "bad.state")
	if err := os.WriteFile(bad, append(append(must(json.Marshal(l)), '\n'), rest...), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := this.Open(ctx, OpenArgs{Machine: "spectrum48", State: bad}); err == nil || !strings.Contains(err.Error(), `entry 1 ("run" at tick 0)`) {
		t.Errorf("a journal whose file holds something else: %v", err)
	}
	if l := must(this.List(ctx)); len(l) != 1 {
		t.Errorf("a refused open left %d machines standing", len(l))
	}
}

// TestKEEP14FirmwareByHash: a state file is opened only on the firmware it
// was kept on, by its hash: a server whose firmware differs by a byte
// refuses it, naming both hashes, whichever build wrote it, and stands
// nothing up.
func TestKEEP14FirmwareByHash(t *testing.T) {
	ctx := context.Background()
	roms := shared.TestPath(t, "roms")
	changed := t.TempDir()
	for _, name := range []string{"cpc6128.rom", "amsdos.rom"} {
		b := must(os.ReadFile(filepath.Join(roms, name)))
		if name == "amsdos.rom" {
			b[0x3FFF] ^= 1
		}
		if err := os.WriteFile(filepath.Join(changed, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, build := range []string{"test", "another"} {
		h := buildHost(t, build)
		a := openCPC(t, h)
		path := filepath.Join(t.TempDir(), "kept.state")
		must(h.StateSave(ctx, StateSaveArgs{Handle: a, Path: path}))
		amsdos := machineOf(t, h, a).files[1].SHA256
		other := New(Options{Firmware: firmware.Loader{Dirs: []string{changed}}, Build: "test"})
		_, err := other.Open(ctx, OpenArgs{Machine: "cpc6128", State: path})
		if err == nil || !strings.Contains(err.Error(), amsdos) || !strings.Contains(err.Error(), named("firmware", "", must(os.ReadFile(filepath.Join(changed, "amsdos.rom")))).SHA256) {
			t.Errorf("%s: opened on other firmware: %v", build, err)
		}
		if l := must(other.List(ctx)); len(l) != 0 {
			t.Errorf("%s: a refused open left %d machines standing", build, len(l))
		}
	}
}
