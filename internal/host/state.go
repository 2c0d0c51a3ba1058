package host

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/crc32"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"colophon/internal/chip/monitor"
	"colophon/internal/machine"
	"colophon/internal/machine/cpc"
	"colophon/internal/machine/spectrum"
	"colophon/internal/picture"

	"colophon/internal/quote"
)

// Keeping a machine (spec, "Keeping a machine"; KEEP-1 to KEEP-6).
//
// A state is the machine as its memory holds it: its own struct copied by
// value, as the emulator's C would copy its cpc_t whole; the structs it
// points at and inspect follows, a CPC's monitor and a Spectrum's picture,
// copied by value too; and the buffers the machine answers as
// machine.Dirty, a CPC's RAM and its monitor's raster and a Spectrum's 64K
// of memory and its picture, kept in pages. inspect reads only
// fields held by value and fields of a struct a named pointer reaches
// (package inspect, "A pointer is not followed ... unless it points to a
// struct and is named"), so a state holds every field inspect.Fields
// reads, and with them what inspect leaves out: the board's machinery, the
// memory map, the video lazily behind the processor, a processor inside a
// chain of prefixes. It needs no list of fields, misses none a chip adds
// later, and is put back by copying it over the machine, after which the
// machine is the one that was kept, byte for byte. It holds the machine's
// own pointers, a CPC's into itself, and each machine's at its buffers and
// at the marks it keeps of them, which is why a state is put back into the
// machine it was kept from and no other
// (KEEP-6). state_test.go walks each machine's type and holds every
// pointer it reaches to the way a state keeps what it points at, so a
// pointer added later, a disc's, fails the test until a state keeps it.
//
// A page is shared rather than copied wherever the machine holds it as the
// state kept or put back last held it. The machine marks the pages of its
// buffers it writes (machine.Dirty), and the marks are cleared at each
// keep and each restore, so a page unmarked holds what that state holds:
// it is shared, unread. A page marked may hold it still, which a
// comparison finds, or hold what stands at another place of the buffer,
// which its checksum finds, as the lines of a scrolled picture move up.
// A frame's run leaves most of a CPC's RAM and raster as they were,
// unmarked, so a state after it costs the pages the frame changed and the
// struct, and keeping it reads those pages alone (docs/performance.md,
// "States"). A page once kept is never written; it is let go with the
// last state that holds it. A disc in a drive is one more buffer the
// machine marks and a state keeps so, and states kept while a disc does
// not change share its pages (KEEP-7); a disc put in has every page marked.
// A tape is a buffer that nothing writes once it is read (package tape):
// the deck, which the machine holds by value, points at it, so a state
// keeps the tape where it has played to, and the tape itself, by that
// pointer, sharing it with the machine and with every state kept while it
// was in; a restore puts that tape back in the deck though another has gone
// in since (KEEP-1, KEEP-2).
//
// Putting a state back writes the pages where the machine differs from
// it: those the machine marked since, and those where the state's page is
// not the one the machine's buffer last held.

// pageSize is the size of a page a state keeps a buffer in, the size of a
// page a machine marks: four lines of a CPC's raster, of monitor.Width
// samples each, so that a picture scrolled by a row of characters eight
// lines high, as BASIC's screen scrolls, moves by whole pages
// (docs/performance.md, "States", measures it).
const pageSize = machine.PageSize

// A page is whole lines of a CPC's raster, or this does not compile.
var _ [pageSize % monitor.Width]struct{} = [0]struct{}{}

// A page is 4K of a buffer as it stood when kept, the last of a buffer
// shorter if the buffer is, with its checksum. Once kept it is never
// written.
type page struct {
	b   []byte
	sum uint32
}

// paged is a buffer as a state keeps it, page by page.
type paged []*page

// castagnoli is the CRC the processor computes in one instruction, by
// which a page is looked for where it is not where it stood before.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// marked says whether the machine marked page i in dirty.
func marked(dirty []uint64, i int) bool { return dirty[i/64]&(1<<(i%64)) != 0 }

// keepPaged keeps buf, whose pages the machine marked in dirty since it
// last held base, and answers the bytes of memory it took of its own: the
// list of pages, and each page it copied. With no base, every page is
// looked at as a marked one. A page unmarked is base's page, by
// construction. A marked page equal to the one base holds at its place is
// that one, found at the cost of comparing them; one that is not, whose
// bytes stand elsewhere in base or earlier in buf, as a scrolled
// picture's do, or as one blank page's do another's, is the page found
// there, by its checksum and then its bytes; and any other is copied.
// Every page looked at is matched byte for byte, so a state holds exactly
// what the buffer held, whatever the checksums.
func keepPaged(buf []byte, dirty []uint64, base paged) (paged, int) {
	p := make(paged, (len(buf)+pageSize-1)/pageSize)
	own := len(p) * int(reflect.TypeFor[*page]().Size())
	for i := range p {
		if base != nil && !marked(dirty, i) {
			p[i] = base[i]
			continue
		}
		b := buf[i*pageSize : min(len(buf), (i+1)*pageSize)]
		if i < len(base) && bytes.Equal(base[i].b, b) {
			p[i] = base[i]
			continue
		}
		sum := crc32.Checksum(b, castagnoli)
		if q := base.find(sum, b); q != nil {
			p[i] = q
			continue
		}
		if q := p[:i].find(sum, b); q != nil {
			p[i] = q
			continue
		}
		p[i] = &page{b: bytes.Clone(b), sum: sum}
		own += int(reflect.TypeFor[page]().Size()) + len(b)
	}
	return p, own
}

