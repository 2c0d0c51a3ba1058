package host

import (
	"colophon/internal/chip/gatearray"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"colophon/internal/compare"
	"colophon/internal/cpcscreen"
	"colophon/internal/disasm"
	"colophon/internal/find"
	"colophon/internal/machine/cpc"

	"colophon/internal/quote"
)

// The reading tools: disassemble, find, compare and screen. Each reads a
// machine and changes nothing, so none is entered in the journal (J-4);
// each is a thin adapter onto its engine (internal/disasm, internal/find,
// internal/compare, internal/cpcscreen), which knows no machine.

// The most instructions one disassemble answers, and how many when none
// is said. A thousand instructions are some 60K of JSON, as much as an
// answer should hold; a listing goes on from its next. And the most bytes
// one listing's instructions hold: a thousand of the longest real
// instructions, four bytes each, fit, and only chains of prefixes, which
// the listing gives in pieces of disasm.MaxChain, reach it (issue 19,
// item 5), so that no answer runs past its budget.
const (
	MaxDisassemble     = 1000
	defaultDisassemble = 16
	MaxListedBytes     = 4096
)

// DisassembleArgs are disassemble's arguments.
type DisassembleArgs struct {
	Handle  string      `json:"handle" jsonschema:"the machine to read" maxLength:"64"`
	Address ReadAddress `json:"address" jsonschema:"where the first instruction begins"`
	Count   *int        `json:"count,omitempty" jsonschema:"how many instructions to list, 1 to 1000; 16 if not given. A firmware restart and its word count as one" minimum:"1" maximum:"1000"`
	RAM     bool        `json:"ram,omitempty" jsonschema:"list a CPC's RAM by its own addresses, a 64K at a time, as the processor would read that 64K alone with the ROMs disabled"`
	ROM     ROMSelect   `json:"rom,omitempty" jsonschema:"list one of a CPC's ROMs by name, whatever the Gate Array enables: lower, from &0000-&3FFF, or an upper ROM's number, 0 to 255, from &C000-&FFFF (a number with no ROM fitted is answered by ROM 0, BASIC); the rest of memory is read as with that ROM and the lower ROM enabled"`
}

// Instruction is one instruction of a listing.
type Instruction struct {
	Address string `json:"address" jsonschema:"where it begins, after &: a RAM address with ram, five digits in a 6128's second 64K"`
	Bytes   string `json:"bytes" jsonschema:"every byte of it, prefixes and a restart's word included, as pairs of capital hex digits with a space between each"`
	Text    string `json:"text" jsonschema:"the instruction in Zilog's mnemonics, numbers in hex after &, a relative jump's target worked out: LD A,(IX-&05), CALL &BB18, RST &18"`
	Word    string `json:"word,omitempty" jsonschema:"on a CPC, the word after a firmware restart that takes one (LOW JUMP RST &08, SIDE CALL RST &10, FAR CALL RST &18, FIRM JUMP RST &28), as DEFW &93FE; its two bytes are among bytes"`
	Target  Target `json:"target,omitzero" jsonschema:"with word: where the restart sends the processor, worked out from the word as the restart reads it"`
	Name    string `json:"name,omitempty" jsonschema:"on a CPC, SOFT 968's name of the firmware jumpblock entry a JP, CALL, JR or DJNZ goes to, such as KM WAIT KEY"`
	Entry   string `json:"entry,omitempty" jsonschema:"on a CPC, SOFT 968's name of the firmware jumpblock entry that begins at this address"`
}

// Target is where a firmware restart's word sends the processor.
type Target struct {
	Address string `json:"address" jsonschema:"the address, after &"`
	In      string `json:"in" jsonschema:"the memory that answers it as the restart sets the ROMs up: lower (the lower ROM); upper and a number (that upper ROM, as the machine answers the number: ROM 0 where none is fitted); upper +n (a SIDE CALL's: the nth ROM on from the foreground ROM the call is made from); upper (a FAR CALL's with select &FC or &FD: whichever upper ROM is selected then); ram (the RAM, as the RAM configuration pages it in); or banked (a FIRM JUMP's above &BFFF: whatever the upper ROM's enable leaves there)"`
}

