package host

import (
	"fmt"
	"slices"
	"sync"

	"colophon/internal/machine"
	"colophon/internal/picture"
)

// An Owner is a loop that a machine belongs to: colophon-mcp's window, which
// runs its machine in real time before a person's eyes (issue 16). Once a
// machine is owned, a request to it no longer waits in the machine's queue:
// it is put on the owner's list and the owner is woken (Wake), and the loop
// lets the requests on the list have the machine one at a time, in the
// order they came, when it stands between frames (ServePending). Each
// request is told on a channel of its own that its turn has come, and tells
// the loop on another when it is done. Between requests the machine is the
// loop's, which runs it a frame at a time (RunFrame) and holds the keys a
// person holds down (Hold).
//
// What the loop does is journaled as requests are, so that the journal is
// still the way from the machine's opening to where it stands (spec, "The
// journal"): the frames run in real time are one run entry by ticks, which
// grows frame by frame while nothing else is entered, no state is kept and
// the person's keys stay as they are, and which the run replays tick for
// tick; the person's keys are the keys it holds. A run by ticks ends at the
// first end of an instruction at or past its ticks, and every frame run
// here ends at the end of an instruction, so the run made again ends where
// the last frame did, whatever frames it was made of.
type Owner struct {
	h *Host
	m *Machine

	mu      sync.Mutex
	pending []*turn
	wake    chan struct{}
	closed  bool

	keys []string // the person's keys, held between requests
	span span     // the real-time run being entered in the journal
}

// A turn is one request's turn at an owned machine.
type turn struct {
	granted chan struct{} // closed when the request may use the machine
	done    chan struct{} // closed when it has finished with it
}

// A span is the journal entry of the frames the loop has run since it was
// entered: a run of ticks, with the person's keys, at index at.
type span struct {
	open  bool
	at    int
	entry *Entry // the address of the entry at at, which a journal put back by state_restore does not share
	kept  int    // m.kept as it was entered: a state kept since holds the entry, which is then written no more
	start uint64 // the tick the run began at
	ticks uint64
	keys  []string
}

// Own gives the machine called handle to an owner. It is called before any
// request is made of the machine, as the window does between opening its
// machine and serving its clients.
func (h *Host) Own(handle string) (*Owner, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	m, err := h.find(handle)
	if err != nil {
		return nil, err
	}
	if m.owner != nil {
		return nil, fmt.Errorf("machine %s already belongs to a loop", handle)
	}
	o := &Owner{h: h, m: m, wake: make(chan struct{}, 1)}
	m.owner = o
	return o, nil
}

// enqueue puts a request on the owner's list and wakes the loop. It reports
// false once the owner has let the machine go, when the request waits in
// the machine's queue as any other.
func (o *Owner) enqueue(t *turn) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return false
	}
	o.pending = append(o.pending, t)
	select {
	case o.wake <- struct{}{}:
	default:
	}
	return true
}

// Wake is the channel the loop is woken on when requests are waiting.
func (o *Owner) Wake() <-chan struct{} { return o.wake }

// ServePending lets each request waiting, in the order they came, have the
// machine until it is done with it, and returns when the list is empty.
// The person's keys are let go for each request and held again after it,
// so that a request finds the keyboard as its journal entry will find it
// when it is made again.
func (o *Owner) ServePending() {
	for {
		o.mu.Lock()
		if len(o.pending) == 0 {
			o.mu.Unlock()
			return
		}
		t := o.pending[0]
		o.pending = o.pending[1:]
		o.mu.Unlock()
		o.serve(t)
	}
}

func (o *Owner) serve(t *turn) {
	mm := o.m.m
	if len(o.keys) > 0 {
		mm.Hold(nil)
	}
	close(t.granted)
	<-t.done
	if len(o.keys) > 0 && !o.m.closed {
		if err := mm.Hold(o.keys); err != nil {
			// The names were held a moment ago.
			panic(fmt.Sprintf("host: holding the person's keys again: %v", err))
		}
	}
}

// Release lets the machine go back to its queue: the requests on the list
// are served first, in order, and those that come after wait in the queue
// behind them. The loop calls it as it ends, and uses the owner no more.
func (o *Owner) Release() {
	m := o.m
	t := m.q.ticket()
	m.q.wait(t)
	o.mu.Lock()
	o.closed = true
	o.mu.Unlock()
	o.h.mu.Lock()
	m.owner = nil
	o.h.mu.Unlock()
	o.ServePending()
	m.q.done()
}

// Handle is the machine's handle.
func (o *Owner) Handle() string { return o.m.handle }

