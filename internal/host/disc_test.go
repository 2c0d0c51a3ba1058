package host

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"colophon/internal/machine/cpc"
	"colophon/internal/media/dsk/dsktest"
	"colophon/internal/shared"
)

// discFile writes a disc image to a file of its own and answers its path.
func discFile(t testing.TB, name string, b []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// sharedDisc is the path of a disc in the shared media.
func sharedDisc(t testing.TB, name string) string {
	return shared.TestPath(t, "testdata", "media", "cpc", name)
}

// cpcScreen is a CPC's text, its lines' spaces cut, blank ones left out.
func cpcScreen(t *testing.T, h *Host, handle string) string {
	t.Helper()
	var lines []string
	for _, l := range cpcText(t, h, handle) {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "\n")
}

// catalogues types cat at a machine, lets AMSDOS answer, and holds the
// screen's last lines to the catalogue wanted.
func catalogues(t *testing.T, h *Host, handle, what string, want ...string) {
	t.Helper()
	ctx := context.Background()
	must(h.Type(ctx, TypeArgs{Handle: handle, Text: "cat\n"}))
	must(h.Run(ctx, RunArgs{Handle: handle, Ticks: ptr(uint64(150 * cpc.TicksPerFrame))}))
	s := cpcScreen(t, h, handle)
	lines := strings.Split(s, "\n")
	// The catalogue is the lines from the last "cat" to Ready.
	last := 0
	for i, l := range lines {
		if l == "cat" {
			last = i
		}
	}
	got := strings.Join(lines[last+1:], "\n")
	if w := strings.Join(want, "\n") + "\nReady"; !strings.HasPrefix(got, w) {
		t.Errorf("%s: catalogued\n%s\nwant\n%s", what, got, w)
	}
}

// openCPC opens a 6128 and runs it to BASIC's prompt, as the command line
// counts the frames.
func openCPC(t testing.TB, h *Host) string {
	ctx := context.Background()
	a := must(h.Open(ctx, OpenArgs{Machine: "cpc6128"})).Handle
	must(h.Run(ctx, RunArgs{Handle: a, Ticks: ptr(uint64(78 * cpc.TicksPerFrame))}))
	return a
}

// TestDT13SaveToBlankDiscFile is the spec's test (DT-1, DT-2, DT-9, DT-10,
// DT-13): a one-line program saved to a blank disc in SOFT 968's DATA
// format catalogues as EXAMPLE.BAS 1K and 177K free; the same file, put in
// again, is still blank; and the image disc_save wrote, put in after it,
// catalogues as the disc was.
func TestDT13SaveToBlankDiscFile(t *testing.T) {
	ctx := context.Background()
	h := stateHost(t)
	a := openCPC(t, h)
	blank := discFile(t, "blank.dsk", dsktest.DATA())
	in := must(h.DiscInsert(ctx, DiscInsertArgs{Handle: a, Path: blank}))
	sum := sha256.Sum256(dsktest.DATA())
	if in.Drive != "A" || in.File.Path != blank || in.File.SHA256 != hex.EncodeToString(sum[:]) || in.File.Kind != "disc" || in.WriteProtect {
		t.Errorf("disc_insert answered %+v", in)
	}
	if in.Tick != machineOf(t, h, a).m.Tick() {
		t.Errorf("disc_insert's tick %d is not the machine's", in.Tick)
	}
	must(h.Type(ctx, TypeArgs{Handle: a, Text: "10 PRINT \"EXAMPLE\"\nsave\"example\n"}))
	must(h.Run(ctx, RunArgs{Handle: a, Ticks: ptr(uint64(150 * cpc.TicksPerFrame))}))
	example := []string{"Drive A: user  0", "EXAMPLE .BAS   1K", "177K free"}
	catalogues(t, h, a, "saved", example...)

	out := filepath.Join(t.TempDir(), "saved.dsk")
	saved := must(h.DiscSave(ctx, DiscSaveArgs{Handle: a, Path: out}))
	if !saved.Written || saved.File.Path != out || saved.Drive != "A" {
		t.Errorf("disc_save answered %+v", saved)
	}
	if b, _ := os.ReadFile(blank); !bytes.Equal(b, dsktest.DATA()) {
		t.Fatal("the file the disc came from was written")
	}

	// Each disc put in has a second to come ready: the motor turns on
	// from the last read, and AMSDOS asks at once (DT-8).
	must(h.DiscInsert(ctx, DiscInsertArgs{Handle: a, Path: blank}))
	must(h.Run(ctx, RunArgs{Handle: a, Ticks: ptr(uint64(50 * cpc.TicksPerFrame))}))
	catalogues(t, h, a, "the source again", "Drive A: user  0", "178K free")
	must(h.DiscInsert(ctx, DiscInsertArgs{Handle: a, Path: out}))
	must(h.Run(ctx, RunArgs{Handle: a, Ticks: ptr(uint64(50 * cpc.TicksPerFrame))}))
	catalogues(t, h, a, "the image disc_save wrote", example...)

	// A disc nothing wrote to says so, and may save to other bytes than
	// its file's (DT-10).
	again := must(h.DiscSave(ctx, DiscSaveArgs{Handle: a, Path: filepath.Join(t.TempDir(), "again.dsk")}))
	if again.Written {
		t.Error("a disc only catalogued says it was written")
	}
}

// TestDiscJournal: disc_insert is entered with the file's absolute path
// and SHA-256, disc_save is not (J-3, J-4); the journal replayed makes a
// machine that stands as the first (J-6); a replay given a file that has
// changed is refused.
func TestDiscJournal(t *testing.T) {
	ctx := context.Background()
	h := stateHost(t)
	a := openCPC(t, h)
	wd, _ := os.Getwd()
	rel, err := filepath.Rel(wd, sharedDisc(t, "romdump.dsk"))
	if err != nil {
		t.Fatal(err)
	}
	in := must(h.DiscInsert(ctx, DiscInsertArgs{Handle: a, Path: rel, Drive: "b", WriteProtect: true}))
	must(h.Type(ctx, TypeArgs{Handle: a, Text: "cat\n"}))
	must(h.Run(ctx, RunArgs{Handle: a, Ticks: ptr(uint64(150 * cpc.TicksPerFrame))}))
	if s := cpcScreen(t, h, a); !strings.Contains(s, "Drive A: disc missing") {
		t.Errorf("drive A, empty:\n%s", s)
	}
	must(h.Type(ctx, TypeArgs{Handle: a, Text: "c"}))
	must(h.DiscSave(ctx, DiscSaveArgs{Handle: a, Drive: "B", Path: filepath.Join(t.TempDir(), "b.dsk")}))
	j := machineOf(t, h, a).journal
	var entry Entry
	for _, e := range j {
		if e.Tool == "disc_save" {
			t.Error("disc_save was entered")
		}
		if e.Tool == "disc_insert" {
			entry = e
		}
	}
	want := `{"path":"` + in.File.Path + `","sha256":"` + in.File.SHA256 + `","drive":"B","write_protect":true}`
	if string(entry.Arguments) != want || !filepath.IsAbs(in.File.Path) {
		t.Errorf("disc_insert entered as %s, want %s", entry.Arguments, want)
	}
	if in.Drive != "B" || !in.WriteProtect {
		t.Errorf("answered %+v", in)
	}

	// The journal made again.
	b := replayJournal(t, h, j)
	if d := lookAt(t, h, a).differ(lookAt(t, h, b)); d != "" {
		t.Errorf("the journal replayed makes another machine:\n%s", d)
	}
	changed := discFile(t, "changed.dsk", dsktest.DATA())
	if _, err := h.DiscInsert(ctx, DiscInsertArgs{Handle: b, Path: changed, SHA256: in.File.SHA256}); err == nil || !strings.Contains(err.Error(), "the file has changed") {
		t.Errorf("a file that is not the journal's: %v", err)
	}
}

// replayJournal makes each entry of a journal again, on a machine of its
// own, and answers its handle.
func replayJournal(t *testing.T, h *Host, j []Entry) string {
	t.Helper()
	ctx := context.Background()
	var handle string
	for _, e := range j {
		switch e.Tool {
		case "machine_open":
			var a OpenArgs
			decode(t, e.Arguments, &a)
			handle = must(h.Open(ctx, a)).Handle
		case "run":
			var a RunArgs
			decode(t, e.Arguments, &a)
			a.Handle = handle
			must(h.Run(ctx, a))
		case "type":
			var a TypeArgs
			decode(t, e.Arguments, &a)
			a.Handle = handle
			must(h.Type(ctx, a))
		case "disc_insert":
			var a DiscInsertArgs
			decode(t, e.Arguments, &a)
			a.Handle = handle
			must(h.DiscInsert(ctx, a))
		default:
			t.Fatalf("the replay does not make %s", e.Tool)
		}
	}
	return handle
}

// TestDiscRefusals: every request disc_insert and disc_save cannot carry
// out is refused, saying why, and leaves the machine and its journal as
// they were (DT-12, FILE-5 to FILE-7, A-10).
func TestDiscRefusals(t *testing.T) {
	ctx := context.Background()
	h := stateHost(t)
	spectrum := must(h.Open(ctx, OpenArgs{Machine: "spectrum48"})).Handle
	old := must(h.Open(ctx, OpenArgs{Machine: "cpc464"})).Handle
	a := must(h.Open(ctx, OpenArgs{Machine: "cpc6128"})).Handle
	good := discFile(t, "good.dsk", dsktest.DATA())
	dir := t.TempDir()
	huge := filepath.Join(dir, "huge.dsk")
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(16<<20 + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	notDSK := discFile(t, "not.dsk", bytes.Repeat([]byte("x"), 300))
	there := discFile(t, "there.dsk", []byte("keep me"))
	for _, c := range []struct {
		name string
		err  func() error
		want string
	}{
		{"a Spectrum", func() error { _, err := h.DiscInsert(ctx, DiscInsertArgs{Handle: spectrum, Path: good}); return err }, spectrum + ": spectrum48 takes no disc: a 48K Spectrum has no disc interface"},
		{"a 464", func() error { _, err := h.DiscInsert(ctx, DiscInsertArgs{Handle: old, Path: good}); return err }, old + ": cpc464 takes no disc: a cpc464 has no disc interface, and none can be fitted"},
		{"a 464's disc_save", func() error {
			_, err := h.DiscSave(ctx, DiscSaveArgs{Handle: old, Path: filepath.Join(dir, "x.dsk")})
			return err
		}, "cpc464 takes no disc"},
		{"drive C", func() error {
			_, err := h.DiscInsert(ctx, DiscInsertArgs{Handle: a, Path: good, Drive: "C"})
			return err
		}, `argument "drive" is "C"; the drives are A and B`},
		{"no path", func() error { _, err := h.DiscInsert(ctx, DiscInsertArgs{Handle: a}); return err }, `argument "path" is missing`},
		{"no such file", func() error {
			_, err := h.DiscInsert(ctx, DiscInsertArgs{Handle: a, Path: filepath.Join(dir, "none.dsk")})
			return err
		}, "cannot be reached (the server's working directory is"},
		{"a directory", func() error { _, err := h.DiscInsert(ctx, DiscInsertArgs{Handle: a, Path: dir}); return err }, "is not a regular file (a directory); it was not read"},
		{"over 16MB", func() error { _, err := h.DiscInsert(ctx, DiscInsertArgs{Handle: a, Path: huge}); return err }, "is 16777217 bytes; a disc or a tape is at most 16MB"},
		{"not a DSK", func() error { _, err := h.DiscInsert(ctx, DiscInsertArgs{Handle: a, Path: notDSK}); return err }, `the file opens "xxxx`},
		{"an empty drive", func() error {
			_, err := h.DiscSave(ctx, DiscSaveArgs{Handle: a, Path: filepath.Join(dir, "y.dsk")})
			return err
		}, "drive A holds no disc"},
		{"no save path", func() error { _, err := h.DiscSave(ctx, DiscSaveArgs{Handle: a}); return err }, `argument "path" is missing`},
	} {
		before := lookAt(t, h, a)
		if err := c.err(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want %q", c.name, err, c.want)
		}
		if d := before.differ(lookAt(t, h, a)); d != "" {
			t.Errorf("%s: the machine changed:\n%s", c.name, d)
		}
	}
	must(h.DiscInsert(ctx, DiscInsertArgs{Handle: a, Path: good}))
	if _, err := h.DiscSave(ctx, DiscSaveArgs{Handle: a, Path: there}); err == nil || !strings.Contains(err.Error(), "a file is already there") {
		t.Errorf("saving over a file: %v", err)
	}
	if b, _ := os.ReadFile(there); string(b) != "keep me" {
		t.Error("a file was written over")
	}
}

// TestKEEP7StatesShareADisc: states kept while a disc does not change
// share one copy of it; a state kept after the machine wrote to it takes
// the pages written (KEEP-1, KEEP-7).
func TestKEEP7StatesShareADisc(t *testing.T) {
	ctx := context.Background()
	h := stateHost(t)
	a := openCPC(t, h)
	must(h.DiscInsert(ctx, DiscInsertArgs{Handle: a, Path: discFile(t, "blank.dsk", dsktest.DATA())}))
	must(h.StateKeep(ctx, StateKeepArgs{Handle: a}))
	for range 3 {
		must(h.Run(ctx, RunArgs{Handle: a, Frames: ptr(uint64(1))}))
		if k := must(h.StateKeep(ctx, StateKeepArgs{Handle: a})); k.Bytes > 64<<10 {
			t.Errorf("a state kept a frame on, with the disc unchanged, took %d bytes", k.Bytes)
		}
	}
	disc := len(machineOf(t, h, a).m.(*cpc.CPC).FDC.Disc(0).Image)
	if disc < 256<<10 {
		t.Fatalf("the disc is %d bytes laid out; the test wants one larger than a state", disc)
	}
}

// TestKEEP2DiscReplacedComesBack: a state put back brings back the disc
// that stood in the drive as it stood, though another took its place since
// and the machine wrote to each (KEEP-2, DT-6).
func TestKEEP2DiscReplacedComesBack(t *testing.T) {
	ctx := context.Background()
	h := stateHost(t)
	a := openCPC(t, h)
	must(h.DiscInsert(ctx, DiscInsertArgs{Handle: a, Path: discFile(t, "blank.dsk", dsktest.DATA())}))
	must(h.Type(ctx, TypeArgs{Handle: a, Text: "10 PRINT \"EXAMPLE\"\nsave\"one\n"}))
	must(h.Run(ctx, RunArgs{Handle: a, Ticks: ptr(uint64(150 * cpc.TicksPerFrame))}))
	kept := must(h.StateKeep(ctx, StateKeepArgs{Handle: a}))
	keptDisc := must(h.DiscSave(ctx, DiscSaveArgs{Handle: a, Path: filepath.Join(t.TempDir(), "kept.dsk")}))

	// Written to after the state, then taken out for another, also
	// written to.
	must(h.Type(ctx, TypeArgs{Handle: a, Text: "save\"two\n"}))
	must(h.Run(ctx, RunArgs{Handle: a, Ticks: ptr(uint64(150 * cpc.TicksPerFrame))}))
	must(h.DiscInsert(ctx, DiscInsertArgs{Handle: a, Path: discFile(t, "other.dsk", dsktest.DATA())}))
	must(h.Run(ctx, RunArgs{Handle: a, Ticks: ptr(uint64(50 * cpc.TicksPerFrame))}))
	must(h.Type(ctx, TypeArgs{Handle: a, Text: "save\"three\n"}))
	must(h.Run(ctx, RunArgs{Handle: a, Ticks: ptr(uint64(150 * cpc.TicksPerFrame))}))
	later := must(h.StateKeep(ctx, StateKeepArgs{Handle: a}))

	must(h.StateRestore(ctx, StateArgs{Handle: a, State: kept.State}))
	back := must(h.DiscSave(ctx, DiscSaveArgs{Handle: a, Path: filepath.Join(t.TempDir(), "back.dsk")}))
	if back.File.SHA256 != keptDisc.File.SHA256 || !back.Written {
		t.Errorf("the disc put back is not the disc kept: %s, %s", back.File.SHA256, keptDisc.File.SHA256)
	}
	catalogues(t, h, a, "the disc put back", "Drive A: user  0", "ONE     .BAS   1K", "177K free")

	must(h.StateRestore(ctx, StateArgs{Handle: a, State: later.State}))
	catalogues(t, h, a, "the later disc put back", "Drive A: user  0", "THREE   .BAS   1K", "177K free")
}

// TestKEEP3KeptWhileWriting: a CPC kept while AMSDOS writes its disc, its
// disc controller inside a write, and put back, runs on to where the
// machine kept ran on to, disc bytes and all (KEEP-3, the CPC writing).
func TestKEEP3KeptWhileWriting(t *testing.T) {
	ctx := context.Background()
	h := stateHost(t)
	a := openCPC(t, h)
	must(h.DiscInsert(ctx, DiscInsertArgs{Handle: a, Path: discFile(t, "blank.dsk", dsktest.DATA())}))
	must(h.Type(ctx, TypeArgs{Handle: a, Text: "10 PRINT \"EXAMPLE\"\nsave\"example\n"}))
	field := func(path string) int64 {
		switch v := must(h.Inspect(ctx, InspectArgs{Handle: a, Path: path})).Value.(type) {
		case uint64:
			return int64(v)
		case int64:
			return v
		}
		t.Fatalf("%s is not a number", path)
		return 0
	}
	writing := func() bool {
		phase := must(h.Inspect(ctx, InspectArgs{Handle: a, Path: "fdc.phase"})).Value
		return phase == "execution" && field("fdc.code")&0x1F == 0x05 && field("fdc.count") > 100
	}
	for range 20000 {
		if writing() {
			break
		}
		must(h.Run(ctx, RunArgs{Handle: a, Ticks: ptr(uint64(1000))}))
	}
	if !writing() {
		t.Fatal("AMSDOS never wrote")
	}
	kept := must(h.StateKeep(ctx, StateKeepArgs{Handle: a}))
	runOn := func() (look, string) {
		must(h.Run(ctx, RunArgs{Handle: a, Ticks: ptr(uint64(200 * cpc.TicksPerFrame))}))
		must(h.Type(ctx, TypeArgs{Handle: a, Text: "cat\n"}))
		must(h.Run(ctx, RunArgs{Handle: a, Ticks: ptr(uint64(150 * cpc.TicksPerFrame))}))
		d := must(h.DiscSave(ctx, DiscSaveArgs{Handle: a, Path: filepath.Join(t.TempDir(), "disc.dsk")}))
		return lookAt(t, h, a), d.File.SHA256
	}
	live, liveDisc := runOn()
	if !strings.Contains(cpcScreen(t, h, a), "EXAMPLE .BAS   1K") {
		t.Fatalf("the save did not land:\n%s", cpcScreen(t, h, a))
	}
	must(h.StateRestore(ctx, StateArgs{Handle: a, State: kept.State}))
	again, againDisc := runOn()
	if d := live.differ(again); d != "" {
		t.Errorf("run on from the state, the machine is not the one that ran on:\n%s", d)
	}
	if againDisc != liveDisc {
		t.Error("run on from the state, the disc is not the one that ran on")
	}
}

// decode reads a journal entry's arguments into a tool's.
func decode(t *testing.T, b []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
}
