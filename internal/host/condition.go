package host

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"colophon/internal/find"
	"colophon/internal/watch"
)

// Condition is one condition of run's and call's until, gather,
// gather_last and count, as a request gives it (spec, "Stopping and
// watching"; CB-1, CB-2).
type Condition struct {
	Kind       string      `json:"kind" jsonschema:"what to match: exec (an instruction about to begin), read (a byte the program reads as data), write (a byte written), in, out (a port read or written), psg or crtc (a register of a CPC's sound chip or 6845 written)"`
	Address    Address     `json:"address,omitempty" jsonschema:"exec, read and write: the address, or the first of a range"`
	AddressTo  Address     `json:"address_to,omitempty" jsonschema:"exec, read and write: the last address of a range, included"`
	Port       Address     `json:"port,omitempty" jsonschema:"in and out: the port, as its device's address lines under mask must read"`
	Mask       Address     `json:"mask,omitempty" jsonschema:"in and out: the address lines the device decodes, such as &4300 for a CPC's 6845 or &00FF for a Spectrum's ULA at &FE"`
	Register   Register    `json:"register,omitzero" jsonschema:"psg (0 to 15) and crtc (0 to 31): the register, or the first of a range; every register if not given"`
	RegisterTo Register    `json:"register_to,omitzero" jsonschema:"psg and crtc: the last register of a range, included"`
	From       string      `json:"from,omitempty" jsonschema:"exec and read: where the instruction or the byte must come from: ram or rom; on a CPC also lower, upper, or upper and a number, such as upper 7"`
	Value      ByteValue   `json:"value,omitempty" jsonschema:"read, write, out, psg and crtc: the byte must be this, or from this to value_to"`
	ValueTo    ByteValue   `json:"value_to,omitempty" jsonschema:"the last byte of value's range, included"`
	Changes    bool        `json:"changes,omitempty" jsonschema:"write, psg and crtc: only where the write leaves the byte or register holding other than it held"`
	When       WhenArg     `json:"when,omitzero" jsonschema:"bytes that must stand in memory as the match is made"`
	Capture    CaptureArgs `json:"capture,omitzero" jsonschema:"until and gather: what each match captures of the machine"`
}

// Register is a register number as a request gives it, told apart from
// none given.
type Register struct {
	n     int
	given bool
}

// UnmarshalJSON takes a number.
func (r *Register) UnmarshalJSON(b []byte) error {
	if err := json.Unmarshal(b, &r.n); err != nil {
		return fmt.Errorf("a register is a number: %s", bytes.TrimSpace(b))
	}
	r.given = true
	return nil
}

// MarshalJSON writes the number.
func (r Register) MarshalJSON() ([]byte, error) { return json.Marshal(r.n) }

// IsZero reports whether no register was given.
func (r Register) IsZero() bool { return !r.given }

// RegisterNumbered is register n, given.
func RegisterNumbered(n int) Register { return Register{n: n, given: true} }

// ByteValue is a byte as a request gives it: a number, or a string of
// hexadecimal after &, # or 0x, or of decimal digits, as an Address is.
type ByteValue string

// UnmarshalJSON takes a number or a string, and keeps its text.
func (v *ByteValue) UnmarshalJSON(b []byte) error {
	s, err := addressText(b)
	*v = ByteValue(s)
	return err
}

// WhenArg is a condition's when: an address and the bytes that must stand
// there (WHEN-1).
type WhenArg struct {
	Address Address `json:"address" jsonschema:"where the bytes begin, read as the processor reads it"`
	Bytes   string  `json:"bytes" jsonschema:"the bytes, as find takes them: pairs of hex digits, ?? for a byte that may be anything, 8 at most"`
}

// CaptureArgs are what a match captures (CAP-1).
type CaptureArgs struct {
	CPU    []string  `json:"cpu,omitempty" jsonschema:"the processor's values by the paths inspect reads them at, such as cpu.a, cpu.sp or cpu.iff1; 32 at most"`
	Memory []SpanArg `json:"memory,omitempty" jsonschema:"spans of memory, each read as peek reads it; 4 at most"`
}

