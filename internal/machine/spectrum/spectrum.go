// Package spectrum is the Sinclair ZX Spectrum 48K: a Z80, a ULA, 16K of
// ROM and 48K of RAM, and a keyboard on the ULA's port, soldered together.
// It is the only code that knows which chips a Spectrum has.
//
// The processor runs a machine cycle at a time against the board (see
// z80.Bus). The ULA holds the processor off memory at &4000-&7FFF, and off
// some ports, by stopping its clock, which the board does by adding the
// ULA's delay to the processor's tick before the cycle goes on; the ULA
// paints its picture lazily, up to the tick of each change it would show.
//
// Sources are cited at the lines that depend on them, with the tags of
// package ula; and [SNA] for the .sna format as the spec describes it
// ("Saving a machine").
package spectrum

import (
	"fmt"
	"slices"

	"colophon/internal/chip/ula"
	"colophon/internal/chip/z80"
	"colophon/internal/machine"
	"colophon/internal/media/tape"
	"colophon/internal/picture"
)

// Name is the machine's name on the command line.
const Name = "spectrum48"

// ROMSize is the size of the firmware: everything below &4000, where the
// ROM stands for good (spec, "Stopping and watching"; PR-5).
const ROMSize = 0x4000

// Spectrum is a ZX Spectrum 48K.
type Spectrum struct {
	CPU z80.CPU `inspect:"cpu"`
	ULA ula.ULA `inspect:"ula"`
	// FrameTickAt is the tick of the frame the machine stands at, as
	// inspect reads it and set writes it: BeforeInspect works it out, and
	// AfterSet stands the ULA by it (IS-10). It is read nowhere else.
	FrameTickAt uint64 `inspect:"frame_tick"`
	// Tape is the cassette deck, whose level the ULA reads at its EAR
	// socket.
	Tape tape.Deck `inspect:"tape"`

	// mem is the processor's whole address space: the ROM below &4000
	// and the RAM above it. A write below &4000 changes nothing. It is
	// made with the machine, and a copy of the machine by value shares
	// it, for a host to keep it in pages (machine.Dirty).
	mem *[0x10000]byte

	held  [8]uint8 // keys held by Hold, by half-row as ula.ULA.Keys
	typed [8]uint8 // keys down while typing

	observer machine.Observer
	watching bool // the one flag the hot path tests
	access   machine.Access
	watch    *machine.Watch   // a host's (machine.Watch)
	control  *machine.Control // a host's (machine.Control)

	// marks are the pages of the buffers written since a host last
	// looked (dirty.go), behind a pointer, which a copy of the machine
	// shares.
	marks *marks

	// Handlers is the account of the interrupt handlers the processor is
	// inside, kept at each acknowledge and opcode fetch, for a host's
	// clean stop. A state and a state file keep it with the board; a
	// snapshot, which holds no such thing, starts it empty.
	Handlers machine.Handlers `inspect:"handlers"`
}

var (
	_ machine.Machine    = (*Spectrum)(nil)
	_ machine.Interrupts = (*Spectrum)(nil)
)

// InHandler reports whether the processor stands inside an interrupt's
// handler (machine.Interrupts).
func (s *Spectrum) InHandler() bool { return s.Handlers.Inside(s.CPU.PC, s.CPU.SP) }

// New returns a Spectrum at power-on with the given firmware, which must
// be exactly ROMSize bytes.
func New(rom []byte) (*Spectrum, error) {
	if len(rom) != ROMSize {
		return nil, fmt.Errorf("spectrum48: the ROM is %d bytes; it must be %d", len(rom), ROMSize)
	}
	s := &Spectrum{mem: new([0x10000]byte), marks: &marks{}}
	s.markAll()
	copy(s.mem[:ROMSize], rom)
	s.ULA.Init((*[0x4000]byte)(s.mem[0x4000:0x8000]))
	s.CPU.Bus = (*board)(s)
	s.CPU.Reset()
	return s, nil
}

// Name returns "spectrum48".
func (s *Spectrum) Name() string { return Name }

// StandardFrame returns 69888, the ticks of a Spectrum's frame [LS].
func (s *Spectrum) StandardFrame() uint64 { return ula.TicksPerFrame }

// Tick returns the machine's tick since power-on or its snapshot.
func (s *Spectrum) Tick() uint64 { return s.CPU.Tick }

