package watch

import (
	"colophon/internal/chip/z80"
	"colophon/internal/machine"
)

// Machine is what the engine asks of the machine it watches.
type Machine interface {
	Peek(addr uint16) uint8
	Source(addr uint16) machine.Source
	Beam(tick uint64) (x, y int)
	Processor() *z80.CPU
}

// ramMachine is a machine with RAM of its own addresses, which a span
// with ram reads.
type ramMachine interface{ RAMBytes() []byte }

// list says which of a run's lists a condition belongs to.
type list uint8

const (
	inUntil list = iota
	inGather
	inCount
)

// cond is a condition as the engine keeps it.
type cond struct {
	Condition
	list list
	bit  uint64 // its bit among every condition of the run
}

// Stop is why a watcher stopped its run.
type Stop uint8

const (
	NotStopped Stop = iota
	Until           // at the first match of until
	Full            // a gathering or a count filled
)

// An Engine watches one run. New makes it; the run sets Watch on the
// machine; afterwards its results are read.
type Engine struct {
	m     Machine
	cpu   *z80.CPU
	ram   []byte
	opts  Options
	watch machine.Watch

	execs  []*cond        // Exec conditions
	access [kinds][]*cond // the others, by kind

	startTick uint64
	skip      bool

	// Where the instruction under way came from, as its first fetch
	// tells it.
	instrSrc machine.Source

	// until
	untilHit  bool
	untilRec  record
	untilSnap *snap
	before    bool // stopped before an instruction

	// gather
	gather     bool
	capturing  bool // some gather condition captures
	limit      int  // where the gathering fills, or the ring's size
	recs       []record
	snaps      []snap
	ringNext   int // with Last: the next slot to write once the ring is full
	ringFull   bool
	gatherFull bool

	// count
	count counter

	// Captures waiting for the end of the instruction that matched, or of
	// the response taken there (CAP-3, CAP-5, CAP-6): indexes of snaps, or
	// untilSnap.
	pendInstr, pendResp []int32

	// The conditions by their bits, and the bits of each list's
	// conditions that capture.
	byBit    []*cond
	captures [3]uint64

	stop Stop
}

// record is one match as the engine keeps it until it is answered.
type record struct {
	tick       uint64
	kind       Kind
	addr       uint16
	value      uint8
	pc         uint16
	responding bool
	hasPC      bool // pcSrc says where the instruction came from
	src, pcSrc machine.Source
	beamX      int32
	beamY      int32
	snap       int32 // the capture, an index of snaps, or -1
	conds      uint64
}

// snap is what a match captured: the processor and the spans its
// conditions name.
type snap struct {
	taken bool
	cpu   z80.CPU
	conds uint64
	spans []spanRead
}

// spanRead is a span as it was read.
type spanRead struct {
	addr  uint32
	ram   bool
	src   machine.Source
	bytes []byte
}

// New makes the engine for a run of m with opts, whose conditions are
// already checked.
func New(m Machine, opts Options) *Engine {
	e := &Engine{m: m, cpu: m.Processor(), opts: opts}
	if r, ok := m.(ramMachine); ok {
		e.ram = r.RAMBytes()
	}
	e.watch.Watcher = e
	e.startTick = e.cpu.Tick
	e.skip = opts.Skip
	bit := uint64(1)
	add := func(cs []Condition, l list) {
		for _, c := range cs {
			k := &cond{Condition: c, list: l, bit: bit}
			bit <<= 1
			e.byBit = append(e.byBit, k)
			if c.Capture != nil {
				e.captures[l] |= k.bit
			}
			if c.Kind == Exec {
				e.execs = append(e.execs, k)
				e.watch.Mark(c.Lo, c.Hi)
			} else {
				e.access[c.Kind] = append(e.access[c.Kind], k)
				e.watch.Accesses = true
			}
			if l == inGather && c.Capture != nil {
				e.capturing = true
			}
		}
	}
	add(opts.Until, inUntil)
	add(opts.Gather, inGather)
	add(opts.Count, inCount)
	e.gather = len(opts.Gather) > 0
	switch {
	case opts.File:
		e.limit = FileMatches
	case e.capturing:
		e.limit = AnswerCaptureMatches
	default:
		e.limit = AnswerMatches
	}
	if opts.Last {
		e.recs = make([]record, 0, min(e.limit, 1024))
	}
	e.count.init(m, opts)
	return e
}

// Watch is the watch to set on the machine for the run.
func (e *Engine) Watch() *machine.Watch { return &e.watch }

