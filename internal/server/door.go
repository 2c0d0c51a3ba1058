package server

import (
	"context"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// A door hands a client's tool calls to the SDK one at a time, in the order
// they came, so that the host lines them up in that order.
//
// The SDK reads requests in order and starts each in order, but it runs each
// call on a goroutine of its own and starts the next as soon as the last
// has begun (go-sdk's jsonrpc2.Async); two calls to one machine, a run and
// then a monitor, could then reach the host either way round. The spec has
// requests to one machine run in the order they came. So the connection
// lets the next tools/call through only once the one before has taken its
// place in line at the host (host.WithArrival), which it does at once,
// before it waits for its turn, or has been answered without reaching the
// host, as a call to an unknown tool is. The door holds a call for the
// moment it takes to line up, never for the time it takes to run: calls to
// different machines still run at once.
type door struct {
	mu     sync.Mutex
	turn   *sync.Cond
	inside bool       // a call is through and has not lined up yet
	id     jsonrpc.ID // which
	closed bool
}

func newDoor() *door {
	d := &door{}
	d.turn = sync.NewCond(&d.mu)
	return d
}

// enter waits until the call before has lined up, then lets the call with
// id through. It gives up when ctx is done or the door closes.
func (d *door) enter(ctx context.Context, id jsonrpc.ID) {
	stop := context.AfterFunc(ctx, func() {
		d.mu.Lock()
		d.turn.Broadcast()
		d.mu.Unlock()
	})
	defer stop()
	d.mu.Lock()
	defer d.mu.Unlock()
	for d.inside && !d.closed && ctx.Err() == nil {
		d.turn.Wait()
	}
	d.inside, d.id = true, id
}

// leave says that the call through has lined up. Only the call through can
// say it: the next is not let through until it has.
func (d *door) leave() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.inside = false
	d.turn.Broadcast()
}

// answered says that the call with id has been answered, which lines it up
// if nothing did before: the SDK answers some calls without the tool.
func (d *door) answered(id jsonrpc.ID) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.inside && d.id == id {
		d.inside = false
		d.turn.Broadcast()
	}
}

// close lets every call through: the connection is ending.
func (d *door) close() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.closed = true
	d.turn.Broadcast()
}