// Frames returns the frames the ULA has finished since power-on or the
// snapshot, counted up to the machine's tick.
func (s *Spectrum) Frames() uint64 {
	s.ULA.Sync(s.CPU.Tick)
	return s.ULA.Frames
}

// FrameTick returns the tick of the frame the machine stands at: ticks
// since the ULA last raised the interrupt.
func (s *Spectrum) FrameTick() uint64 {
	s.ULA.Sync(s.CPU.Tick)
	return s.ULA.FrameTick(s.CPU.Tick)
}

// SetFrameTick stands the ULA so that the machine's tick falls on frame
// tick ft, from which the interrupt, the contention and the beam are
// reckoned (IS-10).
func (s *Spectrum) SetFrameTick(ft uint64) {
	s.ULA.Sync(s.CPU.Tick)
	s.ULA.SetFrameTick(s.CPU.Tick, ft)
	s.marks.moved = true
}

// Peek reads memory as the processor would, without taking any time.
func (s *Spectrum) Peek(addr uint16) uint8 { return s.mem[addr] }

// Poke writes memory as the processor would: a write to the ROM changes
// nothing (PP-1). A write to the screen shows from the machine's tick on.
func (s *Spectrum) Poke(addr uint16, v uint8) {
	if addr < ROMSize {
		return
	}
	if addr < 0x5B00 {
		s.ULA.Sync(s.CPU.Tick)
	}
	s.mem[addr] = v
	s.marks.mem[0] |= 1 << (addr / machine.PageSize)
}

// RAM returns a copy of the 48K of RAM, &4000 to &FFFF.
func (s *Spectrum) RAM() []byte { return slices.Clone(s.mem[ROMSize:]) }

// Picture returns the ULA's picture, painted up to the machine's tick,
// with the beam where it stands.
func (s *Spectrum) Picture() *picture.Picture {
	s.ULA.Sync(s.CPU.Tick)
	p := s.ULA.Picture()
	p.BeamX, p.BeamY = s.ULA.Beam(s.CPU.Tick)
	return p
}

// Observe sets the function told of every access, or none.
func (s *Spectrum) Observe(o machine.Observer) {
	s.observer = o
	s.watching = o != nil
}

// Watch sets the watch the machine's runs and steps consult, or none
// (machine.Watch). A watch that asks for accesses is told them as an
// observer is, in place of one Observe set.
func (s *Spectrum) Watch(w *machine.Watch) {
	s.watch = w
	s.Observe(nil)
	if w != nil && w.Accesses {
		s.Observe(w.Watcher.Access)
	}
}

// Control sets the Control the machine's runs, steps and typing look at,
// or none.
func (s *Spectrum) Control(c *machine.Control) { s.control = c }

// Beam answers where the beam stood at tick, in the picture's pixels: the
// ULA's beam follows the tick alone [LS].
func (s *Spectrum) Beam(tick uint64) (x, y int) { return s.ULA.Beam(tick) }

// board is the Spectrum as the processor's bus sees it: the methods that
// answer its machine cycles, kept off the Spectrum's own method set.
type board Spectrum

// Fetch is an opcode fetch. The ULA holds one from contended memory at
// its T1 [SW-CM]; the refresh that follows is not held.
func (b *board) Fetch(addr uint16) uint8 {
	c := &b.CPU
	if ula.Contended(addr) {
		c.Tick += b.ULA.Delay(c.Tick)
	}
	v := b.mem[addr]
	if c.Responding || b.Handlers.Active() {
		// The account of the interrupt handlers the processor is inside
		// (machine.Handlers): an NMI's response fetches at the address
		// it then pushes, and any other fetch may be the processor
		// coming back from a handler.
		if c.Responding {
			b.Handlers.Enter(c.SP, addr)
		} else {
			b.Handlers.Fetched(addr, c.SP)
		}
	}
	if b.watching {
		b.observe(machine.Fetch, addr, v, v, c.Tick)
	}
	return v
}

// Read is a memory read, held at its T1 as a fetch is [SW-CM].
func (b *board) Read(addr uint16) uint8 {
	c := &b.CPU
	if ula.Contended(addr) {
		c.Tick += b.ULA.Delay(c.Tick)
	}
	v := b.mem[addr]
	if b.watching {
		b.observe(machine.Read, addr, v, v, c.Tick)
	}
	return v
}