// SpanArg is a span of memory a capture reads, as peek's arguments name
// it.
type SpanArg struct {
	Address ReadAddress `json:"address" jsonschema:"where to start reading: an address, or cpu.sp or cpu.pc for where that register points as the capture is taken"`
	Length  int         `json:"length" jsonschema:"how many bytes, 1 to 64"`
	RAM     bool        `json:"ram,omitempty" jsonschema:"read a CPC's RAM by the RAM's own addresses, as peek's ram does"`
}

// conditionEntry is a condition as the journal writes it: addresses,
// ports and bytes after &, a range of one as that one, a test of every
// byte and a changes that is false left out, when's bytes in capitals
// (spec, "The journal"; J-3).
type conditionEntry struct {
	Kind       string        `json:"kind"`
	Address    string        `json:"address,omitempty"`
	AddressTo  string        `json:"address_to,omitempty"`
	Port       string        `json:"port,omitempty"`
	Mask       string        `json:"mask,omitempty"`
	Register   *int          `json:"register,omitempty"`
	RegisterTo *int          `json:"register_to,omitempty"`
	From       string        `json:"from,omitempty"`
	Value      string        `json:"value,omitempty"`
	ValueTo    string        `json:"value_to,omitempty"`
	Changes    bool          `json:"changes,omitempty"`
	When       *whenEntry    `json:"when,omitempty"`
	Capture    *captureEntry `json:"capture,omitempty"`
}

type whenEntry struct {
	Address string `json:"address"`
	Bytes   string `json:"bytes"`
}

type captureEntry struct {
	CPU    []string    `json:"cpu,omitempty"`
	Memory []spanEntry `json:"memory,omitempty"`
}

type spanEntry struct {
	Address string `json:"address"`
	Length  int    `json:"length"`
	RAM     bool   `json:"ram,omitempty"`
}

// conditions reads the conditions of one list, arg naming it in errors,
// into the engine's form and the journal's. A condition that cannot be
// asked is refused, naming its argument, before anything runs.
func (m *Machine) conditions(arg string, given []Condition, capturing bool) ([]watch.Condition, []conditionEntry, error) {
	if len(given) > watch.MaxConditionsPerList {
		return nil, nil, fmt.Errorf("argument %q holds %d conditions; a list holds at most %d", arg, len(given), watch.MaxConditionsPerList)
	}
	var out []watch.Condition
	var entries []conditionEntry
	for i, g := range given {
		c, e, err := m.condition(fmt.Sprintf("%s[%d]", arg, i), g, capturing)
		if err != nil {
			return nil, nil, err
		}
		out = append(out, c)
		entries = append(entries, e)
	}
	return out, entries, nil
}

