// Package dsktest writes DSK files for tests: a blank disc in the CPC's
// DATA format, and images built sector by sector.
package dsktest

import "encoding/binary"

// A Sector is one sector of a Track.
type Sector struct {
	C, H, R, N byte
	ST1, ST2   byte
	Data       []byte // every copy, one after another
}

// A Track is one track, its sectors in the order they lie.
type Track struct {
	Sectors []Sector
	GAP3    byte
	Filler  byte
}

// Extended writes an extended DSK of cylinders × sides tracks, as tracks
// gives them in the file's order, a nil Sectors (or a missing track) being
// unformatted (cpctech, "Extended Disk image file format").
func Extended(cylinders, sides int, tracks []Track) []byte {
	out := make([]byte, 256)
	copy(out, "EXTENDED CPC DSK File\r\nDisk-Info\r\n")
	copy(out[0x22:], "dsktest")
	out[0x30], out[0x31] = byte(cylinders), byte(sides)
	for i := range cylinders * sides {
		if i >= len(tracks) || tracks[i].Sectors == nil {
			continue
		}
		t := tracks[i]
		header := (0x18 + 8*len(t.Sectors) + 0xFF) &^ 0xFF
		b := make([]byte, header)
		copy(b, "Track-Info\r\n")
		b[0x10], b[0x11] = byte(i/sides), byte(i%sides)
		b[0x14], b[0x15], b[0x16], b[0x17] = 2, byte(len(t.Sectors)), t.GAP3, t.Filler
		for j, s := range t.Sectors {
			e := b[0x18+8*j:]
			e[0], e[1], e[2], e[3], e[4], e[5] = s.C, s.H, s.R, s.N, s.ST1, s.ST2
			binary.LittleEndian.PutUint16(e[6:], uint16(len(s.Data)))
			b = append(b, s.Data...)
		}
		b = append(b, make([]byte, (-len(b))&0xFF)...)
		out[0x34+i] = byte(len(b) >> 8)
		out = append(out, b...)
	}
	return out
}

// DATA is a blank disc in the DATA format, as SOFT 968 gives it: one side
// of 40 tracks, each of 9 sectors of 512 bytes numbered &C1 to &C9, every
// byte &E5, which is an empty directory; written in the original layout
// ("MV - CPCEMU"), with the interleave and the GAP#3 the discs in
// ../shared/testdata/media/cpc have, C1 C6 C2 C7 C3 C8 C4 C9 C5 and &4E.
func DATA() []byte {
	const tracks, size = 40, 256 + 9*512
	out := make([]byte, 256, 256+tracks*size)
	copy(out, "MV - CPCEMU Disk-File\r\nDisk-Info\r\n")
	copy(out[0x22:], "dsktest")
	out[0x30], out[0x31] = tracks, 1
	binary.LittleEndian.PutUint16(out[0x32:], size)
	order := []byte{0xC1, 0xC6, 0xC2, 0xC7, 0xC3, 0xC8, 0xC4, 0xC9, 0xC5}
	for c := range tracks {
		b := make([]byte, size)
		copy(b, "Track-Info\r\n")
		b[0x10] = byte(c)
		b[0x14], b[0x15], b[0x16], b[0x17] = 2, 9, 0x4E, 0xE5
		for j, r := range order {
			e := b[0x18+8*j:]
			e[0], e[2], e[3] = byte(c), r, 2
		}
		for i := 256; i < size; i++ {
			b[i] = 0xE5
		}
		out = append(out, b...)
	}
	return out
}
