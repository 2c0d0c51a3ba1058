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
		return machine.StepInstructions(&s.CPU, n, s.CPU.Tick+machine.MaxFrames*ula.TicksPerFrame, s.settle)
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
// T-14). It returns why it stopped and how many instructions it ran.
//
// The loop is the machine's hot path: one Exec, and between instructions
// a frame check, the interrupt line and the HALT check.
func (s *Spectrum) run(target uint64, haltStops bool) (machine.Stop, uint64) {
	c := &s.CPU
	u := &s.ULA
	var n uint64
	halt := machine.WatchHalt(c)
	for c.Tick < target {
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
			return machine.Halted, n
		}
	}
	if c.Prefix != 0 {
		return machine.Unsettled, n
	}
	return machine.Done, n
}

// Type types text as the command line's --type does: each character's
// keys, shift and all, down for 3 standard frames and up for 6, counted in
// ticks from where the typing begins (KEY-4). The keys go down and come up
// between instructions (KEY-13), on top of the keys held (KEY-12). Typing
// takes all its ticks, halted or not (T-16), and ends at the end of the
// instruction standing when they are over, or inside a chain of prefixes
// if that is where they end (KEY-14).
func (s *Spectrum) Type(text string) (machine.Result, error) {
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
		var n uint64
		for i, p := range presses {
			s.typed = rows[i]
			s.applyKeys()
			n += s.stretch(start + p.Up)
			s.typed = [8]uint8{}
			s.applyKeys()
			if i+1 < len(presses) {
				n += s.stretch(start + presses[i+1].Down)
			}
		}
		stop, m := s.run(start+total, false)
		return stop, n + m
	})
	return res, nil
}

// stretch runs typing up to a key's change at target: to the end of the
// instruction standing there, so that the keys change between
// instructions, or at worst inside a chain of prefixes still running at
// the next change's tick.
func (s *Spectrum) stretch(target uint64) uint64 {
	_, n := s.run(target, false)
	c := &s.CPU
	for c.Prefix != 0 && c.Tick < target+ula.TicksPerFrame {
		_, m := s.run(c.Tick+1, false)
		n += m
	}
	return n
}
