// Package machine is what every emulated machine offers the programs that
// drive it, the command line and the server alike: running by ticks, by
// frames or by instructions, the keyboard, typing, the picture, and a view
// of every access the processor makes.
//
// Time is the machine's tick, counted in processor T-states from power-on
// or from the snapshot it was loaded from, and a frame is its monitor's,
// ending as the retrace sends the beam back to the top (spec, "Time").
// Everything here is deterministic: the same calls on the same machine
// give the same answers.
package machine

import (
	"fmt"

	"colophon/internal/chip/z80"
	"colophon/internal/media/tape"
	"colophon/internal/picture"
)

// Machine is one emulated machine.
type Machine interface {
	// Name is the machine's name on the command line: "spectrum48",
	// "cpc6128".
	Name() string
	// StandardFrame is the ticks of a standard frame: 69888 on a
	// Spectrum and 79872 on a CPC (spec, "Time"; T-9).
	StandardFrame() uint64
	// Tick is the machine's tick since power-on or its snapshot (T-3).
	Tick() uint64
	// Frames is the frames the monitor has retraced since then.
	Frames() uint64

	// RunTicks runs n ticks, to the end of the instruction standing
	// when they are over (T-9, T-11).
	RunTicks(n uint64) Result
	// RunFrames runs until the monitor has retraced n frames, or until
	// twice a standard frame's ticks for each frame asked have passed,
	// where a machine's frames may never come (T-7, T-8, A-3).
	RunFrames(n uint64) Result
	// Step runs n instructions, each to its end and through the
	// response to an interrupt taken there (T-10).
	Step(n int) Result
	// Type types text as the command line's --type does (KEY-4), on top
	// of the keys held. A text the keyboard cannot type is refused
	// before any key goes down (KEY-10).
	Type(text string) (Result, error)
	// TypeFor types as Type does for at most ticks ticks, 0 for all it
	// takes: to the first end of an instruction at or past them, where the
	// keys typed go up. It is how a typing cut short is typed again.
	TypeFor(text string, ticks uint64) (Result, error)

	// KeyNames lists the names of the machine's keys, as its keycaps
	// carry them (KEY-2).
	KeyNames() []string
	// Hold sets the keys the keyboard holds down, by name; none lets
	// every key go. An unknown name is refused and nothing changes.
	Hold(keys []string) error
	// Held returns the keys held, in the order KeyNames lists them.
	Held() []string

	// Picture returns the monitor's picture as the beam has painted it
	// up to the machine's tick, with the beam where it stands (MON-5).
	// The picture is the machine's own; a caller that keeps it while
	// the machine runs on clones it.
	Picture() *picture.Picture

	// Observe sets the function told of every access the processor
	// makes, or none with nil. Watching costs nothing when nobody
	// watches (ARCHITECTURE.md, principle 5).
	Observe(o Observer)
}

// Stop says why a request ended.
type Stop uint8

const (
	// Done: the request ran all it was asked.
	Done Stop = iota
	// Halted: the processor ended a HALT with interrupts disabled, where
	// it waits for good (T-13).
	Halted
	// Unsettled: the request ended inside a chain of prefixes, which is
	// no instruction until it is done (T-12).
	Unsettled
	// Stopped: the watcher stopped it (Watcher.Begin, Watcher.End).
	Stopped
	// Cancelled: the host asked it to stop (Control.Stop), and it stopped
	// at the next end of an instruction it looked at.
	Cancelled
)

func (s Stop) String() string {
	switch s {
	case Done:
		return "done"
	case Halted:
		return "halted"
	case Unsettled:
		return "unsettled"
	case Stopped:
		return "stopped"
	case Cancelled:
		return "cancelled"
	}
	return fmt.Sprintf("Stop(%d)", uint8(s))
}

// Result is what a request did (T-2).
type Result struct {
	Ticks        uint64 // ticks it took
	Frames       uint64 // frames the monitor retraced in them
	Instructions uint64 // instructions it ran to their end
	Stop         Stop
}

// The limits of one request (spec, "Time"; T-17). A request past them is
// refused, naming the limit, with the machine untouched.
const (
	MaxFrames       = 1500
	MaxInstructions = 100000
)

// MaxTick is the largest tick a machine reaches (z80.MaxTick): a request
// that could end past it is refused, naming it, so that no sum of a tick
// and a span wraps (issue 19, item 4).
const MaxTick = z80.MaxTick