// Disassembled is disassemble's answer.
type Disassembled struct {
	Handle       string        `json:"handle" jsonschema:"the machine"`
	Address      string        `json:"address" jsonschema:"where the listing began, after &: where cpu.sp or cpu.pc pointed, if the request named one"`
	ROM          string        `json:"rom,omitempty" jsonschema:"on a CPC read through its banking, the ROM the first byte was read from: lower, or upper and its number"`
	RAMAt        string        `json:"ram,omitempty" jsonschema:"on a CPC read through its banking, the RAM's own address of the first byte, where the banking pages it in at another address"`
	Instructions []Instruction `json:"instructions" jsonschema:"the instructions, each beginning where the one before it ends"`
	Next         string        `json:"next" jsonschema:"where the listing reads on: the address after the last instruction, to give as address for the rest"`
}

// Disassemble lists memory as the instructions the processor would run
// (spec, "Reading memory as instructions"; DIS-1 to DIS-13): through the
// banking and the ROMs as peek reads it, or a 64K of a CPC's RAM by its
// own addresses, as the processor would read that 64K alone. On a CPC the
// listing follows the machine's own firmware: its names, and its restarts'
// words where the restart's first three bytes, in the memory read, are its
// lower ROM's. It is a read: it moves nothing and is not journaled.
func (h *Host) Disassemble(ctx context.Context, a DisassembleArgs) (Disassembled, error) {
	return with(h, ctx, a.Handle, func(m *Machine) (Disassembled, error) {
		n := given(a.Count, defaultDisassemble)
		if n < 1 || n > MaxDisassemble {
			return Disassembled{}, fmt.Errorf("argument \"count\" is %d; a listing is 1 to %d instructions", n, MaxDisassemble)
		}
		d, err := m.disassembler()
		if err != nil {
			return Disassembled{}, err
		}
		rom, err := m.romFor(a.ROM, a.RAM)
		if err != nil {
			return Disassembled{}, err
		}
		v, addr, err := m.readFrom(a.RAM, a.Address, "lists")
		if err != nil {
			return Disassembled{}, err
		}
		var (
			mem  disasm.Memory
			base uint32 // the RAM address of the 64K read, with ram
			out  Disassembled
		)
		switch {
		case rom != nil:
			// The ROM's image in its 16K, and the rest as the processor
			// would read it with that ROM and the lower ROM enabled, so
			// that a restart's bytes at &0008 are the firmware's.
			if err := rom.holds("address", addr); err != nil {
				return Disassembled{}, err
			}
			mem = func(a uint16) byte {
				switch {
				case uint32(a) >= rom.base && uint32(a) <= rom.last():
					return rom.at(uint32(a))
				case a < cpc.ROMSize:
					return rom.lower[a]
				}
				return v.mem.Peek(a)
			}
			out.ROM = rom.name
		case a.RAM:
			// One 64K at a time, wrapping within it, as the processor
			// reads it alone: the base 64K in configuration 0, the
			// second in configuration 2, which pages its four blocks in
			// order (cpctech, "Amstrad CPC Ram Paging").
			base = addr &^ 0xFFFF
			k := (*[0x10000]byte)(v.ram[base:])
			mem = func(a uint16) byte { return k[a] }
		default:
			mem = v.mem.Peek
			out.ROM, out.RAMAt = m.source(v.mem, addr)
		}
		list, err := d.ListWithin(mem, uint16(addr), n, MaxListedBytes)
		if err != nil {
			return Disassembled{}, err
		}
		out.Handle, out.Address = m.handle, formatAddress(addr)
		out.Instructions = make([]Instruction, len(list))
		for i, in := range list {
			out.Instructions[i] = Instruction{
				Address: listedAddress(base + uint32(in.Addr)),
				Bytes:   listedBytes(in.Bytes),
				Text:    in.Text, Word: in.Word, Name: in.Name, Entry: in.Label,
			}
			if in.Target.In.Kind != disasm.NoBank {
				out.Instructions[i].Target = m.target(in.Target)
			}
		}
		out.Next = formatAddress(base + uint32(list[len(list)-1].Next()))
		return out, nil
	})
}

// target writes a restart's target as the answer gives it, an upper ROM
// by the number that answers it on this machine.
func (m *Machine) target(t disasm.Target) Target {
	in := t.In.String()
	if c, ok := m.m.(*cpc.CPC); ok && t.In.Kind == disasm.UpperROM {
		_, n := c.UpperROMAnswering(t.In.ROM)
		in = fmt.Sprintf("upper %d", n)
	}
	return Target{Address: formatAddress(uint32(t.Addr)), In: in}
}

