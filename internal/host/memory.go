package host

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"colophon/internal/chip/z80"
	"colophon/internal/machine"
)

// The most bytes one peek answers: 12K of text, as much as a model takes
// in at a glance.
const (
	MaxPeek     = 4096
	defaultPeek = 16
)

// PeekArgs are peek's arguments.
type PeekArgs struct {
	Handle  string      `json:"handle" jsonschema:"the machine to read"`
	Address ReadAddress `json:"address" jsonschema:"where to start reading"`
	Length  *int        `json:"length,omitempty" jsonschema:"how many bytes to read, 1 to 4096; 16 if not given"`
	RAM     bool        `json:"ram,omitempty" jsonschema:"read a CPC's RAM by the RAM's own addresses, &00000 to &0FFFF, and on a 6128 &10000 to &1FFFF for its second 64K, whatever the banking pages in and whatever ROM is enabled over it"`
}

// Peeked is peek's answer.
type Peeked struct {
	Handle  string `json:"handle" jsonschema:"the machine"`
	Address string `json:"address" jsonschema:"the address read from, after &: where cpu.sp or cpu.pc pointed, if the request named one"`
	Length  int    `json:"length" jsonschema:"how many bytes were read: fewer than asked where the read reached the end of memory"`
	Bytes   string `json:"bytes" jsonschema:"the bytes, as pairs of hex digits with a space between each"`
	ROM     string `json:"rom,omitempty" jsonschema:"on a CPC, the ROM the first byte was read from: lower, or upper and its number, such as upper 7"`
	RAMAt   string `json:"ram,omitempty" jsonschema:"on a CPC, the RAM's own address of the first byte, where the banking pages it in at another address"`
}

// Peek reads memory as the processor would, through the banking and the
// ROMs, or a CPC's RAM by its own addresses (PP-1 to PP-5). It is a read:
// it moves nothing and is not entered in the journal.
func (h *Host) Peek(ctx context.Context, a PeekArgs) (Peeked, error) {
	return with(h, ctx, a.Handle, func(m *Machine) (Peeked, error) {
		n := defaultPeek
		if a.Length != nil {
			n = *a.Length
		}
		if n < 1 || n > MaxPeek {
			return Peeked{}, fmt.Errorf("argument \"length\" is %d; a peek reads 1 to %d bytes", n, MaxPeek)
		}
		if a.RAM {
			ram, err := m.ram()
			if err != nil {
				return Peeked{}, err
			}
			if isRegister(string(a.Address)) {
				return Peeked{}, fmt.Errorf("argument \"address\" is %s, a processor address, but ram reads by the RAM's own addresses: give one of those, or leave ram out", a.Address)
			}
			last := uint32(ram.RAMSize() - 1)
			addr, err := parseAddress("address", string(a.Address), last)
			if err != nil {
				return Peeked{}, err
			}
			n = min(n, int(last-addr)+1)
			b := make([]byte, n)
			for i := range b {
				b[i] = ram.PeekRAM(addr + uint32(i))
			}
			return Peeked{Handle: m.handle, Address: formatAddress(addr), Length: n, Bytes: formatBytes(b)}, nil
		}

		mem, err := m.memory()
		if err != nil {
			return Peeked{}, err
		}
		var addr uint32
		wraps := false
		if r := string(a.Address); isRegister(r) {
			cpu, err := m.processor()
			if err != nil {
				return Peeked{}, err
			}
			// From where a register points the read runs on past &FFFF
			// to &0000, as the processor's own addresses do (PP-5).
			addr, wraps = uint32(cpu.PC), true
			if r == regSP {
				addr = uint32(cpu.SP)
			}
		} else if addr, err = parseAddress("address", r, 0xFFFF); err != nil {
			return Peeked{}, err
		}
		if !wraps {
			// From an address given, nothing past &FFFF is read (PP-5).
			n = min(n, int(0xFFFF-addr)+1)
		}
		b := make([]byte, n)
		for i := range b {
			b[i] = mem.Peek(uint16(addr + uint32(i)))
		}
		p := Peeked{Handle: m.handle, Address: formatAddress(addr), Length: n, Bytes: formatBytes(b)}
		if m.kind.cpc {
			p.ROM, p.RAMAt = nameSource(mem.Source(uint16(addr)), addr)
		}
		return p, nil
	})
}

// nameSource names the memory that answered addr, as a CPC's answers name
// it: the ROM, lower or upper by its number, or the RAM by its own address
// where that is not addr (PP-3, PR-6).
func nameSource(s machine.Source, addr uint32) (rom, ram string) {
	switch {
	case s.ROM && s.Upper:
		return fmt.Sprintf("upper %d", s.Number), ""
	case s.ROM:
		return "lower", ""
	case s.RAM != addr:
		return "", formatAddress(s.RAM)
	}
	return "", ""
}

