package watch

import (
	"cmp"
	"slices"

	"colophon/internal/disasm"
	"colophon/internal/machine"
)

// A count keeps each place that matched once (spec, "Stopping and
// watching"; CNT-1 to CNT-12): a place in memory is a byte of it, the RAM
// by its own address or a ROM by its number and offset, so that one byte
// reached at two addresses is one place and two bytes at one address are
// two (CNT-4, CNT-5); a port is its whole address (CNT-10); a register its
// number.

// physical is the key of the byte src holds at addr: the RAM's own address
// below &20000, the lower ROM (a Spectrum's ROM too) from &20000, and an
// upper ROM n from &24000 + n*&4000.
func physical(src machine.Source, addr uint16) uint32 {
	switch {
	case src.ROM && src.Upper:
		return 0x24000 + uint32(src.Number)*0x4000 + uint32(addr&0x3FFF)
	case src.ROM:
		return 0x20000 + uint32(addr&0x3FFF)
	}
	return src.RAM
}

// region is the memory a key lies in: the RAM, the lower ROM, or an upper
// ROM; no range runs from one into another (RNG-3).
func region(key uint32) uint32 {
	if key < 0x20000 {
		return 0
	}
	return 1 + (key-0x20000)/0x4000
}

// place is one place a count found, told by its first match (CNT-6).
type place struct {
	kind     Kind
	key      uint32
	addr     uint16 // the address first reached, port or register; by pc, the pc
	first    uint16 // by pc: the address, port or register of the first match
	count    uint64
	tick     uint64
	pc       uint16
	hasPC    bool
	src      machine.Source // the memory of addr
	firstSrc machine.Source // the memory of first
	pcSrc    machine.Source // the instruction's
	// An instruction's first four bytes as it first began there, and how
	// many of them follow one another in one memory (RNG-4, RNG-5).
	bytes         [4]byte
	nbytes, cover uint8
}

// placeList is the places of one kind, found by key through pages of 16K
// keys made as they are first needed.
type placeList struct {
	on     bool
	pages  [][]int32 // index+1 into places, by key>>14
	places []place
}

func (l *placeList) find(key uint32) (*place, bool) {
	pg := int(key >> 14)
	if pg >= len(l.pages) {
		l.pages = append(l.pages, make([][]int32, pg+1-len(l.pages))...)
	}
	if l.pages[pg] == nil {
		l.pages[pg] = make([]int32, 1<<14)
	}
	slot := &l.pages[pg][key&0x3FFF]
	if *slot != 0 {
		return &l.places[*slot-1], false
	}
	l.places = append(l.places, place{key: key})
	*slot = int32(len(l.places))
	return &l.places[len(l.places)-1], true
}

// counter is a run's count.
type counter struct {
	m      Machine
	by     By
	limit  int // places before it fills; 0 for never
	lists  [kinds]placeList
	places int
	full   bool
}

func (c *counter) init(m Machine, opts Options) {
	c.m = m
	c.by = opts.By
	if !opts.File && opts.By != ByRange {
		c.limit = AnswerPlaces
	}
	for _, k := range opts.Count {
		c.lists[k.Kind].on = true
	}
}

// added notes a new place, and fills the count at its limit (CNT-11).
func (c *counter) added() {
	c.places++
	if c.limit > 0 && c.places >= c.limit {
		c.full = true
	}
}

// exec counts an instruction about to begin at pc, from src, taking its
// bytes from memory the first time: they are the bytes it is about to
// fetch, since no instruction writes before it has fetched all of its own.
func (c *counter) exec(pc uint16, src machine.Source, tick uint64) {
	p, made := c.lists[Exec].find(physical(src, pc))
	p.count++
	if !made {
		return
	}
	c.added()
	p.kind = Exec
	p.addr, p.first, p.tick, p.pc, p.hasPC, p.src, p.firstSrc, p.pcSrc = pc, pc, tick, pc, true, src, src, src
	n := instructionLength(c.m, pc)
	p.nbytes = uint8(min(n, 4))
	p.cover = 1
	for i := range int(p.nbytes) {
		a := pc + uint16(i)
		p.bytes[i] = c.m.Peek(a)
		if i > 0 && int(p.cover) == i && uint32(pc)+uint32(i) <= 0xFFFF &&
			physical(c.m.Source(a), a) == p.key+uint32(i) {
			p.cover++
		}
	}
}

