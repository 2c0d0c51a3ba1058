package watch

import (
	"encoding/json"
	"fmt"
	"strconv"
	"sync"

	"colophon/internal/chip/z80"
	"colophon/internal/inspect"
	"colophon/internal/machine"
)

// What the engine answers, as the answers list it and as a file's lines
// hold it (PATH-2): addresses and ports after &, a byte after &, a
// register a number (spec, "What it answers").

// Match is one match of until or gather.
type Match struct {
	Tick     uint64   `json:"tick" jsonschema:"the machine's tick the match came at: an instruction about to begin, an access's machine cycle, or the tick a register took its write"`
	Kind     string   `json:"kind" jsonschema:"what matched: exec, read, write, in, out, psg or crtc"`
	Address  string   `json:"address,omitempty" jsonschema:"exec, read and write: the address, after &"`
	Port     string   `json:"port,omitempty" jsonschema:"in and out: the whole port address, after &"`
	Register int      `json:"register,omitempty" jsonschema:"psg and crtc: the register, a number"`
	Byte     string   `json:"byte" jsonschema:"the byte: an instruction's opcode, the byte read or written, the byte the processor took from a port, or the byte a register was given"`
	PC       string   `json:"pc,omitempty" jsonschema:"where the instruction that made the access begins; absent for an interrupt's response"`
	Response bool     `json:"response,omitempty" jsonschema:"true for an access an interrupt's response made, which belongs to no instruction"`
	ROM      string   `json:"rom,omitempty" jsonschema:"on a CPC, the ROM that held the instruction or the byte read: lower, or upper and its number"`
	RAM      string   `json:"ram,omitempty" jsonschema:"on a CPC, the RAM's own address of the byte, where a 6128's RAM configuration pages it in at another address"`
	PCROM    string   `json:"pc_rom,omitempty" jsonschema:"on a CPC, the ROM that held the instruction that made the access"`
	PCRAM    string   `json:"pc_ram,omitempty" jsonschema:"on a CPC, the RAM's own address of that instruction, where it is paged in elsewhere"`
	Beam     Beam     `json:"beam" jsonschema:"where the monitor's beam stood, in the picture's pixels, as monitor answers it"`
	Captured Captured `json:"captured,omitzero" jsonschema:"what the match captured, where a condition it met captures"`
}

// Beam is where the monitor's beam stood.
type Beam struct {
	X int `json:"x" jsonschema:"the pixel across from the picture's left edge"`
	Y int `json:"y" jsonschema:"the line down from the picture's top edge"`
}

// Captured is what a match captured.
type Captured struct {
	CPU    json.RawMessage `json:"cpu,omitempty" jsonschema:"the processor's values, by their inspect paths, in the order the conditions name them"`
	Memory []Memory        `json:"memory,omitempty" jsonschema:"the spans of memory, in the order the conditions name them, each as peek answers it"`
}

// Memory is a span of memory a match captured.
type Memory struct {
	Address string `json:"address" jsonschema:"where the span was read from, after &: where SP or PC pointed, for a span that names one"`
	Bytes   string `json:"bytes" jsonschema:"the bytes, pairs of hex digits with a space between each"`
	ROM     string `json:"rom,omitempty" jsonschema:"on a CPC, the ROM the first byte was read from"`
	RAM     string `json:"ram,omitempty" jsonschema:"on a CPC, the RAM's own address of the first byte, where it is paged in elsewhere"`
}

