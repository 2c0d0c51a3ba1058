package tape

import "testing"

var (
	spectrumDeck = Config{Machine: Spectrum48, Clock: 3500000}
	cpcDeck      = Config{Machine: Amstrad, Clock: 4000000, Motor: true}
)

// edgeAt finds the first tick from from at which the deck's level is high,
// running a copy of it tick by tick from just before want.
func firstHigh(t *testing.T, d Deck, from, want uint64) uint64 {
	t.Helper()
	if d.LevelAt(want - 1) {
		t.Fatalf("the level is high already at tick %d", want-1)
	}
	for at := want - 1; at < want+10; at++ {
		if d.LevelAt(at) {
			return at
		}
	}
	return 0
}

// TestDT17LeaderFirstEdge puts tapes in a Spectrum's deck at tick 1000 and
// hears each one's first edge 5.7 seconds later, 19950000 ticks at 3.5
// MHz, whatever silence the image keeps before it: none but its first
// pulse, or a pause of two seconds. A tape with more silence than that
// plays it all (DT-17, DT-18).
func TestDT17LeaderFirstEdge(t *testing.T) {
	data := []byte{idPulses, 2, 0x10, 0x27, 0x10, 0x27} // two pulses of 10000
	for _, c := range []struct {
		name  string
		image []byte
		edge  uint64
	}{
		{"a pulse", tzx(data), 1000 + 19950000},
		{"a pause of 2 s", tzx([]byte{idPause, 0xD0, 0x07}, data), 1000 + 19950000},
		{"a pause of 6 s", tzx([]byte{idPause, 0x70, 0x17}, data), 1000 + 6000*3500 + 10000},
	} {
		tp, err := Open(TZX, c.image)
		if err != nil {
			t.Fatal(err)
		}
		var d Deck
		d.Insert(tp, spectrumDeck, 1000, false)
		if got := firstHigh(t, d, 1000, c.edge); got != c.edge {
			t.Errorf("%s: the first edge comes at tick %d; want %d", c.name, got, c.edge)
		}
	}
}

// TestDT20ReelFollowsTheMotor puts a tape in a CPC's deck with its motor
// off, finds it standing still for longer than the leader and its first
// pulses, then starts the motor and hears the first edge the reel's 50 ms
// and the leader's 5.7 s later, 200000 and 22800000 ticks at 4 MHz; then
// stops the motor and finds the tape running on 50 ms, and no more
// (DT-20, DT-21).
func TestDT20ReelFollowsTheMotor(t *testing.T) {
	tp, err := Open(TZX, tzx([]byte{idTone, 0x10, 0x27, 0xFF, 0xFF}))
	if err != nil {
		t.Fatal(err)
	}
	var d Deck
	d.Insert(tp, cpcDeck, 0, false)
	kept := d
	d.Run(40000000) // ten seconds
	if d.Reader != kept.Reader || d.TicksLeft != kept.TicksLeft || d.Turning || d.Reel != 0 {
		t.Fatalf("with the motor off the tape moved: %+v", d)
	}
	const on = 40000000
	d.SetMotor(true, on)
	if got, want := firstHigh(t, d, on, on+200000+22800000), uint64(on+200000+22800000); got != want {
		t.Errorf("the first edge comes at tick %d; want %d", got, want)
	}
	// Stopped at a tick well into the tone: 50 ms more play, then none.
	const off = on + 200000 + 22800000 + 1000000
	d.SetMotor(false, off)
	a := d
	a.Run(off + 200000)
	b := a
	b.Run(off + 4000000)
	if !a.Turning && a.Reel != 0 {
		t.Errorf("the reel should just have come to rest: %+v", a)
	}
	if a.Reader != b.Reader || a.TicksLeft != b.TicksLeft {
		t.Error("the tape moved more than 50 ms after the motor stopped")
	}
	c := d
	c.Run(off + 199999)
	if c.Reader == a.Reader && c.TicksLeft == a.TicksLeft {
		t.Error("the tape stopped sooner than 50 ms after the motor")
	}
	// A motor on again part way through the run-down takes the reel up
	// from where it stands.
	e := d
	e.Run(off + 100000)
	e.SetMotor(true, off+100000)
	if e.Reel != 100000 || !e.Turning {
		t.Errorf("the reel half run down: %d ticks up to speed, turning %v; want 100000, true", e.Reel, e.Turning)
	}
}

// TestDeckTicksAreExact plays a whole tape through a CPC's deck and finds
// its ticks, the leader's among them, to be the tape's T-states times 8/7,
// floored once over the whole: the sevenths are carried, and nothing adds
// up.
func TestDeckTicksAreExact(t *testing.T) {
	tp, err := Open(TZX, readImage(t, "complete-tzx.tzx"))
	if err != nil {
		t.Fatal(err)
	}
	var d Deck
	d.Insert(tp, cpcDeck, 0, true)
	leaderT := uint64(LeaderMilliseconds)*TicksPerMillisecond - Lead(tp, Amstrad, 1<<40)
	ticks, n := d.TicksLeft, 0
	for {
		d.fetch()
		if !d.Playing {
			break
		}
		ticks += d.TicksLeft
		n++
	}
	total := play(t, tp, Amstrad).total
	if want := (leaderT + total) * 8 / 7; ticks != want {
		t.Errorf("%d pulses took %d ticks; want %d, (%d + %d) * 8/7", n, ticks, want, leaderT, total)
	}
}

