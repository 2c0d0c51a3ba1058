package cpc

import (
	"fmt"

	"colophon/internal/chip/gatearray"
	"colophon/internal/cpckeys"
	"colophon/internal/machine"
	"colophon/internal/picture"
	"colophon/internal/typing"
)

// Name is the machine's name on the command line.
func (m *CPC) Name() string { return m.Model.String() }

// StandardFrame is a standard frame's ticks, 79872 (spec, "Time").
func (m *CPC) StandardFrame() uint64 { return TicksPerFrame }

// Tick is the machine's tick since power-on or its snapshot.
func (m *CPC) Tick() uint64 { return m.CPU.Tick }

// Frames is the frames the monitor has retraced since then.
func (m *CPC) Frames() uint64 {
	m.settle()
	return m.Monitor.Frames
}

// settle brings the video, which runs behind the processor, up to the end
// of the instruction the processor stands after.
func (m *CPC) settle() {
	if m.CPU.Tick == 0 {
		return // nothing has run
	}
	if t := m.CPU.Tick - 1; m.nextChar <= t || m.actAt <= t {
		m.catchUp(t)
	}
}

// Picture returns the monitor's picture in the machine's View, as the beam
// has painted it up to the machine's tick.
func (m *CPC) Picture() *picture.Picture {
	m.settle()
	return m.Monitor.Picture(m.View)
}

// endInstruction brings the chips up to the instruction's last tick, where
// the processor samples /INT (UM0080: "the CPU samples the interrupt signal
// at the rising edge of the last clock cycle at the end of any
// instruction"), and takes the interrupt if it may.
func (m *CPC) endInstruction() {
	c := &m.CPU
	t := c.Tick - 1
	if t >= m.quietUntil {
		if m.nextChar <= t || m.actAt <= t {
			m.catchUp(t)
		}
		m.quietUntil = m.nextAction()
		if m.watchFrames && !m.noRetrace() {
			m.quietUntil = 0
		}
	}
	c.INT = m.GA.INT
	if c.Interruptible() {
		c.Interrupt()
	}
}

// nextAction is a tick before which the interrupt generator cannot act, so
// that the interrupt line cannot change: the earliest the 6845's line sync
// could end as its registers stand, and the action a microsecond and a
// quarter after that (Compendium ch. 27.6.1). Any I/O write may change the
// registers it reads, and sets it back to 0.
func (m *CPC) nextAction() uint64 {
	if m.actAt != never || m.GA.Last != gatearray.None || m.GA.Due != gatearray.None {
		return 0
	}
	c := &m.CRTC
	w := c.HSyncWidth()
	c0, r0, r2 := int(c.C0), int(c.Registers[0]), int(c.Registers[2])
	var chars int
	switch {
	case c.HSync:
		chars = w - int(c.C3l)
	case c0 > r0 || w == 0:
		return 0
	case r2 > c0:
		chars = r2 - c0 + w
	default:
		chars = r0 - c0 + 1 + r2 + w
	}
	if chars <= 0 {
		return 0 // a sync counter set past its width
	}
	return m.nextChar + 4*uint64(chars)
}

// noRetrace reports whether the monitor cannot retrace before the Gate
// Array next sees the 6845's line sync end, and so not before the tick
// nextAction gives, which is no later than the character after that end.
// A run by frames lets the video lag behind the processor that far, and
// keeps it up at every instruction's end only where this says no.
//
// The monitor retraces once its sync has been held twelve characters
// running (monitor.FrameSyncSamples). The composite sync is the Gate
// Array's line sync exclusive-ored with its frame sync (Compendium ch.
// 16.2.2), and the frame sync begins only at the second end of a line sync
// after the 6845's VSYNC begins (V26 reaching 2, ch. 16.2.2). With the
// frame sync off and V26 not standing at 1, the next end of a line sync
// takes V26 to 1 at most, so until then, and in the character after it,
// the composite sync is the line sync alone. That runs from H06's second
// character to its sixth and is cut off by the 6845's HSYNC ending (ch.
// 16.2.3); with no HSYNC ending in between, H06 can restart at most once
// while it runs, which holds it at most ten characters. With the sync
// released now, no run of twelve can be completed in that time. The Gate
// Array must also stand where the 6845 does on its HSYNC, as it does after
// any character it has followed, so that the end it sees is the one
// nextAction foresees.
func (m *CPC) noRetrace() bool {
	g := &m.GA
	return !g.SyncV && !g.SyncH && !(g.VSyncGA && g.V26 == 1) &&
		!m.Monitor.Sync && g.HSyncBefore == m.CRTC.HSync
}

