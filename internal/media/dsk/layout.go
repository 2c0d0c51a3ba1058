package dsk

import (
	"bytes"
	"fmt"
)

// A Disc is a disc laid out in one buffer, as a drive here holds it: all
// that is on it, its tracks and their sectors as well as their data, is in
// Image, so that a state keeps a disc by keeping the buffer, and a state
// file holds it byte for byte. Image is never longer or shorter than it was
// laid out; Marks marks each 4K page of it that is written, for a host that
// keeps states (machine.Dirty). A Disc's fields are pointers to its
// buffers, and a copy of a Disc is the same disc.
//
// The layout, every number little-endian:
//
//	header   16 bytes: the magic "colophon disc 1\n"; then at 16 the
//	         cylinders the medium holds, 42 to 84; at 17 its sides, 1 or
//	         2; at 18 the cylinders its image had; at 20, 4 bytes, where
//	         the slots begin; at 24, 4 bytes, the buffer's length.
//	table    at 32, for each cylinder, each side: 4 bytes, where the
//	         track's block begins, or 0 where the track is unformatted.
//	slots    for each cylinder, each side: SlotSize bytes, where a
//	         FORMAT TRACK writes the track's block anew.
//	tracks   the image's tracks' blocks.
//
// A track's block is a header of trackHeader bytes, its sectors' entries,
// sectorEntry bytes each, in the order they lie on the track, and their
// data:
//
//	header   2 bytes the number of sectors; 1 GAP#3 as recorded; 1 the
//	         filler byte; 1 its encoding, 0 MFM and 1 FM; 1 its data rate
//	         as the extended layout gives it; 2 the track's length in
//	         bytes, which its sectors' places are counted in.
//	sector   C, H, R, N, ST1, ST2 as the Sector Information List records
//	         them; the number of copies of its data; a byte unused; 2
//	         bytes where its ID address mark lies, in bytes after the
//	         index; 2 the bytes of each copy; 4 the room its data has; 4
//	         where its data begins in the buffer.
type Disc struct {
	Image []byte
	Marks []uint64
}

const (
	magic       = "colophon disc 1\n"
	tableAt     = 32
	trackHeader = 8
	sectorEntry = 20
	// maxFormatSectors is the most sectors a FORMAT TRACK can lay on a
	// track: MFM sectors of 128 bytes with no GAP#3 take 190 bytes each
	// (formatLayout), and the ID of the 33rd ends before the index.
	maxFormatSectors = 40
	// SlotSize is the room a formatted track has: its header, its
	// sectors' entries and a revolution's bytes of data.
	SlotSize = (trackHeader + maxFormatSectors*sectorEntry + MFMTrackBytes + 0xFF) &^ 0xFF
	// PageSize is the size of the pages Marks marks.
	PageSize = 4096
)

// The bytes of a track, a revolution's: at 300 rpm, 200 ms a revolution, a
// 250 kbit/s MFM track holds 6250 bytes of 8 bits, and an FM track, half
// the bits, 3125 (µPD765: WCLK 500 kHz MFM, 250 kHz FM at a 4 MHz clock).
const (
	MFMTrackBytes = 6250
	FMTrackBytes  = 3125
)

// lay lays a file's disc out.
func lay(f *file) (Disc, error) {
	cyls := max(f.cylinders, MinCylinders)
	sides := f.sides
	entries := cyls * sides
	slots := (tableAt + 4*MaxCylinders*MaxSides + 0xFF) &^ 0xFF
	size := slots + entries*SlotSize
	for _, t := range f.tracks {
		if !t.formatted {
			continue
		}
		size += trackHeader + len(t.sectors)*sectorEntry
		for _, r := range rooms(t) {
			size += r
		}
	}
	b := make([]byte, size)
	copy(b, magic)
	b[16], b[17], b[18] = byte(cyls), byte(sides), byte(f.cylinders)
	le.PutUint32(b[20:], uint32(slots))
	le.PutUint32(b[24:], uint32(size))
	at := slots + entries*SlotSize
	for i, t := range f.tracks {
		if !t.formatted {
			continue
		}
		le.PutUint32(b[tableAt+4*i:], uint32(at))
		at = layTrack(b, at, t)
	}
	d := Disc{Image: b, Marks: make([]uint64, (len(b)/PageSize+64)/64)}
	d.markAll()
	return d, nil
}

