package server

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"colophon/internal/host"
	"colophon/internal/media/dsk/dsktest"
	"colophon/internal/media/tape/tapetest"
	"colophon/internal/shared"
)

// buildServer builds the server as make does, naming its build by the
// commit given for both parts, and answers the program's path.
func buildServer(t *testing.T, commit string) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("go is not on PATH to build the server: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "colophon-mcp")
	ldflags := "-X colophon/internal/build.mcp=" + commit + " -X colophon/internal/build.emulator=" + commit
	if out, err := exec.Command(goTool, "build", "-o", bin, "-ldflags", ldflags, serverCommand).CombinedOutput(); err != nil {
		t.Fatalf("building %s: %v\n%s", serverCommand, err, out)
	}
	return bin
}

// processWire starts a server process of its own, reading the shared
// firmware, and answers a client on its standard input and output,
// initialized in 2025-11-25. The process ends with the test.
func processWire(t *testing.T, bin string) *wire {
	t.Helper()
	cmd := exec.Command(bin, "--roms", shared.TestPath(t, "roms"))
	cmd.Dir = t.TempDir()
	in, toServer := io.Pipe()
	cmd.Stdin = in
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		toServer.Close()
		cmd.Wait()
	})
	lines := bufio.NewScanner(out)
	lines.Buffer(make([]byte, 0, 1<<20), 64<<20)
	w := &wire{t: t, toSrv: toServer, lines: lines}
	mustResult(t, "initialize", w.initialize("2025-11-25"))
	return w
}

// A keptMachine is one of the spec's kept machines as a client makes it
// (KEEP-3, KEEP-16): the requests that stand it up to where it is kept,
// and those that run it on to an end that says it did what it was doing.
type keptMachine struct {
	name, machine string
	start         func(w *wire, dir string) string
	runOn         func(w *wire, h string) string // its answers
	ended         func(w *wire, h string) bool
}

var keptMachines = []keptMachine{
	{
		name: "a 6128 kept while AMSDOS writes its disc", machine: "cpc6128",
		start: func(w *wire, dir string) string {
			h := w.boot("cpc6128")
			blank := filepath.Join(dir, "blank.dsk")
			if err := os.WriteFile(blank, dsktest.DATA(), 0o644); err != nil {
				w.t.Fatal(err)
			}
			w.tool("disc_insert", args{"handle": h, "path": blank}, nil)
			w.tool("type", args{"handle": h, "text": "10 PRINT \"EXAMPLE\"\nsave\"example\n"}, nil)
			for range 20000 {
				var fdc struct {
					Phase string `json:"phase"`
					Code  int    `json:"code"`
					Count int    `json:"count"`
				}
				if err := json.Unmarshal([]byte(mustJSON(w.t, w.inspect(h, "fdc"))), &fdc); err != nil {
					w.t.Fatal(err)
				}
				if fdc.Phase == "execution" && fdc.Code&0x1F == 0x05 && fdc.Count > 100 {
					return h
				}
				w.tool("run", args{"handle": h, "ticks": 1000}, nil)
			}
			w.t.Fatal("AMSDOS never wrote")
			return ""
		},
		runOn: func(w *wire, h string) string {
			return w.tool("run", args{"handle": h, "ticks": 200 * 79872}, nil) +
				w.tool("type", args{"handle": h, "text": "cat\n"}, nil) +
				w.tool("run", args{"handle": h, "frames": 150}, nil)
		},
		ended: func(w *wire, h string) bool {
			return strings.Contains(strings.Join(w.screenText(h), "\n"), "EXAMPLE .BAS   1K")
		},
	},
	{
		name: "a CPC kept partway through RUN\"", machine: "cpc464",
		start: func(w *wire, dir string) string {
			h := w.open("cpc464")
			cdt := filepath.Join(dir, "bin.cdt")
			if err := os.WriteFile(cdt, tapetest.CPCBinary("MARKER", 0x4000, 0x4000, []byte{0x3E, 0x42, 0x32, 0x00, 0x50, 0x18, 0xFE}), 0o644); err != nil {
				w.t.Fatal(err)
			}
			w.tool("tape_insert", args{"handle": h, "path": cdt}, nil)
			w.tool("run", args{"handle": h, "frames": 78}, nil)
			w.tool("type", args{"handle": h, "text": "RUN\"\n"}, nil)
			w.tool("run", args{"handle": h, "frames": 10, "keys": []string{"SPACE"}}, nil)
			w.tool("run", args{"handle": h, "frames": 700}, nil)
			return h
		},
		runOn: func(w *wire, h string) string { return w.tool("run", args{"handle": h, "frames": 600}, nil) },
		ended: func(w *wire, h string) bool { return w.peek(h, "&5000", 1)[0] == 0x42 },
	},
	{
		name: "a Spectrum kept partway through LOAD \"\"", machine: "spectrum48",
		start: func(w *wire, dir string) string {
			h := w.boot("spectrum48")
			tap := filepath.Join(dir, "prog.tap")
			poke := tapetest.Line(10, append(append(append([]byte{0xF4}, tapetest.Number(32768)...), ','), tapetest.Number(123)...)...)
			if err := os.WriteFile(tap, tapetest.SpectrumProgram("colophon", 10, poke), 0o644); err != nil {
				w.t.Fatal(err)
			}
			w.tool("tape_insert", args{"handle": h, "path": tap}, nil)
			w.tool("type", args{"handle": h, "text": "j\"\"\n"}, nil)
			w.tool("run", args{"handle": h, "frames": 600}, nil)
			return h
		},
		runOn: func(w *wire, h string) string { return w.tool("run", args{"handle": h, "frames": 300}, nil) },
		ended: func(w *wire, h string) bool { return w.peek(h, "&8000", 1)[0] == 123 },
	},
}