// Place is one place a count found (CNT-1, CNT-6).
type Place struct {
	Address  string `json:"address,omitempty" jsonschema:"an instruction's address, or the address of a byte read or written; by pc, the address of the place's first match"`
	Port     string `json:"port,omitempty" jsonschema:"a port, by the whole of its address; by pc, the first match's"`
	Kind     string `json:"kind,omitempty" jsonschema:"for a port, in or out: a port read and the same port written are two places"`
	Register int    `json:"register,omitempty" jsonschema:"a PSG or 6845 register; by pc, the first match's"`
	ROM      string `json:"rom,omitempty" jsonschema:"on a CPC, the ROM that holds the place: lower, or upper and its number"`
	RAM      string `json:"ram,omitempty" jsonschema:"on a CPC, the RAM's own address of the place, where it was reached at another address"`
	Count    uint64 `json:"count" jsonschema:"how many times the place matched"`
	Tick     uint64 `json:"tick" jsonschema:"the tick of its first match"`
	PC       string `json:"pc,omitempty" jsonschema:"where the instruction of its first match begins; by pc, the place itself"`
	Response bool   `json:"response,omitempty" jsonschema:"true where its first match was made by an interrupt's response"`
	PCROM    string `json:"pc_rom,omitempty" jsonschema:"on a CPC, the ROM that held that instruction"`
	PCRAM    string `json:"pc_ram,omitempty" jsonschema:"on a CPC, the RAM's own address of that instruction, where it is paged in elsewhere"`
	Bytes    string `json:"bytes,omitempty" jsonschema:"an instruction's bytes as the processor fetched them the first time it began there, its first four at most"`
}

// Range is places of one kind that follow one another (RNG-7).
type Range struct {
	Address      string `json:"address,omitempty" jsonschema:"the range's first place, an address"`
	Port         string `json:"port,omitempty" jsonschema:"the range's first place, a port"`
	Kind         string `json:"kind,omitempty" jsonschema:"for ports, in or out"`
	Register     int    `json:"register,omitempty" jsonschema:"the range's first place, a register"`
	Last         string `json:"last,omitempty" jsonschema:"the range's last place, an address or a port"`
	LastRegister int    `json:"last_register,omitempty" jsonschema:"the range's last place, a register"`
	ROM          string `json:"rom,omitempty" jsonschema:"on a CPC, the ROM that holds the range"`
	RAM          string `json:"ram,omitempty" jsonschema:"on a CPC, the RAM's own address of its first place, where it was reached at another address"`
	Places       int    `json:"places" jsonschema:"how many places it holds"`
	Count        uint64 `json:"count" jsonschema:"how many times they matched together"`
}

// Counted is a count by address or by pc (CNT-3, A-12).
type Counted struct {
	By       string  `json:"by" jsonschema:"address or pc"`
	Places   int     `json:"places" jsonschema:"how many places the count holds"`
	Executes []Place `json:"executes,omitzero" jsonschema:"instructions begun, by address"`
	Reads    []Place `json:"reads,omitzero" jsonschema:"bytes read, by address, or by pc"`
	Writes   []Place `json:"writes,omitzero" jsonschema:"bytes written, by address, or by pc"`
	Ports    []Place `json:"ports,omitzero" jsonschema:"ports read or written, by the whole of the port's address, or by pc"`
	PSG      []Place `json:"psg,omitzero" jsonschema:"PSG registers written, by register, or by pc"`
	CRTC     []Place `json:"crtc,omitzero" jsonschema:"6845 registers written, by register, or by pc"`
}

// Ranged is a count by range (RNG-8).
type Ranged struct {
	Ranges   int     `json:"ranges" jsonschema:"how many ranges there were; the answer lists the first 256 of them"`
	Places   int     `json:"places" jsonschema:"how many places they hold"`
	Executes []Range `json:"executes,omitzero" jsonschema:"stretches of instructions"`
	Reads    []Range `json:"reads,omitzero" jsonschema:"stretches of bytes read"`
	Writes   []Range `json:"writes,omitzero" jsonschema:"stretches of bytes written"`
	Ports    []Range `json:"ports,omitzero" jsonschema:"runs of ports"`
	PSG      []Range `json:"psg,omitzero" jsonschema:"runs of PSG registers"`
	CRTC     []Range `json:"crtc,omitzero" jsonschema:"runs of 6845 registers"`
}

// Lines says how many lines a file holds of each list, in the order it
// holds them (PATH-3).
type Lines struct {
	Gathered int `json:"gathered" jsonschema:"matches gathered, the file's first lines"`
	Executes int `json:"executes" jsonschema:"instructions counted, or their ranges"`
	Reads    int `json:"reads" jsonschema:"reads counted, or their ranges"`
	Writes   int `json:"writes" jsonschema:"writes counted, or their ranges"`
	Ports    int `json:"ports" jsonschema:"ports counted, or their ranges"`
	PSG      int `json:"psg" jsonschema:"PSG registers counted, or their ranges"`
	CRTC     int `json:"crtc" jsonschema:"6845 registers counted, or their ranges"`
}

