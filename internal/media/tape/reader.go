package tape

import "fmt"

// The levels, as [TZX] section 2 ("Rules and definitions") has them. A
// pulse is a stretch of time at one level. The reader keeps the level the
// next pulse is played at, the "current pulse level", which is low when a
// tape starts to play; a pulse of a data block, a tone, a sequence or a
// generalized block is played at it, and it then turns over, so that each
// pulse ends in an edge. A pause holds that level for its first
// millisecond, "at least 1 ms. pause of the opposite level", which
// finishes the last pulse, and is low for the rest; "at the end of a
// 'Pause' block the 'current pulse level' is low (note that the first
// pulse will therefore not immediately produce an edge)", and "a 'Pause'
// block of zero duration is completely ignored ... This also applies to
// 'Data' blocks that have some pause duration included in them". After a
// direct recording or a CSW recording the level is the last one played,
// and a set signal level block (0x2B) sets it.

// Pulse is one stretch of the tape at one level.
type Pulse struct {
	// T is how long it lasts, in T-states of the format's 3.5 MHz clock.
	// It is never 0.
	T uint64
	// High is its level.
	High bool
	// Block is the block it was played from.
	Block uint32
}

// Status says what Next found.
type Status uint8

const (
	// Play: a pulse.
	Play Status = iota
	// Stopped: the tape stops here, as a Spectrum's deck does at a pause
	// of none or at a block that stops a 48K's tape ([TZX] IDs 20 and
	// 2A). PLAY pressed again plays on from the block after it.
	Stopped
	// Ended: nothing is left to play.
	Ended
)

// Phase is where a reader stands within its block.
type Phase uint8

const (
	// Enter: the block is still to be begun.
	Enter Phase = iota
	// Pilot, Sync1, Sync2 and Data are a data block's parts; Data is
	// also a pure data block's.
	Pilot
	Sync1
	Sync2
	Data
	// Sequence: a pulse sequence (0x13), at the pulse Bit.
	Sequence
	// Samples: a direct recording (0x15), at the sample Bit.
	Samples
	// Recording: a CSW recording (0x18), at the byte Bit of its run
	// lengths.
	Recording
	// PilotSymbols and DataSymbols are a generalized data block's two
	// streams (0x19).
	PilotSymbols
	DataSymbols
	// Pause: the pause after a block, or a pause block; Count is the
	// milliseconds still to come.
	Pause
	// Stop: the tape stops at this block, once the last pulse is
	// finished.
	Stop
	phases
)

var phaseNames = [...]string{"enter", "pilot", "sync1", "sync2", "data", "sequence", "samples",
	"recording", "pilot_symbols", "data_symbols", "pause", "stop"}

func (p Phase) String() string {
	if int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return fmt.Sprintf("Phase(%d)", uint8(p))
}

// A Reader is where a tape has played to. It is a plain value: a copy is a
// reader of its own, and two readers at the same place of the same tape
// are equal (==), whatever way they came there. The zero Reader stands at
// the start of a tape. Its fields are what inspect reads as the deck's
// reader, and a reader given any values by set plays on without a panic,
// however little sense they make of the tape.
type Reader struct {
	// Block is the block in hand, counted from 0; the tape's block count
	// at its end.
	Block uint32 `inspect:"block_at"`
	// Phase is where the reader stands within the block.
	Phase Phase `inspect:"phase"`
	// Count is the pulses still to come of a pilot or a tone, the
	// milliseconds of a pause, or the repeats of a generalized block's
	// pilot symbol already played.
	Count uint32 `inspect:"count"`
	// Bit is the data bit, the sample, the pulse of a sequence, the
	// symbol, or the byte of a recording's run lengths, in hand.
	Bit uint64 `inspect:"bit"`
	// Half is the pulse of a bit (0 or 1) or of a symbol in hand.
	Half uint16 `inspect:"half"`
	// Fraction is what a CSW recording has played beyond the T-states it
	// has given out, in T-states times its sample rate, so that its
	// samples come out at their exact time, with no error adding up.
	Fraction uint64 `inspect:"fraction"`
	// High is the current pulse level: the level the next pulse is
	// played at.
	High bool `inspect:"level"`
	// Line is the level the last pulse was played at, which a symbol of
	// a generalized block may prolong.
	Line bool `inspect:"line"`
	// LoopStart is the block after a loop start (0x24) plus one, while a
	// loop is played, else 0; LoopLeft the times its blocks are still to
	// be played, this one among them.
	LoopStart uint32 `inspect:"loop_start"`
	LoopLeft  uint32 `inspect:"loop_left"`
	// CallAt is a call sequence (0x26) plus one, while the sequence it
	// called is played, else 0; CallNext the call of it to make next.
	CallAt   uint32 `inspect:"call_at"`
	CallNext uint32 `inspect:"call_next"`
	// Ended is set once nothing is left to play.
	Ended bool `inspect:"ended"`
	// Pulses counts the pulses played since the start of the tape.
	Pulses uint64 `inspect:"pulses"`
}

