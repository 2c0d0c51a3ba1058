package spectrum

import (
	"colophon/internal/chip/ula"
	"colophon/internal/machine"
	"colophon/internal/typing"
)

// RunTicks runs n ticks, to the end of the instruction standing when they
// are over, or sooner at the end of a HALT that leaves interrupts disabled
// (T-9, T-11, T-13).
func (s *Spectrum) RunTicks(n uint64) machine.Result {
	return s.measure(func() (machine.Stop, uint64) {
		return s.run(s.CPU.Tick+n, true)
	})
}

// RunFrames runs until the ULA has finished n frames: to the first end of
// an instruction at or past the start of the n-th frame from now, where
// the beam has gone back to the top (T-7). A Spectrum's frames always come,
// every 69888 ticks, so the cap of twice that for each frame asked (T-8)
// is never reached.
func (s *Spectrum) RunFrames(n uint64) machine.Result {
	s.ULA.Sync(s.CPU.Tick)
	return s.measure(func() (machine.Stop, uint64) {
		return s.run(s.ULA.FrameStart+n*ula.TicksPerFrame, true)
	})
}

// Step runs n instructions, each to its end, prefixes and all, and then
// through the response to an interrupt accepted there (T-10). It stops
// sooner at the end of a HALT that leaves interrupts disabled, as a run
// does. Inside HALT each step is one of the processor's idle fetches.
func (s *Spectrum) Step(n int) machine.Result {
	return s.measure(func() (machine.Stop, uint64) {
		return machine.StepInstructions(&s.CPU, n, s.CPU.Tick+machine.MaxFrames*ula.TicksPerFrame, s.settle, s.watch, s.control)
	})
}

// measure runs f and says what it did.
func (s *Spectrum) measure(f func() (machine.Stop, uint64)) machine.Result {
	s.ULA.Sync(s.CPU.Tick)
	t0, f0 := s.CPU.Tick, s.ULA.Frames
	stop, n := f()
	s.ULA.Sync(s.CPU.Tick)
	return machine.Result{
		Ticks:        s.CPU.Tick - t0,
		Frames:       s.ULA.Frames - f0,
		Instructions: n,
		Stop:         stop,
	}
}

// settle is the board's work at the end of an instruction: it finishes the
// ULA's frame if one has ended, sets /INT as the ULA held it on the
// instruction's last tick, and lets the processor take an interrupt it
// accepts there. A request begins where the last one ended, after this was
// done, so it begins with an instruction.
func (s *Spectrum) settle() {
	c := &s.CPU
	u := &s.ULA
	if c.Tick-u.FrameStart >= ula.TicksPerFrame {
		u.Sync(c.Tick)
	}
	c.INT = u.Interrupt(c.Tick - 1)
	if c.Interruptible() {
		c.Interrupt()
	}
}

// run runs the processor until its tick reaches target, ending between
// instructions, or inside a chain of prefixes if that is where the target
// falls (T-11, T-12). With haltStops it stops sooner at the end of a HALT
// that leaves interrupts disabled, unless the run began in one (T-13,
// T-14). A watch set on the machine is consulted (watched), and a control
// looked at every machine.ControlTicks. It returns why it stopped and how
// many instructions it ran.
func (s *Spectrum) run(target uint64, haltStops bool) (machine.Stop, uint64) {
	r := runner{halt: machine.WatchHalt(&s.CPU), haltStops: haltStops}
	stop := machine.RunStretches(&s.CPU, target, s.control, func(end uint64) (machine.Stop, bool) {
		if s.watch != nil {
			return s.watched(&r, end)
		}
		return s.plain(&r, end)
	})
	return stop, r.n
}

// runner is what one run keeps across the stretches it runs in.
type runner struct {
	halt      machine.HaltWatch
	n         uint64 // instructions run
	haltStops bool
}

