package host

import (
	"context"
	"errors"
	"fmt"
	"time"

	"colophon/internal/machine"
)

// Progress is told how far a long request has gone: the ticks run so far,
// the ticks it may run at most, and a line for a person. A server that was
// given a progress token sends it on as MCP progress notifications.
type Progress func(done, total float64, message string)

type progressKey struct{}

// WithProgress returns a context whose long requests tell f how far they
// have gone, about once a second of the host's time.
func WithProgress(ctx context.Context, f Progress) context.Context {
	return context.WithValue(ctx, progressKey{}, f)
}

// progressEvery is how often a long request tells its progress, by the
// host's clock, unless the host's options say otherwise: a request that
// ends sooner tells none.
const progressEvery = time.Second

// follow lets the client follow a request that moves the machine, and
// stop it (spec, "Time": a request of 1500 of a CPC's frames takes
// seconds): while f runs, the request's context being cancelled, as
// notifications/cancelled does, stops the machine between instructions,
// and a Progress the context carries is told how far it has gone every
// second. The machine reads no clock: the host does, and the machine only
// looks at its Control between instructions (machine.Control). total is
// the most ticks the request may run. f is given the Control, or nil
// where the machine offers none, for a request that drives the processor
// itself, as call does, to look at.
func (m *Machine) follow(ctx context.Context, total uint64, f func(ctl *machine.Control)) {
	c, ok := m.m.(machine.Controllable)
	if !ok {
		f(nil)
		return
	}
	ctl := &machine.Control{}
	start := m.m.Tick()
	ctl.Tick.Store(start)
	c.Control(ctl)
	defer c.Control(nil)
	stopCancel := context.AfterFunc(ctx, func() { ctl.Stop.Store(true) })
	defer stopCancel()
	if tell, ok := ctx.Value(progressKey{}).(Progress); ok && tell != nil {
		done := make(chan struct{})
		ended := make(chan struct{})
		go func() {
			defer close(ended)
			every := m.progressEvery
			if every <= 0 {
				every = progressEvery
			}
			t := time.NewTicker(every)
			defer t.Stop()
			var told uint64
			for {
				select {
				case <-done:
					return
				case <-t.C:
					// Progress only grows: a look that finds the machine
					// where it was tells nothing.
					if ran := ctl.Tick.Load() - start; ran > told && (total == 0 || ran <= total) {
						told = ran
						tell(float64(ran), float64(total), fmt.Sprintf("%s has run %d ticks", m.handle, ran))
					}
				}
			}
		}()
		defer func() { close(done); <-ended }()
	}
	f(ctl)
}

// notCancelled refuses a request whose client cancelled it before it
// began, with the machine as it stands.
func notCancelled(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return errors.New("the request was cancelled before it began; the machine has not moved")
	}
	return nil
}
