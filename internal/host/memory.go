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
	Handle  string      `json:"handle" jsonschema:"the machine to read" maxLength:"64"`
	Address ReadAddress `json:"address" jsonschema:"where to start reading"`
	Length  *int        `json:"length,omitempty" jsonschema:"how many bytes to read, 1 to 4096; 16 if not given" minimum:"1" maximum:"4096"`
	RAM     bool        `json:"ram,omitempty" jsonschema:"read a CPC's RAM by the RAM's own addresses, &00000 to &0FFFF, and on a 6128 &10000 to &1FFFF for its second 64K, whatever the banking pages in and whatever ROM is enabled over it"`
	ROM     ROMSelect   `json:"rom,omitempty" jsonschema:"read one of a CPC's ROMs by name, whatever the Gate Array enables: lower, at &0000-&3FFF, or an upper ROM's number, 0 to 255, at &C000-&FFFF (a number with no ROM fitted is answered by ROM 0, BASIC)"`
}

// Peeked is peek's answer.
type Peeked struct {
	Handle  string `json:"handle" jsonschema:"the machine"`
	Address string `json:"address" jsonschema:"the address read from, after &: where cpu.sp or cpu.pc pointed, if the request named one"`
	Length  int    `json:"length" jsonschema:"how many bytes were read: fewer than asked where the read reached the end of memory"`
	Bytes   string `json:"bytes" jsonschema:"the bytes, as pairs of hex digits with a space between each"`
	ROM     string `json:"rom,omitempty" jsonschema:"on a CPC, the ROM the first byte was read from: lower, or upper and its number, such as upper 7; where a ROM is enabled the RAM beneath it, a BASIC program's say, is read with ram"`
	RAMAt   string `json:"ram,omitempty" jsonschema:"on a CPC, the RAM's own address of the first byte, where the banking pages it in at another address"`
}

// Peek reads memory as the processor would, through the banking and the
// ROMs, or a CPC's RAM by its own addresses (PP-1 to PP-5). It is a read:
// it moves nothing and is not entered in the journal.
func (h *Host) Peek(ctx context.Context, a PeekArgs) (Peeked, error) {
	return with(h, ctx, a.Handle, func(m *Machine) (Peeked, error) {
		n := given(a.Length, defaultPeek)
		if n < 1 || n > MaxPeek {
			return Peeked{}, fmt.Errorf("argument \"length\" is %d; a peek reads 1 to %d bytes", n, MaxPeek)
		}
		rom, err := m.romFor(a.ROM, a.RAM)
		if err != nil {
			return Peeked{}, err
		}
		if rom != nil {
			return m.peekROM(rom, a.Address, n)
		}
		v, addr, err := m.readFrom(a.RAM, a.Address, "reads")
		if err != nil {
			return Peeked{}, err
		}
		// A read stops at the end of the memory read, but from where a
		// register points it runs on past &FFFF to &0000, as the
		// processor's own addresses do (PP-5).
		if a.RAM || !isRegister(string(a.Address)) {
			n = min(n, int(v.last-addr)+1)
		}
		b := make([]byte, n)
		p := Peeked{Handle: m.handle, Address: formatAddress(addr), Length: n}
		if a.RAM {
			copy(b, v.ram[addr:])
		} else {
			for i := range b {
				b[i] = v.mem.Peek(uint16(addr + uint32(i)))
			}
			p.ROM, p.RAMAt = m.source(v.mem, addr)
		}
		p.Bytes = formatBytes(b)
		return p, nil
	})
}

// peekROM reads n bytes of a ROM's image from an address in its 16K, as
// far as its end.
func (m *Machine) peekROM(rom *romView, at ReadAddress, n int) (Peeked, error) {
	addr, err := m.readAddress("address", at)
	if err != nil {
		return Peeked{}, err
	}
	if err := rom.holds("address", addr); err != nil {
		return Peeked{}, err
	}
	n = min(n, int(rom.last()-addr)+1)
	b := rom.image[addr-rom.base : addr-rom.base+uint32(n)]
	return Peeked{Handle: m.handle, Address: formatAddress(addr), Length: n, Bytes: formatBytes(b), ROM: rom.name}, nil
}

// source names the memory that answered addr, as a CPC's answers name it:
// the ROM, lower or upper by its number, or the RAM by its own address
// where that is not addr (PP-3, PR-6). A Spectrum's answers name neither.
func (m *Machine) source(mem machine.Memory, addr uint32) (rom, ram string) {
	if !m.kind.cpc {
		return "", ""
	}
	switch s := mem.Source(uint16(addr)); {
	case s.ROM && s.Upper:
		return fmt.Sprintf("upper %d", s.Number), ""
	case s.ROM:
		return "lower", ""
	case s.RAM != addr:
		return "", formatAddress(s.RAM)
	}
	return "", ""
}