// Name is what the machine was built as: cpc6128, spectrum48.
func (o *Owner) Name() string { return o.m.kind.name }

// CPC reports whether the machine is an Amstrad CPC.
func (o *Owner) CPC() bool { return o.m.kind.cpc }

// StandardFrame is the ticks of the machine's standard frame.
func (o *Owner) StandardFrame() uint64 { return o.m.m.StandardFrame() }

// Tick is the machine's tick. Like the rest of the loop's methods, it is
// called only between requests.
func (o *Owner) Tick() uint64 { return o.m.m.Tick() }

// Journaled is how many entries the machine's journal holds.
func (o *Owner) Journaled() int { return len(o.m.journal) }

// Picture is the machine's picture, its own: the loop reads it before the
// machine runs on or a request is served.
func (o *Owner) Picture() *picture.Picture { return o.m.m.Picture() }

// Keys are the person's keys, as Hold last held them.
func (o *Owner) Keys() []string { return slices.Clone(o.keys) }

// Hold holds the person's keys down, by the machine's names for them, from
// now until they are held otherwise. An unknown name is refused and the
// keyboard left as it was.
func (o *Owner) Hold(keys []string) error {
	if o.m.closed {
		return fmt.Errorf("machine %s was put away", o.m.handle)
	}
	if err := o.m.m.Hold(keys); err != nil {
		return err
	}
	o.keys = slices.Clone(keys)
	return nil
}

// RunFrame runs the machine until its monitor has retraced a frame, as run
// does with frames 1, holding the person's keys, and journals it (see
// Owner). It is refused, with the machine as it stood, where the frame
// could end past the largest tick a machine reaches.
func (o *Owner) RunFrame() (machine.Result, error) {
	frames := uint64(1)
	return o.run(RunArgs{Frames: &frames}, func(mm machine.Machine) machine.Result { return mm.RunFrames(1) })
}

// RunTicks runs the machine n ticks, as run does with ticks n, holding the
// person's keys, and journals it as RunFrame does.
func (o *Owner) RunTicks(n uint64) (machine.Result, error) {
	if err := machine.CheckTicks(o.m.m, n); err != nil {
		return machine.Result{}, err
	}
	return o.run(RunArgs{Ticks: &n}, func(mm machine.Machine) machine.Result { return mm.RunTicks(n) })
}

func (o *Owner) run(a RunArgs, f func(machine.Machine) machine.Result) (machine.Result, error) {
	m := o.m
	if m.closed {
		return machine.Result{}, fmt.Errorf("machine %s was put away", m.handle)
	}
	mm := m.m
	if err := m.room("the window's run", runSpan(mm, a)); err != nil {
		return machine.Result{}, err
	}
	tick := mm.Tick()
	r := f(mm)
	if r.Ticks > 0 {
		o.journal(tick, r)
	}
	m.publish()
	return r, nil
}

// journal enters a run from tick in the span, or begins a new span.
func (o *Owner) journal(tick uint64, r machine.Result) {
	m := o.m
	s := &o.span
	limit := machine.MaxFrames * m.m.StandardFrame()
	grows := s.open && s.kept == m.kept && len(m.journal) == s.at+1 && &m.journal[s.at] == s.entry &&
		s.start+s.ticks == tick && slices.Equal(s.keys, o.keys) && s.ticks+r.Ticks <= limit
	if grows {
		s.ticks += r.Ticks
		m.journal[s.at] = Entry{Tick: s.start, Tool: "run", Arguments: o.runArguments(s.ticks)}
	} else {
		m.journal = append(m.journal, Entry{Tick: tick, Tool: "run", Arguments: o.runArguments(r.Ticks)})
		at := len(m.journal) - 1
		*s = span{open: true, at: at, entry: &m.journal[at], kept: m.kept, start: tick, ticks: r.Ticks, keys: slices.Clone(o.keys)}
	}
	// A run by ticks made again stops where a HALT leaves interrupts
	// disabled, as this frame did; the frames after it are a run of their
	// own, which begins in the HALT and so runs on (T-13, T-14).
	if r.Stop == machine.Halted {
		s.open = false
	}
}

// runArguments are a real-time run's arguments as the journal writes them.
func (o *Owner) runArguments(ticks uint64) []byte {
	e := runEntry{Ticks: &ticks}
	for _, k := range o.keys {
		e.Keys = append(e.Keys, KeyNamed(k))
	}
	b, err := marshal(e)
	if err != nil {
		panic(fmt.Sprintf("host: writing a real-time run for the journal: %v", err))
	}
	return b
}