// run runs until the tick reaches until, or until frames frames have
// ended at the monitor's retrace (0 for no limit), ending between
// instructions, or inside a chain of prefixes if that is where until
// falls. With haltStops it stops sooner at the end of a HALT that leaves
// interrupts disabled, unless the run began in one (spec, "Time"; T-13,
// T-14). A watch set on the machine is consulted (watched), and a control
// looked at every machine.ControlTicks.
func (m *CPC) run(until, frames uint64, haltStops bool) (machine.Stop, uint64) {
	// A run by frames watches for the retrace at the end of each
	// instruction, and so keeps the video up with the processor wherever
	// the monitor could retrace (noRetrace). A bound worked out for a run
	// that did not watch is worked out again.
	m.frameEnd = false
	m.watchFrames = frames > 0
	if m.watchFrames {
		m.quietUntil = 0
	}
	defer func() { m.watchFrames = false }()
	r := runner{halt: machine.WatchHalt(&m.CPU), frames: frames, haltStops: haltStops}
	stop := machine.RunStretches(&m.CPU, until, m.control, func(end uint64) (machine.Stop, bool) {
		if m.watch != nil {
			return m.watched(&r, end)
		}
		return m.plain(&r, end)
	})
	return stop, r.n
}

// runner is what one run keeps across the stretches it runs in.
type runner struct {
	halt      machine.HaltWatch
	n, ended  uint64 // instructions run, frames ended
	frames    uint64
	haltStops bool
}

// plain runs to tick end as run does, with nothing watched. It reports
// over when the run is over before then, and why.
//
// The loop is the machine's hot path: one Exec, and between instructions
// the video brought up where something could see it, the interrupt, the
// frame's end and the HALT.
func (m *CPC) plain(r *runner, end uint64) (machine.Stop, bool) {
	c := &m.CPU
	// The runner's fields, kept in locals while the loop runs.
	n, ended, halt := r.n, r.ended, r.halt
	defer func() { r.n, r.ended, r.halt = n, ended, halt }()
	for c.Tick < end {
		c.Exec()
		if c.Prefix != 0 {
			continue
		}
		n++
		m.endInstruction()
		if m.frameEnd {
			m.frameEnd = false
			if ended++; r.frames > 0 && ended >= r.frames {
				return machine.Done, true
			}
		}
		if halt.Stops(c) && r.haltStops {
			return machine.Halted, true
		}
	}
	return machine.Done, false
}

// watched is plain with the watch consulted: before each instruction at an
// address it marks, and at the end of each instruction it asks to see.
func (m *CPC) watched(r *runner, end uint64) (machine.Stop, bool) {
	c := &m.CPU
	w := m.watch
	for c.Tick < end {
		if c.Prefix == 0 && w.Begins(c.PC) && w.Watcher.Begin() {
			return machine.Stopped, true
		}
		c.Exec()
		if c.Prefix != 0 {
			continue
		}
		r.n++
		m.endInstruction()
		if w.Attend {
			w.Attend = false
			if w.Watcher.End() {
				return machine.Stopped, true
			}
		}
		if m.frameEnd {
			m.frameEnd = false
			if r.ended++; r.frames > 0 && r.ended >= r.frames {
				return machine.Done, true
			}
		}
		if r.halt.Stops(c) && r.haltStops {
			return machine.Halted, true
		}
	}
	return machine.Done, false
}

// measure runs f and says what it did.
func (m *CPC) measure(f func() (machine.Stop, uint64)) machine.Result {
	m.settle()
	t0, f0 := m.CPU.Tick, m.Monitor.Frames
	stop, n := f()
	m.settle()
	return machine.Result{Ticks: m.CPU.Tick - t0, Frames: m.Monitor.Frames - f0, Instructions: n, Stop: stop}
}

// RunTicks runs n ticks, to the end of the instruction standing when they
// are over, or sooner at the end of a HALT that leaves interrupts disabled
// (T-9, T-11, T-13).
func (m *CPC) RunTicks(n uint64) machine.Result {
	return m.measure(func() (machine.Stop, uint64) { return m.run(m.CPU.Tick+n, 0, true) })
}