// Begin is told of an instruction about to begin at an address an exec
// condition names (CB-4): the machine stands at it unrun.
func (e *Engine) Begin() bool {
	c := e.cpu
	if e.skip {
		e.skip = false
		if c.Tick == e.startTick {
			return false // CB-5: a run begun where one stopped runs it first
		}
	}
	pc := c.PC
	var src machine.Source
	var srcRead bool
	var hit uint64
	var lists [3]bool
	for _, k := range e.execs {
		if pc < k.Lo || pc > k.Hi {
			continue
		}
		if k.From != Anywhere {
			if !srcRead {
				src, srcRead = e.m.Source(pc), true
			}
			if !k.fromMatches(src) {
				continue
			}
		}
		if k.When != nil && !e.whenStands(k.When) {
			continue
		}
		hit |= k.bit
		lists[k.list] = true
	}
	if hit == 0 {
		return false
	}
	if !srcRead {
		src = e.m.Source(pc)
	}
	if lists[inCount] {
		e.count.exec(pc, src, c.Tick)
		if e.count.full {
			e.watch.Attend = true
		}
	}
	if !lists[inGather] && !lists[inUntil] {
		return false
	}
	r := record{tick: c.Tick, kind: Exec, addr: pc, value: e.m.Peek(pc), pc: pc, src: src, conds: hit, snap: -1}
	x, y := e.m.Beam(c.Tick)
	r.beamX, r.beamY = int32(x), int32(y)
	if lists[inGather] {
		// An instruction about to begin captures the machine it finds
		// (CAP-2).
		if i := e.gathered(r); i != noSnap {
			e.take(e.snapAt(i), c.Tick)
		}
	}
	if lists[inUntil] && !e.untilHit {
		e.untilHit = true
		e.untilRec = r
		if conds := hit & e.captures[inUntil]; conds != 0 {
			e.untilSnap = &snap{conds: conds}
			e.take(e.untilSnap, c.Tick)
		}
		e.before = true
		e.stop = Until
		return true
	}
	return false
}

// Access is told of each access of the run.
func (e *Engine) Access(a *machine.Access) {
	if a.Responding && len(e.pendInstr) > 0 {
		// An interrupt taken at the end of the instruction is accepted
		// before the capture and answered after it (CAP-5): the machine
		// stands as the response begins, at the tick it begins.
		for _, i := range e.pendInstr {
			e.take(e.snapAt(i), a.Tick)
		}
		e.pendInstr = e.pendInstr[:0]
	}
	var k Kind
	switch a.Kind {
	case machine.Fetch:
		if !a.Responding && a.Addr == a.InstrPC {
			// The first fetch of an instruction: no later byte of one
			// is fetched at the address it began at.
			e.instrSrc = a.Source
		}
		return
	case machine.Read:
		if a.Operand {
			return // no read: a byte of the instruction itself (RD-1)
		}
		k = Read
	case machine.Write:
		k = Write
	case machine.In:
		k = In
	case machine.Out:
		k = Out
	case machine.PSG:
		k = PSG
	case machine.CRTC:
		k = CRTC
	default:
		return
	}
	conds := e.access[k]
	if len(conds) == 0 {
		return
	}
	var hit uint64
	var lists [3]bool
	for _, c := range conds {
		switch k {
		case In, Out:
			if a.Addr&c.Mask != c.Port&c.Mask {
				continue
			}
		default:
			if a.Addr < c.Lo || a.Addr > c.Hi {
				continue
			}
		}
		if c.From != Anywhere && !c.fromMatches(a.Source) {
			continue
		}
		if c.Value && (a.Value < c.ValueLo || a.Value > c.ValueHi) {
			continue
		}
		if c.Changes && a.Before == a.After {
			continue
		}
		if c.When != nil && !e.whenStands(c.When) {
			continue
		}
		hit |= c.bit
		lists[c.list] = true
	}
	if hit == 0 {
		return
	}
	if lists[inCount] {
		e.count.access(k, a, &e.instrSrc)
		if e.count.full {
			e.watch.Attend = true
		}
	}
	if !lists[inGather] && !lists[inUntil] {
		return
	}
	r := record{tick: a.Tick, kind: k, addr: a.Addr, value: a.Value, pc: a.InstrPC,
		responding: a.Responding, src: a.Source, conds: hit, snap: -1}
	if !a.Responding {
		r.hasPC, r.pcSrc = true, e.instrSrc
	}
	x, y := e.m.Beam(a.Tick)
	r.beamX, r.beamY = int32(x), int32(y)
	if lists[inGather] {
		if i := e.gathered(r); i != noSnap {
			e.pend(i, a.Responding)
		}
	}
	if lists[inUntil] && !e.untilHit {
		e.untilHit = true
		e.untilRec = r
		if conds := hit & e.captures[inUntil]; conds != 0 {
			e.untilSnap = &snap{conds: conds}
			e.pend(untilRef, a.Responding)
		}
		e.stop = Until
		e.watch.Attend = true
	}
}