// Machine says whose rules a tape is played by: the format is one, and two
// of its blocks are not.
type Machine uint8

const (
	// Spectrum48 is a 48K Spectrum: a pause of none and a "stop the tape
	// if in 48K mode" block both stop its tape.
	Spectrum48 Machine = iota
	// Amstrad is a CPC, which passes over both: a pause of 0 "SHOULD NOT
	// 'Stop the Tape', but this value should be treated as 'no pause'",
	// and the 48K block "MUST NOT have any effect" ([CDT] IDs 20 and 2A).
	Amstrad
)

// stallLimit is the most steps one pulse may take. A tape whose blocks
// turn in circles with no pulse in them, a jump of 0 ("'Loop Forever' -
// this should never happen", [TZX] ID 23) or symbols of no pulses repeated
// by the million, would otherwise keep its reader for good; one that comes
// to this limit is played as ended there, at the same place every time.
const stallLimit = 1 << 22

// millisecond is a millisecond of the format's clock.
const millisecond = TicksPerMillisecond

// Next plays the next pulse of t from where r stands, by the rules of
// machine m, and moves r past it. It answers Play with the pulse, or
// Stopped where the tape stops, or Ended. Each call does a bounded amount
// of work, whatever the tape or the reader's fields hold.
func (r *Reader) Next(t *Tape, m Machine) (Pulse, Status) {
	for range stallLimit {
		if r.Ended {
			return Pulse{}, Ended
		}
		if r.Block >= uint32(len(t.blocks)) {
			// The end of the tape finishes the last pulse as a pause
			// would, and leaves the line low.
			if r.High {
				return r.hold(millisecond, true), Play
			}
			r.Ended = true
			return Pulse{}, Ended
		}
		blk := &t.blocks[r.Block]
		if p, ok, s := r.step(t, blk, m); ok {
			return p, s
		}
	}
	r.goTo(uint32(len(t.blocks)))
	if r.High {
		return r.hold(millisecond, true), Play
	}
	r.Ended = true
	return Pulse{}, Ended
}

// hold plays a pulse of T T-states at a level, leaving the current pulse
// level as it is.
func (r *Reader) hold(T uint64, high bool) Pulse {
	r.Line = high
	r.Pulses++
	r.High = false
	return Pulse{T: T, High: high, Block: r.Block}
}

// pulse plays a pulse of T T-states at the current pulse level, which then
// turns over. A pulse of no T-states plays nothing but still turns it over,
// as the format's arithmetic has it; ok says whether a pulse was played.
func (r *Reader) pulse(T uint64) (Pulse, bool) {
	high := r.High
	r.High = !high
	if T == 0 {
		return Pulse{}, false
	}
	r.Line = high
	r.Pulses++
	return Pulse{T: T, High: high, Block: r.Block}, true
}

// next moves to the block after the one in hand.
func (r *Reader) next() { r.goTo(r.Block + 1) }