// TestDeckValidate holds the deck's fields to their ranges.
func TestDeckValidate(t *testing.T) {
	tp, err := Open(TZX, readImage(t, "complete-tzx.tzx"))
	if err != nil {
		t.Fatal(err)
	}
	var d Deck
	if err := d.Validate(); err != nil {
		t.Errorf("an empty deck: %v", err)
	}
	d.Playing = true
	if d.Validate() == nil {
		t.Error("an empty deck playing passed")
	}
	d.Insert(tp, cpcDeck, 0, false)
	for _, c := range []struct {
		name string
		set  func(d *Deck)
	}{
		{"reel", func(d *Deck) { d.Reel = 200001 }},
		{"carry", func(d *Deck) { d.Carry = 7 }},
		{"block", func(d *Deck) { d.Reader.Block = 21 }},
		{"phase", func(d *Deck) { d.Reader.Phase = phases }},
	} {
		e := d
		c.set(&e)
		if e.Validate() == nil {
			t.Errorf("%s out of range passed", c.name)
		}
	}
	var s Deck
	s.Insert(tp, spectrumDeck, 0, false)
	s.Motor = true
	if s.Validate() == nil {
		t.Error("a Spectrum's deck with a motor passed")
	}
}

// TestEmptyDeckStaysEmpty turns an empty deck's motor and reads it, and
// finds it empty still, every field 0, as Validate holds an empty deck.
func TestEmptyDeckStaysEmpty(t *testing.T) {
	var d Deck
	d.SetMotor(true, 100)
	d.Run(1000)
	if d.LevelAt(2000) || d != (Deck{}) || d.Validate() != nil {
		t.Errorf("an empty deck became %+v", d)
	}
}

// TestDT23PauseOfNoneInTheDecks plays a pause block of 0 ms between two
// pairs of pulses of 10000 T-states in each machine's deck. [TZX] ID 20:
// "If the value is 0 then the emulator or utility should (in effect) STOP
// THE TAPE, i.e. should not continue loading until the user or emulator
// requests it": a Spectrum's tape stops there, PLAY comes up, the head
// reads low, and the tape stands for as long as the machine runs, until
// PLAY is pressed again, when the pulses after it play on from that tick.
// A CPC's deck passes over it, as the CDT notes ask ("SHOULD NOT 'Stop the
// Tape'", DT-23): the tape plays as one without the block does, tick for
// tick.
func TestDT23PauseOfNoneInTheDecks(t *testing.T) {
	pair := []byte{idPulses, 2, 0x10, 0x27, 0x10, 0x27} // two pulses of 10000
	stop, err := Open(TZX, tzx(pair, []byte{idPause, 0, 0}, pair))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := Open(TZX, tzx(pair, pair))
	if err != nil {
		t.Fatal(err)
	}

	// A Spectrum at 3.5 MHz, a tick a T-state: the first pulse, low, ends
	// the leader at 5.7 s, 19950000; the second, high, ends at 19960000,
	// where the pause of none stops the tape, its level low already.
	var d Deck
	d.Insert(stop, spectrumDeck, 0, false)
	if got := firstHigh(t, d, 0, 19950000); got != 19950000 {
		t.Fatalf("the first edge comes at tick %d; want 19950000", got)
	}
	d.Run(19960000)
	if d.Playing || d.Level || d.Reader.Block != 2 {
		t.Fatalf("at the pause of none: playing %v, level %v, block %d; want the tape stopped at block 2, low", d.Playing, d.Level, d.Reader.Block)
	}
	kept := d.Reader
	const pressed = 19960000 + 10*3500000 // ten seconds on
	if d.LevelAt(pressed) || d.Reader != kept || d.Playing {
		t.Fatalf("the stopped tape moved in ten seconds: %+v", d)
	}
	d.Playing = true // PLAY pressed again
	if got := firstHigh(t, d, pressed, pressed+10000); got != pressed+10000 {
		t.Errorf("after PLAY the next pair's edge comes at tick %d; want %d", got, pressed+10000)
	}
	d.Run(pressed + 20000)
	if d.Playing {
		t.Error("the tape plays on past its end")
	}

	// A CPC at 4 MHz: the same pulses with the block and without it, the
	// motor on from tick 0, the reel up to speed at 200000, the first
	// edge at 200000 + 22800000; the second pair's edge 20000 T-states on,
	// 22857 ticks by the carried sevenths (TestDeckTicksAreExact).
	var a, b Deck
	a.Insert(stop, cpcDeck, 0, true)
	b.Insert(plain, cpcDeck, 0, true)
	const first = 200000 + 22800000
	if got := firstHigh(t, a, 0, first); got != first {
		t.Fatalf("the CPC's first edge comes at tick %d; want %d", got, first)
	}
	a.Run(first + 1)
	if got := firstHigh(t, a, first, first+22857); got != first+22857 {
		t.Errorf("the CPC's second pair's edge comes at tick %d; want %d", got, first+22857)
	}
	a.Insert(stop, cpcDeck, 0, true)
	for at := uint64(first - 10); at < first+60000; at += 7 {
		if a.LevelAt(at) != b.LevelAt(at) || a.Playing != b.Playing {
			t.Fatalf("tick %d: with the pause of none the level is %v, playing %v; without it %v, %v", at, a.Level, a.Playing, b.Level, b.Playing)
		}
	}
	if a.Playing {
		t.Error("the CPC's tape plays on past its end")
	}
}
