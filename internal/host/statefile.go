package host

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"colophon/internal/inspect"
	"colophon/internal/machine"
	"colophon/internal/machine/catalogue"
	"colophon/internal/media/tape"
	"colophon/internal/quote"
)

// The state file (spec, "Keeping a machine"; KEEP-8 to KEEP-15, FILE-7).
//
// Its first line is JSON (stateLine): the build that wrote it, the machine,
// its 6845's type, the tick, the files the machine was built from, the
// journal, every field of the machine by the path inspect reads it by, as
// inspect.MarshalFields writes them, and the buffers that follow the line,
// each by its name and length. The fields of the disc in each drive and of
// the deck and its reader are the machine's own, under fdc.units and tape.
// After the line come the buffers byte for byte, in the order the line
// lists them: those the machine answers as machine.Dirty, the RAM and the
// picture and the disc in each drive laid out as a drive holds it (a drive
// with no disc is a buffer of no bytes), and then the tape's image, where
// a tape is in the deck. Nothing in it is a pointer: a machine is built
// from it as any is, and then written field by field through set's checks
// (inspect.Restore), so that every pointer is the new machine's own.

// stateFormat names the file's layout, first in its first line.
const stateFormat = "colophon state 1"

// The longest a state file, and its first line, may be (FILE-7).
const (
	MaxStateFile = 128 << 20
	MaxStateLine = 32 << 20
)

// stateRule is how long a state file may be.
var stateRule = sizeRule{most: MaxStateFile, why: "a state file is at most 128MB (134217728 bytes)"}

// stateLine is a state file's first line.
type stateLine struct {
	Format  string          `json:"format"`
	Build   string          `json:"build"`
	Machine string          `json:"machine"`
	CRTC    *int            `json:"crtc,omitempty"`
	Tick    uint64          `json:"tick"`
	Files   []File          `json:"files"`
	Journal []Entry         `json:"journal"`
	Fields  json.RawMessage `json:"fields"`
	Buffers []stateBuffer   `json:"buffers"`
}

// stateBuffer is a buffer that follows the first line: its name, as the
// machine's Buffers names it, or "tape"; its length; and for the tape, the
// format its image is read in.
type stateBuffer struct {
	Name   string `json:"name"`
	Bytes  int64  `json:"bytes"`
	Format string `json:"format,omitempty"`
}

// tapeBuffer names the tape's image among a state file's buffers.
const tapeBuffer = "tape"

// encodeState writes the machine as it stands to a state file, with the
// journal given, which is the machine's or a kept state's put back into
// it. The fields are read once the machine's lazy chips have been brought
// up to its tick (inspect's BeforeInspect), and the buffers after, so the
// picture holds what the fields say has been painted.
func (m *Machine) encodeState(build string, journal []Entry) ([]byte, error) {
	root, err := m.inspectRoot()
	if err != nil {
		return nil, err
	}
	d, ok := m.m.(machine.Dirty)
	if !ok {
		return nil, fmt.Errorf("%s cannot be written to a state file in this build", m.kind.name)
	}
	fs, err := inspect.Fields(root)
	if err != nil {
		return nil, err
	}
	fields, err := inspect.MarshalFields(fs)
	if err != nil {
		return nil, err
	}
	line := stateLine{
		Format: stateFormat, Build: build, Machine: m.kind.name, Tick: m.m.Tick(),
		Files: m.files, Journal: journal, Fields: fields,
	}
	if m.kind.cpc {
		ct := m.crtc
		line.CRTC = &ct
	}
	var bufs [][]byte
	for _, b := range d.Buffers() {
		line.Buffers = append(line.Buffers, stateBuffer{Name: b.Name, Bytes: int64(len(b.Bytes))})
		bufs = append(bufs, b.Bytes)
	}
	if deck, ok := m.m.(machine.TapeDeck); ok {
		if tp := deck.TapeDeck().Tape(); tp != nil {
			line.Buffers = append(line.Buffers, stateBuffer{Name: tapeBuffer, Bytes: int64(len(tp.Image())), Format: tp.Format().String()})
			bufs = append(bufs, tp.Image())
		}
	}
	head, err := marshal(line)
	if err != nil {
		return nil, err
	}
	size := len(head) + 1
	for _, b := range bufs {
		size += len(b)
	}
	out := make([]byte, 0, size)
	out = append(append(out, head...), '\n')
	for _, b := range bufs {
		out = append(out, b...)
	}
	return out, nil
}

