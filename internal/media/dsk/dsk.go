// Package dsk reads and writes DSK disc images, the CPC's disc files, and
// lays a disc out in one buffer as a drive here holds it.
//
// A DSK file is read in either of its layouts: the original one, whose
// Disc Information Block begins "MV - CPC", with every track the same
// size, and the extended one, "EXTENDED CPC DSK File", with a size for
// each track and for each sector. A disc is written in the extended layout
// alone, naming this emulator as its creator, with the Offset-Info block
// after its tracks that records where each sector lies on its track.
//
// Read lays the disc out (Disc): a header, a table of the tracks, a slot
// for every track the medium can hold, in which a FORMAT TRACK writes it
// anew, and then the image's own tracks. So a disc has room to format
// every track it can hold once more, a track the image never had among
// them (spec, "Discs and tapes"; DT-4), and a disc never grows once laid
// out: a state keeps it as one buffer, page by page.
//
// Sources cited at the lines that depend on them:
//   - Kevin Thacker, cpctech, "Disk image file format" (dsk.html, the
//     original layout) and "Extended Disk image file format" (extdsk.html,
//     Rev.5): the Disc Information Block, the Track Information Block, the
//     Sector Information List, the track size table, and the track order
//     (cpctech DSK, cpctech EDSK).
//   - Simon Owen's EDSK extensions for copy-protected discs (extextdsk.txt)
//     as SAMdisk reads and writes them (src/types/dsk.cpp): several copies
//     of a sector whose data has a CRC error stored one after the other,
//     the data rate and encoding at &12 and &13 of a Track Information
//     Block, a Sector Information List longer than 29 entries in a header
//     rounded up to 256 bytes, and the Offset-Info block (SAMdisk).
//   - NEC, "µPD765A/µPD765B" datasheet (µPD765): the status registers ST1
//     and ST2 a Sector Information List records, and the IBM System 34
//     (MFM) and 3740 (FM) track formats, whose gaps FlashFloppy's dsk.c
//     (Keir Fraser) gives as numbers: 80 bytes of gap 4a after the index,
//     12 of sync, 50 of gap 1 after the index mark, 22 of gap 2 after an ID.
//   - CPCWiki, "765 FDC", Custom floppy disk formats: "42 tracks could be
//     used ... 42 is a good maximum" on the CPC's 3" drives; OffseT,
//     "Le FDC", Quasar CPC 12-16: 82 to 84 tracks at most for 80-track
//     3.5" drives.
package dsk

import (
	"bytes"
	"encoding/binary"
	"fmt"
)

var le = binary.LittleEndian

// The two layouts' signatures. "MV - CPC" is what marks the original layout
// ("It is sufficient to check this", cpctech DSK); "EXTENDED" marks the
// extended one, as SAMdisk matches it.
var (
	standardSignature = []byte("MV - CPC")
	extendedSignature = []byte("EXTENDED")
	trackSignature    = []byte("Track-Info")  // cpctech DSK: "Track-Info\r\n"; SAMdisk tolerates the \r\n missing
	offsetsSignature  = []byte("Offset-Info") // SAMdisk: "Offset-Info\r\n\0" and a flags byte
)

// The limits of the formats and of the drives.
const (
	infoSize = 0x100 // a Disc Information Block, and a Track Information Block
	// maxTrackEntries is the extended layout's track size table, &34 to
	// &FF: tracks times sides at most (cpctech EDSK), which MaxCylinders
	// of MaxSides stay inside.
	maxTrackEntries = infoSize - 0x34
	// standardSectors is the most sectors the original layout's Track
	// Information Block lists: &18 to &FF, 8 bytes each (cpctech DSK).
	standardSectors = (infoSize - 0x18) / 8
	// MaxCylinders is the most cylinders a disc here holds: an 80-track
	// drive's heads reach 82 to 84 (Quasar CPC).
	MaxCylinders = 84
	// MinCylinders is the cylinders a disc holds at least, whatever its
	// image has: the 42 the CPC's 3" drives reach (CPCWiki "765 FDC").
	MinCylinders = 42
	// MaxSides is the sides a disc has at most.
	MaxSides = 2
	// maxSectorShift is the largest N whose sector size, 128 << N, a
	// sector's room is laid out for: 8K, the largest the µPD765 lists
	// ("Variable recording length: 128,256,....8192 bytes/sector").
	maxSectorShift = 6
)