// plain runs to tick end as run does, with nothing watched. It reports
// over when the run is over before then, and why.
//
// The loop is the machine's hot path: one Exec, and between instructions
// a frame check, the interrupt line and the HALT check.
func (s *Spectrum) plain(r *runner, end uint64) (machine.Stop, bool) {
	c := &s.CPU
	u := &s.ULA
	// The runner's fields, kept in locals while the loop runs.
	n, halt, haltStops := r.n, r.halt, r.haltStops
	defer func() { r.n, r.halt = n, halt }()
	for c.Tick < end {
		c.Exec()
		if c.Prefix != 0 {
			continue
		}
		n++
		if c.Tick-u.FrameStart >= ula.TicksPerFrame {
			u.Sync(c.Tick)
		}
		// The ULA holds /INT for the frame's first 32 ticks, and the
		// processor samples it on the last tick of each instruction
		// (ula.ULA.Interrupt).
		c.INT = u.Interrupt(c.Tick - 1)
		if c.Interruptible() {
			c.Interrupt()
		}
		if halt.Stops(c) && haltStops {
			return machine.Halted, true
		}
	}
	return machine.Done, false
}

// watched is plain with the watch consulted: before each instruction at an
// address it marks, and at the end of each instruction it asks to see.
func (s *Spectrum) watched(r *runner, end uint64) (machine.Stop, bool) {
	c := &s.CPU
	w := s.watch
	for c.Tick < end {
		if c.Prefix == 0 && w.Begins(c.PC) && w.Watcher.Begin() {
			return machine.Stopped, true
		}
		c.Exec()
		if c.Prefix != 0 {
			continue
		}
		r.n++
		s.settle()
		if w.Attend {
			w.Attend = false
			if w.Watcher.End() {
				return machine.Stopped, true
			}
		}
		if r.halt.Stops(c) && r.haltStops {
			return machine.Halted, true
		}
	}
	return machine.Done, false
}

// Type types text as the command line's --type does: each character's
// keys, shift and all, down for 3 standard frames and up for 6, counted in
// ticks from where the typing begins (KEY-4). The keys go down and come up
// between instructions (KEY-13), on top of the keys held (KEY-12). Typing
// takes all its ticks, halted or not (T-16), and ends at the end of the
// instruction standing when they are over, or inside a chain of prefixes
// if that is where they end (KEY-14).
func (s *Spectrum) Type(text string) (machine.Result, error) { return s.TypeFor(text, 0) }

// TypeFor types as Type does, but for at most ticks ticks (0 for all it
// takes): to the first end of an instruction at or past them, where the
// keys the typing holds go up.
func (s *Spectrum) TypeFor(text string, ticks uint64) (machine.Result, error) {
	presses, total, err := typing.Plan(text, Layout)
	if err != nil {
		return machine.Result{}, err
	}
	rows := make([][8]uint8, len(presses))
	for i, p := range presses {
		if rows[i], err = matrix(p.Keys); err != nil {
			return machine.Result{}, err
		}
	}
	res := s.measure(func() (machine.Stop, uint64) {
		start := s.CPU.Tick
		end := start + total
		if ticks > 0 {
			end = min(end, start+ticks)
		}
		var n uint64
		// over runs typing to a key's change at t, or to the typing's end
		// if that comes first, and reports whether the typing is over
		// there: cut short by its ticks, or cancelled.
		over := func(t uint64) (machine.Stop, bool) {
			stop, k := s.stretch(min(t, end))
			n += k
			if stop == machine.Cancelled {
				return stop, true
			}
			return stop, s.CPU.Tick >= end && s.CPU.Prefix == 0
		}
		for i, p := range presses {
			s.typed = rows[i]
			s.applyKeys()
			stop, done := over(start + p.Up)
			s.typed = [8]uint8{}
			s.applyKeys()
			if done {
				return stop, n
			}
			if i+1 < len(presses) {
				if stop, done := over(start + presses[i+1].Down); done {
					return stop, n
				}
			}
		}
		stop, m := s.run(end, false)
		return stop, n + m
	})
	return res, nil
}

// stretch runs typing up to a key's change at target: to the end of the
// instruction standing there, so that the keys change between
// instructions, or at worst inside a chain of prefixes still running at
// the next change's tick. It stops sooner where the run is cancelled.
func (s *Spectrum) stretch(target uint64) (machine.Stop, uint64) {
	stop, n := s.run(target, false)
	c := &s.CPU
	for stop != machine.Cancelled && c.Prefix != 0 && c.Tick < target+ula.TicksPerFrame {
		var m uint64
		stop, m = s.run(c.Tick+1, false)
		n += m
	}
	return stop, n
}