// CheckRoom refuses to move a machine standing at tick by up to span
// ticks where that could end past MaxTick. what says what would move it.
func CheckRoom(tick, span uint64, what string) error {
	if tick > MaxTick || MaxTick-tick < span {
		return fmt.Errorf("the machine stands at tick %d, and %s could end past tick %d, the largest tick a machine reaches; it can be read, but moves no further", tick, what, uint64(MaxTick))
	}
	return nil
}

// CheckFrames refuses a run of more frames than one request may ask.
func CheckFrames(n uint64) error {
	if n > MaxFrames {
		return fmt.Errorf("frames is %d; a request runs at most %d", n, MaxFrames)
	}
	return nil
}

// CheckTicks refuses a run of more ticks than 1500 of the machine's
// standard frames.
func CheckTicks(m Machine, n uint64) error {
	if limit := MaxFrames * m.StandardFrame(); n > limit {
		return fmt.Errorf("ticks is %d; a request runs at most %d, the ticks of %d standard frames", n, limit, MaxFrames)
	}
	return nil
}

// CheckInstructions refuses a step of more instructions than one request
// may ask.
func CheckInstructions(n int) error {
	if n < 1 || n > MaxInstructions {
		return fmt.Errorf("instructions is %d; a request steps 1 to %d", n, MaxInstructions)
	}
	return nil
}

// Kind is the kind of a processor access, or of a chip's register
// taking a write the processor made.
type Kind uint8

const (
	// Fetch is an opcode fetch, the processor's M1.
	Fetch Kind = iota
	// Read and Write are memory accesses. A Read with Operand set fetches
	// a byte of the instruction itself; any other is a read of data.
	Read
	Write
	// In and Out are port accesses.
	In
	Out
	// Acknowledge is the maskable interrupt's acknowledge cycle, with
	// the byte the board put on the data bus.
	Acknowledge
	// PSG and CRTC are a write landing in a register of a CPC's sound
	// chip or its 6845, made by the port access the board is telling of:
	// Addr is the register, Value the byte it was given (spec, "Stopping
	// and watching").
	PSG
	CRTC
)

