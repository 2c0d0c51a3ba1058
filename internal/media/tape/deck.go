package tape

import "fmt"

// The deck a machine plays a tape in (spec, "Discs and tapes"; DT-17,
// DT-18, DT-20). It knows no machine: a machine tells it of its ticks, and
// of its motor line where it has one, and reads the level at the head.
//
// A rewound cassette has leader tape in front of its recording, which an
// image seldom keeps whole, so the deck plays 5.7 seconds of silence
// first, less whatever silence the image keeps before its first edge: the
// first edge always comes 5.7 seconds after the tape starts to move (DT-17,
// DT-19). A Spectrum's deck has no motor line: PLAY is pressed as the tape
// goes in, and the tape moves from that tick on (DT-18). A CPC's tape moves
// only while its motor runs, and the reel follows the motor line 50 ms
// late, from rest as the tape goes in (DT-20): that is the floor Opera
// Soft's cassettes set, and no measurement (DT-21). The reel comes up to
// speed over the 50 ms the line has been on, and the tape moves once it is
// there; it runs down over the 50 ms the line has been off, and the tape
// stops once it is at rest. So the tape starts 50 ms after the motor does
// and runs on 50 ms after it stops, and a motor turned over faster than
// that leaves the reel part way up to speed, which a state keeps.
//
// The deck runs lazily: a machine runs it up to the tick at which it
// reads the level or changes the motor, which is every tick at which
// either could be told apart. It takes at most one pulse a tick, since no
// pulse lasts less than a tick, so a tape played from its start reaches
// the place a state's reader stands at within as many pulses as the
// state has ticks (KEEP-13).

// LeaderMilliseconds is the leader tape the deck plays before a recording.
const LeaderMilliseconds = 5700

// ReelMilliseconds is how late a CPC's reel follows its motor line.
const ReelMilliseconds = 50

// Config says how a machine drives its deck.
type Config struct {
	// Machine is whose rules the tape is played by.
	Machine Machine
	// Clock is the machine's ticks a second: 3500000 for a Spectrum,
	// 4000000 for a CPC.
	Clock uint64
	// Motor is set where the machine runs the tape by a motor line.
	Motor bool
}

// A Deck is a cassette deck and the tape in it, if any. A machine holds
// one by value, so a copy of the machine is a copy of the deck, with the
// tape where it has played to; the tape itself is shared, since nothing
// writes it. Its fields are what inspect reads and set writes, with the
// ranges Validate holds them to.
type Deck struct {
	// Reader is where the tape has played to.
	Reader Reader `inspect:"reader"`
	// Playing is the PLAY key: pressed as a tape goes in, and let up
	// where the tape stops itself or ends. Setting it presses PLAY again
	// after a stop.
	Playing bool `inspect:"playing"`
	// Level is the level at the head: what the machine reads.
	Level bool `inspect:"level"`
	// TicksLeft is the machine's ticks left of the pulse under the head;
	// 0 once the tape has stopped or ended.
	TicksLeft uint64 `inspect:"ticks_left"`
	// Tick is the machine's tick the deck has been run to.
	Tick uint64 `inspect:"tick"`
	// Carry is what the tape has played beyond the ticks it has given the
	// machine, in T-states of the format times the machine's ticks to a
	// T-state's numerator, always below its denominator: a CPC's clock is
	// 8/7 of the format's, and this carries the sevenths from one pulse to
	// the next, so no error adds up.
	Carry uint64 `inspect:"carry"`
	// Motor is the motor line as the deck last saw it, on a machine that
	// has one.
	Motor bool `inspect:"motor"`
	// Reel is how far the reel has come up to speed, in machine ticks, up
	// to the reel's 50 ms.
	Reel uint64 `inspect:"reel"`
	// Turning is set while the reel turns and the tape moves past the
	// head, on a machine with a motor line.
	Turning bool `inspect:"turning"`

	tape     *Tape
	machine  Machine
	num, den uint64 // machine ticks per T-state of the format
	lag      uint64 // the reel's lag in machine ticks, 0 with no motor
}

// Tape is the tape in the deck, or nil.
func (d *Deck) Tape() *Tape { return d.tape }

// Insert puts a tape in the deck at the machine's tick at, rewound, with
// the motor line as it stands on a machine that has one. PLAY is pressed.
func (d *Deck) Insert(t *Tape, cfg Config, at uint64, motor bool) {
	g := gcd(cfg.Clock, TicksPerMillisecond*1000)
	*d = Deck{
		Playing: true,
		Tick:    at,
		tape:    t,
		machine: cfg.Machine,
		num:     cfg.Clock / g,
		den:     TicksPerMillisecond * 1000 / g,
	}
	if cfg.Motor {
		d.lag = cfg.Clock * ReelMilliseconds / 1000
		d.Motor = motor
	}
	leader := uint64(LeaderMilliseconds) * TicksPerMillisecond
	if lead := Lead(t, cfg.Machine, leader); lead < leader {
		d.TicksLeft = d.ticks(leader - lead)
		return
	}
	d.fetch()
}

// Eject takes the tape out.
func (d *Deck) Eject() { *d = Deck{} }