// A stateFile is a state file as read: its first line, its fields in the
// line's order, and its buffers in the line's order.
type stateFile struct {
	line   stateLine
	fields []inspect.Field
	bufs   [][]byte
}

// readState reads a state file a request names (FILE-5, FILE-6, FILE-7): a
// file past 128MB is refused unread, and so is one whose first line runs
// past 32MB, read no further than that. It answers the file named by its
// absolute path and SHA-256, and the file taken apart.
func readState(path string) (File, *stateFile, error) {
	const kind = "state file"
	f, err := openInput(kind, path, stateRule)
	if err != nil {
		return File{}, nil, err
	}
	defer f.f.Close()
	// The first line, read no further than its limit.
	head := make([]byte, 0, min(f.size, MaxStateFile)+1)
	head, err = readUpTo(f.f, head, MaxStateLine+1)
	if err != nil {
		return File{}, nil, fmt.Errorf("reading %s %s: %w", kind, quote.Path(f.abs), err)
	}
	if bytes.IndexByte(head, '\n') < 0 && len(head) > MaxStateLine {
		return File{}, nil, fmt.Errorf("%s %s: %w; it was not read further", kind, quote.Path(f.abs), errLineTooLong)
	}
	// The rest, no more than the rule allows, in case the file grew.
	all, err := readUpTo(f.f, head, MaxStateFile+1)
	if err != nil {
		return File{}, nil, fmt.Errorf("reading %s %s: %w", kind, quote.Path(f.abs), err)
	}
	if err := stateRule.check(kind, f.abs, int64(len(all))); err != nil {
		return File{}, nil, err
	}
	sf, err := decodeState(all)
	if err != nil {
		return File{}, nil, fmt.Errorf("%s %s: %w", kind, quote.Path(f.abs), err)
	}
	return named("state", f.abs, all), sf, nil
}

// errLineTooLong refuses a state file whose first line is past its limit.
var errLineTooLong = errors.New("its first line is longer than 32MB (33554432 bytes), the most a state file's may be")

// decodeState takes a state file's bytes apart, as readState has read
// them.
func decodeState(b []byte) (*stateFile, error) {
	end := bytes.IndexByte(b[:min(len(b), MaxStateLine+1)], '\n')
	switch {
	case end < 0 && len(b) > MaxStateLine:
		return nil, errLineTooLong
	case end < 0:
		return nil, fmt.Errorf("it ends before its first line does: it is no state file, or it was cut short")
	}
	return parseState(b[:end], b[end+1:])
}

// readUpTo appends what r holds to b, until it ends or b is limit bytes
// long.
func readUpTo(r io.Reader, b []byte, limit int) ([]byte, error) {
	for len(b) < limit {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):min(cap(b), limit)])
		b = b[:len(b)+n]
		if errors.Is(err, io.EOF) {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
	return b, nil
}