// rooms gives the bytes each of a track's sectors' data is given: what it
// holds, and more where it holds less than a sector of its size, so that a
// whole sector written lands whole; but no more in all than a revolution
// holds, MFMTrackBytes, which bounds what a small file can ask to be laid
// out to a revolution a track.
func rooms(t fileTrack) []int {
	r := make([]int, len(t.sectors))
	budget := MFMTrackBytes
	for i, s := range t.sectors {
		r[i] = len(s.data)
		budget -= len(s.data)
	}
	for i, s := range t.sectors {
		more := min(max(0, (128<<min(int(s.n), maxSectorShift))-r[i]), max(0, budget))
		r[i] += more
		budget -= more
	}
	return r
}

// layTrack writes a file's track as a block at at, and answers where the
// next begins.
func layTrack(b []byte, at int, t fileTrack) int {
	fm := t.fm
	length := MFMTrackBytes
	if fm {
		length = FMTrackBytes
	}
	places := imagePlaces(t, length)
	h := b[at:]
	le.PutUint16(h[0:], uint16(len(t.sectors)))
	h[2], h[3], h[5] = t.gap3, t.filler, t.rate
	if fm {
		h[4] = 1
	}
	le.PutUint16(h[6:], uint16(length))
	data := at + trackHeader + len(t.sectors)*sectorEntry
	room := rooms(t)
	for i, s := range t.sectors {
		e := h[trackHeader+i*sectorEntry:]
		e[0], e[1], e[2], e[3], e[4], e[5], e[6] = s.c, s.h, s.r, s.n, s.st1, s.st2, byte(s.copies)
		le.PutUint16(e[8:], uint16(places[i]))
		each := 0
		if s.copies > 0 {
			each = len(s.data) / s.copies
		}
		le.PutUint16(e[10:], uint16(each))
		le.PutUint32(e[12:], uint32(room[i]))
		le.PutUint32(e[16:], uint32(data))
		copy(b[data:], s.data)
		data += room[i]
	}
	return data
}

// imagePlaces gives where each of a track's sectors lies, its ID address
// mark in bytes after the index: as the file's Offset-Info gives them,
// counted again in a track of length bytes; or else as a FORMAT TRACK with
// the track's GAP#3 would have laid them, the gap narrowed so that they
// fit in a revolution, and spread over it evenly where even no gap will do.
func imagePlaces(t fileTrack, length int) []int {
	places := make([]int, len(t.sectors))
	if t.length > 0 {
		for i, s := range t.sectors {
			places[i] = s.offset * length / t.length
		}
		return places
	}
	g := gapsOf(t.fm)
	n := len(t.sectors)
	if n == 0 {
		return places
	}
	fixed := 0
	for _, s := range t.sectors {
		fixed += g.sector + (128 << min(int(s.n), maxSectorShift))
	}
	free := length - g.first - fixed
	gap3 := int(t.gap3)
	switch {
	case free < 0:
		for i := range places {
			places[i] = g.first + g.sync + i*(length-g.first)/n
		}
		return places
	case gap3*n > free:
		gap3 = free / n
	}
	at := g.first
	for i, s := range t.sectors {
		places[i] = at + g.sync
		at += g.sector + (128 << min(int(s.n), maxSectorShift)) + gap3
	}
	return places
}

// gaps are a track format's fixed parts, in bytes (µPD765's IBM System 34
// and 3740 formats; FlashFloppy dsk.c for the MFM gaps).
type gaps struct {
	first  int // from the index to the first sector's sync: gap 4a, sync, index mark, gap 1
	sync   int // a sector's sync, before its ID address mark
	id     int // from the ID address mark to the end of the ID's CRC
	data   int // from the ID address mark to the first data byte
	sector int // a sector's bytes but its data and GAP#3: sync to the data's CRC
}

