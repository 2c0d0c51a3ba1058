package dsk

import (
	"fmt"
)

// Creator is the name a disc written here gives its creator, in the Disc
// Information Block's 14 bytes at &22 (cpctech EDSK: "name of
// utility/emulator that created the file").
const Creator = "colophon"

// Save writes a disc as an extended DSK image, as the command line's
// --save-disc and disc_save write it (spec, "Discs and tapes"; DT-9): every
// track from cylinder 0 to the last formatted one, or to the last its image
// had, whichever is further, each with its Track Information Block and its
// sectors' data, every copy of it; and then the Offset-Info block, which
// records each track's length and where each of its sectors lies.
func Save(d Disc) ([]byte, error) {
	if !d.In() {
		return nil, fmt.Errorf("there is no disc")
	}
	sides := d.Sides()
	cyls := d.ImageCylinders()
	for c := range d.Cylinders() {
		for s := range sides {
			if d.Track(c, s).Formatted() {
				cyls = max(cyls, c+1)
			}
		}
	}
	if cyls*sides > maxTrackEntries {
		return nil, fmt.Errorf("%d tracks of %d sides do not fit an extended DSK's size table of %d", cyls, sides, maxTrackEntries)
	}
	out := make([]byte, infoSize)
	copy(out, "EXTENDED CPC DSK File\r\nDisk-Info\r\n")
	copy(out[0x22:0x30], Creator)
	out[0x30], out[0x31] = byte(cyls), byte(sides)
	var offsets []byte
	word := func(v int) { offsets = le.AppendUint16(offsets, uint16(v)) }
	for c := range cyls {
		for s := range sides {
			t := d.Track(c, s)
			word(t.Length())
			if !t.Formatted() {
				continue
			}
			block, err := saveTrack(d, t, c, s)
			if err != nil {
				return nil, err
			}
			out[0x34+c*sides+s] = byte(len(block) >> 8)
			out = append(out, block...)
			for i := range t.Sectors() {
				word(t.Sector(i).Place)
			}
		}
	}
	// "Offset-Info\r\n\0" and a flags byte that must be 0 (SAMdisk).
	out = append(out, "Offset-Info\r\n\x00\x00"...)
	return append(out, offsets...), nil
}

// saveTrack writes one track's block: its Track Information Block, with a
// Sector Information List of as many sectors as it has, in a header
// rounded up to 256 bytes where they are more than 29 (SAMdisk), and the
// data, the whole block rounded up to 256 bytes.
func saveTrack(d Disc, t Track, c, s int) ([]byte, error) {
	n := t.Sectors()
	header := (0x18 + 8*n + 0xFF) &^ 0xFF
	b := make([]byte, header)
	copy(b, "Track-Info\r\n")
	b[0x10], b[0x11] = byte(c), byte(s)
	h := d.Image[t.at:]
	b[0x12] = h[5] // the data rate (SAMdisk)
	if t.FM() {
		b[0x13] = 1
	} else {
		b[0x13] = 2
	}
	b[0x14] = 2 // the sector size, N, of the first sector, or 512 bytes where none
	if n > 0 {
		b[0x14] = t.Sector(0).N
	}
	b[0x15], b[0x16], b[0x17] = byte(n), h[2], h[3]
	for i := range n {
		sec := t.Sector(i)
		e := b[0x18+8*i:]
		e[0], e[1], e[2], e[3], e[4], e[5] = sec.C, sec.H, sec.R, sec.N, sec.ST1, sec.ST2
		size := sec.Copies * sec.Size
		le.PutUint16(e[6:], uint16(size))
		b = append(b, d.Image[sec.at:sec.at+size]...)
	}
	b = append(b, make([]byte, (-len(b))&0xFF)...)
	if len(b) > 0xFF00 {
		return nil, fmt.Errorf("track %d side %d is %d bytes; an extended DSK's track is at most %d", c, s, len(b), 0xFF00)
	}
	return b, nil
}

// SaveStandard writes a disc in the original layout, "MV - CPCEMU", for a
// tool that reads no other: every track from cylinder 0 to the last
// formatted one, or to the last its image had, each the size of the
// largest, an unformatted one as a Track Information Block listing no
// sector (cpctech DSK: "All tracks must have a Track Information Block").
// The layout has no room for what the extended one records beside: a disc
// with a sector of several copies, or of another size than its track's
// first sector, or a track of more than 29 sectors, is refused, saying
// which; where each sector lies is not written.
func SaveStandard(d Disc) ([]byte, error) {
	if !d.In() {
		return nil, fmt.Errorf("there is no disc")
	}
	sides, cyls := d.Sides(), d.ImageCylinders()
	size := infoSize
	for c := range d.Cylinders() {
		for s := range sides {
			t := d.Track(c, s)
			if !t.Formatted() {
				continue
			}
			cyls = max(cyls, c+1)
			where := fmt.Sprintf("track %d side %d", c, s)
			if t.Sectors() > standardSectors {
				return nil, fmt.Errorf("%s has %d sectors; the original layout lists %d at most", where, t.Sectors(), standardSectors)
			}
			bytes := infoSize
			for i := range t.Sectors() {
				sec := t.Sector(i)
				want := 128 << min(int(t.Sector(0).N), 8)
				switch {
				case sec.Copies > 1:
					return nil, fmt.Errorf("%s sector %d (ID &%02X) is recorded in %d copies; the original layout holds one", where, i, sec.R, sec.Copies)
				case sec.Copies == 1 && sec.Size != want || 128<<min(int(sec.N), 8) != want:
					return nil, fmt.Errorf("%s sector %d (ID &%02X) is %d bytes of size %d; the original layout gives every sector of a track its first's, %d bytes", where, i, sec.R, sec.Size, sec.N, want)
				}
				bytes += want
			}
			size = max(size, bytes)
		}
	}
	if size > 0xFFFF {
		return nil, fmt.Errorf("a track of %d bytes does not fit the original layout's 16-bit track size", size)
	}
	out := make([]byte, infoSize, infoSize+cyls*sides*size)
	copy(out, "MV - CPCEMU Disk-File\r\nDisk-Info\r\n")
	copy(out[0x22:0x30], Creator)
	out[0x30], out[0x31] = byte(cyls), byte(sides)
	le.PutUint16(out[0x32:], uint16(size))
	for c := range cyls {
		for s := range sides {
			t := d.Track(c, s)
			b := make([]byte, size)
			copy(b, "Track-Info\r\n")
			b[0x10], b[0x11], b[0x14] = byte(c), byte(s), 2
			if t.Formatted() {
				h := d.Image[t.at:]
				n := t.Sectors()
				b[0x15], b[0x16], b[0x17] = byte(n), h[2], h[3]
				at := infoSize
				for i := range n {
					sec := t.Sector(i)
					if i == 0 {
						b[0x14] = sec.N
					}
					e := b[0x18+8*i:]
					e[0], e[1], e[2], e[3], e[4], e[5] = sec.C, sec.H, sec.R, sec.N, sec.ST1, sec.ST2
					copy(b[at:], d.Image[sec.at:sec.at+sec.Copies*sec.Size])
					at += 128 << min(int(b[0x14]), 8)
				}
			}
			out = append(out, b...)
		}
	}
	return out, nil
}