// parseState takes a state file apart: its first line, and the buffers
// after it, each as long as the line says and together all the rest. It
// checks what can be checked of the file alone; whether its fields and
// buffers fit a machine is the machine's to say as it is stood up.
func parseState(head, rest []byte) (*stateFile, error) {
	var sf stateFile
	d := json.NewDecoder(bytes.NewReader(head))
	d.DisallowUnknownFields()
	if err := d.Decode(&sf.line); err != nil {
		return nil, fmt.Errorf("its first line is not a state file's: %s", jsonProblem(err))
	}
	if d.More() {
		return nil, fmt.Errorf("its first line holds more than one JSON object")
	}
	l := &sf.line
	if l.Format != stateFormat {
		return nil, fmt.Errorf("its first line says it is %s, not %q", quote.String(l.Format), stateFormat)
	}
	if l.Build == "" {
		return nil, fmt.Errorf("its first line names no build")
	}
	if len(l.Fields) == 0 {
		return nil, fmt.Errorf("its first line holds no fields")
	}
	fields, err := inspect.UnmarshalFields(l.Fields)
	if err != nil {
		return nil, fmt.Errorf("its fields: %w", err)
	}
	sf.fields = fields
	if err := checkFiles(l.Files); err != nil {
		return nil, err
	}
	if len(l.Journal) == 0 || l.Journal[0].Tool != "machine_open" {
		return nil, fmt.Errorf("its journal does not begin with the machine_open that stood the machine up")
	}
	for i, e := range l.Journal {
		if e.Tick > l.Tick {
			return nil, fmt.Errorf("its journal's entry %d (%s) began at tick %d, after the state's tick %d", i, quote.String(e.Tool), e.Tick, l.Tick)
		}
		if !isObject(e.Arguments) {
			return nil, fmt.Errorf("its journal's entry %d (%s) has arguments that are not a JSON object", i, quote.String(e.Tool))
		}
	}
	var total int64
	for i, b := range l.Buffers {
		if b.Bytes < 0 || b.Bytes > MaxStateFile {
			return nil, fmt.Errorf("its buffer %d, %s, is said to be %d bytes", i, quote.String(b.Name), b.Bytes)
		}
		total += b.Bytes
	}
	if total != int64(len(rest)) {
		for _, b := range l.Buffers {
			if b.Bytes > int64(len(rest)) {
				return nil, fmt.Errorf("it is cut short: its buffer %s is to be %d bytes, and %d are left of the file", quote.String(b.Name), b.Bytes, len(rest))
			}
			sf.bufs = append(sf.bufs, rest[:b.Bytes])
			rest = rest[b.Bytes:]
		}
		return nil, fmt.Errorf("%d bytes follow its buffers, which the first line does not list", len(rest))
	}
	for _, b := range l.Buffers {
		sf.bufs = append(sf.bufs, rest[:b.Bytes:b.Bytes])
		rest = rest[b.Bytes:]
	}
	return &sf, nil
}

// checkFiles holds the files a state names to what a journal names: each
// firmware or a snapshot, by an absolute path and a SHA-256.
func checkFiles(files []File) error {
	if len(files) == 0 {
		return fmt.Errorf("its first line names no firmware the machine was built from")
	}
	for i, f := range files {
		if f.Kind != "firmware" && f.Kind != "snapshot" {
			return fmt.Errorf("its file %d is of kind %s; a machine is built from firmware and a snapshot", i, quote.String(f.Kind))
		}
		if _, err := sha256Given("sha256", f.SHA256); err != nil || f.SHA256 == "" {
			return fmt.Errorf("its file %d, %s, is named by %s, which is no SHA-256", i, quote.Path(f.Path), quote.String(f.SHA256))
		}
	}
	return nil
}

// isObject reports whether b is a JSON object.
func isObject(b json.RawMessage) bool {
	var v map[string]json.RawMessage
	return json.Unmarshal(b, &v) == nil && v != nil
}

// jsonProblem says what is wrong with JSON, briefly, quoting what the
// file holds short: the decoder's own error quotes an unknown key whole.
func jsonProblem(err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return fmt.Sprintf("it is not JSON at byte %d: %v", syn.Offset, err)
	case errors.As(err, &typ):
		return fmt.Sprintf("%s is %s, where a %s belongs", quote.String(typ.Field), quote.Raw(typ.Value), typ.Type)
	}
	return strings.TrimPrefix(quote.JSONError(err), "json: ")
}