var kindNames = [...]string{"fetch", "read", "write", "in", "out", "acknowledge", "psg", "crtc"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Access is one processor access, as an observer is told of it
// (ARCHITECTURE.md, principle 4).
type Access struct {
	Kind Kind
	// Tick is the machine's tick at which the access's machine cycle
	// begins, or for PSG and CRTC the tick the chip took the write.
	Tick uint64
	// Addr is the address, for In and Out the whole port address, and
	// for PSG and CRTC the register.
	Addr uint16
	// Value is the byte read or written: for In, the byte the processor
	// took; for PSG and CRTC, the byte the register was given.
	Value uint8
	// Before and After are, for Write, PSG and CRTC, what the byte or the
	// register held before the write and after it, as it keeps it: a
	// write beneath a CPC's enabled ROM is held to the RAM it lands in, a
	// write to a Spectrum's ROM leaves After as Before, and a register
	// narrower than eight bits keeps only its bits.
	Before, After uint8
	// Operand is set on a Read of a byte of the instruction itself, after
	// its opcodes, which no program reads as data (z80.CPU.Operand; RD-1).
	Operand bool
	// InstrPC is where the instruction that made the access began, its
	// first prefix included. During an interrupt's response it is where
	// the processor stood when the response began.
	InstrPC uint16
	// Responding is set for the accesses an interrupt's response makes,
	// which belong to no instruction.
	Responding bool
	// Source is, for Fetch and Read, the memory that answered, and for
	// Write the memory that took the byte: a CPC's RAM by its own address
	// beneath a ROM too.
	Source Source
}

// Observer is told of each access as it is made. It must not keep a; the
// machine reuses it.
type Observer func(a *Access)

// The interfaces below are what a host asks of a machine beyond Machine:
// its memory as the processor reaches it (peek, poke, call's pushed return
// address), its RAM by the RAM's own addresses, its processor (call), and
// the struct inspect and set walk. Each is optional: a host type-asserts it
// where a tool needs it, so that a machine without one is refused that tool
// by name rather than left out of the build.

// Memory is a machine's memory as its processor reaches it.
type Memory interface {
	// Peek reads addr as the processor would, through the banking and
	// the ROMs, taking no time and touching nothing.
	Peek(addr uint16) uint8
	// Poke writes addr as the processor would: beneath an enabled ROM the
	// byte lands in the RAM there, and into a ROM that has no RAM beneath
	// it, a Spectrum's, not at all (spec, "What a machine holds"; PP-1).
	Poke(addr uint16, v uint8)
	// Source names the memory a read of addr finds as the banking
	// stands (PP-3).
	Source(addr uint16) Source
}

// Source is the memory that answers a read of an address.
type Source struct {
	// ROM is set where a ROM answers the read. Upper says which: an
	// upper ROM, by Number, or else the lower ROM, which on a Spectrum
	// is its only one.
	ROM    bool
	Upper  bool
	Number uint8
	// RAM is, where no ROM answers, the RAM's own address: on a 6128 it
	// runs to &1FFFF, whatever configuration pages it in (PP-2).
	RAM uint32
}

// RAM is a machine whose RAM can be reached by the RAM's own addresses,
// whatever the banking pages in: a CPC's, the base 64K at &00000 to &0FFFF
// and a 6128's second 64K at &10000 to &1FFFF (spec, "What a machine
// holds"; PP-2).
type RAM interface {
	// RAMBytes is the RAM by its own addresses, for a host to read
	// (find, compare, screen, peek with ram) without a call a byte. It is
	// the machine's own: a host writes it only through PokeRAM.
	RAMBytes() []byte
	// PokeRAM writes the RAM at its own address, below len(RAMBytes()),
	// marking the page it writes (Dirty).
	PokeRAM(addr uint32, v uint8)
}

// Processor is a machine whose processor a host may drive directly, as
// call does: pushing a return address, setting PC, and stepping until the
// routine comes back (spec, "What a machine holds", call).
type Processor interface {
	Processor() *z80.CPU
}

// Inspectable is a machine whose own struct inspect reads and set writes,
// by the paths package inspect walks: cpu.pc, crtc.registers[12] (spec,
// "What a machine holds"). The root may implement inspect's hooks,
// BeforeInspect, Validate and AfterSet.
type Inspectable interface {
	InspectRoot() any
}

// TapeDeck is a machine with a cassette deck (spec, "Discs and tapes").
type TapeDeck interface {
	// InsertTape puts a tape in the deck at the machine's tick, rewound,
	// with PLAY pressed, in place of any tape there.
	InsertTape(t *tape.Tape)
	// TapeDeck is the deck, as it stands at the machine's tick.
	TapeDeck() *tape.Deck
}

// Discs is a machine with disc drives, numbered from 0 for drive A (spec,
// "Discs and tapes").
type Discs interface {
	// InsertDisc puts a disc in a drive from a DSK image, copied, with
	// its write-protect tab set or not, taking out the disc there; an
	// image that is not a DSK is refused, saying why, and the drive is
	// left as it was (DT-3, DT-5).
	InsertDisc(drive int, image []byte, protect bool) error
	// SaveDisc answers the disc in a drive as an extended DSK image, as
	// it stands, and whether the machine wrote to it since it went in
	// (DT-9, DT-10, DT-11).
	SaveDisc(drive int) (image []byte, written bool, err error)
}

// PageSize is the size of the pages a Dirty machine marks: 4K, which is
// four lines of a CPC monitor's raster.
const PageSize = 4096

// Buffer is one of a machine's big buffers, as a host that keeps copies of
// it looks at it page by page: page p is its bytes from p*PageSize, the
// last page shorter where the buffer is.
type Buffer struct {
	// Name says which buffer it is: "ram", "raster", "memory", "picture".
	Name string
	// Bytes is the buffer itself, which the machine made when it was
	// built and writes for as long as it stands.
	Bytes []byte
	// Dirty marks the pages written since the host last called Clean,
	// page p by bit p%64 of word p/64, as they stand when Buffers is
	// called. It is the machine's own, and may change once the machine
	// runs or is cleaned.
	Dirty []uint64
}

// Dirty is a machine that marks the pages of its big buffers as it writes
// them, so that a host keeping copies of those buffers, as state_keep and
// state_restore do, looks only at the pages written since it last looked:
// a page unmarked holds every byte it held at the last Clean. Every write
// marks, whatever makes it: the processor, a poke, painting, a snapshot
// loaded. A machine marks every page until it is first cleaned. A page may
// be marked that holds what it held; the host compares those. Bytes
// written through the slice Buffers answers are not marked: the host
// writes them so only to put a state back, and cleans after.
//
// The marks are the host's business, not the machine's state: they lie
// outside the struct a state copies by value, so putting a struct back
// leaves them as they were.
type Dirty interface {
	// Buffers answers the machine's big buffers with their marks, the
	// same buffers in the same order every time.
	Buffers() []Buffer
	// Clean clears every mark: the host has seen every page as it stands,
	// or written it as it wants it.
	Clean()
}

// BufferSetter is a Dirty machine a host stands up from a state file
// (spec, "Keeping a machine"), which holds its buffers byte for byte after
// its first line: the machine takes each back by the name Buffers gives it,
// the bytes as the file holds them and its own from then on, or refuses
// bytes that cannot be that buffer, saying why. A buffer is set before the
// machine's fields are restored, since the fields may lean on it, as a
// drive's do on its disc.
type BufferSetter interface {
	SetBuffer(name string, b []byte) error
}

// HaltWatch decides the halted stop (spec, "Time"; T-13): a request stops
// at the end of a HALT that leaves interrupts disabled, where the
// processor waits for good, unless it began there, in which case it runs
// as asked until the processor has left the HALT, as set writing it out of
// the HALT or in an NMI carries it. Each machine's run loop and Step keep
// one for the request.
type HaltWatch struct{ began bool }

// WatchHalt starts watching a request that begins with c as it stands.
func WatchHalt(c *z80.CPU) HaltWatch { return HaltWatch{began: c.Halted && !c.IFF1} }

// Stops reports, at the end of an instruction, whether the request stops
// there halted.
func (h *HaltWatch) Stops(c *z80.CPU) bool {
	if !c.Halted {
		h.began = false
		return false
	}
	return !c.IFF1 && !c.NMI && !h.began
}

// StepInstructions runs n instructions of c, each to its end, its prefixes
// included, calling end after each, where the board catches its chips up
// and takes an interrupt pending there (T-10). It stops halted as
// HaltWatch says, and unsettled where a chain of prefixes runs past limit,
// the tick no instruction of the request may end beyond: no instruction
// ever comes of it (T-12). With w it stops where the watcher says, and
// with ctl where the host asks (Watch, Control). It answers why it stopped
// and the instructions it ran.
func StepInstructions(c *z80.CPU, n int, limit uint64, end func(), w *Watch, ctl *Control) (Stop, uint64) {
	halt := WatchHalt(c)
	var done uint64
	for done < uint64(n) {
		if w != nil && c.Prefix == 0 && w.Begins(c.PC) && w.Watcher.Begin() {
			return Stopped, done
		}
		c.Exec()
		for c.Prefix != 0 && c.Tick < limit {
			c.Exec()
		}
		if c.Prefix != 0 {
			return Unsettled, done
		}
		done++
		end()
		if w != nil && w.Attend {
			w.Attend = false
			if w.Watcher.End() {
				return Stopped, done
			}
		}
		if halt.Stops(c) {
			return Halted, done
		}
		if ctl != nil && done%ControlInstructions == 0 {
			ctl.Tick.Store(c.Tick)
			if ctl.Stop.Load() {
				return Cancelled, done
			}
		}
	}
	return Done, done
}

// RunStretches runs c until its tick reaches until, as each board's run
// does, a stretch at a time: stretch runs to the tick it is given, ending
// between instructions, and reports over where the run is over before
// then, and why (the board's own loop, plain or watched, decides). With
// ctl, a stretch ends at most ControlTicks on, and between stretches,
// outside a chain of prefixes, the control is told the tick and looked at
// (Control). A run whose end falls inside a chain of prefixes ends
// unsettled (T-11, T-12).
//
// The boards' stretches stay their own: the plain one is each machine's
// hot loop, and a watched one shared between them, calling the board's
// end of an instruction through a function value, ran watched runs 3 to
// 8% slower (BenchmarkRun1500OneExec, internal/watch).
func RunStretches(c *z80.CPU, until uint64, ctl *Control, stretch func(end uint64) (stop Stop, over bool)) Stop {
	for c.Tick < until {
		end := until
		if ctl != nil {
			end = min(until, c.Tick+ControlTicks)
		}
		if stop, over := stretch(end); over {
			return stop
		}
		if ctl != nil && c.Prefix == 0 {
			ctl.Tick.Store(c.Tick)
			if ctl.Stop.Load() {
				return Cancelled
			}
		}
	}
	if c.Prefix != 0 {
		return Unsettled
	}
	return Done
}
