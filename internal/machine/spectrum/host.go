package spectrum

import (
	"fmt"

	"colophon/internal/chip/ula"
	"colophon/internal/chip/z80"
	"colophon/internal/inspect"
	"colophon/internal/machine"
	"colophon/internal/media/tape"
)

// What a host asks of a Spectrum beyond machine.Machine: its memory as the
// processor reaches it, its processor, and the struct inspect and set walk.
var (
	_ machine.Memory          = (*Spectrum)(nil)
	_ machine.Processor       = (*Spectrum)(nil)
	_ machine.Dirty           = (*Spectrum)(nil)
	_ inspect.BeforeInspecter = (*Spectrum)(nil)
	_ inspect.AfterSetter     = (*Spectrum)(nil)
	_ inspect.Validator       = (*Spectrum)(nil)
	_ machine.TapeDeck        = (*Spectrum)(nil)
)

// Deck is how a Spectrum drives its deck: at its clock, 3.5 MHz, the
// format's own; with no motor line, so that the tape plays from the tick
// it goes in (DT-18); and by a 48K's rules, which a block that stops the
// tape "if in 48K mode" stops.
var Deck = tape.Config{Machine: tape.Spectrum48, Clock: 3500000}

// InsertTape puts a tape in the deck at the machine's tick, and presses
// PLAY.
func (s *Spectrum) InsertTape(t *tape.Tape) { s.Tape.Insert(t, Deck, s.CPU.Tick, false) }

// TapeDeck is the deck, run up to the machine's tick.
func (s *Spectrum) TapeDeck() *tape.Deck {
	s.Tape.Run(s.CPU.Tick)
	return &s.Tape
}

// Source names the memory a read of addr finds: the ROM below &4000, for
// good, and the RAM above it, which has no addresses of its own but the
// processor's (spec, "Stopping and watching": "A Spectrum's ROM is below
// &4000 for good"; PR-5).
func (s *Spectrum) Source(addr uint16) machine.Source {
	if addr < ROMSize {
		return machine.Source{ROM: true}
	}
	return machine.Source{RAM: uint32(addr)}
}

// Processor returns the machine's Z80, for a host that drives it directly.
func (s *Spectrum) Processor() *z80.CPU { return &s.CPU }

// BeforeInspect brings the ULA up to the machine's tick and works out the
// tick of the frame the machine stands at, so that inspect reads what the
// chips hold now.
func (s *Spectrum) BeforeInspect() {
	s.Tape.Run(s.CPU.Tick)
	s.ULA.Sync(s.CPU.Tick)
	s.FrameTickAt = s.ULA.FrameTick(s.CPU.Tick)
}

// Validate refuses a frame_tick past the frame: a frame has 69888 ticks,
// 0 to 69887 [LS].
func (s *Spectrum) Validate() error {
	if s.FrameTickAt >= ula.TicksPerFrame {
		return fmt.Errorf("frame_tick is %d; a Spectrum's frame has ticks 0 to %d", s.FrameTickAt, ula.TicksPerFrame-1)
	}
	return nil
}

// AfterSet stands the ULA so that the machine's tick falls on frame_tick,
// whatever was written, the processor's tick among it: the interrupt, the
// contention and the beam are reckoned from there (spec, "What a machine
// holds": "a Spectrum's ULA stood at the tick of the frame its frame_tick
// names"; IS-10). The keys the ULA's half-rows hold are the keys held from
// then on, so that typing keeps them down (KEY-12).
func (s *Spectrum) AfterSet(path string) {
	s.ULA.SetFrameTick(s.CPU.Tick, s.FrameTickAt)
	s.marks.moved = true
	s.held = s.ULA.Keys
	s.typed = [8]uint8{}
}

// InspectRoot is the Spectrum itself: cpu, ula and frame_tick.
func (s *Spectrum) InspectRoot() any { return s }