// disassembler follows the machine's firmware: a CPC's version, by the
// machine it was built as (the 464's V1.0, the 664's V1.1, the 6128's V1.1
// with KL BANK SWITCH; jumpblocks_detail.tsv), with its lower ROM's own
// restarts; a Spectrum's none.
func (m *Machine) disassembler() (*disasm.Disassembler, error) {
	fw, ok := disasm.FirmwareOf(m.kind.name)
	if !ok {
		return nil, fmt.Errorf("%s has no disassembly in this build", m.kind.name)
	}
	opts := disasm.Options{Firmware: fw}
	if fw != disasm.NoFirmware {
		c, ok := m.m.(*cpc.CPC)
		if !ok {
			return nil, fmt.Errorf("%s offers no lower ROM in this build", m.kind.name)
		}
		opts.LowerROM = c.LowerROMBytes()
	}
	return disasm.New(opts)
}

// FindArgs are find's arguments. Exactly one of Bytes and Text is given.
type FindArgs struct {
	Handle string    `json:"handle" jsonschema:"the machine to search" maxLength:"64"`
	Bytes  *string   `json:"bytes,omitempty" jsonschema:"the bytes to find, as pairs of hex digits with ?? for any byte, such as CD 18 BB or 3E ?? C9; 1 to 256 bytes" maxLength:"1024"`
	Text   *string   `json:"text,omitempty" jsonschema:"ASCII text to find, each character matching a byte on its low seven bits; 1 to 256 characters" maxLength:"256"`
	From   Address   `json:"from,omitempty" jsonschema:"where to begin searching; a previous answer's next, to search again for the rest; the first address if not given"`
	RAM    bool      `json:"ram,omitempty" jsonschema:"search a CPC's RAM by its own addresses, &00000 to &0FFFF, and on a 6128 on to &1FFFF, whatever the banking pages in and whatever ROM is enabled over it"`
	ROM    ROMSelect `json:"rom,omitempty" jsonschema:"search one of a CPC's ROMs by name, whatever the Gate Array enables: lower, at &0000-&3FFF, or an upper ROM's number, 0 to 255, at &C000-&FFFF (a number with no ROM fitted is answered by ROM 0, BASIC)"`
}

// Match is one place a pattern was found.
type Match struct {
	Address string `json:"address" jsonschema:"where the match begins, after &"`
	ROM     string `json:"rom,omitempty" jsonschema:"on a CPC searched through its banking, the ROM the match's first byte is in: lower, or upper and its number"`
	RAMAt   string `json:"ram,omitempty" jsonschema:"on a CPC searched through its banking, the RAM's own address of the match's first byte, where the banking pages it in at another address"`
}

// Found is find's answer.
type Found struct {
	Handle  string  `json:"handle" jsonschema:"the machine"`
	Pattern string  `json:"pattern" jsonschema:"what was sought, written back: bytes as capital pairs with ??, or text quoted"`
	From    string  `json:"from" jsonschema:"where the search began"`
	Matches []Match `json:"matches" jsonschema:"where the pattern begins, lowest first, 256 at most"`
	Total   int     `json:"total" jsonschema:"how many matches there are from where the search began to the end of the memory searched, listed or not"`
	Next    string  `json:"next,omitempty" jsonschema:"where to search again, as from, for the matches not listed: the address after the last one listed; absent when every match is listed"`
}