// Write is a memory write, held at its T1 [SW-CM]. The byte lands in T2,
// a tick after T1 (UM0080: /WR falls in T2), so the screen is painted up
// to then with what it held before. Below &4000 it lands nowhere.
func (b *board) Write(addr uint16, v uint8) {
	c := &b.CPU
	if addr < 0x8000 {
		if addr < ROMSize {
			if b.watching {
				b.observe(machine.Write, addr, v, b.mem[addr], c.Tick)
			}
			return
		}
		c.Tick += b.ULA.Delay(c.Tick)
		if addr < 0x5B00 { // the bitmap and the attributes [SVM]
			b.ULA.Sync(c.Tick + 1)
		}
	}
	if b.watching {
		before := b.mem[addr]
		b.mem[addr] = v
		b.marks.mem[0] |= 1 << (addr / machine.PageSize)
		b.observe(machine.Write, addr, v, before, c.Tick)
		return
	}
	b.mem[addr] = v
	b.marks.mem[0] |= 1 << (addr / machine.PageSize)
}

// In is a port read. The ULA answers every port with A0 low [KB]; nothing
// else on a bare 48K answers, so any other port reads the floating bus
// [RS]. The ULA holds the cycle as package ula's Port works out, and the
// byte is taken at the end of the late hold [FUSE].
func (b *board) In(port uint16) uint8 {
	c := &b.CPU
	t1 := c.Tick
	_, read, end := b.ULA.Port(port, t1)
	var v uint8
	if port&1 == 0 {
		// The tape's level at the EAR socket as the ULA reads its port;
		// with no tape in, ear_in stands as set left it.
		if b.Tape.Tape() != nil {
			b.ULA.EarIn = b.Tape.LevelAt(read)
		}
		v = b.ULA.Read(port)
	} else {
		v = b.ULA.Floating(read)
	}
	if b.watching {
		b.observe(machine.In, port, v, v, t1)
	}
	c.Tick = end - 4
	return v
}

// Out is a port write. The ULA takes any port with A0 low [KB]; its write
// lands after the early hold [FUSE].
func (b *board) Out(port uint16, v uint8) {
	c := &b.CPU
	t1 := c.Tick
	write, _, end := b.ULA.Port(port, t1)
	if port&1 == 0 {
		b.ULA.Write(v, write)
	}
	if b.watching {
		b.observe(machine.Out, port, v, v, t1)
	}
	c.Tick = end - 4
}

// Internal is n ticks in which the processor works inside itself with an
// address on the bus. The 16K and 48K ULA holds these too when the address
// is contended, a tick at a time, since it decodes the address and not
// MREQ [SW-CM]; the FUSE tests log each such tick as an MC event.
func (b *board) Internal(addr uint16, n int) {
	if !ula.Contended(addr) {
		return
	}
	c := &b.CPU
	t := c.Tick
	for range n {
		t += b.ULA.Delay(t) + 1
	}
	c.Tick = t - uint64(n)
}

// Acknowledge is the interrupt acknowledge. Nothing on a bare 48K drives
// the data bus then, so the processor reads what floats there: &FF, the
// acknowledge always falling in the top border, where the ULA reads
// nothing (spectrum48-contention.md, "Interrupt", after the WoS FAQ on
// IM 2 tables).
func (b *board) Acknowledge() uint8 {
	c := &b.CPU
	v := b.ULA.Floating(c.Tick)
	b.Handlers.Enter(c.SP, c.PC)
	if b.watching {
		b.observe(machine.Acknowledge, c.PC, v, v, c.Tick)
	}
	return v
}

// observe tells the observer of an access. before is what a written byte
// held; a write to the ROM leaves it holding that (PR-5, VC-7).
func (b *board) observe(k machine.Kind, addr uint16, v, before uint8, tick uint64) {
	a := &b.access
	*a = machine.Access{
		Kind:       k,
		Tick:       tick,
		Addr:       addr,
		Value:      v,
		Before:     before,
		After:      v,
		Operand:    b.CPU.Operand,
		InstrPC:    b.CPU.InstrPC,
		Responding: b.CPU.Responding,
	}
	switch k {
	case machine.Fetch, machine.Read, machine.Write:
		a.Source = machine.Source{ROM: addr < ROMSize, RAM: uint32(addr)}
		if addr < ROMSize {
			a.Source.RAM = 0
			a.After = before
		}
	}
	b.observer(a)
}
