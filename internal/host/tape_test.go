package host

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"colophon/internal/machine"
	"colophon/internal/media/tape/tapetest"
)

// pokeProgram is 10 POKE 32768,123, POKE being the token &F4.
var pokeProgram = tapetest.Line(10, append(append(append([]byte{0xF4}, tapetest.Number(32768)...), ','), tapetest.Number(123)...)...)

// cpcMarker is LD A,&42; LD (&5000),A; JR $, loaded and entered at &4000.
var cpcMarker = []byte{0x3E, 0x42, 0x32, 0x00, 0x50, 0x18, 0xFE}

// writeFile writes a file for a test in its own directory.
func writeFile(t testing.TB, name string, b []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func deckOf(t testing.TB, h *Host, handle string) machine.TapeDeck {
	return machineOf(t, h, handle).m.(machine.TapeDeck)
}

// TestFILE2TapeInsert puts a tape in a Spectrum and a CPC, and finds each
// answer naming the file by its absolute path and SHA-256 with the tick it
// went in, as machine_open names its files, and the journal entering the
// request with the path and the hash (DT-1, DT-2, FILE-2, J-3).
func TestFILE2TapeInsert(t *testing.T) {
	ctx := context.Background()
	h := stateHost(t)
	tap := writeFile(t, "prog.tap", tapetest.SpectrumProgram("colophon", 10, pokeProgram))
	cdt := writeFile(t, "bin.CDT", tapetest.CPCBinary("MARKER", 0x4000, 0x4000, cpcMarker))
	for _, c := range []struct {
		machine, path, format string
		blocks                int
	}{{"spectrum48", tap, "TAP", 2}, {"cpc6128", cdt, "TZX", 2}} {
		a := must(h.Open(ctx, OpenArgs{Machine: MachineName(c.machine)})).Handle
		must(h.Run(ctx, RunArgs{Handle: a, Frames: ptr(uint64(3))}))
		tick := machineOf(t, h, a).m.Tick()
		got := must(h.TapeInsert(ctx, TapeInsertArgs{Handle: a, Path: c.path}))
		want := named("tape", c.path, must(os.ReadFile(c.path)))
		if got.File != want || got.Tick != tick || got.ReadAs != c.format || got.Blocks != c.blocks {
			t.Errorf("%s: answered %+v; want %+v at tick %d, %s of %d blocks", c.machine, got, want, tick, c.format, c.blocks)
		}
		j := machineOf(t, h, a).journal
		last := j[len(j)-1]
		if last.Tool != "tape_insert" || last.Tick != tick ||
			string(last.Arguments) != string(must(json.Marshal(tapeEntry{Path: want.Path, SHA256: want.SHA256}))) {
			t.Errorf("%s: the journal entered %+v (%s)", c.machine, last, last.Arguments)
		}
		if d := deckOf(t, h, a).TapeDeck(); d.Tape() == nil || !d.Playing {
			t.Errorf("%s: the deck holds no tape, or PLAY is up", c.machine)
		}
		// The machine plays its copy; the file is as it was (DT-2).
		must(h.Run(ctx, RunArgs{Handle: a, Frames: ptr(uint64(400))}))
		if again := named("tape", c.path, must(os.ReadFile(c.path))); again != want {
			t.Errorf("%s: the file changed as the machine played it", c.machine)
		}
	}
}

// TestTapeInsertRefusals refuses a tape of the wrong kind for the
// machine, a file that cannot be reached or is no regular file, one past
// 16MB, one whose hash is not the one asked for, and a malformed image,
// each with its cause, leaving the deck as it stood (DT-16, FILE-5,
// FILE-6, FILE-7).
func TestTapeInsertRefusals(t *testing.T) {
	ctx := context.Background()
	h := stateHost(t)
	spec := must(h.Open(ctx, OpenArgs{Machine: "spectrum48"})).Handle
	cpc := must(h.Open(ctx, OpenArgs{Machine: "cpc464"})).Handle
	tap := writeFile(t, "prog.tap", tapetest.SpectrumProgram("colophon", 10, pokeProgram))
	tzx := writeFile(t, "bin.tzx", tapetest.CPCBinary("MARKER", 0x4000, 0x4000, cpcMarker))
	must(h.TapeInsert(ctx, TapeInsertArgs{Handle: spec, Path: tap}))
	big := filepath.Join(t.TempDir(), "big.tzx")
	if err := os.WriteFile(big, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, 16<<20+1); err != nil {
		t.Fatal(err)
	}
	bad := writeFile(t, "bad.tzx", []byte("ZXTape!\x1A\x01\x14\xFF"))
	for _, c := range []struct {
		handle string
		args   TapeInsertArgs
		says   string
	}{
		{spec, TapeInsertArgs{Path: writeFile(t, "x.cdt", nil)}, "x.cdt is a .cdt; spectrum48 takes .tzx or .tap"},
		{cpc, TapeInsertArgs{Path: tap}, "prog.tap is a .tap; cpc464 takes .cdt or .tzx"},
		{spec, TapeInsertArgs{Path: writeFile(t, "game.dsk", nil)}, "is a .dsk"},
		{spec, TapeInsertArgs{Path: "/nonexistent/a.tzx"}, "cannot be reached"},
		{spec, TapeInsertArgs{Path: t.TempDir() + "/d.tzx"}, "cannot be reached"},
		{spec, TapeInsertArgs{Path: big}, "at most 16MB"},
		{spec, TapeInsertArgs{Path: tzx, SHA256: strings.Repeat("0", 64)}, "the file has changed"},
		{spec, TapeInsertArgs{Path: bad}, "defines no block with ID &FF"},
		{spec, TapeInsertArgs{Path: tzx, SHA256: "xyz"}, "which is no SHA-256"},
		{spec, TapeInsertArgs{}, `argument "path" is missing`},
	} {
		c.args.Handle = c.handle
		before := lookAt(t, h, c.handle)
		_, err := h.TapeInsert(ctx, c.args)
		if err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%+v: %v; want a refusal saying %q", c.args, err, c.says)
		}
		if d := before.differ(lookAt(t, h, c.handle)); d != "" {
			t.Errorf("%+v: the refusal changed the machine:\n%s", c.args, d)
		}
	}
	dir := filepath.Join(t.TempDir(), "dir.tzx")
	os.Mkdir(dir, 0o755)
	if _, err := h.TapeInsert(ctx, TapeInsertArgs{Handle: spec, Path: dir}); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a directory: %v", err)
	}
}