// Find searches memory for bytes or text (spec, "What a machine holds";
// FD-1 to FD-5): as peek reads it, &0000 to &FFFF and not on past it to
// &0000, or a CPC's RAM by its own addresses. A match lies wholly within
// the memory searched. It is a read: it moves nothing and is not
// journaled.
func (h *Host) Find(ctx context.Context, a FindArgs) (Found, error) {
	return with(h, ctx, a.Handle, func(m *Machine) (Found, error) {
		p, err := pattern(a.Bytes, a.Text)
		if err != nil {
			return Found{}, err
		}
		rom, err := m.romFor(a.ROM, a.RAM)
		if err != nil {
			return Found{}, err
		}
		v, err := m.memoryFor(a.RAM)
		if err != nil {
			return Found{}, err
		}
		first := uint32(0)
		if rom != nil {
			first = rom.base
		}
		from, err := optionalAddress("from", a.From, first, v.last)
		if err != nil {
			return Found{}, err
		}
		var r find.Result
		switch {
		case rom != nil:
			// The end itself is a place to begin, where nothing is left.
			if from != rom.last()+1 {
				if err := rom.holds("from", from); err != nil {
					return Found{}, err
				}
			}
			r, err = find.InBytes(p, rom.image, rom.base, from)
		case a.RAM:
			r, err = find.InBytes(p, v.ram, 0, from)
		default:
			// The 64K the processor reads, and not on past &FFFF to
			// &0000, as peek from an address given does not (PP-5).
			r, err = find.In(p, func(a uint32) byte { return v.mem.Peek(uint16(a)) }, from, 0x10000)
		}
		if err != nil {
			return Found{}, err
		}
		out := Found{Handle: m.handle, Pattern: p.String(), From: formatAddress(from), Total: r.Total, Matches: make([]Match, len(r.Addrs))}
		for i, at := range r.Addrs {
			out.Matches[i].Address = listedAddress(at)
			switch {
			case rom != nil:
				out.Matches[i].ROM = rom.name
			case !a.RAM:
				// A CPC's match names the memory its first byte is in,
				// as peek names it (PP-3).
				out.Matches[i].ROM, out.Matches[i].RAMAt = m.source(v.mem, at)
			}
		}
		if r.More {
			out.Next = formatAddress(r.Next)
		}
		return out, nil
	})
}

// pattern makes find's pattern from its bytes or its text, whichever is
// given.
func pattern(bytes, text *string) (find.Pattern, error) {
	var p find.Pattern
	var err error
	switch {
	case bytes != nil && text != nil:
		return p, errors.New("arguments \"bytes\" and \"text\" are both given; find looks for one or the other")
	case bytes != nil:
		if p, err = find.Bytes(*bytes); err != nil {
			return p, fmt.Errorf("argument \"bytes\": %s", engineSays(err, "find: bytes"))
		}
	case text != nil:
		if p, err = find.Text(*text); err != nil {
			return p, fmt.Errorf("argument \"text\": %s", engineSays(err, "find: text"))
		}
	default:
		return p, errors.New("give argument \"bytes\" (pairs of hex digits, ?? for any byte) or \"text\": find looks for one or the other")
	}
	return p, nil
}

// engineSays is what an engine's error says, without the engine's name and
// the argument's, which the tool's own error gives.
func engineSays(err error, prefix string) string {
	return strings.TrimLeft(strings.TrimPrefix(err.Error(), prefix), ": ")
}

// CompareArgs are compare's arguments. Exactly one of State and With is
// given.
type CompareArgs struct {
	Handle string  `json:"handle" jsonschema:"the CPC whose RAM to compare" maxLength:"64"`
	State  *string `json:"state,omitempty" jsonschema:"a state kept of this machine with state_keep, by the name it answered: its RAM is set beside the machine's" maxLength:"64"`
	With   *string `json:"with,omitempty" jsonschema:"another CPC, by its handle: its RAM as it stands is set beside this machine's" maxLength:"64"`
	From   Address `json:"from,omitempty" jsonschema:"the RAM address to begin comparing at; a previous answer's next, to compare again for the rest; &0000 if not given"`
}

// Difference is a run of neighbouring bytes that differ.
type Difference struct {
	Address string `json:"address" jsonschema:"the RAM's own address of the run's first byte, after &, five digits past &FFFF"`
	Length  int    `json:"length" jsonschema:"how many bytes the run holds"`
	Bytes   string `json:"bytes" jsonschema:"the run's bytes in this machine's RAM as it stands, as pairs of capital hex digits"`
	Against string `json:"against" jsonschema:"the same addresses' bytes in the state's RAM, or the other machine's"`
}