// RunFrames runs until n frames have ended at the monitor's retrace, to
// the end of the instruction the retrace came in, or for twice a standard
// frame's ticks for each frame asked, whichever comes first (spec, "Time":
// a frame "may never come, so such a run is held to twice a standard
// frame's ticks for each frame asked"; T-7, T-8).
func (m *CPC) RunFrames(n uint64) machine.Result {
	return m.measure(func() (machine.Stop, uint64) {
		if n == 0 {
			return machine.Done, 0
		}
		return m.run(m.CPU.Tick+n*2*TicksPerFrame, n, true)
	})
}

// Step runs n instructions, each to its end and through the response to
// an interrupt taken there (T-10), stopping sooner at the end of a HALT
// that leaves interrupts disabled.
func (m *CPC) Step(n int) machine.Result {
	return m.measure(func() (machine.Stop, uint64) {
		return machine.StepInstructions(&m.CPU, n, m.CPU.Tick+machine.MaxFrames*TicksPerFrame, m.endInstruction, m.watch, m.control)
	})
}

// Typing is how the command line types at a CPC (spec, "Keys and typing";
// checklist KEY-4, KEY-9): each character's keys held 3 standard frames and
// let go for 3, text of at most 250 characters.
var Typing = typing.Layout{
	Machine:       "a CPC",
	MaxChars:      250,
	FrameTicks:    TicksPerFrame,
	HoldFrames:    3,
	ReleaseFrames: 3,
	Keys:          cpckeys.TypingKeys,
	Outside:       cpckeys.OutsideKeys,
}

// Type types text as the command line does, counting from the tick the
// machine stands at: each press's keys go down and come up between
// instructions, at the first end of an instruction at or past the tick the
// plan gives (KEY-13), on top of the keys already held, which stay held
// (KEY-12). The typing takes all its ticks, halted or not (T-16).
func (m *CPC) Type(text string) (machine.Result, error) { return m.TypeFor(text, 0) }

// TypeFor types as Type does, but for at most ticks ticks (0 for all it
// takes): to the first end of an instruction at or past them, where the
// keys the typing holds go up.
func (m *CPC) TypeFor(text string, ticks uint64) (machine.Result, error) {
	presses, total, err := typing.Plan(text, Typing)
	if err != nil {
		return machine.Result{}, err
	}
	keys := make([][]cpckeys.Key, len(presses))
	for i, p := range presses {
		for _, name := range p.Keys {
			k, err := cpckeys.Named(name)
			if err != nil {
				return machine.Result{}, fmt.Errorf("typing %s: %w", typing.Describe(p.Char), err)
			}
			keys[i] = append(keys[i], k)
		}
	}
	return m.measure(func() (machine.Stop, uint64) {
		start := m.CPU.Tick
		end := start + total
		if ticks > 0 {
			end = min(end, start+ticks)
		}
		var n uint64
		// over runs to tick t, or to the typing's end if that comes first,
		// and reports whether the typing is over there: cut short by its
		// ticks, or cancelled.
		over := func(t uint64) (machine.Stop, bool) {
			stop, k := m.run(min(t, end), 0, false)
			n += k
			if stop == machine.Cancelled {
				return stop, true
			}
			return stop, m.CPU.Tick >= end && m.CPU.Prefix == 0
		}
		for i, p := range presses {
			if stop, done := over(start + p.Down); done {
				return stop, n
			}
			var pressed []cpckeys.Key
			for _, key := range keys[i] {
				if !m.Keyboard.Down(key) {
					m.Keyboard.Press(key)
					pressed = append(pressed, key)
				}
			}
			stop, done := over(start + p.Up)
			for _, key := range pressed {
				m.Keyboard.Release(key)
			}
			if done {
				return stop, n
			}
		}
		stop, _ := over(end)
		return stop, n
	}), nil
}

// KeyNames lists the keys by the names SOFT 968 draws on them (KEY-2).
func (m *CPC) KeyNames() []string { return cpckeys.Names() }

// Hold sets the keys the keyboard holds down, by the names cpckeys gives
// them; none lets every key go. (A key given by its firmware number is the
// host's to turn into a name, since "1" names a key too.) An unknown key is refused and nothing
// changes.
func (m *CPC) Hold(names []string) error {
	var next cpckeys.Matrix
	next.Reset()
	for _, name := range names {
		k, err := cpckeys.Named(name)
		if err != nil {
			return err
		}
		next.Press(k)
	}
	m.Keyboard = next
	return nil
}

// Held returns the keys held, in key number order.
func (m *CPC) Held() []string {
	var held []string
	for k := range cpckeys.Key(cpckeys.Count) {
		if m.Keyboard.Down(k) {
			held = append(held, k.Name())
		}
	}
	return held
}

var _ machine.Machine = (*CPC)(nil)