// gapsOf gives the gaps of MFM, or of FM. MFM: 80 bytes of gap 4a, 12 of
// sync, an index mark of 4 (3 × C2, FC), 50 of gap 1; each sector 12 of
// sync, an ID address mark of 4 (3 × A1, FE), C H R N, 2 of CRC, 22 of gap
// 2, 12 of sync, a data mark of 4, the data, 2 of CRC. FM halves the gaps
// and syncs and has marks of one byte: 40, 6, 1, 26; 6, 1, 4, 2, 11, 6, 1.
func gapsOf(fm bool) gaps {
	if fm {
		return gaps{first: 40 + 6 + 1 + 26, sync: 6, id: 1 + 4 + 2, data: 1 + 4 + 2 + 11 + 6 + 1, sector: 6 + 1 + 4 + 2 + 11 + 6 + 1 + 2}
	}
	return gaps{first: 80 + 12 + 4 + 50, sync: 12, id: 4 + 4 + 2, data: 4 + 4 + 2 + 22 + 12 + 4, sector: 12 + 4 + 4 + 2 + 22 + 12 + 4 + 2}
}

// Gaps are the parts of a track format the controller counts its time by.
type Gaps struct {
	First  int // bytes from the index to the first sector's ID address mark
	ID     int // bytes from an ID address mark to the end of its ID's CRC
	Data   int // bytes from an ID address mark to the first data byte
	Sector int // bytes of a sector but its data and GAP#3
	Track  int // bytes in a revolution
}

// FormatGaps gives the gaps of MFM or, with fm, FM.
func FormatGaps(fm bool) Gaps {
	g := gapsOf(fm)
	t := MFMTrackBytes
	if fm {
		t = FMTrackBytes
	}
	return Gaps{First: g.first + g.sync, ID: g.id, Data: g.data, Sector: g.sector, Track: t}
}

func (d Disc) markAll() {
	for i := range d.Marks {
		d.Marks[i] = ^uint64(0)
	}
}

// mark marks the pages of n bytes at at as written.
func (d Disc) mark(at, n int) {
	for p := at / PageSize; p <= (at+n-1)/PageSize; p++ {
		if p/64 < len(d.Marks) {
			d.Marks[p/64] |= 1 << (p % 64)
		}
	}
}

// In reports whether there is a disc.
func (d Disc) In() bool { return len(d.Image) > 0 }

// Cylinders is the cylinders the medium holds.
func (d Disc) Cylinders() int { return int(d.Image[16]) }

// Sides is its sides.
func (d Disc) Sides() int { return int(d.Image[17]) }

func (d Disc) u16(at int) int { return int(le.Uint16(d.Image[at:])) }
func (d Disc) u32(at int) int { return int(le.Uint32(d.Image[at:])) }

// A Track is one track of a disc, or none (Formatted false).
type Track struct {
	d  Disc
	at int
}

// Track answers the track at a cylinder and a side: unformatted where the
// medium holds no such track.
func (d Disc) Track(cyl, side int) Track {
	if !d.In() || cyl < 0 || side < 0 || cyl >= d.Cylinders() || side >= d.Sides() {
		return Track{}
	}
	return Track{d, d.u32(tableAt + 4*(cyl*d.Sides()+side))}
}

// Formatted reports whether the track is there.
func (t Track) Formatted() bool { return t.at != 0 }

// Sectors is how many sectors it has.
func (t Track) Sectors() int {
	if t.at == 0 {
		return 0
	}
	return t.d.u16(t.at)
}

// FM reports whether it is recorded in FM.
func (t Track) FM() bool { return t.at != 0 && t.d.Image[t.at+4] == 1 }

// Rate is its data rate as the extended layout gives it: 0 unknown, 1
// 250K or 300K, 2 500K, 3 1M.
func (t Track) Rate() byte {
	if t.at == 0 {
		return 0
	}
	return t.d.Image[t.at+5]
}

// Length is its length in bytes, which its sectors' places count.
func (t Track) Length() int {
	if t.at == 0 {
		return MFMTrackBytes
	}
	return t.d.u16(t.at + 6)
}

// A Sector is one sector of a track.
type Sector struct {
	C, H, R, N byte
	ST1, ST2   byte
	Copies     int // the copies of its data; 0 where it has no data field
	Place      int // where its ID address mark lies, in bytes after the index
	Size       int // the bytes of each copy
	Room       int // the bytes its data may take
	at         int // where its data begins in the disc's buffer
	entry      int // where its entry is
}

// Sector answers the i'th sector on the track, in the order they lie.
func (t Track) Sector(i int) Sector {
	return t.d.sector(t.at + trackHeader + i*sectorEntry)
}