func isRegister(s string) bool {
	s = strings.TrimSpace(s)
	return s == regSP || s == regPC
}

// PokeArgs are poke's arguments.
type PokeArgs struct {
	Handle  string  `json:"handle" jsonschema:"the machine to write"`
	Address Address `json:"address" jsonschema:"where the first byte goes"`
	Bytes   string  `json:"bytes" jsonschema:"the bytes to write, as pairs of hex digits, such as 3E 01 C9"`
	RAM     bool    `json:"ram,omitempty" jsonschema:"write a CPC's RAM by the RAM's own addresses, &00000 to &0FFFF, and on a 6128 &10000 to &1FFFF, whatever the banking pages in"`
}

// Poked is poke's answer.
type Poked struct {
	Handle  string `json:"handle" jsonschema:"the machine"`
	Address string `json:"address" jsonschema:"where the first byte went, after &"`
	Length  int    `json:"length" jsonschema:"how many bytes were written"`
	Written int    `json:"written" jsonschema:"how many of them landed in RAM: on a Spectrum, those below &4000 fall on its ROM and change nothing; on a CPC every byte lands, beneath an enabled ROM in the RAM there"`
	ROM     string `json:"rom,omitempty" jsonschema:"on a CPC, the ROM enabled over the first byte, which reads find there instead of what was written beneath it: lower, or upper and its number"`
	RAMAt   string `json:"ram,omitempty" jsonschema:"on a CPC, the RAM's own address of the first byte, where the banking pages it in at another address"`
}

type pokeEntry struct {
	Address string `json:"address"`
	Bytes   string `json:"bytes"`
	RAM     bool   `json:"ram,omitempty"`
}

// Poke writes memory as the processor would: beneath a CPC's enabled ROM
// into the RAM there, into a Spectrum's ROM not at all; or a CPC's RAM by
// its own addresses (PP-1, PP-2). A write that would run past the end of
// memory is refused whole.
func (h *Host) Poke(ctx context.Context, a PokeArgs) (Poked, error) {
	return with(h, ctx, a.Handle, func(m *Machine) (Poked, error) {
		b, err := parseBytes("bytes", a.Bytes)
		if err != nil {
			return Poked{}, err
		}
		var mem machine.Memory
		var ram machine.RAM
		last := uint32(0xFFFF)
		if a.RAM {
			if ram, err = m.ram(); err != nil {
				return Poked{}, err
			}
			last = uint32(ram.RAMSize() - 1)
		} else if mem, err = m.memory(); err != nil {
			return Poked{}, err
		}
		addr, err := parseAddress("address", string(a.Address), last)
		if err != nil {
			return Poked{}, err
		}
		if end := addr + uint32(len(b)) - 1; end > last {
			return Poked{}, fmt.Errorf("argument \"bytes\": %d bytes from %s run to %s, past %s, the end of memory here; nothing was written",
				len(b), formatAddress(addr), formatAddress(end), formatAddress(last))
		}
		p := Poked{Handle: m.handle, Address: formatAddress(addr), Length: len(b)}
		tick := m.m.Tick()
		if a.RAM {
			for i, v := range b {
				ram.PokeRAM(addr+uint32(i), v)
			}
			p.Written = len(b)
		} else {
			if m.kind.cpc {
				p.ROM, p.RAMAt = nameSource(mem.Source(uint16(addr)), addr)
			}
			for i, v := range b {
				at := uint16(addr + uint32(i))
				mem.Poke(at, v)
				// Only a Spectrum's ROM has no RAM beneath it.
				if m.kind.cpc || !mem.Source(at).ROM {
					p.Written++
				}
			}
		}
		m.enter("poke", tick, pokeEntry{Address: formatAddress(addr), Bytes: formatBytes(b), RAM: a.RAM})
		return p, nil
	})
}

// memory, ram and processor give what a tool needs of the machine, or say
// that this machine does not offer it.
func (m *Machine) memory() (machine.Memory, error) {
	if mem, ok := m.m.(machine.Memory); ok {
		return mem, nil
	}
	return nil, fmt.Errorf("%s offers no view of its memory in this build", m.kind.name)
}

func (m *Machine) ram() (machine.RAM, error) {
	if !m.kind.cpc {
		return nil, errors.New("argument \"ram\": a Spectrum's RAM has no addresses of its own but the processor's; leave ram out")
	}
	if r, ok := m.m.(machine.RAM); ok {
		return r, nil
	}
	return nil, fmt.Errorf("%s offers no view of its RAM in this build", m.kind.name)
}

func (m *Machine) processor() (*z80.CPU, error) {
	if p, ok := m.m.(machine.Processor); ok {
		return p.Processor(), nil
	}
	return nil, fmt.Errorf("%s offers no view of its processor in this build", m.kind.name)
}
