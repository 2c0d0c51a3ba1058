package window

import (
	"context"
	"time"
)

// behind is how far the loop may fall behind the machine's own time before
// it gives up catching up: after a long request, or a stall of the
// process, the machine goes on from now rather than racing through the
// frames it missed.
const behind = 100 * time.Millisecond

// loop runs the machine in real time until ctx is done: a frame, its
// picture published, and then, until the machine's time for the next frame
// has come, the requests waiting for it, each answered as it comes. The
// machine's time is its ticks at its clock, so a CPC whose firmware set a
// 60 Hz frame, as its link says, shows 60 frames a second.
func (w *Window) loop(ctx context.Context) {
	defer w.owner.Release()
	timer := time.NewTimer(0)
	defer timer.Stop()
	next := time.Now()
	running := false
	for {
		select {
		case <-ctx.Done():
			return
		case <-w.owner.Wake():
			w.owner.ServePending()
			w.publish()
			continue
		case <-w.poke:
		case <-timer.C:
			if w.Paused() {
				running = false
				continue
			}
			held, changed := w.keys.step()
			if changed {
				if err := w.owner.Hold(held); err != nil {
					w.stop(err.Error())
					continue
				}
			}
			r, err := w.owner.RunFrame()
			if err != nil {
				w.stop(err.Error())
				continue
			}
			w.publish()
			next = next.Add(time.Duration(r.Ticks) * time.Second / time.Duration(w.clock))
			if r.Ticks == 0 {
				next = next.Add(time.Second / 50)
			}
		}
		// Set the timer for the next frame, from now if the loop was
		// paused or has fallen behind.
		now := time.Now()
		if w.Paused() {
			running = false
			continue
		}
		if !running || now.Sub(next) > behind {
			next = now
			running = true
		}
		timer.Reset(next.Sub(now))
	}
}

// publish shows the page the machine as it stands, and the status its
// journal's length.
func (w *Window) publish() {
	w.frames.publish(w.owner.Picture(), w.owner.Tick())
	n := w.owner.Journaled()
	w.mu.Lock()
	if n != w.journal {
		w.journal = n
		w.changedLocked()
	}
	w.mu.Unlock()
}

// stop pauses the machine for a reason of its own, which the page shows.
func (w *Window) stop(why string) {
	w.mu.Lock()
	w.problem = why
	w.paused = true
	w.changedLocked()
	w.mu.Unlock()
}
