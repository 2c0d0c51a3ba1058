package server

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"colophon/internal/firmware"
	"colophon/internal/host"
	"colophon/internal/machine/spectrum"
	"colophon/internal/shared"
)

// TestToolsListed holds W-12 and W-14 for this tools: each is
// listed with a description that names every argument it takes, and with
// schemas for what it takes and answers.
func TestToolsListed(t *testing.T) {
	w := newWire(t)
	mustResult(t, "initialize", w.initialize("2025-11-25"))
	list := mustResult(t, "tools/list", w.call("tools/list", nil))
	want := []string{"machine_open", "machine_list", "machine_close", "run", "step", "call",
		"inspect", "set", "peek", "poke", "type", "monitor", "journal"}
	tools := map[string]map[string]any{}
	var names []string
	for _, tool := range list["tools"].([]any) {
		tool := tool.(map[string]any)
		tools[tool["name"].(string)] = tool
		names = append(names, tool["name"].(string))
	}
	for _, name := range want {
		tool, ok := tools[name]
		if !ok {
			t.Errorf("tools/list lacks %s; it lists %v", name, names)
			continue
		}
		desc, _ := tool["description"].(string)
		props, _ := tool["inputSchema"].(map[string]any)["properties"].(map[string]any)
		for prop := range props {
			if !strings.Contains(desc, "- "+prop+" (required):") && !strings.Contains(desc, "- "+prop+":") {
				t.Errorf("%s's description does not describe its argument %q", name, prop)
			}
		}
		if tool["outputSchema"] == nil {
			t.Errorf("%s has no output schema", name)
		}
	}
}

// TestMachineOpen holds W-5, W-6, S-7, S-8 and FILE-1: each machine is
// built by its command-line name, a CPC's 6845 of type 0 unless given
// another, and the answer names every file read by its absolute path and
// SHA-256, the firmware read as the machine is opened.
func TestMachineOpen(t *testing.T) {
	roms := shared.TestPath(t, "roms")
	w := machineWire(t)
	sum := func(name string) string {
		b, err := os.ReadFile(filepath.Join(roms, name))
		if err != nil {
			t.Fatal(err)
		}
		s := sha256.Sum256(b)
		return hex.EncodeToString(s[:])
	}
	fw := func(name string) host.File {
		return host.File{Kind: "firmware", Path: filepath.Join(roms, name), SHA256: sum(name)}
	}
	tests := []struct {
		args  args
		crtc  int // -1 for none
		files []host.File
	}{
		{args{"machine": "spectrum48"}, -1, []host.File{fw("spectrum48.rom")}},
		{args{"machine": "cpc464"}, 0, []host.File{fw("cpc464.rom")}},
		{args{"machine": "cpc664", "crtc": 1}, 1, []host.File{fw("cpc664.rom"), fw("amsdos.rom")}},
		{args{"machine": "cpc6128", "crtc": 4}, 4, []host.File{fw("cpc6128.rom"), fw("amsdos.rom")}},
		{args{"machine": "cpc6128"}, 0, []host.File{fw("cpc6128.rom"), fw("amsdos.rom")}},
	}
	for i, tt := range tests {
		var o host.Opened
		w.tool("machine_open", tt.args, &o)
		if want := "m" + string(rune('1'+i)); o.Handle != want {
			t.Errorf("open %v: handle %s, want %s", tt.args, o.Handle, want)
		}
		if o.Machine != tt.args["machine"] || o.Tick != 0 {
			t.Errorf("open %v: answered %+v", tt.args, o)
		}
		switch {
		case tt.crtc < 0 && o.CRTC != nil:
			t.Errorf("open %v: a Spectrum answered a crtc type %d", tt.args, *o.CRTC)
		case tt.crtc >= 0 && (o.CRTC == nil || *o.CRTC != tt.crtc):
			t.Errorf("open %v: crtc %v, want %d", tt.args, o.CRTC, tt.crtc)
		}
		if mustJSON(t, o.Files) != mustJSON(t, tt.files) {
			t.Errorf("open %v: files %s, want %s", tt.args, mustJSON(t, o.Files), mustJSON(t, tt.files))
		}
	}
}