// Lead is the silence a tape keeps before its first edge, in T-states of
// the format, looked for as far as limit.
func Lead(t *Tape, m Machine, limit uint64) uint64 {
	var r Reader
	var lead uint64
	for lead < limit {
		p, s := r.Next(t, m)
		if s != Play || p.High {
			break
		}
		lead += p.T
	}
	return lead
}

func gcd(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// ticks turns T-states of the format into machine ticks, carrying the
// fraction. A pulse of at least one T-state is at least one tick, as a
// machine's clock is no slower than the format's.
func (d *Deck) ticks(T uint64) uint64 {
	whole := d.Carry + T*d.num
	d.Carry = whole % d.den
	return max(whole/d.den, 1)
}

// fetch puts the next pulse under the head. Where the tape stops or ends,
// PLAY comes up, and the head reads low, as a tape standing still is
// silent.
func (d *Deck) fetch() {
	p, s := d.Reader.Next(d.tape, d.machine)
	if s != Play {
		d.Playing, d.Level, d.TicksLeft = false, false, 0
		return
	}
	d.TicksLeft = d.ticks(p.T)
	d.Level = p.High
}

// SetMotor runs the deck to the machine's tick at and sets the motor line
// there. An empty deck heeds no motor: Insert reads the line as the tape
// goes in.
func (d *Deck) SetMotor(on bool, at uint64) {
	if d.tape == nil || on == d.Motor {
		return
	}
	d.Run(at)
	d.Motor = on
}

// LevelAt runs the deck to the machine's tick at and answers the level at
// the head then.
func (d *Deck) LevelAt(at uint64) bool {
	d.Run(at)
	return d.Level
}

// Run runs the deck to the machine's tick to: the reel, and the tape past
// the head while it moves.
func (d *Deck) Run(to uint64) {
	if d.tape == nil {
		return
	}
	for d.Tick < to {
		span := to - d.Tick
		stops := false
		if d.lag > 0 {
			switch {
			case d.Motor && !d.Turning:
				if need := d.lag - min(d.Reel, d.lag); span < need {
					d.Reel += span
					d.Tick = to
					return
				} else {
					d.Reel, d.Turning = d.lag, true
					d.Tick += need
					continue
				}
			case !d.Motor && !d.Turning:
				d.Reel -= min(d.Reel, span)
				d.Tick = to
				return
			case d.Motor:
				d.Reel = min(d.lag, d.Reel+span)
			default:
				if span >= d.Reel {
					span, stops = d.Reel, true
				}
				d.Reel -= span
			}
		}
		if d.Playing {
			d.move(span)
		}
		d.Tick += span
		if stops {
			d.Turning = false
		}
	}
}

// move moves the tape span ticks past the head, and puts the pulse that
// begins where they end under it.
func (d *Deck) move(span uint64) {
	for span > 0 && d.Playing {
		if d.TicksLeft == 0 {
			d.fetch()
			continue
		}
		k := min(span, d.TicksLeft)
		d.TicksLeft -= k
		span -= k
	}
	if d.TicksLeft == 0 && d.Playing {
		d.fetch()
	}
}

// Reached plays the deck's tape from its start, by the rules of the
// machine the deck plays it for, and reports whether a reader comes to
// where the deck's stands, as a deck whose fields a state file wrote is
// held to the tape it holds (spec, "Keeping a machine"; KEEP-13). It takes
// as many pulses as the reader has played, and the steps between them. An
// empty deck has nothing to reach.
func (d *Deck) Reached() bool {
	if d.tape == nil {
		return true
	}
	_, ok := Reach(d.tape, d.machine, d.Reader)
	return ok
}

// Validate holds the deck's fields to what a deck can hold: the reel
// within its lag, the carry below its denominator, the reader within the
// tape, and an empty deck empty.
func (d *Deck) Validate() error {
	if d.tape == nil {
		if *d != (Deck{}) {
			return fmt.Errorf("the deck holds no tape, so its fields are all 0 and false")
		}
		return nil
	}
	if d.Reel > d.lag {
		return fmt.Errorf("reel is %d; the reel comes up to speed in %d ticks, so it is 0 to %d", d.Reel, d.lag, d.lag)
	}
	if d.lag == 0 && (d.Motor || d.Turning) {
		return fmt.Errorf("this machine has no motor line, so motor and turning are false")
	}
	if d.Carry >= d.den {
		return fmt.Errorf("carry is %d; it is 0 to %d", d.Carry, d.den-1)
	}
	return d.Reader.validate(d.tape)
}

// validate holds a reader's fields to the tape it reads.
func (r *Reader) validate(t *Tape) error {
	n := uint32(len(t.blocks))
	switch {
	case r.Block > n:
		return fmt.Errorf("reader.block_at is %d; the tape has blocks 0 to %d, and %d is its end", r.Block, n-1, n)
	case r.Phase >= phases:
		return fmt.Errorf("reader.phase is %d; there are %d phases", r.Phase, phases)
	case r.LoopStart > n+1:
		return fmt.Errorf("reader.loop_start is %d; it is 0, or a block after a loop start plus one, up to %d", r.LoopStart, n+1)
	case r.CallAt > n:
		return fmt.Errorf("reader.call_at is %d; it is 0, or a call block plus one, up to %d", r.CallAt, n)
	case r.Half > 255:
		return fmt.Errorf("reader.half is %d; a symbol has at most 255 pulses", r.Half)
	}
	return nil
}