// standState stands a machine up from a state file the build wrote, on the
// firmware given, which is the state's (KEEP-11 to KEEP-13): built as any
// is, with the state's 6845; each buffer given back; the tape opened again
// and put in the deck; every field written through set's checks, the
// drive the disc controller chose among them, after which the machine
// works out again what it derives from them, a CPC's memory map among it;
// and the deck's reader held to the tape, played from its start to where
// the reader stands. A file that cannot be that machine is refused with
// why.
func standState(k *kind, ct int, fw [][]byte, sf *stateFile) (machine.Machine, error) {
	mm, err := k.Build(catalogue.Config{Firmware: fw, CRTC: ct})
	if err != nil {
		return nil, err
	}
	d, okD := mm.(machine.Dirty)
	set, okS := mm.(machine.BufferSetter)
	ins, okI := mm.(machine.Inspectable)
	if !okD || !okS || !okI {
		return nil, fmt.Errorf("%s cannot be stood up from a state file in this build", k.name)
	}
	want := d.Buffers()
	names := make([]string, len(want))
	for i, b := range want {
		names[i] = b.Name
	}
	l := &sf.line
	n := len(l.Buffers)
	var tapeAt = -1
	if n == len(want)+1 && l.Buffers[n-1].Name == tapeBuffer {
		tapeAt, n = n-1, n-1
	}
	if n != len(want) {
		return nil, fmt.Errorf("its buffers are %s; a %s's are %s, and a tape's image if one is in the deck", bufferNames(l.Buffers), k.name, strings.Join(names, ", "))
	}
	for i := range n {
		if l.Buffers[i].Name != names[i] {
			return nil, fmt.Errorf("its buffer %d is %s; a %s's is %s", i, quote.String(l.Buffers[i].Name), k.name, names[i])
		}
		if err := set.SetBuffer(names[i], sf.bufs[i]); err != nil {
			return nil, fmt.Errorf("its buffer %s: %w", names[i], err)
		}
	}
	var deck machine.TapeDeck
	if tapeAt >= 0 {
		b := l.Buffers[tapeAt]
		var ok bool
		if deck, ok = mm.(machine.TapeDeck); !ok {
			return nil, fmt.Errorf("it holds a tape, and a %s has no cassette deck in this build", k.name)
		}
		format, err := tapeFormatNamed(b.Format)
		if err != nil {
			return nil, err
		}
		if b.Bytes > tape.MaxSize {
			return nil, fmt.Errorf("its tape is %d bytes; a tape is at most 16MB (16777216 bytes)", b.Bytes)
		}
		tp, err := tape.Open(format, sf.bufs[tapeAt])
		if err != nil {
			return nil, fmt.Errorf("its tape, read as a %s: %w", format, err)
		}
		deck.InsertTape(tp)
	}
	if err := inspect.Restore(ins.InspectRoot(), sf.fields); err != nil {
		return nil, fmt.Errorf("its fields: %w", err)
	}
	if mm.Tick() != l.Tick {
		return nil, fmt.Errorf("its fields stand at tick %d, and its first line says %d", mm.Tick(), l.Tick)
	}
	if deck != nil {
		dk := deck.TapeDeck()
		// A deck takes at most one pulse a tick, and one as the tape goes
		// in, so a reader that says it has played more was not played so;
		// and a tape played to this many pulses is played again in a few
		// seconds at the most.
		if r := dk.Reader; r.Pulses > mm.Tick()+1 || r.Pulses > maxTapePulses {
			return nil, fmt.Errorf("its deck's reader has played %d pulses by tick %d; a deck takes at most one a tick, and a state file's tape is played again to at most %d", r.Pulses, mm.Tick(), uint64(maxTapePulses))
		}
		if !dk.Reached() {
			return nil, fmt.Errorf("its tape, played from its start, never comes to where its deck's reader stands (block %d, %d pulses): the reader was not played from this tape", dk.Reader.Block, dk.Reader.Pulses)
		}
	}
	return mm, nil
}

// maxTapePulses is the most pulses a state file's tape is played again to,
// so that no file, however it was made, holds the server long: played
// again at some ten nanoseconds a pulse, they take seconds. It is more
// than a machine comes to: hours of a CPC's time in pulses of the
// shortest any recording gives, some 80 ticks a sample of a direct
// recording at 44.1 kHz.
const maxTapePulses = 1 << 30

// bufferNames lists buffers by their names.
func bufferNames(bs []stateBuffer) string {
	if len(bs) == 0 {
		return "none"
	}
	names := make([]string, len(bs))
	for i, b := range bs {
		names[i] = quote.String(b.Name)
	}
	return strings.Join(names, ", ")
}

// tapeFormatNamed reads a tape's format by the name Format gives it.
func tapeFormatNamed(name string) (tape.Format, error) {
	for _, f := range []tape.Format{tape.TZX, tape.TAP} {
		if f.String() == name {
			return f, nil
		}
	}
	return 0, fmt.Errorf("its tape is in the format %s; a tape is a TZX or a TAP", quote.String(name))
}