// Compared is compare's answer.
type Compared struct {
	Handle string       `json:"handle" jsonschema:"the machine"`
	State  string       `json:"state,omitempty" jsonschema:"the state compared against"`
	With   string       `json:"with,omitempty" jsonschema:"the machine compared against"`
	From   string       `json:"from" jsonschema:"where the comparison began"`
	End    string       `json:"end" jsonschema:"where it ended, the address past the last byte compared: the smaller RAM's size, &10000 for 64K and &20000 for a 6128's 128K"`
	Runs   []Difference `json:"runs" jsonschema:"the runs of neighbouring bytes that differ, lowest first: 256 runs and 2048 bytes at most"`
	Total  int          `json:"total" jsonschema:"how many bytes differ from where the comparison began to its end, listed or not"`
	Next   string       `json:"next,omitempty" jsonschema:"where to compare again, as from, for the bytes not listed: the first of them, which may be partway into a run; absent when every difference is listed"`
}

// Compare sets a CPC's RAM beside a state kept from it or beside another
// CPC's RAM as that machine stands, byte by byte at the RAM's own
// addresses, whatever either has paged in, and answers where they differ
// (spec, "What a machine holds"; CMP-1 to CMP-5, W-13). A state or a
// machine of another RAM size is compared as far as the smaller reaches.
// It is a read: it moves neither machine and is not journaled.
func (h *Host) Compare(ctx context.Context, a CompareArgs) (Compared, error) {
	switch {
	case a.State != nil && a.With != nil:
		arrived(ctx) // refused before it takes a place in any line
		return Compared{}, errors.New("arguments \"state\" and \"with\" are both given; compare sets the machine beside one or the other")
	case a.State == nil && a.With == nil:
		arrived(ctx)
		return Compared{}, errors.New("give argument \"state\" (a state kept of the machine) or \"with\" (another CPC's handle): compare sets the machine's RAM beside one or the other")
	case a.State != nil:
		return with(h, ctx, a.Handle, func(m *Machine) (Compared, error) {
			ram, err := m.cpcRAM("compare")
			if err != nil {
				return Compared{}, err
			}
			kept, err := m.StateRAM(*a.State)
			if err != nil {
				return Compared{}, fmt.Errorf("argument \"state\": %w", err)
			}
			c, err := differences(ram, kept, a.From)
			c.Handle, c.State = m.handle, *a.State
			return c, err
		})
	}
	m, o, done, err := h.acquireTwo(ctx, a.Handle, *a.With)
	if err != nil {
		return Compared{}, err
	}
	defer done()
	ram, err := m.cpcRAM("compare")
	if err != nil {
		return Compared{}, err
	}
	other, err := o.cpcRAM("compare")
	if err != nil {
		return Compared{}, fmt.Errorf("argument \"with\": %w", err)
	}
	c, err := differences(ram, other, a.From)
	c.Handle, c.With = m.handle, o.handle
	return c, err
}

// differences compares ram with other from the address from gives.
func differences(ram, other []byte, from Address) (Compared, error) {
	// The end itself is a place to begin, where nothing is left.
	end := uint32(min(len(ram), len(other)))
	at, err := optionalAddress("from", from, 0, 1<<32-1)
	if err == nil && at > end {
		err = fmt.Errorf("argument \"from\" is %s, past %s, the end of the RAM compared", formatAddress(at), formatAddress(end))
	}
	if err != nil {
		return Compared{}, err
	}
	r, err := compare.Diff(ram, other, at)
	if err != nil {
		return Compared{}, err
	}
	c := Compared{From: formatAddress(at), End: formatAddress(r.Size), Total: r.Total, Runs: make([]Difference, len(r.Runs))}
	for i, run := range r.Runs {
		c.Runs[i] = Difference{Address: listedAddress(run.Addr), Length: len(run.A), Bytes: listedBytes(run.A), Against: listedBytes(run.B)}
	}
	if r.More {
		c.Next = formatAddress(r.Next)
	}
	return c, nil
}