// screenText reads a CPC's screen as monitor's text reads it.
func (w *wire) screenText(h string) []string {
	w.t.Helper()
	var m struct {
		Text []string `json:"text"`
	}
	w.tool("monitor", args{"handle": h, "text": true}, &m)
	return m.Text
}

// look is everything a client can read of a machine, for two to be held
// to each other: every field, all its memory as the processor reads it
// and a CPC's RAM by its own addresses, its picture, its journal and its
// discs as disc_save writes them.
func (w *wire) look(h, machine string) string {
	w.t.Helper()
	var b strings.Builder
	fields := mustJSON(w.t, w.inspect(h, ""))
	b.WriteString(fields + "\n")
	for a := 0; a < 0x10000; a += 4096 {
		fmt.Fprintf(&b, "%X\n", w.peek(h, a, 4096))
	}
	if machine != "spectrum48" {
		size := 0x10000
		if machine == "cpc6128" {
			size = 0x20000
		}
		for a := 0; a < size; a += 4096 {
			var p host.Peeked
			w.tool("peek", args{"handle": h, "address": a, "length": 4096, "ram": true}, &p)
			b.WriteString(p.Bytes + "\n")
		}
	}
	res := w.toolResult("monitor", args{"handle": h})
	content, _ := res["content"].([]any)
	b.WriteString(content[1].(map[string]any)["data"].(string) + "\n")
	b.WriteString(mustJSON(w.t, w.journalOf(h)) + "\n")
	if machine != "cpc464" && machine != "spectrum48" {
		for _, drive := range []string{"A", "B"} {
			var d host.DiscSaved
			res := w.toolResult("disc_save", args{"handle": h, "drive": drive, "path": filepath.Join(w.t.TempDir(), drive+".dsk")})
			if res["isError"] == true {
				b.WriteString("no disc\n")
				continue
			}
			text := res["content"].([]any)[0].(map[string]any)["text"].(string)
			if err := json.Unmarshal([]byte(text), &d); err != nil {
				w.t.Fatal(err)
			}
			b.WriteString(d.File.SHA256 + "\n")
		}
	}
	return b.String()
}

