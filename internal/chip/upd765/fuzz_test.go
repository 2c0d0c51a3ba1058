package upd765

import (
	"bytes"
	"testing"

	"colophon/internal/media/dsk"
	"colophon/internal/media/dsk/dsktest"
)

// FuzzCommands drives the controller with whatever a program might write
// it and whenever: bytes to its data register, reads of it and of its main
// status register, time passing, the motor, discs going in and out. It
// never panics, its counts stay in their ranges (Validate), and a disc
// stays laid out as Read lays one out, whatever was written and formatted
// on it. Its seeds, in testdata/fuzz/FuzzCommands, are AMSDOS's commands.
func FuzzCommands(f *testing.F) {
	for _, seed := range [][]byte{
		// specify, motor on, a disc, a revolution's wait thrice, sense,
		// recalibrate and sense, read a sector and its bytes.
		{0, 0x03, 0, 0xA1, 0, 0x03, 4, 1, 5, 0, 7, 7, 7, 7, 0, 0x08, 1, 1, 0, 0x07, 0, 0, 3, 255, 0, 0x08, 1, 1,
			0, 0x46, 0, 0, 0, 0, 0, 0xC1, 0, 2, 0, 0xC1, 0, 0x2A, 0, 0xFF, 2, 1, 2, 1, 2, 1, 3, 9, 1, 1, 1, 1, 1, 1, 1},
		// write a sector, then format a track.
		{4, 1, 5, 0, 7, 7, 7, 7, 0, 0x45, 0, 0, 0, 0, 0, 0xC2, 0, 2, 0, 0xC2, 0, 0x2A, 0, 0xFF, 3, 2, 0, 0x55, 0, 0x55, 3, 9, 1, 1,
			0, 0x4D, 0, 0, 0, 2, 0, 9, 0, 0x52, 0, 0xE5, 3, 3, 0, 0, 0, 0, 0, 0xC1, 0, 2, 7, 7, 1, 1, 1},
		// read track, read ID, scan, with the disc taken out halfway.
		{4, 1, 5, 1, 7, 7, 7, 7, 0, 0x42, 0, 0, 0, 0, 0, 0, 0, 0xC1, 0, 2, 0, 9, 0, 0x2A, 0, 0xFF, 3, 4, 6, 0, 1, 1, 1,
			0, 0x4A, 0, 0, 7, 1, 1, 0, 0x51, 0, 0, 0, 0, 0, 0, 0, 0xC1, 0, 2, 0, 0xC1, 0, 0x2A, 0, 1, 3, 2, 0, 0xE5, 7, 1, 1},
	} {
		f.Add(seed)
	}
	data := dsktest.DATA()
	odd := dsktest.Extended(2, 2, []dsktest.Track{
		{Sectors: []dsktest.Sector{{R: 1, N: 2, ST1: 0x20, ST2: 0x20, Data: bytes.Repeat([]byte{1}, 1024)}, {R: 2, N: 6, Data: make([]byte, 100)}}},
		{Sectors: []dsktest.Sector{{H: 1, R: 1, N: 0, ST2: 0x40, Data: make([]byte, 128)}, {R: 9, N: 2, ST1: 1, ST2: 1}}},
	})
	f.Fuzz(func(t *testing.T, script []byte) {
		c := &FDC{}
		c.Reset(2)
		var now uint64
		var discs [2]dsk.Disc
		inserts := 0
		next := func(i *int) byte {
			if *i >= len(script) {
				return 0
			}
			*i++
			return script[*i-1]
		}
		for i := 0; i < len(script); {
			op := next(&i)
			switch op % 8 {
			case 0:
				c.Write(now, next(&i))
			case 1:
				c.Read(now)
			case 2:
				c.MainStatus(now)
			case 3:
				now += uint64(next(&i)) * 256
			case 4:
				c.SetMotor(now, next(&i)&1 != 0)
			case 5:
				v := next(&i)
				// A disc laid out is half a megabyte: a few make the
				// point, and keep each run quick.
				if inserts++; inserts > 4 {
					continue
				}
				image := data
				if v&2 != 0 {
					image = odd
				}
				d, err := dsk.Read(image)
				if err != nil {
					t.Fatal(err)
				}
				discs[v&1] = d
				c.Insert(now, int(v&1), d, v&4 != 0)
			case 6:
				c.Eject(now, int(next(&i)&1))
			case 7:
				now += Revolution
			}
			now += 4
			if err := c.Validate(); err != nil {
				t.Fatalf("after op %d: %v", op, err)
			}
		}
		for _, d := range discs {
			if d.In() {
				if err := dsk.Validate(d.Image); err != nil {
					t.Fatalf("a disc written: %v", err)
				}
			}
		}
	})
}