// Every disc here fits an extended DSK's size table, or this does not
// compile.
var _ [maxTrackEntries - MaxCylinders*MaxSides]struct{}

// ST1 and ST2 bits a Sector Information List records (cpctech DSK: "FDC
// status register 1/2"; µPD765, status registers 1 and 2).
const (
	ST1MissingAddress = 0x01 // MA: no ID or data address mark
	ST1DataError      = 0x20 // DE: a CRC error in the ID or the data field
	ST2MissingData    = 0x01 // MD: no data address mark
	ST2DataError      = 0x20 // DD: a CRC error in the data field
	ST2ControlMark    = 0x40 // CM: a deleted data address mark
)

// A file is a DSK file as read, before it is laid out.
type file struct {
	extended  bool
	cylinders int // the number of tracks the Disc Information Block gives
	sides     int
	tracks    []fileTrack // cylinder by cylinder, sides interleaved; nil sectors for an unformatted track
}

// A fileTrack is one track of a file.
type fileTrack struct {
	formatted bool
	gap3      byte
	filler    byte
	rate      byte // 0 unknown, 1 250/300K, 2 500K, 3 1M (SAMdisk)
	fm        bool // encoding 1 is FM (SAMdisk)
	length    int  // the track's length in bytes from Offset-Info, 0 where none
	sectors   []fileSector
}

// A fileSector is one sector of a file's track.
type fileSector struct {
	c, h, r, n byte
	st1, st2   byte
	data       []byte // every copy, one after another
	copies     int
	offset     int // where its ID lies, from Offset-Info, or -1
}

// Read reads a DSK file of either layout and lays the disc out with room to
// format every track once more. A file that is not a DSK image, or that
// contradicts itself, is refused with what is wrong and where.
func Read(b []byte) (Disc, error) {
	f, err := parse(b)
	if err != nil {
		return Disc{}, err
	}
	return lay(f)
}