// find answers the first page that holds b, whose checksum is sum, or nil.
func (p paged) find(sum uint32, b []byte) *page {
	for _, q := range p {
		if q.sum == sum && bytes.Equal(q.b, b) {
			return q
		}
	}
	return nil
}

// writeTo puts the buffer back into buf, the buffer it was kept from,
// which held base's pages when last cleaned and has marked in dirty the
// pages written since. A page buf holds already, unmarked and base's, is
// left alone; any other is written, a copy being cheaper than a
// comparison and then a copy, and the page most likely differing.
func (p paged) writeTo(buf []byte, dirty []uint64, base paged) {
	for i, q := range p {
		if base != nil && !marked(dirty, i) && base[i] == q {
			continue
		}
		copy(buf[i*pageSize:], q.b)
	}
}

// whole answers the buffer in one piece, a copy of its own.
func (p paged) whole() []byte {
	var b []byte
	for _, q := range p {
		b = append(b, q.b...)
	}
	return b
}

// buffers are a machine's buffers as a state keeps them, in the order
// its Buffers answers them.
type buffers []kept

// kept is one buffer as a state keeps it, by the machine's name for it.
type kept struct {
	name  string
	pages paged
}

// named answers the buffer of that name, or nil.
func (bs buffers) named(name string) paged {
	for _, b := range bs {
		if b.name == name {
			return b.pages
		}
	}
	return nil
}

// keepBuffers keeps the machine's buffers, sharing their pages with base,
// the buffers of the image kept or put back last (nil where there is
// none), and answers the bytes of memory they took of their own. It
// clears the machine's marks: the state it keeps them for is the base of
// the next keep or restore.
func keepBuffers(d machine.Dirty, base buffers) (buffers, int) {
	bufs := d.Buffers()
	kb := make(buffers, len(bufs))
	own := len(kb) * int(reflect.TypeFor[kept]().Size())
	for i, b := range bufs {
		var bp paged
		if base != nil {
			bp = base[i].pages
		}
		var n int
		kb[i].name = b.Name
		kb[i].pages, n = keepPaged(b.Bytes, b.Dirty, bp)
		own += n
	}
	d.Clean()
	return kb, own
}

// An image is a machine as a state holds it, for one kind of machine.
type image interface {
	// from is the machine it was kept from, which marks its buffers.
	from() machine.Dirty
	// put puts the machine's structs back as they stood.
	put()
	// buffers are the machine's buffers as they stood.
	buffers() buffers
	// keptRAM answers the RAM as it stood, by the RAM's own addresses.
	keptRAM() ([]byte, error)
	// size is the bytes the image holds beyond the pages it shares with
	// the image kept or put back before it.
	size() int
}

// keepImage keeps a machine, sharing what it can with base, the image kept
// or put back last, which may be nil.
func keepImage(mm machine.Machine, base image) (image, error) {
	var bb buffers
	if base != nil {
		bb = base.buffers()
	}
	switch x := mm.(type) {
	case *cpc.CPC:
		return keepCPC(x, bb), nil
	case *spectrum.Spectrum:
		return keepSpectrum(x, bb), nil
	}
	return nil, fmt.Errorf("%s cannot be kept in this build", mm.Name())
}

// restoreImage puts the machine im was kept from back as it stood, where
// base is the image kept or put back last, which may be nil. The marks are
// read before the machine's structs are put back, as they stand for what
// was done since base; and cleared after, as the machine then holds im.
//
// A buffer the structs put back point at is not always the one the
// machine held: a disc taken out since the state was kept comes back, in
// the buffer it was kept in (KEEP-2). That buffer is written whole, since
// neither the marks nor base say what it holds; a buffer the machine still
// holds is written where it differs from base or was marked.
func restoreImage(im, base image) {
	d := im.from()
	// The marks are copied: a machine may answer them in arrays of its
	// own, which Buffers fills again.
	before := slices.Clone(d.Buffers())
	for i := range before {
		before[i].Dirty = slices.Clone(before[i].Dirty)
	}
	im.put()
	after := d.Buffers()
	var bb buffers
	if base != nil {
		bb = base.buffers()
	}
	for i, b := range im.buffers() {
		var bp paged
		if bb != nil && sameBuffer(before[i].Bytes, after[i].Bytes) {
			bp = bb[i].pages
		}
		b.pages.writeTo(after[i].Bytes, before[i].Dirty, bp)
	}
	d.Clean()
}