// TestKEEP1TapeStates keeps a Spectrum partway through LOAD "" and a CPC
// partway through RUN", runs each on until its program has run, puts
// another tape in, restores, and runs the same stretch again: the machine
// comes to the same end, byte for byte, its tape put back where it had
// played to (KEEP-1, KEEP-2).
func TestKEEP1TapeStates(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		machine string
		file    string
		image   []byte
		start   func(h *Host, a string)
		into    uint64 // frames into the loading at which the state is kept
		on      uint64 // frames run on from there, by which the program has run
		ran     func(t testing.TB, h *Host, a string) bool
	}{
		{"spectrum48", "prog.tap", tapetest.SpectrumProgram("colophon", 10, pokeProgram),
			func(h *Host, a string) {
				must(h.Run(ctx, RunArgs{Handle: a, Frames: ptr(uint64(128))}))
				must(h.TapeInsert(ctx, TapeInsertArgs{Handle: a, Path: tapePath}))
				must(h.Type(ctx, TypeArgs{Handle: a, Text: "j\"\"\n"}))
			}, 600, 300,
			func(t testing.TB, h *Host, a string) bool { return peekByte(t, h, a, 32768) == 123 }},
		{"cpc464", "bin.cdt", tapetest.CPCBinary("MARKER", 0x4000, 0x4000, cpcMarker),
			func(h *Host, a string) {
				must(h.TapeInsert(ctx, TapeInsertArgs{Handle: a, Path: tapePath}))
				must(h.Run(ctx, RunArgs{Handle: a, Frames: ptr(uint64(78))}))
				must(h.Type(ctx, TypeArgs{Handle: a, Text: "RUN\"\n"}))
				must(h.Run(ctx, RunArgs{Handle: a, Frames: ptr(uint64(10)), Keys: []Key{KeyNamed("SPACE")}}))
			}, 700, 600,
			func(t testing.TB, h *Host, a string) bool { return peekByte(t, h, a, 0x5000) == 0x42 }},
	} {
		t.Run(c.machine, func(t *testing.T) {
			h := stateHost(t)
			tapePath = writeFile(t, c.file, c.image)
			a := must(h.Open(ctx, OpenArgs{Machine: MachineName(c.machine)})).Handle
			c.start(h, a)
			must(h.Run(ctx, RunArgs{Handle: a, Frames: ptr(c.into)}))
			d := deckOf(t, h, a).TapeDeck()
			if d.Reader.Pulses == 0 || d.Reader.Ended {
				t.Fatalf("the state would not be kept partway through the tape: %+v", d.Reader)
			}
			if c.ran(t, h, a) {
				t.Fatal("the program ran before the state was kept")
			}
			tp := d.Tape()
			kept := must(h.StateKeep(ctx, StateKeepArgs{Handle: a}))
			at := lookAt(t, h, a)
			must(h.Run(ctx, RunArgs{Handle: a, Frames: ptr(c.on)}))
			if !c.ran(t, h, a) {
				t.Fatal("the program did not run")
			}
			end := lookAt(t, h, a)
			// Another tape goes in on the branch left behind.
			must(h.TapeInsert(ctx, TapeInsertArgs{Handle: a, Path: tapePath}))

			must(h.StateRestore(ctx, StateArgs{Handle: a, State: kept.State}))
			if d := at.differ(lookAt(t, h, a)); d != "" {
				t.Fatalf("restored, the machine is not as kept:\n%s", d)
			}
			if deckOf(t, h, a).TapeDeck().Tape() != tp {
				t.Fatal("restored, the deck does not hold the tape it held")
			}
			must(h.Run(ctx, RunArgs{Handle: a, Frames: ptr(c.on)}))
			if d := end.differ(lookAt(t, h, a)); d != "" {
				t.Errorf("run on from the state, the machine does not end where it ended:\n%s", d)
			}
		})
	}
}