// access counts an access of kind k, a, made by the instruction whose
// first byte came from pcSrc.
func (c *counter) access(k Kind, a *machine.Access, pcSrc *machine.Source) {
	var key uint32
	switch {
	case c.by == ByPC:
		if a.Responding {
			return // the response to an interrupt is no instruction (CNT-8)
		}
		key = physical(*pcSrc, a.InstrPC)
	case k == Read || k == Write:
		key = physical(a.Source, a.Addr)
	default:
		key = uint32(a.Addr)
	}
	p, made := c.lists[k].find(key)
	p.count++
	if !made {
		return
	}
	c.added()
	p.kind = k
	p.addr, p.first, p.tick, p.pc, p.hasPC, p.src, p.firstSrc = a.Addr, a.Addr, a.Tick, a.InstrPC, !a.Responding, a.Source, a.Source
	if !a.Responding {
		p.pcSrc = *pcSrc
	}
	if c.by == ByPC {
		p.addr, p.src = a.InstrPC, *pcSrc
	}
}

// instructionLength is how many bytes the processor fetches for the
// instruction at addr: a chain of DD and FD prefixes is one instruction
// with the one after it (internal/chip/z80), where the disassembler lists
// each lone prefix as a NONI, and a DD or FD before ED is one too.
func instructionLength(m Machine, addr uint16) int {
	var d disasm.Disassembler
	chain := 0
	for chain < 0x10000 {
		b := m.Peek(addr + uint16(chain))
		if b != 0xDD && b != 0xFD {
			break
		}
		chain++
	}
	mem := func(a uint16) byte { return m.Peek(a) }
	switch {
	case chain == 0:
		return d.Decode(mem, addr).Len()
	case m.Peek(addr+uint16(chain)) == 0xED:
		return chain + d.Decode(mem, addr+uint16(chain)).Len()
	}
	return chain - 1 + d.Decode(mem, addr+uint16(chain-1)).Len()
}

// sorted answers the places of kind k in the order the answer lists them:
// by address, port, register or pc, then by memory.
func (c *counter) sorted(k Kind) []place {
	ps := slices.Clone(c.lists[k].places)
	slices.SortFunc(ps, func(a, b place) int {
		return cmp.Or(cmp.Compare(a.addr, b.addr), cmp.Compare(a.key, b.key))
	})
	return ps
}

// span is a range of places as a count by range folds them (RNG-1 to
// RNG-7).
type span struct {
	first, last place // its first and its last place
	end         int   // the last address it covers
	keyEnd      uint32
	places      int
	count       uint64
}

// fold folds the places of kind k into ranges: places whose bytes follow
// one another with no gap, both at the addresses the processor first
// reached them at and in the memory that holds them (RNG-2, RNG-3), an
// instruction covering the bytes it fetched that follow one another
// (RNG-4), a port or a register one number (RNG-6). Ranges are in address
// order, then by memory.
func (c *counter) fold(k Kind) []span {
	ps := slices.Clone(c.lists[k].places)
	memory := k == Exec || k == Read || k == Write
	// Places that may join share a memory and the difference between
	// their address and their key, and follow one another by address.
	delta := func(p place) int { return int(p.key) - int(p.addr) }
	slices.SortFunc(ps, func(a, b place) int {
		if memory {
			if r := cmp.Compare(region(a.key), region(b.key)); r != 0 {
				return r
			}
			if r := cmp.Compare(delta(a), delta(b)); r != 0 {
				return r
			}
		}
		return cmp.Compare(a.addr, b.addr)
	})
	var out []span
	for _, p := range ps {
		width := 1
		if k == Exec {
			width = int(max(p.cover, 1))
		}
		end := int(p.addr) + width - 1
		if n := len(out); n > 0 {
			s := &out[n-1]
			joins := int(p.addr) <= s.end+1
			if memory {
				joins = joins && region(p.key) == region(s.first.key) && delta(p) == delta(s.first)
			}
			if joins {
				s.last = p
				s.end = max(s.end, end)
				s.places++
				s.count += p.count
				continue
			}
		}
		out = append(out, span{first: p, last: p, end: end, places: 1, count: p.count})
	}
	slices.SortStableFunc(out, func(a, b span) int {
		return cmp.Or(cmp.Compare(a.first.addr, b.first.addr), cmp.Compare(a.first.key, b.first.key))
	})
	return out
}