// condition reads one condition; at names it.
func (m *Machine) condition(at string, g Condition, capturing bool) (watch.Condition, conditionEntry, error) {
	var c watch.Condition
	e := conditionEntry{Kind: g.Kind}
	argOf := func(name string) string { return at + "." + name }
	refuse := func(name, format string, a ...any) (watch.Condition, conditionEntry, error) {
		return c, e, fmt.Errorf("argument %q %s", argOf(name), fmt.Sprintf(format, a...))
	}
	k, ok := watch.KindNamed(g.Kind)
	if !ok {
		return refuse("kind", "is %q; a condition's kind is one of %s", clip(g.Kind), strings.Join(watch.KindNames(), ", "))
	}
	c.Kind = k
	if (k == watch.PSG || k == watch.CRTC) && !m.kind.cpc {
		return refuse("kind", "is %s, and a %s has no %s: psg and crtc are a CPC's", k, m.kind.name, map[watch.Kind]string{watch.PSG: "PSG", watch.CRTC: "6845"}[k])
	}
	// Each kind takes the place it matches by its own arguments.
	memory := k == watch.Exec || k == watch.Read || k == watch.Write
	port := k == watch.In || k == watch.Out
	register := k == watch.PSG || k == watch.CRTC
	notHere := func(name string, ok bool, why string) error {
		if ok {
			return nil
		}
		return fmt.Errorf("argument %q is given, but a %s condition takes no %s: %s", argOf(name), k, name, why)
	}
	for _, check := range []error{
		notHere("address", g.Address == "" || memory, "address and address_to are exec's, read's and write's"),
		notHere("address_to", g.AddressTo == "" || memory, "address and address_to are exec's, read's and write's"),
		notHere("port", g.Port == "" || port, "port and mask are in's and out's"),
		notHere("mask", g.Mask == "" || port, "port and mask are in's and out's"),
		notHere("register", !g.Register.given || register, "register and register_to are psg's and crtc's"),
		notHere("register_to", !g.RegisterTo.given || register, "register and register_to are psg's and crtc's"),
		notHere("from", g.From == "" || k == watch.Exec || k == watch.Read, "an instruction or a byte read may come from the RAM or a ROM; a write always lands in the RAM"),
		notHere("value", g.Value == "" || k != watch.Exec, "an instruction is no access with a byte; when tests the bytes at an address"),
		notHere("changes", !g.Changes || k == watch.Write || k == watch.PSG || k == watch.CRTC, "changes tests a write to memory or to a register"),
	} {
		if check != nil {
			return c, e, check
		}
	}
	if k == watch.In && g.Value != "" {
		// A CPC holds a read over several ticks, and the processor takes
		// the byte the last of them leaves, where a condition is decided
		// on the first (VC-8, A-6).
		return refuse("value", "is given on an in condition, and a port read's byte is never tested: the processor takes it after the condition is decided")
	}
	switch {
	case memory:
		if g.Address == "" {
			return refuse("address", "is missing: a %s condition names an address, or the first of a range with address_to", k)
		}
		lo, err := parseAddress(argOf("address"), string(g.Address), 0xFFFF)
		if err != nil {
			return c, e, err
		}
		hi := lo
		if g.AddressTo != "" {
			if hi, err = parseAddress(argOf("address_to"), string(g.AddressTo), 0xFFFF); err != nil {
				return c, e, err
			}
			if hi < lo {
				return refuse("address_to", "is %s, before address %s", formatAddress(hi), formatAddress(lo))
			}
		}
		c.Lo, c.Hi = uint16(lo), uint16(hi)
		e.Address = formatAddress(lo)
		if hi != lo {
			e.AddressTo = formatAddress(hi)
		}
	case port:
		if g.Port == "" || g.Mask == "" {
			return refuse("port", "and mask are both needed: a CPC's chips each decode a few lines of the port's address, so a port is matched on the lines mask names, such as port &BC00 with mask &4300 for the 6845's select")
		}
		p, err := parseAddress(argOf("port"), string(g.Port), 0xFFFF)
		if err != nil {
			return c, e, err
		}
		mask, err := parseAddress(argOf("mask"), string(g.Mask), 0xFFFF)
		if err != nil {
			return c, e, err
		}
		c.Port, c.Mask = uint16(p), uint16(mask)
		e.Port, e.Mask = formatAddress(p), formatAddress(mask)
	case register:
		last := 15
		if k == watch.CRTC {
			last = 31
		}
		lo, hi := 0, last
		if g.Register.given {
			lo, hi = g.Register.n, g.Register.n
			if lo < 0 || lo > last {
				return refuse("register", "is %d; a %s register is 0 to %d", lo, k, last)
			}
			e.Register = &lo
		}
		if g.RegisterTo.given {
			if !g.Register.given {
				return refuse("register_to", "is given without register, the first of the range")
			}
			hi = g.RegisterTo.n
			if hi < lo || hi > last {
				return refuse("register_to", "is %d; it runs from register %d to %d", hi, lo, last)
			}
			if hi != lo {
				e.RegisterTo = &hi
			}
		}
		c.Lo, c.Hi = uint16(lo), uint16(hi)
	}
	if g.From != "" {
		if err := m.from(&c, g.From); err != nil {
			return refuse("from", "%v", err)
		}
		e.From = strings.ToLower(strings.Join(strings.Fields(g.From), " "))
	}
	if g.ValueTo != "" && g.Value == "" {
		return refuse("value_to", "is given without value, the first byte of the range")
	}
	if g.Value != "" {
		lo, err := parseByte(argOf("value"), string(g.Value))
		if err != nil {
			return c, e, err
		}
		hi := lo
		if g.ValueTo != "" {
			if hi, err = parseByte(argOf("value_to"), string(g.ValueTo)); err != nil {
				return c, e, err
			}
			if hi < lo {
				return refuse("value_to", "is &%02X, below value &%02X", hi, lo)
			}
		}
		// A test of every byte tests nothing, and the journal leaves it
		// out (J-3).
		if lo != 0 || hi != 0xFF {
			c.Value, c.ValueLo, c.ValueHi = true, uint8(lo), uint8(hi)
			e.Value = fmt.Sprintf("&%02X", lo)
			if hi != lo {
				e.ValueTo = fmt.Sprintf("&%02X", hi)
			}
		}
	}
	c.Changes, e.Changes = g.Changes, g.Changes
	if g.When != (WhenArg{}) {
		w, we, err := whenOf(argOf("when"), g.When)
		if err != nil {
			return c, e, err
		}
		c.When, e.When = w, we
	}
	if len(g.Capture.CPU) > 0 || len(g.Capture.Memory) > 0 {
		if !capturing {
			return refuse("capture", "is given in count, which counts matches rather than listing them: captures are until's and gather's")
		}
		cp, ce, err := m.captureOf(argOf("capture"), g.Capture)
		if err != nil {
			return c, e, err
		}
		c.Capture, e.Capture = cp, ce
	}
	return c, e, nil
}

