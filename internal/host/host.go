// Package host holds the machines a colophon-mcp client stands up, each
// behind a handle, and carries out what is asked of them: it is what the
// server's tools call once they have decoded their arguments (see
// ../../../shared/design/ARCHITECTURE.md, "Host and server").
//
// It owns:
//
//   - the machines by handle, with each machine's requests run one at a
//     time in the order they came, and different machines run at once;
//   - the limits of a request: 1500 frames, the ticks of 1500 standard
//     frames, 100000 instructions, and typing's lengths (spec, "Time");
//   - the journal of each machine, its arguments written in one normal form
//     (journal.go);
//   - the files a machine is built from, each named by its absolute path and
//     its SHA-256 (files.go).
//
// A request that is refused leaves its machine as it stood: every check is
// made before anything is changed. The same requests give the same answers:
// nothing here reads a clock or a random number, or ranges over a map.
package host

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"colophon/internal/firmware"
	"colophon/internal/machine"

	"colophon/internal/quote"
)

// Options configure a Host.
type Options struct {
	// Firmware reads the machines' firmware, from the directories the
	// server was started with. A Loader that fits Prefix is held to Exact
	// all the same: the server takes firmware only at its size (S-10, A-1).
	Firmware firmware.Loader
	// Build is the build's name, which each journal gives.
	Build string
	// ProgressEvery is how often a long request tells its progress, by the
	// host's clock; a second if not given.
	ProgressEvery time.Duration
}

// A Host holds machines by handle.
type Host struct {
	opts Options

	mu       sync.Mutex
	machines []*Machine // standing, in the order they were stood up
	opened   int        // machines stood up so far, which numbers the handles
	// lost is how many of them a server before this one stood up, and
	// lost as it stopped (ContinueAfter); onOpen is told each new count.
	lost   int
	onOpen func(opened int)
}

// ContinueAfter numbers the machines stood up from now on after the first
// n, which a server that ran before this one stood up, in a process that
// has ended: a client that outlived that process, as a client over HTTP
// keeps its session, never reaches a new machine by an old handle, and is
// told the old one was lost. onOpen, if not nil, is told the count after
// each machine_open, for the program to keep for the next process.
func (h *Host) ContinueAfter(n int, onOpen func(opened int)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if n > h.opened {
		h.opened = n
	}
	h.lost = n
	h.onOpen = onOpen
}

// New returns a host with no machine standing.
func New(opts Options) *Host {
	opts.Firmware.Fit = firmware.Exact
	return &Host{opts: opts}
}

// A Machine is one machine standing behind its handle. Its fields are
// touched only in a request's turn (see queue), except handle and kind,
// which never change.
type Machine struct {
	handle string
	kind   *kind
	crtc   int // a CPC's 6845 type
	m      machine.Machine
	files  []File

	journal []Entry
	closed  bool
	// before is where a run last stopped before an instruction, which a
	// run begun there runs first (CB-5).
	before stoppedBefore
	// progressEvery is the host's Options.ProgressEvery.
	progressEvery time.Duration

	// shown is the machine as machine_list names it, as the last request
	// to it left it: the list reads it without waiting for the machine.
	shown atomic.Pointer[Summary]

	// The states kept of it and not yet let go, oldest first; kept counts
	// every state kept, which numbers them; and base is the image its
	// buffers were last known to hold, kept or put back, whose pages the
	// next state shares where they are equal (state.go).
	states []*state
	kept   int
	base   image

	q queue
	// owner is the loop the machine belongs to, if one does (Own): its
	// requests then wait on the owner's list instead of in q.
	owner *Owner
}

// A queue runs a machine's requests one at a time in the order they took
// their tickets, as a ticket counter serves them (spec, "Requests to one
// machine run in order").
type queue struct {
	mu      sync.Mutex
	turn    *sync.Cond
	next    uint64 // the ticket the next request takes
	serving uint64 // the ticket whose turn it is
}

func (q *queue) ticket() uint64 {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.turn == nil {
		q.turn = sync.NewCond(&q.mu)
	}
	t := q.next
	q.next++
	return t
}

func (q *queue) wait(t uint64) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for q.serving != t {
		q.turn.Wait()
	}
}

func (q *queue) done() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.serving++
	q.turn.Broadcast()
}

// arrivalKey is the context key of the function told once a request has
// taken its place in line.
type arrivalKey struct{}

// WithArrival returns a context whose request tells f once it has taken its
// place in the line of each machine it is for, or been refused before it
// could. A server that hands requests over one at a time in the order they
// came (internal/server's door) waits for f before it hands over the next,
// so that each machine's line holds them in the order they came, however
// the goroutines that carry them are scheduled. f may be told more than
// once; it must see only the first.
func WithArrival(ctx context.Context, f func()) context.Context {
	return context.WithValue(ctx, arrivalKey{}, f)
}

// arrived tells the context's arrival function, if it has one.
func arrived(ctx context.Context) {
	if f, ok := ctx.Value(arrivalKey{}).(func()); ok {
		f()
	}
}