// TestMachineOpenSixtyHz: sixty_hz true wires a CPC's link for 60 Hz,
// which inspect reads as fifty_hz false, and the journal's machine_open
// says so; false, or none, leaves the link at 50 Hz and the journal as it
// was before the argument was (issue 16: the window's --sixty-hz).
func TestMachineOpenSixtyHz(t *testing.T) {
	w := machineWire(t)
	for _, c := range []struct {
		args    args
		fifty   bool
		journal string
	}{
		{args{"machine": "cpc464", "sixty_hz": true}, false, `{"machine":"cpc464","crtc":0,"sixty_hz":true}`},
		{args{"machine": "cpc6128", "sixty_hz": false}, true, `{"machine":"cpc6128","crtc":0}`},
		{args{"machine": "cpc664"}, true, `{"machine":"cpc664","crtc":0}`},
	} {
		var o host.Opened
		w.tool("machine_open", c.args, &o)
		if got := w.inspect(o.Handle, "fifty_hz"); got != c.fifty {
			t.Errorf("open %v: fifty_hz %v, want %v", c.args, got, c.fifty)
		}
		var j host.JournalPage
		w.tool("journal", args{"handle": o.Handle}, &j)
		if got := string(j.Entries[0].Arguments); got != c.journal {
			t.Errorf("open %v: journaled as %s, want %s", c.args, got, c.journal)
		}
	}
}

// TestMachineOpenRefused: a request machine_open cannot carry out is
// refused saying why, naming the argument or the file, and stands nothing
// up (S-9, S-10, A-1, W-6, FILE-5 to FILE-7, A-11).
func TestMachineOpenRefused(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, size int) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, make([]byte, size), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	short := write("short.sna", 49178)
	long := write("long.sna", 49180)
	huge := filepath.Join(dir, "huge.sna")
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	// A sparse file one byte past the limit: nothing of it is read.
	if err := f.Truncate(8<<20 + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	good := write("good.sna", 49179)
	wd, _ := os.Getwd()

	tests := []struct {
		name string
		args args
		want []string // each must be in the refusal
	}{
		{"no machine", args{}, []string{`missing argument "machine"`}},
		{"unknown machine", args{"machine": "cpc9128"}, []string{`argument "machine" is "cpc9128"`, `"cpc6128"`}},
		{"crtc on a Spectrum", args{"machine": "spectrum48", "crtc": 0}, []string{`argument "crtc"`, "spectrum48 has no 6845"}},
		{"crtc 5", args{"machine": "cpc6128", "crtc": 5}, []string{`argument "crtc" is 5`, "0 to 4"}},
		{"sixty_hz on a Spectrum", args{"machine": "spectrum48", "sixty_hz": true}, []string{`argument "sixty_hz"`, "spectrum48 has no 50/60 Hz link"}},
		{"sixty_hz false on a Spectrum", args{"machine": "spectrum48", "sixty_hz": false}, []string{`argument "sixty_hz"`, "only a CPC takes sixty_hz"}},
		{"sixty_hz as text", args{"machine": "cpc6128", "sixty_hz": "true"}, []string{`argument "sixty_hz" is a string`}},
		{"sixty_hz with a state", args{"machine": "cpc6128", "sixty_hz": true, "state": "any.state"}, []string{`argument "sixty_hz" is given with "state"`}},
		{"crtc as text", args{"machine": "cpc6128", "crtc": "0"}, []string{`argument "crtc" is a string`}},
		{"no snapshot file", args{"machine": "spectrum48", "snapshot": "nothing/here.sna"},
			[]string{filepath.Join(wd, "nothing/here.sna"), "cannot be reached", "working directory is " + wd}},
		{"a directory", args{"machine": "spectrum48", "snapshot": dir}, []string{dir + " is not a regular file (a directory)"}},
		{"Spectrum snapshot short", args{"machine": "spectrum48", "snapshot": short}, []string{short + " is 49178 bytes", "exactly 49179"}},
		{"Spectrum snapshot long", args{"machine": "spectrum48", "snapshot": long}, []string{long + " is 49180 bytes", "exactly 49179"}},
		{"CPC snapshot past 8MB", args{"machine": "cpc6128", "snapshot": huge}, []string{huge + " is 8388609 bytes", "at most 8MB"}},
		{"hash without a file", args{"machine": "spectrum48", "snapshot_sha256": strings.Repeat("0", 64)}, []string{`"snapshot_sha256" is given without "snapshot"`}},
		{"hash of another file", args{"machine": "spectrum48", "snapshot": good, "snapshot_sha256": strings.Repeat("0", 64)},
			[]string{"snapshot " + good + " has SHA-256 ", "not " + strings.Repeat("0", 64)}},
	}
	w := machineWire(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := w.refused("machine_open", tt.args)
			for _, want := range tt.want {
				if !strings.Contains(got, want) {
					t.Errorf("refused with %q, which lacks %q", got, want)
				}
			}
		})
	}
	var list MachineList
	w.tool("machine_list", nil, &list)
	if len(list.Machines) != 0 {
		t.Errorf("refused opens stood machines up: %+v", list)
	}
	// The handles are given from m1 still.
	if h := w.open("spectrum48"); h != "m1" {
		t.Errorf("the first machine stood up after refusals is %s, want m1", h)
	}
}

