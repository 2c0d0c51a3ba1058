package tape

import "testing"

// fuzzPlay opens b as format and, where it opens, plays it through both
// machines' readers and decks for a while: nothing may panic, and each
// pulse must last some time.
func fuzzPlay(t *testing.T, format Format, b []byte) {
	tp, err := Open(format, b)
	if err != nil {
		if tp != nil {
			t.Fatal("a refused image came with a tape")
		}
		return
	}
	for _, m := range []Machine{Spectrum48, Amstrad} {
		var r Reader
		for range 20000 {
			p, s := r.Next(tp, m)
			if s == Ended {
				break
			}
			if s == Play && p.T == 0 {
				t.Fatal("a pulse of no time")
			}
		}
	}
	for _, cfg := range []Config{spectrumDeck, cpcDeck} {
		var d Deck
		d.Insert(tp, cfg, 0, true)
		for at := uint64(1); at < 1<<26; at *= 3 {
			d.LevelAt(at)
			d.Playing = true
		}
		if err := d.Validate(); err != nil {
			t.Fatalf("the deck played itself out of range: %v", err)
		}
	}
}

// FuzzTZX feeds the TZX reader anything (testdata/fuzz/FuzzTZX holds its
// seeds: libspectrum's test images and a block of each kind).
func FuzzTZX(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) { fuzzPlay(t, TZX, b) })
}

// FuzzTAP feeds the TAP reader anything (testdata/fuzz/FuzzTAP holds its
// seeds).
func FuzzTAP(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) { fuzzPlay(t, TAP, b) })
}