// acquireTwo waits for the turn of a request to two machines at once, and
// returns them with the function that ends it. Both tickets are taken
// together under the host's lock, so that any two requests stand in the
// same order in every line they share, and neither waits for the other.
func (h *Host) acquireTwo(ctx context.Context, first, second string) (*Machine, *Machine, func(), error) {
	h.mu.Lock()
	a, err := h.find(first)
	if err != nil {
		h.mu.Unlock()
		arrived(ctx)
		return nil, nil, nil, err
	}
	b, err := h.find(second)
	if err != nil {
		h.mu.Unlock()
		arrived(ctx)
		return nil, nil, nil, fmt.Errorf("argument \"with\": %w", err)
	}
	if a == b {
		h.mu.Unlock()
		arrived(ctx)
		return nil, nil, nil, fmt.Errorf("argument \"with\" is %s, the machine itself, which is alike everywhere: keep a state with state_keep and compare against it", second)
	}
	for _, m := range []*Machine{a, b} {
		if m.owner != nil {
			h.mu.Unlock()
			arrived(ctx)
			return nil, nil, nil, fmt.Errorf("machine %s runs in a window, in real time, and is compared only with its own states: keep one with state_keep and compare against it", m.handle)
		}
	}
	ta, tb := a.q.ticket(), b.q.ticket()
	h.mu.Unlock()
	arrived(ctx)

	a.q.wait(ta)
	b.q.wait(tb)
	done := func() { a.q.done(); b.q.done() }
	for _, m := range []*Machine{a, b} {
		if m.closed {
			done()
			return nil, nil, nil, fmt.Errorf("machine %s was put away by a machine_close asked before this", m.handle)
		}
	}
	return a, b, done, nil
}

// ScreenLayout is how a screen's bytes lie in memory, by the names the
// player's screen panel gives: video, linear or columns.
type ScreenLayout string

// ScreenArgs are screen's arguments. Whatever is not given is read from
// the machine as it stands (SCR-2).
type ScreenArgs struct {
	Handle string       `json:"handle" jsonschema:"the CPC whose memory to read" maxLength:"64"`
	Layout ScreenLayout `json:"layout,omitempty" jsonschema:"how the bytes lie: video, linear or columns; video if not given"`
	Base   Address      `json:"base,omitempty" jsonschema:"the RAM address of the screen's first byte"`
	Start  Address      `json:"start,omitempty" jsonschema:"video only: the 6845's start address, &0000 to &3FFF, as R12 and R13 hold it"`
	Width  *int         `json:"width,omitempty" jsonschema:"bytes across a line, 1 to 512; even for video" minimum:"1" maximum:"512"`
	Height *int         `json:"height,omitempty" jsonschema:"lines down, 1 to 4096" minimum:"1" maximum:"4096"`
	Lines  *int         `json:"lines,omitempty" jsonschema:"video only: lines in a character row, 1 to 32, R9+1" minimum:"1" maximum:"32"`
	Mode   *int         `json:"mode,omitempty" jsonschema:"the Gate Array's mode, 0 to 3" minimum:"0" maximum:"3"`
	Inks   []int        `json:"inks,omitempty" jsonschema:"hardware colour codes, 0 to 31, for pens 0 on, at most 16" maxItems:"16"`
}

// Screened is screen's answer, beside the picture itself.
type Screened struct {
	Handle      string `json:"handle" jsonschema:"the machine"`
	Layout      string `json:"layout" jsonschema:"the layout read: video, linear or columns"`
	Base        string `json:"base" jsonschema:"the RAM address of the screen's first byte, after &"`
	Start       string `json:"start,omitempty" jsonschema:"video: the 6845's start address the screen was read from, after &"`
	Width       int    `json:"width" jsonschema:"bytes across a line"`
	Height      int    `json:"height" jsonschema:"lines down"`
	Lines       int    `json:"lines,omitempty" jsonschema:"video: lines in a character row"`
	Mode        int    `json:"mode" jsonschema:"the mode the bytes were read in"`
	Inks        []int  `json:"inks" jsonschema:"the hardware colour codes of pens 0 to 15, which the PNG's palette gives as colours"`
	PixelWidth  int    `json:"png_width" jsonschema:"the picture's width in pixels: 8 to a byte in every mode"`
	PixelHeight int    `json:"png_height" jsonschema:"the picture's height in pixels: 2 to a line"`
}