// TestFirmwareRefused holds S-9, S-10 and A-1: a missing firmware file is
// reported by name when a machine that needs it is opened, and nothing
// else is refused for it; a file of the wrong size is refused with its
// size and the size it must be.
func TestFirmwareRefused(t *testing.T) {
	roms := shared.TestPath(t, "roms")
	dir := t.TempDir()
	// A Spectrum ROM a byte too long, and a 464's firmware as it should be.
	rom, err := os.ReadFile(filepath.Join(roms, "spectrum48.rom"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "spectrum48.rom"), append(rom, 0), 0o644)
	fw464, err := os.ReadFile(filepath.Join(roms, "cpc464.rom"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "cpc464.rom"), fw464, 0o644)
	os.WriteFile(filepath.Join(dir, "cpc6128.rom"), fw464, 0o644)

	w := dial(t, New(Options{Build: testBuild, Host: host.New(host.Options{
		Firmware: firmware.Loader{Dirs: []string{dir}, Fit: firmware.Prefix}, Build: testBuild})}))
	mustResult(t, "initialize", w.initialize("2025-11-25"))

	got := w.refused("machine_open", args{"machine": "spectrum48"})
	if want := "firmware spectrum48.rom: " + filepath.Join(dir, "spectrum48.rom") + " is 16385 bytes; it must be exactly 16384"; !strings.Contains(got, want) {
		t.Errorf("a long ROM refused as %q, want %q", got, want)
	}
	got = w.refused("machine_open", args{"machine": "cpc664"})
	if !strings.Contains(got, "firmware cpc664.rom not found") || !strings.Contains(got, dir) {
		t.Errorf("a missing 664 ROM refused as %q, want it named with the directory searched", got)
	}
	got = w.refused("machine_open", args{"machine": "cpc6128"})
	if !strings.Contains(got, "firmware amsdos.rom not found") {
		t.Errorf("a missing AMSDOS refused as %q, want it named", got)
	}
	// The 464 needs neither.
	if h := w.open("cpc464"); h != "m1" {
		t.Errorf("the 464 opened as %s", h)
	}
}

