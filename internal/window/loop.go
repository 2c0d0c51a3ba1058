package window

import (
	"context"
	"time"
)

// behind is how far the loop may fall behind the machine's own time and
// still catch up, running the frames it missed one after another: a
// process kept from the processor for a moment loses no time. Past it,
// after a stall of the process, the machine goes on from now rather than
// racing through a second of frames. A request that moves the machine
// moves its time with it, and the loop goes on from now after it too.
const behind = time.Second

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
		// Requests first, then the next frame: a request that came while
		// a frame ran is answered at that frame's end even when the next
		// frame's time has come too (the loop catching up), so that a
		// call waits at most for the frame running as it comes
		// (TestCallWaitsAtMostTheFrameRunning).
		woken := false
		select {
		case <-w.owner.Wake():
			woken = true
		default:
			select {
			case <-ctx.Done():
				return
			case <-w.owner.Wake():
				woken = true
			case <-w.poke:
			case <-timer.C:
				if w.Paused() {
					running = false
					continue
				}
				ticks, err := w.frame()
				if err != nil {
					w.stop(err.Error())
					continue
				}
				w.publish()
				next = next.Add(w.machineTime(ticks))
				if ticks == 0 {
					next = next.Add(time.Second / 50)
				}
			}
		}
		if woken {
			tick := w.owner.Tick()
			w.owner.ServePending()
			w.publish()
			if w.owner.Tick() == tick {
				continue
			}
			running = false // the request ran the machine: its time is the request's
		}
		// Set the timer for the next frame, from now if the loop was
		// paused or has fallen behind.
		now := time.Now()
		if w.Paused() {
			running = false
			continue
		}
		if !running || now.Sub(next) > behind {
			if running && now.Sub(next) > behind {
				w.mu.Lock()
				w.lost += now.Sub(next)
				w.mu.Unlock()
			}
			next = now
			running = true
		}
		timer.Reset(next.Sub(now))
	}
}

// machineTime is how long ticks last at the machine's clock: the time the
// loop gives a frame that ran them.
func (w *Window) machineTime(ticks uint64) time.Duration {
	return time.Duration(ticks) * time.Second / time.Duration(w.clock)
}

// frame runs the machine's next frame with the person's keys, and answers
// the ticks it ran. Keys that go down or up do so halfway through a
// standard frame, away from the retrace: both machines' firmware scans
// the keyboard in the interrupt the retrace brings (a CPC's every sixth,
// a Spectrum's each), and keys changed while a scan reads the matrix line
// by line would be read half before and half after (SHIFT seen with the
// key that follows it).
func (w *Window) frame() (uint64, error) {
	var ticks uint64
	if held, changed := w.keys.step(); changed {
		r, err := w.owner.RunTicks(w.owner.StandardFrame() / 2)
		if err != nil {
			return 0, err
		}
		ticks += r.Ticks
		if err := w.owner.Hold(held); err != nil {
			return ticks, err
		}
	}
	r, err := w.owner.RunFrame()
	return ticks + r.Ticks, err
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