// Screen reads a CPC's RAM as a picture, as the player's screen panel does
// (spec, "The picture"; SCR-1 to SCR-5): whatever is not given is the
// screen the 6845 and the Gate Array hold, so that a screen asked for
// nothing draws what the monitor shows, at its scale. Each pixel's index
// in the PNG is its pen. It is a read: it moves nothing and is not
// journaled.
func (h *Host) Screen(ctx context.Context, a ScreenArgs) (Screened, []byte, error) {
	type shown struct {
		Screened
		png []byte
	}
	s, err := with(h, ctx, a.Handle, func(m *Machine) (shown, error) {
		if !m.kind.cpc {
			return shown{}, fmt.Errorf("screen reads a CPC's memory as its video hardware does, and %s is a %s: screen is for a cpc464, cpc664 or cpc6128 alone; monitor shows a Spectrum's picture", m.handle, m.kind.name)
		}
		c, ok := m.m.(*cpc.CPC)
		if !ok {
			return shown{}, fmt.Errorf("%s offers no view of its chips in this build", m.kind.name)
		}
		sc, err := screenAsked(c, a)
		if err != nil {
			return shown{}, err
		}
		p, err := sc.Read(c.RAM)
		if err != nil {
			return shown{}, fmt.Errorf("screen: %s", engineSays(err, "cpcscreen"))
		}
		png, err := p.PNG()
		if err != nil {
			return shown{}, fmt.Errorf("%s: the picture: %w", m.handle, err)
		}
		out := Screened{
			Handle: m.handle, Layout: sc.Layout.String(), Base: formatAddress(sc.Addr(0, 0)),
			Width: sc.Width, Height: sc.Height, Mode: int(sc.Mode), Inks: make([]int, len(sc.Inks)),
			PixelWidth: p.Width, PixelHeight: p.Height,
		}
		if sc.Layout == cpcscreen.Video {
			out.Start, out.Lines = formatAddress(sc.Start), sc.Lines
		}
		for i, ink := range sc.Inks {
			out.Inks[i] = int(ink)
		}
		return shown{out, png}, nil
	})
	return s.Screened, s.png, err
}

// screenAsked is the screen a request asks for: what it gives, and the
// rest as the machine's chips hold it.
func screenAsked(c *cpc.CPC, a ScreenArgs) (cpcscreen.Screen, error) {
	// The Gate Array takes up a new mode as the 6845's line sync ends,
	// which the video, running behind the processor, comes to in its own
	// time; bring it up to the machine's tick first.
	c.BeforeInspect()
	sc := cpcscreen.Displayed(&c.CRTC, &c.GA)
	if a.Layout != "" {
		l, err := cpcscreen.ParseLayout(string(a.Layout))
		if err != nil {
			return sc, fmt.Errorf("argument \"layout\" is %s; it must be video, linear or columns", quote.String(string(a.Layout)))
		}
		sc.Layout = l
	}
	video := sc.Layout == cpcscreen.Video
	switch {
	case a.Base != "" && a.Start != "":
		return sc, errors.New("arguments \"base\" and \"start\" are both given; give the screen's RAM address or, for video, the 6845's start address, not both")
	case a.Start != "" && !video:
		return sc, fmt.Errorf("argument \"start\" is the 6845's start address, for the video layout alone; the %s layout begins at a RAM address: give base", sc.Layout)
	case a.Lines != nil && !video:
		return sc, fmt.Errorf("argument \"lines\" is the lines of the 6845's character row, for the video layout alone; the %s layout takes width and height", sc.Layout)
	}
	if video {
		switch {
		case a.Start != "":
			ma, err := parseAddress("start", string(a.Start), 0x3FFF)
			if err != nil {
				return sc, fmt.Errorf("%w (the 6845's start address is 14 bits)", err)
			}
			sc.Start = ma
		case a.Base != "":
			b, err := parseAddress("base", string(a.Base), 0xFFFF)
			if err != nil {
				return sc, fmt.Errorf("%w: the video reads the base 64K alone", err)
			}
			// The first line of a row is read with RA 0, so from the
			// first 2K of its 16K (A13-A11 are RA2-RA0), and a
			// character's first byte is even (A0 is CCLK); MA13-MA12
			// are A15-A14 and MA9-MA0 are A10-A1 (cpctech, "Screen
			// memory addresses").
			if b&0x3801 != 0 {
				return sc, fmt.Errorf("argument \"base\" is %s; the video layout's base is the first byte of a character's first line: even, in the first 2K of its 16K (&0000-&07FE, &4000-&47FE, &8000-&87FE or &C000-&C7FE); give start for a 6845 start address beyond", formatAddress(b))
			}
			sc.Start = (b>>2)&0x3000 | (b>>1)&0x3FF
		}
	} else {
		// A flat buffer's first byte is where the 6845's screen's is,
		// unless given: the RAM address its start address reads first.
		first := uint32(gatearray.VideoAddress(uint16(sc.Start), 0))
		b, err := optionalAddress("base", a.Base, first, uint32(len(c.RAM)-1))
		if err != nil {
			return sc, err
		}
		sc.Start = b
	}
	sc.Width = given(a.Width, sc.Width)
	sc.Height = given(a.Height, sc.Height)
	sc.Lines = given(a.Lines, sc.Lines)
	if a.Mode != nil {
		if *a.Mode < 0 || *a.Mode > 3 {
			return sc, fmt.Errorf("argument \"mode\" is %d; the Gate Array's modes are 0 to 3", *a.Mode)
		}
		sc.Mode = byte(*a.Mode)
	}
	if len(a.Inks) > len(sc.Inks) {
		return sc, fmt.Errorf("argument \"inks\" has %d inks; there are 16 pens, 0 to 15", len(a.Inks))
	}
	for pen, ink := range a.Inks {
		if ink < 0 || ink > 31 {
			return sc, fmt.Errorf("argument \"inks\": pen %d's ink is %d; a hardware colour code is 0 to 31", pen, ink)
		}
		sc.Inks[pen] = byte(ink)
	}
	if a.Width == nil && sc.Width == 0 || a.Height == nil && sc.Height == 0 {
		return sc, fmt.Errorf("the 6845 displays nothing (R1 is %d, R6 is %d): give width and height", c.CRTC.Registers[1], c.CRTC.Registers[6]&0x7F)
	}
	return sc, screenFits(sc, a, len(c.RAM))
}