// The strings the answers use most, made once: every address and byte.
var (
	tablesOnce sync.Once
	addrText   []string
	byteText   []string
	upperText  []string
)

func tables() {
	tablesOnce.Do(func() {
		addrText = make([]string, 0x10000)
		for i := range addrText {
			addrText[i] = fmt.Sprintf("&%04X", i)
		}
		byteText = make([]string, 256)
		upperText = make([]string, 256)
		for i := range byteText {
			byteText[i] = fmt.Sprintf("&%02X", i)
			upperText[i] = fmt.Sprintf("upper %d", i)
		}
	})
}

// Address writes an address as the answers do: &BB06, and five digits
// past &FFFF (W-16, W-17).
func Address(a uint32) string {
	if a <= 0xFFFF {
		tables()
		return addrText[a]
	}
	return fmt.Sprintf("&%05X", a)
}

// HexBytes writes bytes as pairs of capital hex digits, a space between
// each (W-19).
func HexBytes(b []byte) string {
	const digits = "0123456789ABCDEF"
	out := make([]byte, 0, 3*len(b))
	for i, v := range b {
		if i > 0 {
			out = append(out, ' ')
		}
		out = append(out, digits[v>>4], digits[v&15])
	}
	return string(out)
}

// sourceNames names the memory src is, for a byte the processor reached
// at addr, where the address alone does not say (PR-6): a ROM, or the
// RAM's own address where it is not addr.
func sourceNames(cpc bool, src machine.Source, addr uint16) (rom, ram string) {
	switch {
	case !cpc:
	case src.ROM && src.Upper:
		tables()
		rom = upperText[src.Number]
	case src.ROM:
		rom = "lower"
	case src.RAM != uint32(addr):
		ram = Address(src.RAM)
	}
	return rom, ram
}

// match fills m with record r and its capture s, reusing m's room.
func (e *Engine) match(m *Match, r *record, s *snap) {
	tables()
	mem := m.Captured.Memory[:0]
	*m = Match{Tick: r.tick, Kind: kindNames[r.kind], Byte: byteText[r.value],
		Beam: Beam{X: int(r.beamX), Y: int(r.beamY)}, Response: r.responding}
	switch r.kind {
	case Exec, Read, Write:
		m.Address = addrText[r.addr]
		m.ROM, m.RAM = sourceNames(e.opts.CPC, r.src, r.addr)
	case In, Out:
		m.Port = addrText[r.addr]
	default:
		m.Register = int(r.addr)
	}
	if r.kind != Exec && !r.responding {
		m.PC = addrText[r.pc]
		if r.hasPC {
			m.PCROM, m.PCRAM = sourceNames(e.opts.CPC, r.pcSrc, r.pc)
		}
	}
	if s != nil && s.taken {
		m.Captured.Memory = mem
		e.captured(&m.Captured, s)
	}
}

// cpuRoot is a captured processor as inspect reads it, under cpu.
type cpuRoot struct {
	CPU z80.CPU `inspect:"cpu"`
}

// captured fills c with what s captured: the values its conditions name,
// each once, in the order they name them, and their spans.
func (e *Engine) captured(c *Captured, s *snap) {
	var fs []inspect.Field
	seen := map[string]bool{}
	for _, k := range e.conditionsOf(s.conds) {
		for _, path := range k.Capture.CPU {
			if seen[path] {
				continue
			}
			seen[path] = true
			v, err := inspect.Get(cpuRoot{CPU: s.cpu}, path)
			if err != nil {
				// The host checked every path against the processor.
				panic(fmt.Sprintf("watch: capturing %s: %v", path, err))
			}
			fs = append(fs, inspect.Field{Path: path, Value: v})
		}
	}
	if len(fs) > 0 {
		b, err := inspect.MarshalFields(fs)
		if err != nil {
			panic(fmt.Sprintf("watch: writing a capture: %v", err))
		}
		c.CPU = b
	}
	for _, sp := range s.spans {
		m := Memory{Address: Address(sp.addr), Bytes: HexBytes(sp.bytes)}
		if !sp.ram && len(sp.bytes) > 0 {
			m.ROM, m.RAM = sourceNames(e.opts.CPC, sp.src, uint16(sp.addr))
		}
		c.Memory = append(c.Memory, m)
	}
}

