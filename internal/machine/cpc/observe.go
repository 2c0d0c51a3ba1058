package cpc

// Kind is what an observed event is.
type Kind uint8

const (
	Fetch        Kind = iota // an M1 opcode fetch
	Read                     // a memory read that is not an M1
	Write                    // a memory write
	PortRead                 // an I/O read
	PortWrite                // an I/O write
	PSGWrite                 // a write landing in a PSG register
	CRTCWrite                // a write to the 6845's selected register
	Acknowledged             // an interrupt acknowledge, with the byte on the bus
)

func (k Kind) String() string {
	switch k {
	case Fetch:
		return "fetch"
	case Read:
		return "read"
	case Write:
		return "write"
	case PortRead:
		return "in"
	case PortWrite:
		return "out"
	case PSGWrite:
		return "psg"
	case CRTCWrite:
		return "crtc"
	case Acknowledged:
		return "acknowledge"
	}
	return "unknown"
}

// Event is one thing the machine did that an observer can see.
type Event struct {
	Kind Kind
	// Tick is the machine's tick: a memory cycle's T1, an I/O cycle's
	// /IORQ, and the tick a chip took a register write.
	Tick uint64
	// Addr is the address, the port, or the register number (a PSG's 0-15,
	// a 6845's 0-31 as its address register holds it).
	Addr uint16
	// Value is the byte read or written, or the byte a register was given.
	Value byte
	// Before is, for a write, what the byte or the register held before it
	// (as the register keeps it); for a read, the byte read.
	Before byte
	// PC is where the instruction that made the access began.
	PC uint16
	// Source is the memory that answered a memory access.
	Source Source
	// BeamX and BeamY are where the monitor's beam stood, in raster samples
	// and lines.
	BeamX, BeamY int
	// Responding is set for an interrupt response's accesses, which belong
	// to no instruction.
	Responding bool
}

// Observer is called with each event while it is set. The event is the
// board's and is overwritten by the next; copy what is kept.
type Observer func(e *Event)

// ObserveBoard sets the observer of everything the board does, the PSG's
// and the 6845's register writes among it, or with nil takes it away. With
// none set the board does no work for observation beyond one test per
// access. It replaces an observer Observe set.
func (m *CPC) ObserveBoard(o Observer) { m.observe = o }

func (m *CPC) fill(e *Event, k Kind, tick uint64, addr uint16, v, before byte) {
	m.catchUp(tick)
	*e = Event{Kind: k, Tick: tick, Addr: addr, Value: v, Before: before, PC: m.CPU.InstrPC,
		BeamX: m.Monitor.BeamX, BeamY: m.Monitor.BeamY, Responding: m.responding}
}

func (m *CPC) memEvent(k Kind, tick uint64, addr uint16, v, before byte, p *page) {
	var e Event
	m.fill(&e, k, tick, addr, v, before)
	if p.rom && k != Write {
		e.Source = Source{ROM: true, Lower: p.lower, Num: p.num}
	} else {
		e.Source = Source{RAM: p.ram + uint32(addr&0x3FFF)}
	}
	m.observe(&e)
}

func (m *CPC) portEvent(k Kind, tick uint64, port uint16, v byte) {
	var e Event
	m.fill(&e, k, tick, port, v, v)
	m.observe(&e)
}

func (m *CPC) regEvent(k Kind, tick uint64, r byte, v, before byte) {
	var e Event
	m.fill(&e, k, tick, uint16(r), v, before)
	m.observe(&e)
}