// find returns the machine standing by handle, or an error that names the
// ones that stand. h.mu is held.
func (h *Host) find(handle string) (*Machine, error) {
	for _, m := range h.machines {
		if m.handle == handle {
			return m, nil
		}
	}
	var n int
	if _, err := fmt.Sscanf(handle, "m%d", &n); err == nil && handle == fmt.Sprintf("m%d", n) && n >= 1 && n <= h.lost {
		return nil, fmt.Errorf("machine %s is gone: the server restarted since it was stood up, and a machine lives in the server's memory, so none outlasts it (a client's session does); machine_open stands up a new one, and its journal, if it was kept, makes it again", handle)
	}
	if len(h.machines) == 0 {
		return nil, fmt.Errorf("no machine is called %s: none stands; machine_open stands one up", quote.String(handle))
	}
	names := make([]string, len(h.machines))
	for i, m := range h.machines {
		names[i] = m.handle
	}
	return nil, fmt.Errorf("no machine is called %s; the machines standing are %s", quote.String(handle), strings.Join(names, ", "))
}

// acquire waits for the turn of a request to the machine called handle,
// and returns it with the function that ends the turn. The request takes
// its place in line before acquire waits, and says so (WithArrival).
func (h *Host) acquire(ctx context.Context, handle string) (*Machine, func(), error) {
	if m := replaying(ctx); m != nil && handle == m.handle {
		// A machine a journal is being made again on has no handle yet,
		// and no request but the replay's reaches it (rebuild.go).
		return m, func() {}, nil
	}
	h.mu.Lock()
	m, err := h.find(handle)
	if err != nil {
		h.mu.Unlock()
		arrived(ctx)
		return nil, nil, err
	}
	if o := m.owner; o != nil {
		h.mu.Unlock()
		t := &turn{granted: make(chan struct{}), done: make(chan struct{})}
		if o.enqueue(t) {
			arrived(ctx)
			<-t.granted
			if m.closed {
				close(t.done)
				return nil, nil, fmt.Errorf("machine %s was put away by a machine_close asked before this", handle)
			}
			return m, func() { m.publish(); close(t.done) }, nil
		}
		// The owner let the machine go as this request came: it waits
		// in the queue, behind those the owner still serves.
		h.mu.Lock()
	}
	t := m.q.ticket()
	h.mu.Unlock()
	arrived(ctx)

	m.q.wait(t)
	if m.closed {
		m.q.done()
		return nil, nil, fmt.Errorf("machine %s was put away by a machine_close asked before this", handle)
	}
	return m, func() { m.publish(); m.q.done() }, nil
}

// publish shows the machine as it stands to machine_list. It is called in
// the machine's turn, as each request ends.
func (m *Machine) publish() {
	m.shown.Store(&Summary{Handle: m.handle, Machine: m.kind.name, Tick: m.m.Tick(), States: m.stateNames()})
}

// with runs f in the turn of a request to the machine called handle.
func with[T any](h *Host, ctx context.Context, handle string, f func(m *Machine) (T, error)) (T, error) {
	m, done, err := h.acquire(ctx, handle)
	if err != nil {
		var zero T
		return zero, err
	}
	defer done()
	return f(m)
}

// A Summary is one machine as machine_list names it.
type Summary struct {
	Handle  string   `json:"handle" jsonschema:"the name machine_open gave the machine, which every other tool takes"`
	Machine string   `json:"machine" jsonschema:"what it was built as: cpc464, cpc664, cpc6128 or spectrum48"`
	Tick    uint64   `json:"tick" jsonschema:"its tick since it was stood up: from power-on, or from its snapshot"`
	States  []string `json:"states" jsonschema:"the states kept of it and not yet dropped, oldest first, by the names state_restore takes"`
}

// List names the machines standing, in the order they were stood up, each
// as the last request to it that has ended left it. It waits for no
// machine: a machine in the middle of a long run is listed at once, as it
// stood before the run (issue 19, item 7).
func (h *Host) List(ctx context.Context) ([]Summary, error) {
	h.mu.Lock()
	ms := append([]*Machine(nil), h.machines...)
	h.mu.Unlock()
	arrived(ctx)

	list := []Summary{}
	for _, m := range ms {
		s := *m.shown.Load()
		s.States = append([]string{}, s.States...)
		list = append(list, s)
	}
	return list, nil
}

// Close puts a machine away once every request asked of it before is done
// (W-11, A-17). Requests asked after it are refused.
func (h *Host) Close(ctx context.Context, a CloseArgs) (Closed, error) {
	return with(h, ctx, a.Handle, func(m *Machine) (Closed, error) {
		h.mu.Lock()
		for i, o := range h.machines {
			if o == m {
				h.machines = append(h.machines[:i:i], h.machines[i+1:]...)
				break
			}
		}
		h.mu.Unlock()
		m.closed = true
		return Closed{Handle: m.handle, Machine: m.kind.name, Tick: m.m.Tick()}, nil
	})
}

// CloseArgs are machine_close's arguments.
type CloseArgs struct {
	Handle string `json:"handle" jsonschema:"the machine to put away, by the handle machine_open gave it" maxLength:"64"`
}

// Closed is machine_close's answer.
type Closed struct {
	Handle  string `json:"handle" jsonschema:"the machine put away; its handle names nothing from now on"`
	Machine string `json:"machine" jsonschema:"what it was built as"`
	Tick    uint64 `json:"tick" jsonschema:"the tick it stood at when it was put away"`
}
