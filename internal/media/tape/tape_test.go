package tape

import (
	"bytes"
	"compress/zlib"
	"strings"
	"testing"

	"colophon/internal/shared"
)

// readImage reads one of libspectrum's own test images.
func readImage(t testing.TB, name string) []byte {
	t.Helper()
	return shared.ReadFile(t, "testdata", "media", "spectrum", "libspectrum-tests", name)
}

func formatOf(name string) Format {
	if strings.HasSuffix(name, ".tap") {
		return TAP
	}
	return TZX
}

// played is a tape played to its end, PLAY pressed again at every stop.
type played struct {
	pulses []Pulse
	stops  int
	total  uint64
}

func play(t testing.TB, tp *Tape, m Machine) played {
	t.Helper()
	var r Reader
	var out played
	for range 1 << 22 {
		p, s := r.Next(tp, m)
		switch s {
		case Ended:
			return out
		case Stopped:
			out.stops++
			continue
		}
		if p.T == 0 {
			t.Fatalf("pulse %d lasts no time", len(out.pulses))
		}
		out.pulses = append(out.pulses, p)
		out.total += p.T
	}
	t.Fatal("the tape did not end")
	return out
}

// TestDT16LibspectrumValidImagesPlay plays every valid TZX and TAP image
// among libspectrum's tests to its end, and holds its pulses and its
// length to what the format gives, worked out here block by block from
// the bytes each file holds ([TZX]; the ROM's timings of ID 11's curly
// brackets for the .tap). A tape that ends with the level high finishes
// its last pulse as a pause would, with a millisecond high ([TZX] section
// 2), which libspectrum's own lists leave out.
func TestDT16LibspectrumValidImagesPlay(t *testing.T) {
	for _, c := range []struct {
		name   string
		pulses int
		total  uint64
		why    string
	}{
		{"empty-drb.tzx", 0, 0, "a direct recording of no samples"},
		{"loop.tzx", 0, 0, "a loop of two with nothing in it"},
		{"loopend.tzx", 0, 0, "a loop end with no loop, passed over"},
		{"loop2.tzx", 2 * 185, 2 * 185 * 837, "a tone of 185 pulses of 837 T-states, looped twice"},
		{"jump.tzx", 678, 678 * 303, "a jump over the first of two tones of 678 pulses of 303"},
		{"no-pilot-gdb.tzx", 32, 16 * (771 + 1542), "16 symbols of two pulses, 771 and 1542, from &FFFF"},
		{"raw-data-block.tzx", 7 + 1, 40 + 40 + 40 + 40 + 10 + 10 + 20 + 3500,
			"samples of 10 T-states, 1111 0000 1111 0000 1011, as seven runs, ending high, so a millisecond high after"},
		{"turbo-zeropilot.tzx", 3, 667 + 735 + 1000*3500, "no pilot, the two syncs, no data, a second's pause at low"},
		{"trailing-pause-block.tzx", 3223 + 2 + 16 + 2, 3223*2168 + 667 + 735 + 16*1710 + 1000*3500,
			"a data block of &FF with no pause, then a pause block of a second: a millisecond high, then low"},
		{"standard-tap.tap", (8063 + 2 + 19*16 + 2) + (3223 + 2 + 14*16 + 2), 21296626 + 10755626,
			"a header of 19 bytes and a data block of 14, each with a second's pause"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tp, err := Open(formatOf(c.name), readImage(t, c.name))
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range []Machine{Spectrum48, Amstrad} {
				got := play(t, tp, m)
				if len(got.pulses) != c.pulses || got.total != c.total {
					t.Errorf("machine %d: %d pulses, %d T-states; want %d and %d (%s)", m, len(got.pulses), got.total, c.pulses, c.total, c.why)
				}
			}
		})
	}
}