// screenFits refuses a screen the engine would, in the words of the
// other refusals: by the arguments that made it, or, where the machine's
// chips did, by what they hold.
func screenFits(sc cpcscreen.Screen, a ScreenArgs, ramSize int) error {
	given := func(names ...string) string {
		var args []string
		for _, n := range names {
			switch {
			case n == "width" && a.Width != nil, n == "height" && a.Height != nil, n == "lines" && a.Lines != nil,
				n == "base" && a.Base != "", n == "start" && a.Start != "":
				args = append(args, strconv.Quote(n))
			}
		}
		switch len(args) {
		case 0:
			return "the screen the 6845 displays"
		case 1:
			return "argument " + args[0]
		}
		return "arguments " + strings.Join(args[:len(args)-1], ", ") + " and " + args[len(args)-1]
	}
	if n := sc.Width * sc.Height; n > cpcscreen.MaxBytes {
		return fmt.Errorf("%s: %d bytes by %d lines is %d bytes; a screen reads at most %d", given("width", "height"), sc.Width, sc.Height, n, cpcscreen.MaxBytes)
	}
	if sc.Layout == cpcscreen.Video {
		if sc.Width%2 != 0 {
			return fmt.Errorf("%s: %d bytes across; the video layout reads characters of two bytes, so it must be even", given("width"), sc.Width)
		}
		return nil
	}
	if end := uint64(sc.Start) + uint64(sc.Width)*uint64(sc.Height); end > uint64(ramSize) {
		return fmt.Errorf("%s: %d bytes by %d lines from %s run to %s, past the RAM's end at %s",
			given("base", "width", "height"), sc.Width, sc.Height, formatAddress(sc.Start), formatLarge(end), formatAddress(uint32(ramSize)))
	}
	return nil
}

// A listing writes thousands of addresses and bytes; these write them as
// formatAddress and formatBytes do, without fmt's cost for each.
const hexDigits = "0123456789ABCDEF"

// listedAddress is formatAddress: four hex digits after &, five past
// &FFFF.
func listedAddress(a uint32) string {
	n := 4
	if a > 0xFFFF {
		n = 5
	}
	var b [6]byte
	b[0] = '&'
	for i := n; i >= 1; i-- {
		b[i] = hexDigits[a&0xF]
		a >>= 4
	}
	return string(b[:n+1])
}

// listedBytes is formatBytes: pairs of capital hex digits, a space
// between each.
func listedBytes(v []byte) string {
	if len(v) == 0 {
		return ""
	}
	b := make([]byte, 0, 3*len(v)-1)
	for i, x := range v {
		if i > 0 {
			b = append(b, ' ')
		}
		b = append(b, hexDigits[x>>4], hexDigits[x&0xF])
	}
	return string(b)
}
