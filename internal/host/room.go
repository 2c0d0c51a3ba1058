package host

import (
	"colophon/internal/machine"
)

// A request that could end past the largest tick a machine reaches is
// refused before anything moves, naming that tick (issue 19, item 4): a
// run's target near 2^64 would wrap, and a CPC's video, caught up to the
// processor's tick, would never catch up again. The span each request
// could take is bounded generously, from its own limits.

// instructionMost is the most ticks one instruction can take, with every
// wait a board adds and the response to an interrupt taken at its end: a
// Z80's longest is 23 T-states, a CPC rounds each machine cycle to 4 and a
// Spectrum's contention adds at most 6 to a cycle, and a response takes
// 19 more (UM0080).
const instructionMost = 256

// room refuses a request that could move m by up to span ticks past
// machine.MaxTick. what names the request.
func (m *Machine) room(what string, span uint64) error {
	return machine.CheckRoom(m.m.Tick(), span, what)
}

// runSpan is the most ticks a run could take: its ticks, or twice a
// standard frame's for each frame asked, which is where a CPC's run stops
// if its frames do not come; and the instruction under way at its end.
func runSpan(mm machine.Machine, a RunArgs) uint64 {
	if a.Frames != nil {
		return *a.Frames*2*mm.StandardFrame() + instructionMost
	}
	return *a.Ticks + instructionMost
}

// stepSpan is the most ticks a step of n instructions could take.
func stepSpan(n int) uint64 { return uint64(n) * instructionMost }

// callSpan is the most ticks a call could take: the ticks of 1500 standard
// frames, as a run, and the instruction under way at their end.
func callSpan(mm machine.Machine) uint64 {
	return machine.MaxFrames*mm.StandardFrame() + instructionMost
}

// typeSpan is the most ticks typing could take: at most 1500 frames'
// worth of keys, twice over for a CPC whose frames do not come.
func typeSpan(mm machine.Machine) uint64 {
	return 2*machine.MaxFrames*mm.StandardFrame() + instructionMost
}