// CheckCapturePath reports whether path names a value of the processor
// as inspect reads it under cpu (CAP-1, A-8).
func CheckCapturePath(path string) error {
	if path != "cpu" && (len(path) < 4 || path[:4] != "cpu." && path[:4] != "cpu[") {
		return fmt.Errorf("%q is no path under cpu: a capture names the processor's values as inspect does, such as cpu.a or cpu.sp", path)
	}
	if _, err := inspect.Get(cpuRoot{}, path); err != nil {
		return err
	}
	return nil
}

// place fills p with place q of kind k.
func (e *Engine) place(p *Place, q *place, k Kind) {
	tables()
	*p = Place{Count: q.count, Tick: q.tick}
	byPC := e.opts.By == ByPC && k != Exec
	switch k {
	case Exec, Read, Write:
		p.Address = addrText[q.first]
		p.ROM, p.RAM = sourceNames(e.opts.CPC, q.srcOfFirst(byPC), q.first)
	case In, Out:
		p.Port = addrText[q.first]
		p.Kind = kindNames[k]
	default:
		p.Register = int(q.first)
	}
	if k == Exec {
		p.Bytes = HexBytes(q.bytes[:q.nbytes])
		return
	}
	if !q.hasPC {
		p.Response = true
		return
	}
	p.PC = addrText[q.pc]
	p.PCROM, p.PCRAM = sourceNames(e.opts.CPC, q.pcSrc, q.pc)
}

// srcOfFirst is the memory of the place's first match's address.
func (q *place) srcOfFirst(byPC bool) machine.Source {
	if byPC {
		return q.firstSrc
	}
	return q.src
}

// rangeOf fills r with span s of kind k.
func (e *Engine) rangeOf(r *Range, s *span, k Kind) {
	tables()
	*r = Range{Places: s.places, Count: s.count}
	switch k {
	case Exec, Read, Write:
		r.Address = addrText[s.first.addr]
		r.Last = addrText[s.last.addr]
		r.ROM, r.RAM = sourceNames(e.opts.CPC, s.first.src, s.first.addr)
	case In, Out:
		r.Port = addrText[s.first.addr]
		r.Kind = kindNames[k]
		r.Last = addrText[s.last.addr]
	default:
		r.Register = int(s.first.addr)
		r.LastRegister = int(s.last.addr)
	}
}

// appendJSON writes a match as one JSON object, its members in the order
// of its fields, leaving out what it does not hold: a register is written
// wherever the match is of one, 0 included.
func (m *Match) appendJSON(b []byte) []byte {
	b = append(b, `{"tick":`...)
	b = strconv.AppendUint(b, m.Tick, 10)
	b = appendStr(b, "kind", m.Kind)
	b = appendOpt(b, "address", m.Address)
	b = appendOpt(b, "port", m.Port)
	if m.Kind == "psg" || m.Kind == "crtc" {
		b = appendInt(b, "register", m.Register)
	}
	b = appendStr(b, "byte", m.Byte)
	b = appendOpt(b, "pc", m.PC)
	if m.Response {
		b = append(b, `,"response":true`...)
	}
	b = appendOpt(b, "rom", m.ROM)
	b = appendOpt(b, "ram", m.RAM)
	b = appendOpt(b, "pc_rom", m.PCROM)
	b = appendOpt(b, "pc_ram", m.PCRAM)
	b = append(b, `,"beam":{"x":`...)
	b = strconv.AppendInt(b, int64(m.Beam.X), 10)
	b = append(b, `,"y":`...)
	b = strconv.AppendInt(b, int64(m.Beam.Y), 10)
	b = append(b, '}')
	if len(m.Captured.CPU) > 0 || len(m.Captured.Memory) > 0 {
		b = append(b, `,"captured":{`...)
		sep := ""
		if len(m.Captured.CPU) > 0 {
			b = append(b, `"cpu":`...)
			b = append(b, m.Captured.CPU...)
			sep = ","
		}
		if len(m.Captured.Memory) > 0 {
			b = append(b, sep...)
			b = append(b, `"memory":[`...)
			for i, s := range m.Captured.Memory {
				if i > 0 {
					b = append(b, ',')
				}
				b = append(b, `{"address":`...)
				b = strconv.AppendQuote(b, s.Address)
				b = appendStr(b, "bytes", s.Bytes)
				b = appendOpt(b, "rom", s.ROM)
				b = appendOpt(b, "ram", s.RAM)
				b = append(b, '}')
			}
			b = append(b, ']')
		}
		b = append(b, '}')
	}
	return append(b, '}')
}