// parseByte reads a byte in any of the forms an address takes.
func parseByte(arg, text string) (uint32, error) {
	v, err := parseAddress(arg, text, 0xFFFF)
	if err != nil {
		return 0, fmt.Errorf("argument %q is %q, which is no byte: write &80, #80, 0x80 or decimal digits", arg, clip(text))
	}
	if v > 0xFF {
		return 0, fmt.Errorf("argument %q is &%X; a byte is &00 to &FF", arg, v)
	}
	return v, nil
}

// from reads where an instruction or a byte read must come from (PR-2):
// on a Spectrum ram or rom, on a CPC also the lower ROM or an upper ROM.
func (m *Machine) from(c *watch.Condition, given string) error {
	f := strings.Fields(strings.ToLower(given))
	if !m.kind.cpc {
		switch strings.Join(f, " ") {
		case "ram":
			c.From = watch.FromRAM
			return nil
		case "rom":
			c.From = watch.FromROM
			return nil
		}
		return fmt.Errorf("is %q; a Spectrum's memory is ram or rom, its ROM below &4000 for good", clip(given))
	}
	switch {
	case len(f) == 1 && f[0] == "ram":
		c.From = watch.FromRAM
	case len(f) == 1 && f[0] == "rom":
		c.From = watch.FromROM
	case len(f) == 1 && f[0] == "lower":
		c.From = watch.FromLower
	case len(f) == 1 && f[0] == "upper":
		c.From = watch.FromUpper
	case len(f) == 2 && f[0] == "upper":
		n, err := strconv.ParseUint(f[1], 10, 8)
		if err != nil {
			return fmt.Errorf("is %q; an upper ROM's number is 0 to 255, as in upper 7", clip(given))
		}
		c.From, c.ROM = watch.FromUpperN, uint8(n)
	default:
		return fmt.Errorf("is %q; it is ram, rom, lower, upper, or upper and a ROM's number, as in upper 7", clip(given))
	}
	return nil
}