// TestDT16CompleteTZX plays libspectrum's complete-tzx.tzx, one of each
// block, by a Spectrum's rules and by a CPC's, which pass over its stop
// block (DT-23), and holds each block's T-states to the lengths libspectrum's
// test gives them (test/tape.c, complete_tzx_timings), each played as
// often as the tape plays it: the jump passes over block 9, and the loop
// plays block 11 three times. The edges of its data blocks are held to
// libspectrum's list (test/tape-edges.c, complete_edges_list).
func TestDT16CompleteTZX(t *testing.T) {
	sizes := []uint64{15216886, 3493371, 356310, 1761, 1993724, 2163000, 0, 0, 0, 205434,
		0, 154845, 0, 0, 0, 0, 0, 0, 0, 771620}
	plays := []uint64{1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 3, 1, 1, 1, 1, 1, 1, 1, 1}
	tp, err := Open(TZX, readImage(t, "complete-tzx.tzx"))
	if err != nil {
		t.Fatal(err)
	}
	if tp.Blocks() != len(sizes) {
		t.Fatalf("%d blocks; want %d", tp.Blocks(), len(sizes))
	}
	for _, m := range []Machine{Spectrum48, Amstrad} {
		got := play(t, tp, m)
		per := make([]uint64, len(sizes)+1)
		for _, p := range got.pulses {
			per[p.Block] += p.T
		}
		for i := range sizes {
			want := sizes[i] * plays[i]
			if i == 13 && m == Spectrum48 && per[i] == millisecond {
				// The stop finishes the tone's last pulse high, as a
				// pause would.
				want = millisecond
			}
			if per[i] != want {
				t.Errorf("machine %d: block %d plays %d T-states; want %d", m, i, per[i], want)
			}
		}
		wantStops := 0
		if m == Spectrum48 {
			wantStops = 1 // the "stop the tape if in 48K mode" block
		}
		if got.stops != wantStops {
			t.Errorf("machine %d: %d stops; want %d", m, got.stops, wantStops)
		}
	}
	// The first block's edges: the pilot, the syncs, and &AA's bits.
	got := play(t, tp, Spectrum48).pulses
	want := []uint64{}
	for range 3223 {
		want = append(want, 2168)
	}
	want = append(want, 667, 735)
	for range 4 {
		want = append(want, 1710, 1710, 855, 855)
	}
	for i, w := range want {
		if got[i].T != w || got[i].High != (i%2 == 1) {
			t.Fatalf("pulse %d: %d T-states, high %v; want %d, high %v", i, got[i].T, got[i].High, w, i%2 == 1)
		}
	}
}

// TestDT16LibspectrumInvalidImagesRefused opens every image libspectrum's
// tests expect it to refuse, and finds each refused with its cause.
//
// Each is held to its whole message, which names the cause the file's
// bytes give: invalid.tzx's one block has ID &FF; invalid-gdb.tzx's
// generalized block (&19) asks for &40000000 data symbols of an alphabet
// of 2, a bit each, from a stream of one byte ([TZX] ID 19: TOTD, ASD, and
// "NB = Ceiling(Log2(ASD))"); invalid-archiveinfo.tzx says 2 texts and
// holds one, "Test string", the second's ID byte missing; invalid-
// hardwareinfo.tzx says 1 machine of 3 bytes and holds none;
// invalid-custominfo.tzx's custom block says 1 byte follows its 16 of
// identification and none does; and invalid-warajevo-blockoffset.tap
// begins with a block whose length is 0, which no block the ROM writes
// has, its flag byte at least ([FAQ] "TAP").
func TestDT16LibspectrumInvalidImagesRefused(t *testing.T) {
	for _, c := range []struct{ name, says string }{
		{"invalid.tzx", "block 0 (ID &FF, at byte 10 of the file): TZX 1.20 defines no block with ID &FF"},
		{"invalid-gdb.tzx", "block 0 (ID &19, at byte 10 of the file): its data stream of 1073741824 symbols of 1 bits needs 134217728 bytes, and the block has 1"},
		{"invalid-archiveinfo.tzx", "block 0 (ID &32, at byte 10 of the file): its 2 texts do not fit the file: it needs 1 more bytes and the file has 0"},
		{"invalid-hardwareinfo.tzx", "block 0 (ID &33, at byte 10 of the file): it needs 3 more bytes and the file has 0"},
		{"invalid-custominfo.tzx", "block 0 (ID &35, at byte 10 of the file): it needs 1 more bytes and the file has 0"},
		{"invalid-warajevo-blockoffset.tap", "block 0 (at byte 0 of the file) holds no bytes; a block holds at least its flag byte"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Open(formatOf(c.name), readImage(t, c.name))
			if err == nil || err.Error() != c.says {
				t.Errorf("Open: %v; want the refusal %q", err, c.says)
			}
		})
	}
	// The images of other formats among them are no TZX.
	for _, name := range []string{"empty.csw", "zero-tail.pzx", "pzx-archive-info-tags.pzx"} {
		if _, err := Open(TZX, readImage(t, name)); err == nil || !strings.Contains(err.Error(), "ZXTape!") {
			t.Errorf("%s: Open: %v; want a refusal naming the signature", name, err)
		}
	}
}