// tapePath is the tape the case in hand writes, for its start.
var tapePath string

func peekByte(t testing.TB, h *Host, a string, addr uint16) byte {
	m := must(machineOf(t, h, a).memory())
	return m.Peek(addr)
}

// TestTapeSetChecked writes the deck's fields with set, and finds a value
// past its range refused with the machine as it was, and one in range
// taken: PLAY pressed again, and the reader moved on a block.
func TestTapeSetChecked(t *testing.T) {
	ctx := context.Background()
	h := stateHost(t)
	a := must(h.Open(ctx, OpenArgs{Machine: "cpc464"})).Handle
	if _, err := h.Set(ctx, SetArgs{Handle: a, Values: json.RawMessage(`{"tape.playing": true}`)}); err == nil || !strings.Contains(err.Error(), "holds no tape") {
		t.Errorf("PLAY with no tape: %v", err)
	}
	must(h.TapeInsert(ctx, TapeInsertArgs{Handle: a, Path: writeFile(t, "bin.cdt", tapetest.CPCBinary("MARKER", 0x4000, 0x4000, cpcMarker))}))
	for _, c := range []struct{ values, says string }{
		{`{"tape.reel": 200001}`, "reel is 200001"},
		{`{"tape.carry": 7}`, "carry is 7"},
		{`{"tape.reader.block_at": 3}`, "block_at is 3"},
	} {
		before := lookAt(t, h, a)
		if _, err := h.Set(ctx, SetArgs{Handle: a, Values: json.RawMessage(c.values)}); err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: %v; want a refusal saying %q", c.values, err, c.says)
		}
		if d := before.differ(lookAt(t, h, a)); d != "" {
			t.Errorf("%s: the refusal changed the machine:\n%s", c.values, d)
		}
	}
	must(h.Set(ctx, SetArgs{Handle: a, Values: json.RawMessage(`{"tape.reader.block_at": 1, "tape.reel": 100}`)}))
	if d := deckOf(t, h, a).TapeDeck(); d.Reader.Block != 1 || d.Reel != 100 {
		t.Errorf("set left the deck at %+v", d)
	}
}