// goTo moves to block b, to begin it.
func (r *Reader) goTo(b uint32) {
	r.Block, r.Phase, r.Count, r.Bit, r.Half, r.Fraction = b, Enter, 0, 0, 0, 0
}

// pauseOrNext ends a block with its pause, if it has one.
func (r *Reader) pauseOrNext(ms uint32) {
	if ms == 0 {
		r.next()
		return
	}
	r.Phase, r.Count, r.Bit, r.Half = Pause, ms, 0, 0
}

// step takes one step within the block: it answers a pulse, a status, or
// ok false where it only moved on.
func (r *Reader) step(t *Tape, blk *block, m Machine) (Pulse, bool, Status) {
	switch r.Phase {
	case Enter:
		r.enter(t, blk, m)
		return Pulse{}, false, Play
	case Pilot:
		if r.Count == 0 {
			if blk.id == idTone {
				r.next()
			} else {
				r.Phase = Sync1
			}
			return Pulse{}, false, Play
		}
		r.Count--
		p, ok := r.pulse(uint64(blk.pilot))
		return p, ok, Play
	case Sync1:
		r.Phase = Sync2
		p, ok := r.pulse(uint64(blk.sync1))
		return p, ok, Play
	case Sync2:
		r.Phase, r.Bit, r.Half = Data, 0, 0
		p, ok := r.pulse(uint64(blk.sync2))
		return p, ok, Play
	case Data:
		if r.Bit >= blk.bits || r.Bit/8 >= uint64(len(blk.data)) {
			r.pauseOrNext(blk.pause)
			return Pulse{}, false, Play
		}
		T := blk.zero
		if blk.data[r.Bit/8]>>(7-r.Bit%8)&1 != 0 {
			T = blk.one
		}
		if r.Half == 0 {
			r.Half = 1
		} else {
			r.Half = 0
			r.Bit++
		}
		p, ok := r.pulse(uint64(T))
		return p, ok, Play
	case Sequence:
		k := r.Bit * 2
		if k+1 >= uint64(len(blk.data)) {
			r.next()
			return Pulse{}, false, Play
		}
		r.Bit++
		p, ok := r.pulse(uint64(blk.data[k]) | uint64(blk.data[k+1])<<8)
		return p, ok, Play
	case Samples:
		return r.samples(blk)
	case Recording:
		return r.recording(t, blk)
	case PilotSymbols, DataSymbols:
		return r.symbols(blk)
	case Pause:
		if r.Count == 0 {
			r.next()
			return Pulse{}, false, Play
		}
		// The first millisecond at the current pulse level, finishing
		// the last pulse; the rest low. Where the level is low already,
		// the whole pause is one pulse.
		if r.High {
			r.Count--
			return r.hold(millisecond, true), true, Play
		}
		T := uint64(r.Count) * millisecond
		r.Count = 0
		return r.hold(T, false), true, Play
	case Stop:
		if r.High {
			return r.hold(millisecond, true), true, Play
		}
		r.next()
		return Pulse{}, true, Stopped
	}
	// A phase no reader of this package leaves: the block is passed over.
	r.next()
	return Pulse{}, false, Play
}