// tzx makes a TZX of the given blocks, revision 1.20.
func tzx(blocks ...[]byte) []byte {
	b := append([]byte("ZXTape!\x1A"), 1, 20)
	for _, blk := range blocks {
		b = append(b, blk...)
	}
	return b
}

// TestCSWRecording plays a CSW recording (0x18), RLE and Z-RLE, with a
// long run: each run's samples at 44100 Hz come out in T-states exactly,
// the fractions carried, and the level after it is the last played.
func TestCSWRecording(t *testing.T) {
	runs := []byte{10, 20, 0, 0x10, 0x27, 0, 0, 3} // 10, 20, 10000, 3 samples
	var z bytes.Buffer
	w := zlib.NewWriter(&z)
	w.Write(runs)
	w.Close()
	for _, c := range []struct {
		compression byte
		body        []byte
	}{{1, runs}, {2, z.Bytes()}} {
		n := 10 + len(c.body)
		blk := []byte{idCSW, byte(n), byte(n >> 8), 0, 0, 0, 0, 0x44, 0xAC, 0x00, c.compression, 4, 0, 0, 0}
		blk = append(blk, c.body...)
		tp, err := Open(TZX, tzx(blk, []byte{idPulses, 1, 100, 0}))
		if err != nil {
			t.Fatal(err)
		}
		got := play(t, tp, Spectrum48)
		// Cumulative samples 10, 30, 10030, 10033 at 3500000/44100 T-states
		// each, floored: 793, 2380, 796031, 796269. The pulse after the
		// recording is played at its last level, high.
		want := []struct {
			T    uint64
			high bool
		}{{793, false}, {2380 - 793, true}, {796031 - 2380, false}, {796269 - 796031, true}, {100, true}}
		if len(got.pulses) != len(want) {
			t.Fatalf("compression %d: %d pulses %v; want %d", c.compression, len(got.pulses), got.pulses, len(want))
		}
		for i, w := range want {
			if got.pulses[i].T != w.T || got.pulses[i].High != w.high {
				t.Errorf("compression %d: pulse %d is %+v; want %d T-states, high %v", c.compression, i, got.pulses[i], w.T, w.high)
			}
		}
	}
}