// sameBuffer reports whether two buffers are one.
func sameBuffer(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// cpcImage is a CPC kept: the board by value, the monitor it points at by
// value, and the two buffers, the RAM and the monitor's raster.
type cpcImage struct {
	m       *cpc.CPC
	board   cpc.CPC
	monitor monitor.Monitor
	bufs    buffers
	own     int // bytes of its own, beyond the pages it shares
}

func keepCPC(c *cpc.CPC, base buffers) *cpcImage {
	im := &cpcImage{m: c, board: *c, monitor: *c.Monitor}
	var n int
	im.bufs, n = keepBuffers(c, base)
	im.own = int(reflect.TypeFor[cpcImage]().Size()) + n
	return im
}

func (im *cpcImage) from() machine.Dirty { return im.m }

func (im *cpcImage) put() {
	c := im.m
	if im.board.Monitor != c.Monitor || &im.board.RAM[0] != &c.RAM[0] {
		// The machine's buffers are made once, when it is built.
		panic("host: a CPC's state put back into a machine that is not its own")
	}
	*c = im.board
	*c.Monitor = im.monitor
}

func (im *cpcImage) buffers() buffers { return im.bufs }

func (im *cpcImage) keptRAM() ([]byte, error) { return im.bufs.named("ram").whole(), nil }

func (im *cpcImage) size() int { return im.own }

// spectrumImage is a Spectrum kept: the board by value, the ULA's picture
// by value, and the two buffers, the processor's 64K and the picture's
// pixels.
type spectrumImage struct {
	s       *spectrum.Spectrum
	board   spectrum.Spectrum
	picture picture.Picture
	bufs    buffers
	own     int // bytes of its own, beyond the pages it shares
}

func keepSpectrum(s *spectrum.Spectrum, base buffers) *spectrumImage {
	im := &spectrumImage{s: s, board: *s, picture: *s.ULA.Picture()}
	var n int
	im.bufs, n = keepBuffers(s, base)
	im.own = int(reflect.TypeFor[spectrumImage]().Size()) + n
	return im
}

func (im *spectrumImage) from() machine.Dirty { return im.s }

func (im *spectrumImage) put() {
	s := im.s
	pic := s.ULA.Picture()
	if im.board.ULA.Picture() != pic {
		// The ULA's picture is made once, when the machine is built.
		panic("host: a Spectrum's state put back into a machine that is not its own")
	}
	*s = im.board
	*pic = im.picture
}

func (im *spectrumImage) buffers() buffers { return im.bufs }

func (im *spectrumImage) keptRAM() ([]byte, error) {
	return nil, errors.New("a Spectrum's RAM has no addresses of its own but the processor's")
}

func (im *spectrumImage) size() int { return im.own }

// A state is one kept of a machine: its image, its tick and its journal
// as they stood.
type state struct {
	name    string
	tick    uint64
	journal []Entry // the machine's, its length its capacity, so that entries made after are not its own
	image   image
}

// stateNames names the states a machine holds, oldest first.
func (m *Machine) stateNames() []string {
	names := make([]string, len(m.states))
	for i, s := range m.states {
		names[i] = s.name
	}
	return names
}

// state finds a state the machine holds by its name, or answers an error
// that names it and the states the machine holds.
func (m *Machine) state(name string) (*state, int, error) {
	for i, s := range m.states {
		if s.name == name {
			return s, i, nil
		}
	}
	holds := "holds none; state_keep keeps one"
	if len(m.states) > 0 {
		holds = "holds " + strings.Join(m.stateNames(), ", ")
	}
	if n, ok := stateNumber(name); ok && n <= m.kept {
		return nil, 0, fmt.Errorf("state %s of machine %s was let go by state_drop; it %s", quote.String(name), m.handle, holds)
	}
	if name == "" {
		return nil, 0, fmt.Errorf("argument \"state\" is missing: the state, as state_keep named it; machine %s %s", m.handle, holds)
	}
	return nil, 0, fmt.Errorf("machine %s holds no state %s; it %s", m.handle, quote.String(name), holds)
}

// stateNumber reads the number of a state's name, s1, s2 and on.
func stateNumber(name string) (int, bool) {
	digits, ok := strings.CutPrefix(name, "s")
	if !ok || digits == "" || digits[0] == '0' {
		return 0, false
	}
	n, err := strconv.Atoi(digits)
	return n, err == nil && n > 0
}

// StateRAM answers the RAM a state of the machine holds, by the RAM's own
// addresses (&00000 to &0FFFF, and on a 6128 &10000 to &1FFFF), a copy of
// its own; or an error naming the state, where the machine holds no state
// by that name, or naming the machine, where its RAM has no addresses of
// its own. It is called in the machine's turn, as compare does.
func (m *Machine) StateRAM(name string) ([]byte, error) {
	s, _, err := m.state(name)
	if err != nil {
		return nil, err
	}
	b, err := s.image.keptRAM()
	if err != nil {
		return nil, fmt.Errorf("state %s of machine %s: %w", quote.String(name), m.handle, err)
	}
	return b, nil
}

// StateKeepArgs are state_keep's arguments.
type StateKeepArgs struct {
	Handle string `json:"handle" jsonschema:"the machine to keep as it stands" maxLength:"64"`
}

// StateKept is state_keep's answer.
type StateKept struct {
	Handle string   `json:"handle" jsonschema:"the machine"`
	State  string   `json:"state" jsonschema:"the state's name: s1, s2 and on, in the order states are kept of this machine, never given twice; state_restore, state_drop and compare take it with the machine's handle"`
	Tick   uint64   `json:"tick" jsonschema:"the machine's tick, at which the state stands"`
	Bytes  int      `json:"bytes" jsonschema:"the server's memory the state takes of its own, beyond what it shares with the state kept or put back before it"`
	States []string `json:"states" jsonschema:"the states the machine holds now, oldest first"`
}

// StateKeep keeps the machine as it stands, everything it holds, and names
// the state (KEEP-1). It moves nothing and is not entered in the journal
// (J-4).
func (h *Host) StateKeep(ctx context.Context, a StateKeepArgs) (StateKept, error) {
	return with(h, ctx, a.Handle, func(m *Machine) (StateKept, error) {
		im, err := keepImage(m.m, m.base)
		if err != nil {
			return StateKept{}, err
		}
		m.kept++
		s := &state{
			name:    "s" + strconv.Itoa(m.kept),
			tick:    m.m.Tick(),
			journal: m.journal[:len(m.journal):len(m.journal)],
			image:   im,
		}
		m.states = append(m.states, s)
		m.base = im
		return StateKept{Handle: m.handle, State: s.name, Tick: s.tick, Bytes: im.size(), States: m.stateNames()}, nil
	})
}

// StateArgs are state_restore's and state_drop's arguments.
type StateArgs struct {
	Handle string `json:"handle" jsonschema:"the machine the state was kept of" maxLength:"64"`
	State  string `json:"state" jsonschema:"the state, by the name state_keep gave it: s1, s2 and on" maxLength:"64"`
}

// StateRestored is state_restore's answer.
type StateRestored struct {
	Handle  string   `json:"handle" jsonschema:"the machine"`
	State   string   `json:"state" jsonschema:"the state it was put back to"`
	Tick    uint64   `json:"tick" jsonschema:"the machine's tick now, the state's"`
	Journal int      `json:"journal" jsonschema:"the entries its journal holds now: the state's, the way from the machine's opening to where it stands"`
	States  []string `json:"states" jsonschema:"the states the machine holds, oldest first: every one it held before, this one among them"`
}

// StateRestore puts the machine back exactly as a state kept it, and its
// journal with it, which becomes the state's (KEEP-2, J-5). No state is
// dropped (KEEP-4): the one put back stays, to come back to again, and so
// do those kept after it, each a branch.
func (h *Host) StateRestore(ctx context.Context, a StateArgs) (StateRestored, error) {
	return with(h, ctx, a.Handle, func(m *Machine) (StateRestored, error) {
		s, _, err := m.state(a.State)
		if err != nil {
			return StateRestored{}, err
		}
		restoreImage(s.image, m.base)
		m.base = s.image
		m.journal = s.journal
		return StateRestored{Handle: m.handle, State: s.name, Tick: m.m.Tick(), Journal: len(m.journal), States: m.stateNames()}, nil
	})
}

// StateDropped is state_drop's answer.
type StateDropped struct {
	Handle string   `json:"handle" jsonschema:"the machine"`
	State  string   `json:"state" jsonschema:"the state let go; its name names nothing from now on, and is not given again"`
	States []string `json:"states" jsonschema:"the states the machine still holds, oldest first"`
}

// StateDrop lets a state go (KEEP-5). The machine does not move, and
// nothing is entered in the journal (J-4).
func (h *Host) StateDrop(ctx context.Context, a StateArgs) (StateDropped, error) {
	return with(h, ctx, a.Handle, func(m *Machine) (StateDropped, error) {
		_, i, err := m.state(a.State)
		if err != nil {
			return StateDropped{}, err
		}
		m.states = append(m.states[:i:i], m.states[i+1:]...)
		return StateDropped{Handle: m.handle, State: a.State, States: m.stateNames()}, nil
	})
}