// PokeArgs are poke's arguments.
type PokeArgs struct {
	Handle  string  `json:"handle" jsonschema:"the machine to write" maxLength:"64"`
	Address Address `json:"address" jsonschema:"where the first byte goes"`
	Bytes   string  `json:"bytes" jsonschema:"the bytes to write, as pairs of hex digits, such as 3E 01 C9; as many as a 6128's RAM holds, 128K, at most" maxLength:"393216"`
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
		v, err := m.memoryFor(a.RAM)
		if err != nil {
			return Poked{}, err
		}
		addr, err := parseAddress("address", string(a.Address), v.last)
		if err != nil {
			return Poked{}, err
		}
		if end := addr + uint32(len(b)) - 1; end > v.last {
			return Poked{}, fmt.Errorf("argument \"bytes\": %d bytes from %s run to %s, past %s, the end of memory here; nothing was written",
				len(b), formatAddress(addr), formatAddress(end), formatAddress(v.last))
		}
		p := Poked{Handle: m.handle, Address: formatAddress(addr), Length: len(b)}
		tick := m.m.Tick()
		if a.RAM {
			// Through the machine, which marks the pages it writes for
			// the states that share them (machine.Dirty, state.go).
			ram := m.m.(machine.RAM)
			for i, x := range b {
				ram.PokeRAM(addr+uint32(i), x)
			}
			p.Written = len(b)
		} else {
			p.ROM, p.RAMAt = m.source(v.mem, addr)
			for i, x := range b {
				at := uint16(addr + uint32(i))
				v.mem.Poke(at, x)
				// Only a Spectrum's ROM has no RAM beneath it.
				if m.kind.cpc || !v.mem.Source(at).ROM {
					p.Written++
				}
			}
		}
		m.enter("poke", tick, pokeEntry{Address: formatAddress(addr), Bytes: formatBytes(b), RAM: a.RAM})
		return p, nil
	})
}

// memory, cpcRAM and processor give what a tool needs of the machine, or
// say that this machine does not offer it.
func (m *Machine) memory() (machine.Memory, error) {
	if mem, ok := m.m.(machine.Memory); ok {
		return mem, nil
	}
	return nil, fmt.Errorf("%s offers no view of its memory in this build", m.kind.name)
}

// cpcRAM is a CPC's RAM by its own addresses, for an argument or a tool
// that reads it so; a Spectrum is refused, naming what asked.
func (m *Machine) cpcRAM(what string) ([]byte, error) {
	if !m.kind.cpc {
		if what == "ram" {
			return nil, errors.New("argument \"ram\": a Spectrum's RAM has no addresses of its own but the processor's; leave ram out")
		}
		return nil, fmt.Errorf("%s reads a CPC's RAM, and %s is a %s: %s is for a cpc464, cpc664 or cpc6128 alone", what, m.handle, m.kind.name, what)
	}
	r, ok := m.m.(machine.RAM)
	if !ok {
		return nil, fmt.Errorf("%s offers no view of its RAM in this build", m.kind.name)
	}
	return r.RAMBytes(), nil
}

func (m *Machine) processor() (*z80.CPU, error) {
	if p, ok := m.m.(machine.Processor); ok {
		return p.Processor(), nil
	}
	return nil, fmt.Errorf("%s offers no view of its processor in this build", m.kind.name)
}

// A view is the memory a request with a ram argument reads or writes: a
// CPC's RAM by its own addresses where ram is given, else the 64K the
// processor addresses, through the banking and the ROMs.
type view struct {
	ram  []byte         // with ram
	mem  machine.Memory // without
	last uint32         // the last address in it
}

// memoryFor is the memory a request's ram argument asks for.
func (m *Machine) memoryFor(ram bool) (view, error) {
	if ram {
		r, err := m.cpcRAM("ram")
		return view{ram: r, last: uint32(len(r) - 1)}, err
	}
	mem, err := m.memory()
	return view{mem: mem, last: 0xFFFF}, err
}

// readFrom is the memory a read asks for and where in it the read
// begins: by the RAM's own addresses, with ram, where a register's address
// is refused, since it is the processor's; or through the banking, as
// readAddress reads it. verb says what the request does with ram, in the
// refusal.
func (m *Machine) readFrom(ram bool, a ReadAddress, verb string) (view, uint32, error) {
	v, err := m.memoryFor(ram)
	if err != nil {
		return v, 0, err
	}
	if !ram {
		addr, err := m.readAddress("address", a)
		return v, addr, err
	}
	if isRegister(string(a)) {
		return v, 0, fmt.Errorf("argument \"address\" is %s, a processor address, but ram %s by the RAM's own addresses: give one of those, or leave ram out", a, verb)
	}
	addr, err := parseAddress("address", string(a), v.last)
	return v, addr, err
}

// readAddress reads an address where memory is read through the banking:
// any form an Address takes, &0000 to &FFFF, or cpu.sp or cpu.pc for the
// address the register holds (W-21).
func (m *Machine) readAddress(arg string, a ReadAddress) (uint32, error) {
	if !isRegister(string(a)) {
		return parseAddress(arg, string(a), 0xFFFF)
	}
	cpu, err := m.processor()
	if err != nil {
		return 0, err
	}
	if strings.TrimSpace(string(a)) == regSP {
		return uint32(cpu.SP), nil
	}
	return uint32(cpu.PC), nil
}

func isRegister(s string) bool {
	s = strings.TrimSpace(s)
	return s == regSP || s == regPC
}