// TestGeneralizedPilotAndPolarity plays a generalized data block with a
// pilot and sync stream and each of the four polarities ([TZX] ID 19).
func TestGeneralizedPilotAndPolarity(t *testing.T) {
	body := []byte{0, 0}                    // no pause
	body = append(body, 2, 0, 0, 0, 2, 2)   // TOTP 2, NPP 2, ASP 2
	body = append(body, 4, 0, 0, 0, 1, 4)   // TOTD 4, NPD 1, ASD 4
	body = append(body, 0, 100, 0, 0, 0)    // pilot symbol 0: 100
	body = append(body, 1, 50, 0, 60, 0)    // pilot symbol 1: prolong, 50, 60
	body = append(body, 0, 3, 0, 1, 1, 0)   // symbol 0 three times, symbol 1 once
	body = append(body, 0, 10, 0, 1, 20, 0) // data symbols 0..3
	body = append(body, 2, 30, 0, 3, 40, 0)
	body = append(body, 0b00011011) // 0, 1, 2, 3
	blk := append([]byte{idGeneral, byte(len(body)), 0, 0, 0}, body...)
	tp, err := Open(TZX, tzx(blk))
	if err != nil {
		t.Fatal(err)
	}
	got := play(t, tp, Spectrum48).pulses
	want := []struct {
		T    uint64
		high bool
	}{
		{100, true}, {100, false}, {100, true}, // symbol 0 three times, each against the line
		{50, true}, {60, false}, // prolongs the last pulse, high
		{10, true},  // opposite the line, low before it
		{20, true},  // prolongs: high again
		{30, false}, // forced low
		{40, true},  // forced high
	}
	if len(got) != len(want) {
		t.Fatalf("%d pulses %+v; want %d", len(got), got, len(want))
	}
	for i, w := range want {
		if got[i].T != w.T || got[i].High != w.high {
			t.Errorf("pulse %d is %+v; want %d T-states, high %v", i, got[i], w.T, w.high)
		}
	}
}

// TestCallSequence plays a call sequence of two calls into one sequence
// ending in a return ([TZX] IDs 26 and 27), and a jump to the end.
func TestCallSequence(t *testing.T) {
	tp, err := Open(TZX, tzx(
		[]byte{idCall, 2, 0, 2, 0, 3, 0}, // 0: call block 2, then block 3
		[]byte{idJump, 4, 0},             // 1: to block 5, the end
		[]byte{idPulses, 1, 11, 0},       // 2
		[]byte{idPulses, 1, 22, 0},       // 3
		[]byte{idReturn},                 // 4
	))
	if err != nil {
		t.Fatal(err)
	}
	var Ts []uint64
	for _, p := range play(t, tp, Spectrum48).pulses {
		Ts = append(Ts, p.T)
	}
	// Block 2, 3, return; block 3, return; then block 1 jumps to the end,
	// and the last pulse, ending high, is finished as a pause would.
	if want := []uint64{11, 22, 22, millisecond}; !equal(Ts, want) {
		t.Errorf("pulses %v; want %v", Ts, want)
	}
}

func equal(a, b []uint64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestReaderIsAPlainValue holds a reader copied partway through a tape to
// the one it was copied from: the two play on alike and meet equal.
func TestReaderIsAPlainValue(t *testing.T) {
	tp, err := Open(TZX, readImage(t, "complete-tzx.tzx"))
	if err != nil {
		t.Fatal(err)
	}
	var a Reader
	for range 3000 {
		a.Next(tp, Amstrad)
	}
	b := a
	for range 1000 {
		pa, sa := a.Next(tp, Amstrad)
		pb, sb := b.Next(tp, Amstrad)
		if pa != pb || sa != sb || a != b {
			t.Fatal("a copy of a reader played on otherwise")
		}
	}
	// And a reader played from the start reaches it pulse by pulse
	// (KEEP-13), where a reader played by the other machine's rules, or
	// one no tape leaves, is never reached.
	if c, ok := Reach(tp, Amstrad, a); !ok || c != a {
		t.Errorf("replayed to %d pulses, the reader stands at %+v; the kept one at %+v", c.Pulses, c, a)
	}
	var s Reader
	for !s.Ended {
		s.Next(tp, Spectrum48)
	}
	if _, ok := Reach(tp, Amstrad, s); ok {
		t.Error("a Spectrum's reader, past the stop block a CPC passes over, was reached by a CPC's")
	}
	bent := a
	bent.Count++
	if _, ok := Reach(tp, Amstrad, bent); ok {
		t.Error("a reader no tape leaves was reached")
	}
}

// TestTZXRefusals refuses malformed blocks with their causes.
func TestTZXRefusals(t *testing.T) {
	for _, c := range []struct {
		name  string
		image []byte
		says  string
	}{
		{"no signature", []byte("ZXTapf!\x1A\x01\x14"), "ZXTape!"},
		{"revision 2", []byte("ZXTape!\x1A\x02\x00"), "revision 2.00"},
		{"a truncated standard block", tzx([]byte{idStandard, 0, 0, 10, 0, 1}), "needs 10 more bytes"},
		{"a jump out of the tape", tzx([]byte{idJump, 5, 0}), "to block 5"},
		{"a jump before it", tzx([]byte{idJump, 0xFF, 0xFF}), "to block -1"},
		{"nine used bits", tzx([]byte{idPureData, 1, 0, 1, 0, 9, 0, 0, 1, 0, 0, 0}), "uses 9 bits"},
		{"a CSW of compression 3", tzx([]byte{idCSW, 10, 0, 0, 0, 0, 0, 1, 0, 0, 3, 0, 0, 0, 0}), "compression is 3"},
		{"a CSW of rate 0", tzx([]byte{idCSW, 10, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0}), "sample rate is 0"},
		{"a CSW cut in a long run", tzx([]byte{idCSW, 12, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 1}), "inside a long run"},
		{"a Z-RLE that is not zlib", tzx([]byte{idCSW, 11, 0, 0, 0, 0, 0, 1, 0, 0, 2, 0, 0, 0, 0, 7}), "not zlib"},
		{"a set level too long", tzx([]byte{idLevel, 2, 0, 0, 0, 1, 1}), "its length says 2"},
		{"a pilot symbol past its alphabet", tzx([]byte{idGeneral, 20, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 5, 0, 1, 1, 0}), "symbol 1 of an alphabet of 1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Open(TZX, c.image)
			if err == nil || !strings.Contains(err.Error(), c.says) {
				t.Errorf("Open: %v; want a refusal saying %q", err, c.says)
			}
		})
	}
}

