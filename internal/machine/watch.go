package machine

import "sync/atomic"

// A Watch is what a host asks of a machine's runs beyond running: to be
// told of the instructions about to begin at some addresses, and of every
// access, and to stop between instructions where the watcher says so
// (spec, "Stopping and watching"). A machine that offers it (Watchable)
// consults it in RunTicks, RunFrames and Step while it is set, and a run
// with none set goes on exactly as it did, at its own speed.
type Watch struct {
	// Watcher is told and asked.
	Watcher Watcher
	// Execs marks the addresses at which an instruction about to begin is
	// told to the watcher (Begin): address a by bit a%64 of word a/64. With
	// none marked it may be nil.
	Execs *[1024]uint64
	// Accesses asks for every access to be told to the watcher (Access).
	Accesses bool
	// Attend is set by the watcher, while it is told of something, to be
	// asked at the end of the instruction (End). The machine clears it
	// before it asks.
	Attend bool
}

// Begins reports whether an instruction about to begin at pc is told.
func (w *Watch) Begins(pc uint16) bool {
	return w.Execs != nil && w.Execs[pc>>6]&(1<<(pc&63)) != 0
}

// Mark marks the addresses lo to hi, both included, in Execs, making it
// where it is nil.
func (w *Watch) Mark(lo, hi uint16) {
	if w.Execs == nil {
		w.Execs = new([1024]uint64)
	}
	for a := uint32(lo); a <= uint32(hi); a++ {
		w.Execs[a>>6] |= 1 << (a & 63)
	}
}

// A Watcher follows a watched run.
type Watcher interface {
	// Access is told of each access while Watch.Accesses is set, as an
	// Observer is.
	Access(a *Access)
	// Begin is told of an instruction about to begin at an address
	// Watch.Execs marks, between instructions, with the processor as it
	// stands there. It answers true to stop the run before it, leaving
	// the machine standing at it unrun.
	Begin() bool
	// End is asked, while Watch.Attend is set, at the end of an
	// instruction and the response to an interrupt taken there, where a
	// run may stop. It answers true to stop the run there.
	End() bool
}

// Watchable is a machine whose runs can be watched.
type Watchable interface {
	// Watch sets the watch the machine's runs and steps consult from now
	// on, or with nil none.
	Watch(w *Watch)
	// Beam answers where the monitor's beam stood at tick, in the
	// picture's pixels, as monitor answers it: tick is the tick of the
	// access a watcher is being told of, or the machine's own between
	// instructions.
	Beam(tick uint64) (x, y int)
}

// A Control lets a host follow a long request and stop it from another
// goroutine while it runs. The machine looks at it between instructions,
// at least every ControlTicks ticks of a run and every
// ControlInstructions instructions of a step: it writes its tick in Tick
// and stops, Cancelled, if Stop is set. Reading it costs a run nothing
// between those looks, so no clock is read and nothing changes in what the
// machine does.
type Control struct {
	Stop atomic.Bool
	Tick atomic.Uint64
}

// How often a run or a step looks at its Control: 10000 ticks is 2.5 ms of
// a CPC's time and 2.9 ms of a Spectrum's, well under a millisecond of the
// host's.
const (
	ControlTicks        = 10000
	ControlInstructions = 4096
)

// Controllable is a machine whose requests a host can follow and stop.
type Controllable interface {
	// Control sets the Control the machine's runs, steps and typing look
	// at from now on, or with nil none.
	Control(c *Control)
}