// MarshalJSON writes the match as appendJSON does.
func (m Match) MarshalJSON() ([]byte, error) { return m.appendJSON(nil), nil }

// appendJSON writes a place as one JSON object.
func (p *Place) appendJSON(b []byte, register bool) []byte {
	b = append(b, '{')
	first := true
	member := func(name string) {
		if !first {
			b = append(b, ',')
		}
		first = false
		b = strconv.AppendQuote(b, name)
		b = append(b, ':')
	}
	str := func(name, v string) {
		if v != "" {
			member(name)
			b = strconv.AppendQuote(b, v)
		}
	}
	str("address", p.Address)
	str("port", p.Port)
	str("kind", p.Kind)
	if register {
		member("register")
		b = strconv.AppendInt(b, int64(p.Register), 10)
	}
	str("rom", p.ROM)
	str("ram", p.RAM)
	member("count")
	b = strconv.AppendUint(b, p.Count, 10)
	member("tick")
	b = strconv.AppendUint(b, p.Tick, 10)
	str("pc", p.PC)
	if p.Response {
		member("response")
		b = append(b, "true"...)
	}
	str("pc_rom", p.PCROM)
	str("pc_ram", p.PCRAM)
	str("bytes", p.Bytes)
	return append(b, '}')
}

// appendJSON writes a range as one JSON object.
func (r *Range) appendJSON(b []byte, register bool) []byte {
	b = append(b, '{')
	if register {
		b = append(b, `"register":`...)
		b = strconv.AppendInt(b, int64(r.Register), 10)
		b = append(b, `,"last_register":`...)
		b = strconv.AppendInt(b, int64(r.LastRegister), 10)
	} else {
		name, v := "address", r.Address
		if r.Port != "" {
			name, v = "port", r.Port
		}
		b = strconv.AppendQuote(b, name)
		b = append(b, ':')
		b = strconv.AppendQuote(b, v)
		b = appendOpt(b, "kind", r.Kind)
		b = appendStr(b, "last", r.Last)
	}
	b = appendOpt(b, "rom", r.ROM)
	b = appendOpt(b, "ram", r.RAM)
	b = appendInt(b, "places", r.Places)
	b = append(b, `,"count":`...)
	b = strconv.AppendUint(b, r.Count, 10)
	return append(b, '}')
}

// MarshalJSON writes the place, its register wherever it has one.
func (p Place) MarshalJSON() ([]byte, error) {
	return p.appendJSON(nil, p.Address == "" && p.Port == ""), nil
}

// MarshalJSON writes the range, its registers wherever it has them.
func (r Range) MarshalJSON() ([]byte, error) {
	return r.appendJSON(nil, r.Address == "" && r.Port == ""), nil
}

func appendStr(b []byte, name, v string) []byte {
	b = append(b, ',')
	b = strconv.AppendQuote(b, name)
	b = append(b, ':')
	return strconv.AppendQuote(b, v)
}

func appendOpt(b []byte, name, v string) []byte {
	if v == "" {
		return b
	}
	return appendStr(b, name, v)
}

func appendInt(b []byte, name string, v int) []byte {
	b = append(b, ',')
	b = strconv.AppendQuote(b, name)
	b = append(b, ':')
	return strconv.AppendInt(b, int64(v), 10)
}
