package host

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"colophon/internal/machine"
	"colophon/internal/machine/cpc"
	"colophon/internal/machine/spectrum"
	"colophon/internal/shared"
)

// FuzzStateFile holds the state file's reader to any bytes at all: it
// refuses what it cannot stand a machine up from, and a machine it stands
// up runs, and writes itself to a file the reader takes again (KEEP-9 to
// KEEP-14). The seeds in testdata/fuzz/FuzzStateFile are first lines cut
// from their buffers, journals another build wrote, which are made again
// without any, and two machines written whole with media in, each run
// past its leader tape with the tape playing: a 6128 with a disc in drive
// A and a TZX tape (cpc6128-disc-tape), and a Spectrum with a TAP tape
// (spectrum48-tap), so that the reader's disc and tape paths, and its
// playing a tape again to where the deck stood, are seeded. The two are
// made again from the same files as the target starts (mediaStates), the
// 6128 only to its leader, and a 6128 and a Spectrum with nothing in beside them.
//
// Another build's journal is made again request by request, which takes
// as long as its requests do, so an input is given a second.
func FuzzStateFile(f *testing.F) {
	h := stateHost(f)
	ctx := context.Background()
	for _, name := range []string{"cpc6128", "spectrum48"} {
		a := must(h.Open(ctx, OpenArgs{Machine: MachineName(name)})).Handle
		must(h.Run(ctx, RunArgs{Handle: a, Frames: ptr(uint64(5))}))
		path := filepath.Join(f.TempDir(), name+".state")
		must(h.StateSave(ctx, StateSaveArgs{Handle: a, Path: path}))
		f.Add(must(os.ReadFile(path)))
	}
	for _, s := range mediaStates(f) {
		// Each stands up again with its media, so that the reader's
		// disc and tape paths are what it seeds.
		sf := must(decodeState(s.b))
		k := must(kindNamed(sf.line.Machine))
		m, _, err := h.fromState(ctx, k, File{Kind: "state", Path: "/" + s.name + ".state"}, sf)
		if err != nil {
			f.Fatalf("%s: %v", s.name, err)
		}
		if deck, ok := m.m.(machine.TapeDeck); !ok || deck.TapeDeck().Tape() == nil || deck.TapeDeck().Reader.Pulses != s.pulses {
			f.Fatalf("%s stands up with no tape, or not played to %d pulses", s.name, s.pulses)
		}
		if d, ok := m.m.(machine.Discs); ok {
			if _, _, err := d.SaveDisc(0); err != nil {
				f.Fatalf("%s stands up with no disc in drive A: %v", s.name, err)
			}
		}
		f.Add(s.b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		sf, err := decodeState(b)
		if err != nil {
			return
		}
		k, err := kindNamed(sf.line.Machine)
		if err != nil {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		m, _, err := h.fromState(ctx, k, File{Kind: "state", Path: "/fuzz.state"}, sf)
		if err != nil {
			return
		}
		if machine.CheckRoom(m.m.Tick(), 10000, "a run") == nil {
			m.m.RunTicks(5000)
		}
		again, err := m.encodeState(h.opts.Build, m.journal)
		if err != nil {
			t.Fatalf("stood up, it cannot be written: %v", err)
		}
		if _, err := decodeState(again); err != nil {
			t.Fatalf("stood up and written, it cannot be read: %v", err)
		}
	})
}

// mediaStates writes machines with real media in, from the shared
// testdata/media (Caprice32's hello disc, the demo yartz's tape), and
// answers their state files by name: a 6128 with a disc in drive A and the
// Spectrum tape as a .tzx, which a CPC's deck plays as well, its motor
// turned on (cpctech, "8255 PPI": port C bit 4), still in the leader tape;
// and a Spectrum with the .tap part played, its deck having no motor line
// to wait for. Only the Spectrum is run past the leader, which takes as
// long on a CPC and costs more.
func mediaStates(tb testing.TB) []namedState {
	tb.Helper()
	ctx := context.Background()
	h := stateHost(tb)
	media := func(name string) string { return shared.TestPath(tb, "testdata", "media", name) }
	var out []namedState
	save := func(name, handle string) {
		path := filepath.Join(tb.TempDir(), name+".state")
		must(h.StateSave(ctx, StateSaveArgs{Handle: handle, Path: path}))
		out = append(out, namedState{name, must(os.ReadFile(path)), deckOf(tb, h, handle).TapeDeck().Reader.Pulses})
	}

	six := must(h.Open(ctx, OpenArgs{Machine: "cpc6128"})).Handle
	must(h.DiscInsert(ctx, DiscInsertArgs{Handle: six, Path: media("cpc/caprice32_hello_extended.dsk"), Drive: "A"}))
	must(h.TapeInsert(ctx, TapeInsertArgs{Handle: six, Path: media("spectrum/yartz.tzx")}))
	// LD BC,&F782; OUT (C),C: the PPI's control, port C an output as the
	// firmware sets it; LD BC,&F610; OUT (C),C: port C with the motor's
	// bit set; LD B,&F5, then IN A,(C) over and over: port B, whose bit 7
	// is the tape's level, read as the tape plays.
	must(h.Poke(ctx, PokeArgs{Handle: six, Address: "&8000", Bytes: "01 82 F7 ED 49 01 10 F6 ED 49 06 F5 ED 78 18 FC"}))
	must(h.Set(ctx, SetArgs{Handle: six, Values: json.RawMessage(`{"cpu.pc": 32768, "cpu.iff1": false, "cpu.iff2": false}`)}))
	must(h.Run(ctx, RunArgs{Handle: six, Ticks: ptr(uint64(2 * cpc.TicksPerFrame))}))
	save("cpc6128-disc-tape", six)

	zx := must(h.Open(ctx, OpenArgs{Machine: "spectrum48"})).Handle
	must(h.TapeInsert(ctx, TapeInsertArgs{Handle: zx, Path: media("spectrum/yartz.tap")}))
	// The deck plays 5.7 seconds of leader tape before a recording
	// (tape.LeaderMilliseconds); six seconds is past it, into the pilot.
	must(h.Run(ctx, RunArgs{Handle: zx, Ticks: ptr(uint64(6 * spectrum.Deck.Clock))}))
	if deckOf(tb, h, zx).TapeDeck().Reader.Pulses == 0 {
		tb.Fatal("spectrum48-tap: the tape has not moved")
	}
	save("spectrum48-tap", zx)
	return out
}

// A namedState is a state file's bytes, the name its seed goes by, and
// the pulses its deck's reader had played.
type namedState struct {
	name   string
	b      []byte
	pulses uint64
}