// TestSnapshotOpen holds W-8, FILE-1, FILE-3 and FILE-4: a snapshot is
// loaded once the firmware is fitted, the machine's tick counts from it,
// and it is named by its absolute path, from a relative one, and by the
// SHA-256 of what it held, which changes as the file does.
func TestSnapshotOpen(t *testing.T) {
	rom, err := os.ReadFile(shared.TestPath(t, "roms", "spectrum48.rom"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := spectrum.New(rom)
	if err != nil {
		t.Fatal(err)
	}
	s.RunTicks(100 * 69888)
	snap, err := s.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "booted.sna")
	if err := os.WriteFile(path, snap, 0o644); err != nil {
		t.Fatal(err)
	}
	wd, _ := os.Getwd()
	rel, err := filepath.Rel(wd, path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(snap)

	w := machineWire(t)
	var o host.Opened
	w.tool("machine_open", args{"machine": "spectrum48", "snapshot": rel}, &o)
	want := host.File{Kind: "snapshot", Path: path, SHA256: hex.EncodeToString(sum[:])}
	if len(o.Files) != 2 || o.Files[1] != want || o.Tick != 0 {
		t.Fatalf("opened %+v, want tick 0 and the snapshot named %+v", o, want)
	}
	// The RAM is the snapshot's, but for the two bytes under its stack,
	// where the file keeps the program counter.
	ram := append(w.peek(o.Handle, "&4000", 4096), nil...)
	for a := 0x5000; a < 0x10000; a += 4096 {
		ram = append(ram, w.peek(o.Handle, a, 4096)...)
	}
	sp := int(snap[23]) | int(snap[24])<<8
	for i, v := range ram {
		a := 0x4000 + i
		if a == sp || a == sp+1 {
			continue
		}
		if v != snap[27+i] {
			t.Fatalf("&%04X holds &%02X, the snapshot &%02X", a, v, snap[27+i])
		}
	}
	if pc := w.inspect(o.Handle, "cpu.pc"); pc != float64(int(snap[27+sp-0x4000])|int(snap[27+sp+1-0x4000])<<8) {
		t.Errorf("cpu.pc is %v, not what the snapshot's stack holds", pc)
	}

	// Its hash in capitals is its hash (issue 19, item 10), and the
	// journal names it in the lower case the answers write.
	var upper host.Opened
	w.tool("machine_open", args{"machine": "spectrum48", "snapshot": path, "snapshot_sha256": strings.ToUpper(want.SHA256)}, &upper)
	if upper.Files[1] != want {
		t.Errorf("opened by its hash in capitals: %+v, want %+v", upper.Files[1], want)
	}

	// The same file changed gives another hash.
	snap[27] ^= 0xFF
	os.WriteFile(path, snap, 0o644)
	var again host.Opened
	w.tool("machine_open", args{"machine": "spectrum48", "snapshot": path}, &again)
	if again.Files[1].SHA256 == o.Files[1].SHA256 {
		t.Errorf("a changed snapshot gave the same hash %s", again.Files[1].SHA256)
	}
	// And asking for the first hash now refuses it.
	if got := w.refused("machine_open", args{"machine": "spectrum48", "snapshot": path, "snapshot_sha256": o.Files[1].SHA256}); !strings.Contains(got, "the file has changed") {
		t.Errorf("a snapshot whose hash changed was refused as %q", got)
	}
}

// TestMachineClose holds W-11 and A-17: machine_close waits for what was
// asked before it, puts the machine away, and what is asked after it is
// refused.
func TestMachineClose(t *testing.T) {
	w := machineWire(t)
	h := w.open("spectrum48")
	// A run and the close, asked together: the close answers once the
	// run is done, at the tick the run left.
	w.send(`{"jsonrpc":"2.0","id":901,"method":"tools/call","params":{"name":"run","arguments":{"handle":"m1","frames":300}}}`)
	w.send(`{"jsonrpc":"2.0","id":902,"method":"tools/call","params":{"name":"machine_close","arguments":{"handle":"m1"}}}`)
	w.send(`{"jsonrpc":"2.0","id":903,"method":"tools/call","params":{"name":"peek","arguments":{"handle":"m1","address":0}}}`)
	answers := map[float64]map[string]any{}
	for range 3 {
		r := decodeReply(t, w.recv())
		answers[r.ID.(float64)] = r.Result
	}
	run := answers[901]["structuredContent"].(map[string]any)
	closed := answers[902]["structuredContent"].(map[string]any)
	if run["frames"] != 300.0 || closed["tick"] != run["tick"] || closed["handle"] != h || closed["machine"] != "spectrum48" {
		t.Errorf("run answered %v and close %v: the close did not wait for the run", run, closed)
	}
	if answers[903]["isError"] != true || !strings.Contains(answers[903]["content"].([]any)[0].(map[string]any)["text"].(string), "put away by a machine_close asked before this") {
		t.Errorf("a peek asked after the close answered %v", answers[903])
	}
	if got := w.refused("run", args{"handle": h, "frames": 1}); !strings.Contains(got, `no machine is called "m1": none stands`) {
		t.Errorf("a run of a closed machine was refused as %q", got)
	}
	if got := w.refused("machine_close", args{"handle": "m7"}); !strings.Contains(got, `no machine is called "m7"`) {
		t.Errorf("closing m7 was refused as %q", got)
	}
	// The handle is not given again.
	if h2 := w.open("spectrum48"); h2 != "m2" {
		t.Errorf("the next machine is %s, want m2", h2)
	}
	if got := w.refused("peek", args{"handle": "m1", "address": 0}); !strings.Contains(got, "the machines standing are m2") {
		t.Errorf("a peek of m1 was refused as %q", got)
	}
}