// enter begins the block in hand: it sets the reader up to play it, or
// does what a block that plays nothing does, and moves on.
func (r *Reader) enter(t *Tape, blk *block, m Machine) {
	switch blk.id {
	case idStandard, idTurbo:
		r.Phase, r.Count = Pilot, blk.pilotPulses
	case idTone:
		r.Phase, r.Count = Pilot, blk.pilotPulses
	case idPureData:
		r.Phase, r.Bit, r.Half = Data, 0, 0
	case idPulses:
		r.Phase, r.Bit = Sequence, 0
	case idDirect:
		r.Phase, r.Bit = Samples, 0
	case idCSW:
		r.Phase, r.Bit, r.Fraction = Recording, uint64(blk.cswFrom), 0
	case idGeneral:
		r.Phase, r.Bit, r.Count, r.Half = PilotSymbols, 0, 0, 0
	case idPause:
		if blk.pause == 0 {
			if m == Amstrad {
				r.next() // [CDT]: "treated as 'no pause'"
				return
			}
			r.Phase = Stop // [TZX] ID 20: "STOP THE TAPE"
			return
		}
		r.pauseOrNext(blk.pause)
	case idStop48:
		if m == Amstrad {
			r.next() // [CDT]: it "MUST NOT have any effect"
			return
		}
		r.Phase = Stop
	case idLevel:
		r.High, r.Line = blk.level, blk.level
		r.next()
	case idJump:
		r.goTo(blk.target)
	case idLoopStart:
		// [TZX] ID 24: the blocks up to the loop end are played this many
		// times ("greater than 1"); fewer are played once.
		r.LoopStart, r.LoopLeft = r.Block+2, max(uint32(blk.target), 1)
		r.next()
	case idLoopEnd:
		// A loop end with no loop started is passed over.
		if r.LoopStart != 0 && r.LoopLeft > 1 {
			r.LoopLeft--
			r.goTo(r.LoopStart - 1)
			return
		}
		r.LoopStart, r.LoopLeft = 0, 0
		r.next()
	case idCall:
		if len(blk.calls) == 0 {
			r.next()
			return
		}
		r.CallAt, r.CallNext = r.Block+1, 1
		r.goTo(blk.calls[0])
	case idReturn:
		// [TZX] ID 27: the next call of the sequence, or the block after
		// the call sequence. A return with no call made is passed over.
		at := r.CallAt
		if at == 0 || at > uint32(len(t.blocks)) || t.blocks[at-1].id != idCall {
			r.CallAt, r.CallNext = 0, 0
			r.next()
			return
		}
		if calls := t.blocks[at-1].calls; r.CallNext < uint32(len(calls)) {
			r.CallNext++
			r.goTo(calls[r.CallNext-1])
			return
		}
		r.CallAt, r.CallNext = 0, 0
		r.goTo(at)
	default:
		// Groups, texts, messages, archive and hardware information,
		// custom information, glue, and the deprecated blocks say nothing
		// to the deck. A select block's menu has no one to answer it
		// here, so the tape plays on to the block after it.
		r.next()
	}
}

// samples plays a direct recording's next run of equal samples as one
// pulse: each sample is the level for its T-states, 1 high, the top bit of
// each byte first ([TZX] ID 15). The level after it is the last one
// played, and then comes the pause.
func (r *Reader) samples(blk *block) (Pulse, bool, Status) {
	n := min(blk.bits, uint64(len(blk.data))*8)
	if r.Bit >= n || blk.zero == 0 {
		r.pauseOrNext(blk.pause)
		return Pulse{}, false, Play
	}
	sample := func(k uint64) bool { return blk.data[k/8]>>(7-k%8)&1 != 0 }
	high := sample(r.Bit)
	end := r.Bit + 1
	for end < n {
		// Whole bytes of the same level at a time.
		if end%8 == 0 && n-end >= 8 {
			if b := blk.data[end/8]; (high && b == 0xFF) || (!high && b == 0) {
				end += 8
				continue
			}
		}
		if sample(end) != high {
			break
		}
		end++
	}
	T := (end - r.Bit) * uint64(blk.zero)
	r.Bit = end
	r.High = high
	p := r.hold(T, high)
	r.High = high
	return p, true, Play
}