// End is asked at the end of an instruction and the response taken there.
func (e *Engine) End() bool {
	// An access captures the machine its instruction leaves at its end,
	// and one the response makes the machine at the response's end
	// (CAP-3, CAP-6).
	for _, i := range e.pendInstr {
		e.take(e.snapAt(i), e.cpu.Tick)
	}
	for _, i := range e.pendResp {
		e.take(e.snapAt(i), e.cpu.Tick)
	}
	e.pendInstr, e.pendResp = e.pendInstr[:0], e.pendResp[:0]
	if e.untilHit {
		return true
	}
	if e.gatherFull || e.count.full {
		e.stop = Full
		return true
	}
	return false
}

// whenStands reads w's bytes as the processor reads them, now (WHEN-2).
func (e *Engine) whenStands(w *When) bool {
	for i, b := range w.Bytes {
		if !w.Any[i] && e.m.Peek(w.Addr+uint16(i)) != b {
			return false
		}
	}
	return true
}

// noSnap and untilRef stand for no capture, and for until's.
const (
	noSnap   int32 = -2
	untilRef int32 = -1
)

// snapAt is the capture i refers to.
func (e *Engine) snapAt(i int32) *snap {
	if i == untilRef {
		return e.untilSnap
	}
	return &e.snaps[i]
}

// gathered adds a match to the gathering, and returns the capture it is
// to carry, or noSnap.
func (e *Engine) gathered(r record) int32 {
	conds := r.conds & e.captures[inGather]
	if e.opts.Last && len(e.recs) >= e.limit {
		// The ring is full: the oldest match gives way, its capture's
		// room with it.
		i := e.ringNext
		e.ringNext = (i + 1) % e.limit
		e.ringFull = true
		old := e.recs[i].snap
		e.recs[i] = r
		if conds == 0 {
			return noSnap
		}
		if old < 0 {
			e.snaps = append(e.snaps, snap{})
			old = int32(len(e.snaps) - 1)
		}
		e.snaps[old] = snap{conds: conds, spans: e.snaps[old].spans[:0]}
		e.recs[i].snap = old
		return old
	}
	e.recs = append(e.recs, r)
	if !e.opts.Last && len(e.recs) >= e.limit && !e.gatherFull {
		e.gatherFull = true
		e.watch.Attend = true
	}
	if conds == 0 {
		return noSnap
	}
	e.snaps = append(e.snaps, snap{conds: conds})
	i := int32(len(e.snaps) - 1)
	e.recs[len(e.recs)-1].snap = i
	return i
}

// pend keeps a capture for the end of the instruction, or of the response.
func (e *Engine) pend(i int32, responding bool) {
	if responding {
		e.pendResp = append(e.pendResp, i)
	} else {
		e.pendInstr = append(e.pendInstr, i)
	}
	e.watch.Attend = true
}

// take captures the machine as it stands now into s, with the tick given.
func (e *Engine) take(s *snap, tick uint64) {
	s.taken = true
	s.cpu = *e.cpu
	s.cpu.Tick = tick
	s.cpu.Bus = nil
	s.spans = s.spans[:0]
	for _, k := range e.conditionsOf(s.conds) {
		for _, sp := range k.Capture.Memory {
			s.spans = append(s.spans, e.read(sp, &s.cpu))
		}
	}
}

// conditionsOf lists the conditions among bits, in the order given.
func (e *Engine) conditionsOf(bits uint64) []*cond {
	var out []*cond
	for _, k := range e.byBit {
		if bits&k.bit != 0 {
			out = append(out, k)
		}
	}
	return out
}

// read reads a span as peek reads it (CAP-1): from an address through the
// banking, ending at &FFFF; from the RAM's own addresses, ending at its
// end; or from where SP or PC points, running on past &FFFF to &0000.
func (e *Engine) read(sp Span, c *z80.CPU) spanRead {
	r := spanRead{addr: sp.Addr, ram: sp.Base == AtRAM}
	n := sp.Len
	switch sp.Base {
	case AtRAM:
		n = min(n, len(e.ram)-int(sp.Addr))
		r.bytes = append([]byte(nil), e.ram[sp.Addr:int(sp.Addr)+max(n, 0)]...)
		return r
	case AtSP:
		r.addr = uint32(c.SP)
	case AtPC:
		r.addr = uint32(c.PC)
	default:
		n = min(n, 0x10000-int(sp.Addr))
	}
	r.bytes = make([]byte, n)
	for i := range r.bytes {
		r.bytes[i] = e.m.Peek(uint16(r.addr + uint32(i)))
	}
	r.src = e.m.Source(uint16(r.addr))
	return r
}

// Stop says why the engine stopped the run, if it did.
func (e *Engine) Stop() Stop { return e.stop }

// StoppedBefore reports whether until stopped the run before an
// instruction, which the next run begun there runs first (CB-5).
func (e *Engine) StoppedBefore() bool { return e.before }