// TestKEEP16StateFilesAcrossServers is the spec's test of state_save and
// machine_open's state across servers (KEEP-8, KEEP-14, KEEP-16, W-9): each
// of the three kept machines is kept, run on to its end, and its state
// written to a file; a second server process of the same build opens the
// file field by field, and runs it on to the same end, its answers, memory,
// RAM, picture, journal and discs byte for byte the first's; and a server
// process of a build of another name makes it again from its journal,
// says so, and comes to the same end.
func TestKEEP16StateFilesAcrossServers(t *testing.T) {
	const commit, other = "0123456789abcdef0123456789abcdef01234567", "fedcba9876543210fedcba9876543210fedcba98"
	this, another := buildServer(t, commit), buildServer(t, other)
	for _, c := range keptMachines {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			first := processWire(t, this)
			h := c.start(first, dir)
			var kept host.StateKept
			first.tool("state_keep", args{"handle": h}, &kept)
			if c.ended(first, h) {
				t.Fatal("it had ended before it was kept")
			}
			answers := c.runOn(first, h)
			if !c.ended(first, h) {
				t.Fatal("run on, it did not end")
			}
			end := first.look(h, c.machine)
			path := filepath.Join(dir, "kept.state")
			var saved host.StateSaved
			first.tool("state_save", args{"handle": h, "state": kept.State, "path": path}, &saved)
			if saved.Tick != kept.Tick || saved.Build != "0.0.0+mcp."+commit+".emulator."+commit {
				t.Errorf("state_save answered %+v", saved)
			}

			for _, server := range []struct {
				bin, by string
			}{{this, "fields"}, {another, "journal"}} {
				second := processWire(t, server.bin)
				var o host.Opened
				second.tool("machine_open", args{"machine": c.machine, "state": path}, &o)
				if o.State == nil || o.State.By != server.by || o.Tick != kept.Tick || o.Handle != "m1" {
					t.Fatalf("a server of the build that wrote it, or not (%s): machine_open answered %+v, %+v", server.by, o, o.State)
				}
				if got := c.runOn(second, o.Handle); got != answers {
					t.Errorf("%s: run on, it answered\n%s\nwhere the machine kept answered\n%s", server.by, got, answers)
				}
				if got := second.look(o.Handle, c.machine); got != end {
					t.Errorf("%s: run on, the machine from the file is not where the machine kept ended", server.by)
				}
			}
		})
	}
}

// TestStateSaveTool holds state_save and machine_open's state as a client
// meets them, in one server: the answer, the file named by its hash, the
// machine as it stood, and every refusal with nothing written and nothing
// stood up.
func TestStateSaveTool(t *testing.T) {
	w := machineWire(t)
	h := w.boot("spectrum48")
	dir := t.TempDir()
	path := filepath.Join(dir, "prompt.state")
	before := mustJSON(t, w.inspect(h, ""))
	var s host.StateSaved
	w.tool("state_save", args{"handle": h, "path": path}, &s)
	if s.Handle != h || s.State != "" || s.File.Path != path || s.File.Kind != "state" || s.Tick != w.tick(h) || s.Build != testBuild || s.Journal != 2 {
		t.Errorf("state_save answered %+v", s)
	}
	if after := mustJSON(t, w.inspect(h, "")); after != before {
		t.Error("state_save moved the machine")
	}
	var o host.Opened
	w.tool("machine_open", args{"machine": "spectrum48", "state": path}, &o)
	if o.Tick != s.Tick || o.State == nil || o.State.By != "fields" || len(o.Files) != 2 || o.Files[1] != s.File {
		t.Errorf("machine_open answered %+v", o)
	}
	if got := mustJSON(t, w.inspect(o.Handle, "")); got != before {
		t.Error("opened from its state file, the machine is not the one written")
	}
	for _, c := range []struct {
		tool string
		args args
		want string
	}{
		{"state_save", args{"handle": h, "path": path}, "a file is already there, and no tool writes over one"},
		{"state_save", args{"handle": h, "state": "s3", "path": filepath.Join(dir, "x.state")}, `holds no state "s3"`},
		{"state_save", args{"handle": h}, `"path"`},
		{"machine_open", args{"machine": "cpc6128", "state": path}, `it holds a "spectrum48"`},
		{"machine_open", args{"machine": "spectrum48", "state": filepath.Join(dir, "none.state")}, "cannot be reached"},
		{"machine_open", args{"machine": "spectrum48", "state": ""}, `argument "state" is empty`},
	} {
		if got := w.refused(c.tool, c.args); !strings.Contains(got, c.want) {
			t.Errorf("%s %v was refused with %q; want %q", c.tool, c.args, got, c.want)
		}
	}
	var list MachineList
	w.tool("machine_list", nil, &list)
	if len(list.Machines) != 2 {
		t.Errorf("after the refusals, %d machines stand", len(list.Machines))
	}
	if _, err := os.Stat(filepath.Join(dir, "x.state")); err == nil {
		t.Error("a refused state_save wrote its file")
	}
}