// recording plays a CSW recording's next run length as a pulse: each is
// a byte, or a byte 0 and a 32-bit length, in samples at the block's rate
// ([CSW] section 3). The pulses alternate from the current pulse level,
// and the level after the recording is the last one played. The samples
// are turned into T-states exactly, the fraction of a T-state carried
// from one pulse to the next.
func (r *Reader) recording(t *Tape, blk *block) (Pulse, bool, Status) {
	runs := t.csw
	to := min(uint64(blk.cswTo), uint64(len(runs)))
	if r.Bit >= to || r.Bit < uint64(blk.cswFrom) || blk.rate == 0 {
		if r.Bit > uint64(blk.cswFrom) {
			r.High = !r.High // the last level played, not the one after it
		}
		r.pauseOrNext(blk.pause)
		return Pulse{}, false, Play
	}
	k := r.Bit
	samples := uint64(runs[k])
	k++
	if samples == 0 {
		if to-k < 4 {
			r.Bit = to
			return Pulse{}, false, Play
		}
		samples = uint64(runs[k]) | uint64(runs[k+1])<<8 | uint64(runs[k+2])<<16 | uint64(runs[k+3])<<24
		k += 4
	}
	r.Bit = k
	whole := samples*TicksPerMillisecond*1000 + min(r.Fraction, uint64(blk.rate))
	r.Fraction = whole % uint64(blk.rate)
	p, ok := r.pulse(whole / uint64(blk.rate))
	return p, ok, Play
}

// symbols plays a generalized data block's next pulse: of the pilot and
// sync stream, each symbol repeated as its entry says, and then of the
// data stream, each symbol NB bits of it ([TZX] ID 19). A symbol's first
// pulse is played as its flags say, against the level the line holds,
// that of the last pulse played: 0 "opposite to the current level (make an
// edge, as usual)"; 1 "same as the current level (no edge - prolongs the
// previous pulse)"; 2 low; 3 high. Its pulses then alternate. After a
// pulse of any other block the two readings agree; after a pause, or a
// set signal level, the line is what the symbol is played against.
func (r *Reader) symbols(blk *block) (Pulse, bool, Status) {
	g := blk.gdb
	if g == nil {
		r.pauseOrNext(blk.pause)
		return Pulse{}, false, Play
	}
	var sym *symbol
	if r.Phase == PilotSymbols {
		if r.Bit >= uint64(len(g.prle)) {
			r.Phase, r.Bit, r.Count, r.Half = DataSymbols, 0, 0, 0
			return Pulse{}, false, Play
		}
		e := g.prle[r.Bit]
		if r.Count >= uint32(e.count) || int(e.symbol) >= len(g.pilotSyms) {
			r.Bit, r.Count, r.Half = r.Bit+1, 0, 0
			return Pulse{}, false, Play
		}
		sym = &g.pilotSyms[e.symbol]
	} else {
		if r.Bit >= uint64(g.totd) || (g.nb > 0 && (r.Bit*uint64(g.nb)+uint64(g.nb)+7)/8 > uint64(len(blk.data))) {
			r.pauseOrNext(blk.pause)
			return Pulse{}, false, Play
		}
		v := uint32(0)
		if g.nb > 0 {
			v = streamBits(blk.data, r.Bit*uint64(g.nb), g.nb)
		}
		if int(v) >= len(g.dataSyms) {
			r.Bit, r.Half = r.Bit+1, 0
			return Pulse{}, false, Play
		}
		sym = &g.dataSyms[v]
	}
	if int(r.Half) >= len(sym.pulses) {
		// The symbol is over: the next one.
		r.Half = 0
		if r.Phase == PilotSymbols {
			r.Count++
		} else {
			r.Bit++
		}
		return Pulse{}, false, Play
	}
	if r.Half == 0 {
		switch sym.polarity {
		case 0:
			r.High = !r.Line
		case 1:
			r.High = r.Line
		case 2:
			r.High = false
		case 3:
			r.High = true
		}
	}
	T := sym.pulses[r.Half]
	r.Half++
	p, ok := r.pulse(uint64(T))
	return p, ok, Play
}

// Reach plays t from its start, by the rules of machine m, until a reader
// stands where want stands, as a state file's tape is put back (spec,
// "Keeping a machine"; KEEP-13): within want's pulses, and the stops and
// steps between them, since a deck takes at most one pulse a tick. It
// answers the reader, equal to want, or false where the tape never comes
// there: want was not played from this tape by these rules.
func Reach(t *Tape, m Machine, want Reader) (Reader, bool) {
	var r Reader
	for r != want {
		if r.Pulses > want.Pulses || r.Ended {
			return r, false
		}
		r.Next(t, m)
	}
	return r, true
}