// sector reads the sector entry at e.
func (d Disc) sector(e int) Sector {
	b := d.Image[e:]
	return Sector{
		C: b[0], H: b[1], R: b[2], N: b[3], ST1: b[4], ST2: b[5], Copies: int(b[6]),
		Place: int(le.Uint16(b[8:])), Size: int(le.Uint16(b[10:])),
		Room: int(le.Uint32(b[12:])), at: int(le.Uint32(b[16:])), entry: e,
	}
}

// Byte answers byte i of a copy of a sector's data, or the gap's &4E past
// what the disc holds of it.
func (d Disc) Byte(s Sector, copy, i int) byte {
	if s.Copies == 0 || i >= s.Size || i < 0 {
		return 0x4E
	}
	return d.Image[s.at+(copy%s.Copies)*s.Size+i]
}

// Write writes byte i of a sector's data, and answers whether it had room
// for it. A sector written is one copy, with no error in its data and the
// data mark deleted or not; Begin makes it so before its first byte.
func (d Disc) Write(s Sector, i int, v byte) bool {
	if i < 0 || i >= s.Room {
		return false
	}
	d.Image[s.at+i] = v
	d.mark(s.at+i, 1)
	return true
}

// Begin readies a sector to be written n bytes of, with a deleted data
// mark or not: one copy, as long as n or as its room allows, the data's
// CRC good; and answers the sector as it now stands.
func (d Disc) Begin(s Sector, n int, deleted bool) Sector {
	e := d.Image[s.entry:]
	e[4] &^= ST1DataError | ST1MissingAddress
	e[5] &^= ST2DataError | ST2MissingData | ST2ControlMark
	if deleted {
		e[5] |= ST2ControlMark
	}
	e[6] = 1
	le.PutUint16(e[10:], uint16(min(max(n, 0), s.Room, 0xFFFF)))
	d.mark(s.entry, sectorEntry)
	return d.sector(s.entry)
}

// slot answers where the slot of the track at a cylinder and a side
// begins, and its number in the table; 0 where the medium holds no such
// track.
func (d Disc) slot(cyl, side int) (at, i int) {
	if !d.In() || cyl < 0 || side < 0 || cyl >= d.Cylinders() || side >= d.Sides() {
		return 0, 0
	}
	i = cyl*d.Sides() + side
	return d.u32(20) + i*SlotSize, i
}

// Format begins formatting the track at a cylinder and a side: the track
// becomes an empty one of the encoding given, in its slot, which AddSector
// then fills. Where the medium holds no such track, nothing is recorded,
// and it answers false.
func (d Disc) Format(cyl, side int, fm bool, gap3, filler byte) bool {
	at, i := d.slot(cyl, side)
	if at == 0 {
		return false
	}
	h := d.Image[at : at+trackHeader]
	clear(h)
	h[2], h[3], h[5] = gap3, filler, 1
	length := MFMTrackBytes
	if fm {
		h[4] = 1
		length = FMTrackBytes
	}
	le.PutUint16(h[6:], uint16(length))
	le.PutUint32(d.Image[tableAt+4*i:], uint32(at))
	d.mark(at, trackHeader)
	d.mark(tableAt+4*i, 4)
	return true
}

// formatting answers the slot of a track being formatted, and where its
// next sector's data goes; 0 where the track is not in its slot.
func (d Disc) formatting(cyl, side int) (at, data int) {
	at, i := d.slot(cyl, side)
	if at == 0 || d.u32(tableAt+4*i) != at {
		return 0, 0
	}
	data = at + trackHeader + maxFormatSectors*sectorEntry
	if n := d.u16(at); n > 0 {
		last := d.sector(at + trackHeader + (n-1)*sectorEntry)
		data = last.at + last.Room
	}
	return at, data
}

// AddSector adds a sector to the track being formatted at a cylinder and
// a side: its ID as given, lying at place, and its data size bytes of
// fill, as much as the slot has room for. It answers false where the slot
// has no room for another sector; a track the medium does not hold takes
// every sector, and records none.
func (d Disc) AddSector(cyl, side int, c, h, r, n byte, place, size int, fill byte) bool {
	at, data := d.formatting(cyl, side)
	if at == 0 {
		return true
	}
	count := d.u16(at)
	if count >= maxFormatSectors {
		return false
	}
	if place < 0 || place >= d.u16(at+6) {
		// A sector past the end of the track is never written.
		return true
	}
	room := max(0, min(size, at+SlotSize-data))
	e := d.Image[at+trackHeader+count*sectorEntry:]
	clear(e[:sectorEntry])
	e[0], e[1], e[2], e[3], e[6] = c, h, r, n, 1
	le.PutUint16(e[8:], uint16(place))
	le.PutUint16(e[10:], uint16(room))
	le.PutUint32(e[12:], uint32(room))
	le.PutUint32(e[16:], uint32(data))
	for i := range room {
		d.Image[data+i] = fill
	}
	d.mark(data, room)
	le.PutUint16(d.Image[at:], uint16(count+1))
	d.mark(at, trackHeader+(count+1)*sectorEntry)
	return true
}