// TestStallEnds plays a jump of 0, which loops for good with no pulse, as
// a tape that ends there ([TZX] ID 23: "this should never happen").
func TestStallEnds(t *testing.T) {
	tp, err := Open(TZX, tzx([]byte{idPulses, 1, 50, 0}, []byte{idJump, 0, 0}))
	if err != nil {
		t.Fatal(err)
	}
	got := play(t, tp, Spectrum48)
	if len(got.pulses) != 2 || got.total != 50+millisecond {
		t.Errorf("%d pulses, %d T-states; want the pulse and the millisecond finishing it", len(got.pulses), got.total)
	}
}

// TestTAPRefusals refuses .tap files whose blocks do not hold what their
// lengths say: a block of no bytes, first or after a whole one, which has
// not even the flag byte every block the ROM writes begins with ([FAQ]
// "TAP"), and one cut short by the end of the file; each refusal names
// the block and where it begins.
func TestTAPRefusals(t *testing.T) {
	whole := []byte{2, 0, 0xFF, 0xFF} // a block of a flag and a checksum
	for _, c := range []struct {
		name  string
		image []byte
		says  string
	}{
		{"a first block of no bytes", []byte{0, 0, 0xFF}, "block 0 (at byte 0 of the file) holds no bytes; a block holds at least its flag byte"},
		{"a block of no bytes after a whole one", append(append([]byte{}, whole...), 0, 0), "block 1 (at byte 4 of the file) holds no bytes; a block holds at least its flag byte"},
		{"a block cut short", append(append([]byte{}, whole...), 5, 0, 0xFF), "block 1 (at byte 4 of the file) says 5 bytes follow: it needs 5 more bytes and the file has 1"},
		{"a length cut short", append(append([]byte{}, whole...), 5), "block 1 (at byte 4 of the file) has one byte of the two that say its length"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Open(TAP, c.image)
			if err == nil || err.Error() != c.says {
				t.Errorf("Open: %v; want the refusal %q", err, c.says)
			}
		})
	}
	// A whole block alone plays.
	if _, err := Open(TAP, whole); err != nil {
		t.Errorf("a block of a flag and a checksum: %v", err)
	}
}