// whenOf reads a when (WHEN-1, A-13).
func whenOf(at string, w WhenArg) (*watch.When, *whenEntry, error) {
	if w.Address == "" {
		return nil, nil, fmt.Errorf("argument %q is missing: when names the address its bytes begin at", at+".address")
	}
	a, err := parseAddress(at+".address", string(w.Address), 0xFFFF)
	if err != nil {
		return nil, nil, err
	}
	p, err := find.Bytes(w.Bytes)
	if err != nil {
		return nil, nil, fmt.Errorf("argument %q: %s", at+".bytes", engineSays(err, "find: bytes"))
	}
	if p.Len() > watch.MaxWhen {
		return nil, nil, fmt.Errorf("argument %q holds %d bytes; when names %d at most", at+".bytes", p.Len(), watch.MaxWhen)
	}
	out := &watch.When{Addr: uint16(a), Bytes: make([]byte, p.Len()), Any: make([]bool, p.Len())}
	for i := range out.Bytes {
		out.Bytes[i], out.Any[i] = p.At(i)
	}
	return out, &whenEntry{Address: formatAddress(a), Bytes: p.String()}, nil
}

// captureOf reads what a condition captures (CAP-1).
func (m *Machine) captureOf(at string, g CaptureArgs) (*watch.Capture, *captureEntry, error) {
	if len(g.CPU) > watch.MaxCaptureValues {
		return nil, nil, fmt.Errorf("argument %q names %d values; a capture takes %d at most", at+".cpu", len(g.CPU), watch.MaxCaptureValues)
	}
	if len(g.Memory) > watch.MaxSpans {
		return nil, nil, fmt.Errorf("argument %q names %d spans; a capture takes %d at most", at+".memory", len(g.Memory), watch.MaxSpans)
	}
	c := &watch.Capture{}
	e := &captureEntry{}
	for i, p := range g.CPU {
		p = strings.TrimSpace(p)
		if err := watch.CheckCapturePath(p); err != nil {
			return nil, nil, fmt.Errorf("argument %q: %w", fmt.Sprintf("%s.cpu[%d]", at, i), err)
		}
		c.CPU = append(c.CPU, p)
		e.CPU = append(e.CPU, p)
	}
	for i, s := range g.Memory {
		arg := fmt.Sprintf("%s.memory[%d]", at, i)
		if s.Length < 1 || s.Length > watch.MaxSpan {
			return nil, nil, fmt.Errorf("argument %q is %d; a span is 1 to %d bytes", arg+".length", s.Length, watch.MaxSpan)
		}
		sp := watch.Span{Len: s.Length}
		se := spanEntry{Length: s.Length, RAM: s.RAM}
		text := strings.TrimSpace(string(s.Address))
		switch {
		case s.RAM:
			if !m.kind.cpc {
				return nil, nil, fmt.Errorf("argument %q: a Spectrum's RAM has no addresses of its own but the processor's; leave ram out", arg+".ram")
			}
			ram, err := m.cpcRAM("ram")
			if err != nil {
				return nil, nil, err
			}
			if isRegister(text) {
				return nil, nil, fmt.Errorf("argument %q is %s, a processor address, but ram reads by the RAM's own addresses: give one of those, or leave ram out", arg+".address", text)
			}
			a, err := parseAddress(arg+".address", text, uint32(len(ram)-1))
			if err != nil {
				return nil, nil, err
			}
			sp.Base, sp.Addr = watch.AtRAM, a
			se.Address = formatAddress(a)
		case text == regSP:
			sp.Base, se.Address = watch.AtSP, regSP
		case text == regPC:
			sp.Base, se.Address = watch.AtPC, regPC
		default:
			a, err := parseAddress(arg+".address", text, 0xFFFF)
			if err != nil {
				return nil, nil, err
			}
			sp.Addr = a
			se.Address = formatAddress(a)
		}
		c.Memory = append(c.Memory, sp)
		e.Memory = append(e.Memory, se)
	}
	return c, e, nil
}

// clip quotes at most 80 characters of what a request sent.
func clip(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}