// CutSector marks the last sector added to a track being formatted as cut
// short by the index after size bytes of its data: its data field has no
// good CRC.
func (d Disc) CutSector(cyl, side, size int) {
	at, _ := d.formatting(cyl, side)
	if at == 0 {
		return
	}
	count := d.u16(at)
	if count == 0 {
		return
	}
	e := d.Image[at+trackHeader+(count-1)*sectorEntry:]
	e[4] |= ST1DataError
	e[5] |= ST2DataError
	room := int(le.Uint32(e[12:]))
	le.PutUint16(e[10:], uint16(min(max(size, 0), room)))
	d.mark(at, trackHeader+count*sectorEntry)
}

// Laid answers the disc a buffer laid out by Read holds, such as a state
// file keeps, once Validate has held it to the layout; its pages all
// marked, as a disc new to a machine's drive is.
func Laid(b []byte) (Disc, error) {
	if err := Validate(b); err != nil {
		return Disc{}, err
	}
	d := Disc{Image: b, Marks: make([]uint64, (len(b)/PageSize+64)/64)}
	d.markAll()
	return d, nil
}

// ImageCylinders is the cylinders the image it was read from had.
func (d Disc) ImageCylinders() int { return int(d.Image[18]) }

// Validate holds a buffer to the layout Read makes, as a state file's disc
// must be (KEEP-12): every offset and length inside the buffer, so that
// nothing read or written through a Disc can reach outside it.
func Validate(b []byte) error {
	if len(b) < tableAt+4*MaxCylinders*MaxSides || !bytes.HasPrefix(b, []byte(magic)) {
		return fmt.Errorf("the disc's buffer is not a disc laid out by this build")
	}
	d := Disc{Image: b}
	cyls, sides := d.Cylinders(), d.Sides()
	slots := d.u32(20)
	switch {
	case cyls < MinCylinders || cyls > MaxCylinders:
		return fmt.Errorf("the disc holds %d cylinders; a disc holds %d to %d", cyls, MinCylinders, MaxCylinders)
	case sides < 1 || sides > MaxSides:
		return fmt.Errorf("the disc has %d sides; a disc has 1 or 2", sides)
	case d.u32(24) != len(b):
		return fmt.Errorf("the disc says it is %d bytes, and its buffer is %d", d.u32(24), len(b))
	case slots < tableAt+4*cyls*sides || slots+cyls*sides*SlotSize > len(b):
		return fmt.Errorf("the disc's slots at %d run past its %d bytes", slots, len(b))
	}
	for i := range cyls * sides {
		at := d.u32(tableAt + 4*i)
		if at == 0 {
			continue
		}
		where := fmt.Sprintf("track %d side %d", i/sides, i%sides)
		if at < slots || at+trackHeader > len(b) {
			return fmt.Errorf("%s's block at %d lies outside the disc's %d bytes", where, at, len(b))
		}
		n := d.u16(at)
		if at+trackHeader+n*sectorEntry > len(b) {
			return fmt.Errorf("%s's %d sectors run past the disc's %d bytes", where, n, len(b))
		}
		t := Track{d, at}
		if l := t.Length(); l != MFMTrackBytes && l != FMTrackBytes {
			return fmt.Errorf("%s is %d bytes long; a track is %d or %d", where, l, MFMTrackBytes, FMTrackBytes)
		}
		for j := range n {
			s := t.Sector(j)
			if s.at < slots || s.at+s.Room > len(b) || s.Copies*s.Size > s.Room || s.Place >= t.Length() {
				return fmt.Errorf("%s sector %d: data of %d copies of %d bytes at %d, room %d, at byte %d of the track: outside the disc's %d bytes or its room", where, j, s.Copies, s.Size, s.at, s.Room, s.Place, len(b))
			}
		}
	}
	return nil
}