// TestBlocksThatPlayNoPulse plays the blocks that say something to the
// deck but carry no pulse of their own, between pulse sequences ([TZX] ID
// 13), by a Spectrum's rules and a CPC's, and holds the pulses to what the
// format gives. A set signal level block (&2B) "sets the current signal
// level to the specified value (high or low)", so the next pulse is played
// at it, where it would otherwise alternate; a select block (&28) is for
// a menu that "the emulator/utility has to show", which nobody answers
// here, so the tape plays on to the next block; a glue block (&5A) is to
// be skipped ("All you have to do if you encounter this block ID is to
// skip next 9 bytes"). A pause of 0 (&20) stops a Spectrum's tape, after
// a millisecond high where the last pulse was low, to finish it with an
// edge, as a pause's "at least 1 ms. pause of the opposite level" does;
// and is passed over on a CPC (DT-23). The tape's end finishes a last low
// pulse so too ([TZX] section 2).
func TestBlocksThatPlayNoPulse(t *testing.T) {
	pulses := func(Ts ...uint16) []byte {
		b := []byte{idPulses, byte(len(Ts))}
		for _, T := range Ts {
			b = append(b, byte(T), byte(T>>8))
		}
		return b
	}
	level := func(v byte) []byte { return []byte{idLevel, 1, 0, 0, 0, v} }
	sel := []byte{idSelect, 8, 0, 1, 1, 0, 4, 'G', 'a', 'm', 'e'} // one choice: the next block, "Game"
	glue := append([]byte{idGlue}, "XTape!\x1A\x01\x14"...)
	type p struct {
		T    uint64
		high bool
	}
	for _, c := range []struct {
		name     string
		blocks   [][]byte
		spectrum []p // then a stop, where there is one: stops say how many
		cpc      []p
		stops    int
	}{
		{"no level block: the pulses alternate from low", [][]byte{pulses(100, 200)},
			[]p{{100, false}, {200, true}}, nil, 0},
		{"set level high first", [][]byte{level(1), pulses(100, 200)},
			[]p{{100, true}, {200, false}, {millisecond, true}}, nil, 0},
		{"set level low between two pulses", [][]byte{pulses(100), level(0), pulses(200)},
			[]p{{100, false}, {200, false}, {millisecond, true}}, nil, 0},
		{"set level high where the next pulse is high already: no change", [][]byte{pulses(100), level(1), pulses(200)},
			[]p{{100, false}, {200, true}}, nil, 0},
		{"a select block passed over", [][]byte{pulses(100), sel, pulses(200)},
			[]p{{100, false}, {200, true}}, nil, 0},
		{"a glue block passed over", [][]byte{pulses(100), glue, pulses(200)},
			[]p{{100, false}, {200, true}}, nil, 0},
		{"a pause of 0 after a low pulse: a millisecond high, then the stop", [][]byte{pulses(100, 200, 300), {idPause, 0, 0}, pulses(400)},
			[]p{{100, false}, {200, true}, {300, false}, {millisecond, true}, {400, false}, {millisecond, true}},
			[]p{{100, false}, {200, true}, {300, false}, {400, true}}, 1},
		{"a pause of 0 after a high pulse: the stop at once", [][]byte{pulses(100, 200), {idPause, 0, 0}, pulses(400)},
			[]p{{100, false}, {200, true}, {400, false}, {millisecond, true}},
			[]p{{100, false}, {200, true}, {400, false}, {millisecond, true}}, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			tp, err := Open(TZX, tzx(c.blocks...))
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range []Machine{Spectrum48, Amstrad} {
				want, stops := c.spectrum, c.stops
				if m == Amstrad {
					stops = 0
					if c.cpc != nil {
						want = c.cpc
					}
				}
				got := play(t, tp, m)
				ok := len(got.pulses) == len(want) && got.stops == stops
				for i := 0; ok && i < len(want); i++ {
					ok = got.pulses[i].T == want[i].T && got.pulses[i].High == want[i].high
				}
				if !ok {
					t.Errorf("machine %d: pulses %+v and %d stops; want %+v and %d", m, got.pulses, got.stops, want, stops)
				}
			}
		})
	}
}