// parse reads a file's structure, every size held to the bytes there are.
func parse(b []byte) (*file, error) {
	if len(b) < infoSize {
		return nil, fmt.Errorf("the file is %d bytes; a DSK image opens with a Disc Information Block of %d", len(b), infoSize)
	}
	f := &file{}
	switch {
	case bytes.HasPrefix(b, extendedSignature):
		f.extended = true
	case bytes.HasPrefix(b, standardSignature):
	default:
		return nil, fmt.Errorf("the file opens %q; a DSK image opens \"MV - CPC\" or \"EXTENDED\"", printable(b[:min(len(b), 22)]))
	}
	f.cylinders = int(b[0x30])
	// Bit 7 of the sides was once a flag for random data errors, which
	// SAMdisk ignores as deprecated; so does this.
	f.sides = int(b[0x31] & 0x7F)
	switch {
	case f.sides < 1 || f.sides > MaxSides:
		return nil, fmt.Errorf("the Disc Information Block gives %d sides; a disc has 1 or 2", f.sides)
	case f.cylinders > MaxCylinders:
		return nil, fmt.Errorf("the Disc Information Block gives %d tracks; no drive here reaches past %d", f.cylinders, MaxCylinders)
	}
	standardSize := int(le.Uint16(b[0x32:]))
	if !f.extended && f.cylinders > 0 && standardSize < infoSize {
		return nil, fmt.Errorf("the Disc Information Block gives a track size of %d bytes; a track is at least its %d-byte Track Information Block", standardSize, infoSize)
	}
	at := infoSize
	for cyl := range f.cylinders {
		for side := range f.sides {
			size := standardSize
			if f.extended {
				// "high byte of track length"; 0 is an unformatted track,
				// with no Track Information Block (cpctech EDSK).
				size = int(b[0x34+cyl*f.sides+side]) << 8
			}
			if size == 0 {
				f.tracks = append(f.tracks, fileTrack{})
				continue
			}
			if at+size > len(b) {
				return nil, fmt.Errorf("track %d side %d runs from byte %d to %d, and the file is %d bytes: it is cut short", cyl, side, at, at+size, len(b))
			}
			t, err := parseTrack(b[at:at+size], f.extended, cyl, side)
			if err != nil {
				return nil, err
			}
			f.tracks = append(f.tracks, t)
			at += size
		}
	}
	if f.extended && bytes.HasPrefix(b[at:], offsetsSignature) {
		if err := f.parseOffsets(b[at:]); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// parseTrack reads one track's block: its Track Information Block and its
// sectors' data.
func parseTrack(b []byte, extended bool, cyl, side int) (fileTrack, error) {
	where := fmt.Sprintf("track %d side %d", cyl, side)
	if !bytes.HasPrefix(b, trackSignature) {
		return fileTrack{}, fmt.Errorf("%s opens %q, not \"Track-Info\"", where, printable(b[:min(len(b), 12)]))
	}
	t := fileTrack{formatted: true, rate: b[0x12], fm: b[0x13] == 1, gap3: b[0x16], filler: b[0x17]}
	n := int(b[0x15])
	if !extended && n > standardSectors {
		return fileTrack{}, fmt.Errorf("%s lists %d sectors; the original layout's Track Information Block holds %d", where, n, standardSectors)
	}
	// The Sector Information List runs from &18, 8 bytes a sector; a list
	// longer than the 256-byte block leaves a header rounded up to the next
	// 256 (SAMdisk).
	header := (0x18 + 8*n + 0xFF) &^ 0xFF
	if header > len(b) {
		return fileTrack{}, fmt.Errorf("%s lists %d sectors, whose information takes %d bytes, and the track is %d bytes", where, n, header, len(b))
	}
	at := header
	for i := range n {
		e := b[0x18+8*i:]
		s := fileSector{c: e[0], h: e[1], r: e[2], n: e[3], st1: e[4], st2: e[5], copies: 1, offset: -1}
		size := 128 << min(int(b[0x14]), 8) // the original layout: the track's sector size for every sector
		if extended {
			size = int(le.Uint16(e[6:]))
		}
		if at+size > len(b) {
			return fileTrack{}, fmt.Errorf("%s: its sectors hold %d bytes or more by sector %d (ID &%02X), and its size is %d: the sizes disagree", where, at+size-header, i, s.r, len(b)-header)
		}
		s.data = b[at : at+size]
		at += size
		// Several copies of a sector whose data has a CRC error, one after
		// another, where the data is a whole number of sectors long
		// (SAMdisk). A sector with no data field has none.
		native := 128 << min(int(s.n), 8)
		switch {
		case s.st2&ST2MissingData != 0 && size == 0:
			s.copies = 0
		case s.st2&ST2DataError != 0 && size > native && size%native == 0:
			s.copies = size / native
		}
		t.sectors = append(t.sectors, s)
	}
	return t, nil
}

// parseOffsets reads the Offset-Info block: for each track, in the file's
// order, its length and then where each of its sectors lies, each a 16-bit
// count of bytes (SAMdisk, which keeps them as bitstream bits, 16 to a
// byte).
func (f *file) parseOffsets(b []byte) error {
	const header = 15 // "Offset-Info\r\n\0" and a flags byte
	at := header
	word := func(what string) (int, error) {
		if at+2 > len(b) {
			return 0, fmt.Errorf("the Offset-Info block is cut short at %s", what)
		}
		v := int(le.Uint16(b[at:]))
		at += 2
		return v, nil
	}
	for i := range f.tracks {
		t := &f.tracks[i]
		where := fmt.Sprintf("track %d side %d", i/f.sides, i%f.sides)
		n, err := word(where)
		if err != nil {
			return err
		}
		t.length = n
		for j := range t.sectors {
			o, err := word(fmt.Sprintf("%s sector %d", where, j))
			if err != nil {
				return err
			}
			if n == 0 || o >= n {
				return fmt.Errorf("the Offset-Info block puts %s's sector %d at byte %d of a track of %d bytes", where, j, o, n)
			}
			t.sectors[j].offset = o
		}
	}
	return nil
}

// printable quotes the start of a file without its control characters.
func printable(b []byte) string {
	out := make([]byte, len(b))
	for i, c := range b {
		if c < 0x20 || c > 0x7E {
			c = '.'
		}
		out[i] = c
	}
	return string(out)
}
