package dsk

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"colophon/internal/media/dsk/dsktest"
	"colophon/internal/shared"
)

// sectorsOf lists a disc's sectors, track by track, with their data and
// places, for two discs to be compared.
func sectorsOf(d Disc) string {
	var b strings.Builder
	for c := range d.Cylinders() {
		for s := range d.Sides() {
			t := d.Track(c, s)
			if !t.Formatted() {
				continue
			}
			fmt.Fprintf(&b, "%d/%d fm=%v:", c, s, t.FM())
			for i := range t.Sectors() {
				sec := t.Sector(i)
				fmt.Fprintf(&b, " %02X%02X%02X%02X %02X%02X x%d @%d [", sec.C, sec.H, sec.R, sec.N, sec.ST1, sec.ST2, sec.Copies, sec.Place)
				for k := range sec.Copies {
					data := make([]byte, sec.Size)
					for j := range data {
						data[j] = d.Byte(sec, k, j)
					}
					b.WriteString(hex.EncodeToString(data))
				}
				b.WriteString("]")
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

// TestReadSharedMedia reads the shared discs, an extended image and two of
// the original layout, and finds their directories where AMSDOS keeps
// them: the first sectors of track 0, &C1 to &C4.
func TestReadSharedMedia(t *testing.T) {
	for _, c := range []struct {
		file  string
		files []string
	}{
		{"caprice32_hello_extended.dsk", []string{"HELLO   .BAS"}},
		{"cpcrogue_basic.dsk", []string{"ROGUE   .BAS"}},
		{"romdump.dsk", []string{"ROMDUMP .BAS", "ROMDUMP .BIN"}},
	} {
		d, err := Read(shared.ReadFile(t, "testdata", "media", "cpc", c.file))
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		if d.Cylinders() != 42 || d.Sides() != 1 || d.ImageCylinders() != 42 {
			t.Errorf("%s: %d cylinders, %d sides", c.file, d.Cylinders(), d.Sides())
		}
		t0 := d.Track(0, 0)
		if t0.Sectors() != 9 || t0.FM() {
			t.Fatalf("%s: track 0 has %d sectors", c.file, t0.Sectors())
		}
		var dir []byte
		for r := byte(0xC1); r <= 0xC4; r++ {
			for i := range 9 {
				if s := t0.Sector(i); s.R == r && s.N == 2 && s.Size == 512 && s.Copies == 1 {
					for j := range 512 {
						dir = append(dir, d.Byte(s, 0, j))
					}
				}
			}
		}
		var names []string
		for e := 0; e+32 <= len(dir); e += 32 {
			if dir[e] != 0xE5 && dir[e+12] == 0 {
				names = append(names, string(dir[e+1:e+9])+"."+string(dir[e+9:e+12]))
			}
		}
		if strings.Join(names, ",") != strings.Join(c.files, ",") {
			t.Errorf("%s: directory %q, want %q", c.file, names, c.files)
		}
		// The places of an image without Offset-Info: laid out as a FORMAT
		// TRACK with its GAP#3 of &4E would lay them, 146 bytes of gaps and
		// 12 of sync before the first ID, 62+512+78 bytes a sector.
		for i := range 9 {
			if p, want := t0.Sector(i).Place, 158+i*(62+512+78); p != want {
				t.Errorf("%s: sector %d at byte %d, want %d", c.file, i, p, want)
			}
		}
		if err := Validate(d.Image); err != nil {
			t.Errorf("%s laid out: %v", c.file, err)
		}
	}
}

// TestDT9SaveRoundTrip holds Save to the disc it writes (DT-9, DT-10): an
// extended DSK naming colophon its creator, ending in an Offset-Info block,
// which reads back as the same disc, places and all, and saves again to
// the same bytes; a disc read from an original layout saves to other bytes
// than its file's.
func TestDT9SaveRoundTrip(t *testing.T) {
	for _, name := range []string{"caprice32_hello_extended.dsk", "cpcrogue_basic.dsk", "romdump.dsk"} {
		src := shared.ReadFile(t, "testdata", "media", "cpc", name)
		d, err := Read(src)
		if err != nil {
			t.Fatal(err)
		}
		out, err := Save(d)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(out, []byte("EXTENDED CPC DSK File\r\nDisk-Info\r\ncolophon\x00")) {
			t.Errorf("%s: saved as %q", name, out[:0x30])
		}
		if !bytes.Contains(out, []byte("Offset-Info\r\n\x00\x00")) {
			t.Errorf("%s: no Offset-Info block", name)
		}
		if bytes.Equal(out, src) {
			t.Errorf("%s: saved as the very file it came from", name)
		}
		back, err := Read(out)
		if err != nil {
			t.Fatalf("%s saved: %v", name, err)
		}
		if sectorsOf(back) != sectorsOf(d) {
			t.Errorf("%s: the saved disc reads back otherwise", name)
		}
		again, err := Save(back)
		if err != nil || !bytes.Equal(again, out) {
			t.Errorf("%s: saved twice, differently (%v)", name, err)
		}
	}
}

// TestSaveStandard writes a disc in the original layout and reads it back
// as the same disc, but for where its sectors lie; a disc that layout
// cannot hold is refused, saying why.
func TestSaveStandard(t *testing.T) {
	for _, name := range []string{"caprice32_hello_extended.dsk", "cpcrogue_basic.dsk"} {
		d, err := Read(shared.ReadFile(t, "testdata", "media", "cpc", name))
		if err != nil {
			t.Fatal(err)
		}
		out, err := SaveStandard(d)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !bytes.HasPrefix(out, []byte("MV - CPCEMU Disk-File\r\nDisk-Info\r\ncolophon")) {
			t.Errorf("%s: saved as %q", name, out[:0x30])
		}
		back, err := Read(out)
		if err != nil {
			t.Fatalf("%s saved: %v", name, err)
		}
		if sectorsOf(back) != sectorsOf(d) {
			t.Errorf("%s: the saved disc reads back otherwise", name)
		}
	}
	if out, err := SaveStandard(laid(t, dsktest.DATA())); err != nil || !bytes.Equal(out[0x100:], dsktest.DATA()[0x100:]) {
		t.Errorf("the blank DATA disc saved in its own layout differs from its file past the header (%v)", err)
	}
	weak := dsktest.Extended(1, 1, []dsktest.Track{{Sectors: []dsktest.Sector{{R: 1, N: 1, ST1: 0x20, ST2: 0x20, Data: make([]byte, 512)}}}})
	if _, err := SaveStandard(laid(t, weak)); err == nil || !strings.Contains(err.Error(), "recorded in 2 copies") {
		t.Errorf("a weak sector: %v", err)
	}
	mixed := dsktest.Extended(1, 1, []dsktest.Track{{Sectors: []dsktest.Sector{{R: 1, N: 2, Data: make([]byte, 512)}, {R: 2, N: 1, Data: make([]byte, 256)}}}})
	if _, err := SaveStandard(laid(t, mixed)); err == nil || !strings.Contains(err.Error(), "gives every sector of a track its first's") {
		t.Errorf("sectors of two sizes: %v", err)
	}
}

// laid reads a file it must read.
func laid(t *testing.T, file []byte) Disc {
	t.Helper()
	d, err := Read(file)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestWeakSectors: a sector whose data has a CRC error, recorded as three
// copies of its 512 bytes, is three copies (SAMdisk's multiple copies); one
// recorded at its size is one; and Byte answers each copy.
func TestWeakSectors(t *testing.T) {
	weak := append(append(bytes.Repeat([]byte{1}, 512), bytes.Repeat([]byte{2}, 512)...), bytes.Repeat([]byte{3}, 512)...)
	f := dsktest.Extended(1, 1, []dsktest.Track{{Sectors: []dsktest.Sector{
		{C: 0, R: 0xC1, N: 2, ST1: ST1DataError, ST2: ST2DataError, Data: weak},
		{C: 0, R: 0xC2, N: 2, ST1: ST1DataError, ST2: ST2DataError, Data: bytes.Repeat([]byte{9}, 512)},
	}}})
	d, err := Read(f)
	if err != nil {
		t.Fatal(err)
	}
	s := d.Track(0, 0).Sector(0)
	if s.Copies != 3 || s.Size != 512 {
		t.Fatalf("the weak sector: %d copies of %d", s.Copies, s.Size)
	}
	for k := range 4 {
		if got := d.Byte(s, k, 100); got != byte(k%3+1) {
			t.Errorf("copy %d reads &%02X", k, got)
		}
	}
	if s := d.Track(0, 0).Sector(1); s.Copies != 1 {
		t.Errorf("a sector of its size with a CRC error: %d copies", s.Copies)
	}
	out, _ := Save(d)
	back, err := Read(out)
	if err != nil || sectorsOf(back) != sectorsOf(d) {
		t.Errorf("the weak sector did not save and read back whole: %v", err)
	}
}

// TestOddSizes: a sector recorded shorter than its size reads the gap's &4E
// past what it holds, and has room for a whole sector to be written; one
// recorded longer keeps what it holds; a sector with no data field has
// none.
func TestOddSizes(t *testing.T) {
	f := dsktest.Extended(1, 1, []dsktest.Track{{Sectors: []dsktest.Sector{
		{R: 1, N: 2, Data: bytes.Repeat([]byte{7}, 100)},
		{R: 2, N: 1, Data: bytes.Repeat([]byte{8}, 300)},
		{R: 3, N: 2, ST1: ST1MissingAddress, ST2: ST2MissingData},
	}}})
	d, err := Read(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := d.Track(0, 0)
	short, long, none := tr.Sector(0), tr.Sector(1), tr.Sector(2)
	if short.Size != 100 || short.Room != 512 || d.Byte(short, 0, 99) != 7 || d.Byte(short, 0, 100) != 0x4E {
		t.Errorf("the short sector: %+v", short)
	}
	if long.Size != 300 || long.Room != 300 || d.Byte(long, 0, 299) != 8 {
		t.Errorf("the long sector: %+v", long)
	}
	if none.Copies != 0 || none.Room != 512 {
		t.Errorf("the sector with no data: %+v", none)
	}
	w := d.Begin(short, 512, false)
	for i := range 512 {
		if !d.Write(w, i, byte(i)) {
			t.Fatalf("no room for byte %d", i)
		}
	}
	w = d.Track(0, 0).Sector(0)
	if w.Size != 512 || d.Byte(w, 0, 511) != 0xFF {
		t.Errorf("the short sector written whole: %+v", w)
	}
}

// TestDT4FormatEveryTrackTwice: a disc has room to format every track the
// medium holds once more, a track its image never had among them, and then
// again; the tracks read back as formatted, and the disc stays laid out
// right (DT-4).
func TestDT4FormatEveryTrackTwice(t *testing.T) {
	d, err := Read(dsktest.DATA())
	if err != nil {
		t.Fatal(err)
	}
	n := len(d.Image)
	for pass := range 2 {
		for c := range d.Cylinders() {
			d.Format(c, 0, false, 0x52, byte(0xE5+pass))
			for i := range 9 {
				if !d.AddSector(c, 0, byte(c), 0, byte(0x41+i), 2, 158+i*(62+512+0x52), 512, byte(0xE5+pass)) {
					t.Fatalf("pass %d track %d: no room for sector %d", pass, c, i)
				}
			}
		}
	}
	if len(d.Image) != n {
		t.Fatal("the disc grew")
	}
	for c := range 42 {
		tr := d.Track(c, 0)
		if tr.Sectors() != 9 || tr.Sector(8).R != 0x49 || d.Byte(tr.Sector(8), 0, 511) != 0xE6 {
			t.Fatalf("track %d after formatting twice: %d sectors", c, tr.Sectors())
		}
	}
	if d.Format(42, 0, false, 0x52, 0) || !d.AddSector(42, 0, 42, 0, 1, 2, 158, 512, 0) || d.Track(42, 0).Formatted() {
		t.Error("track 42, past what the medium holds, was formatted")
	}
	if err := Validate(d.Image); err != nil {
		t.Error(err)
	}
	out, err := Save(d)
	if err != nil {
		t.Fatal(err)
	}
	if out[0x30] != 42 {
		t.Errorf("saved %d tracks, want all 42 formatted", out[0x30])
	}
}

// TestMalformed holds a corpus of broken images to a refusal each, saying
// what is wrong (the malformed-image corpus).
func TestMalformed(t *testing.T) {
	good := dsktest.DATA()
	ext := dsktest.Extended(2, 1, []dsktest.Track{
		{Sectors: []dsktest.Sector{{R: 1, N: 2, Data: make([]byte, 512)}}},
		{Sectors: []dsktest.Sector{{R: 1, N: 2, Data: make([]byte, 512)}}},
	})
	edit := func(b []byte, f func([]byte) []byte) []byte { return f(bytes.Clone(b)) }
	for _, c := range []struct {
		name string
		file []byte
		want string
	}{
		{"empty", nil, "the file is 0 bytes; a DSK image opens with a Disc Information Block of 256"},
		{"short header", good[:200], "the file is 200 bytes"},
		{"not a DSK", edit(good, func(b []byte) []byte { copy(b, "PK\x03\x04"); return b }), `the file opens "PK..`},
		{"no sides", edit(good, func(b []byte) []byte { b[0x31] = 0; return b }), "gives 0 sides; a disc has 1 or 2"},
		{"three sides", edit(good, func(b []byte) []byte { b[0x31] = 3; return b }), "gives 3 sides"},
		{"too many tracks", edit(good, func(b []byte) []byte { b[0x30] = 90; return b }), "gives 90 tracks; no drive here reaches past 84"},
		{"track size too small", edit(good, func(b []byte) []byte { binary.LittleEndian.PutUint16(b[0x32:], 0x80); return b }), "a track size of 128 bytes"},
		{"truncated track", good[:len(good)-1000], "track 39 side 0 runs from byte"},
		{"truncated extended", ext[:len(ext)-10], "track 1 side 0 runs from byte"},
		{"no Track-Info", edit(good, func(b []byte) []byte { copy(b[0x100+5*4864:], "Trash"); return b }), `track 5 side 0 opens "Trash`},
		{"sector list too long", edit(ext, func(b []byte) []byte { b[0x100+0x15] = 200; return b }), "lists 200 sectors"},
		{"more sectors than the original layout lists", edit(good, func(b []byte) []byte { b[0x100+0x15] = 30; return b }), "lists 30 sectors; the original layout's Track Information Block holds 29"},
		{"sizes disagree", edit(ext, func(b []byte) []byte { binary.LittleEndian.PutUint16(b[0x100+0x18+6:], 4000); return b }), "the sizes disagree"},
		{"standard sizes disagree", edit(good, func(b []byte) []byte { b[0x100+0x14] = 5; return b }), "the sizes disagree"},
		{"offsets cut short", append(bytes.Clone(ext), "Offset-Info\r\n\x00\x00\x6a\x18"...), "the Offset-Info block is cut short at track 0 side 0 sector 0"},
		{"offset past the track", append(bytes.Clone(ext), "Offset-Info\r\n\x00\x00\x6a\x18\xff\x7f"...), "puts track 0 side 0's sector 0 at byte 32767 of a track of 6250"},
	} {
		_, err := Read(c.file)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want %q", c.name, err, c.want)
		}
	}
}

// TestValidate holds Validate to buffers that break the layout: a state
// file's disc must be one Read would lay out (KEEP-12).
func TestValidate(t *testing.T) {
	d, err := Read(dsktest.DATA())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		f    func([]byte) []byte
		want string
	}{
		{"short", func(b []byte) []byte { return b[:100] }, "not a disc laid out"},
		{"cylinders", func(b []byte) []byte { b[16] = 100; return b }, "holds 100 cylinders"},
		{"length", func(b []byte) []byte { return b[:len(b)-1] }, "says it is"},
		{"track outside", func(b []byte) []byte { binary.LittleEndian.PutUint32(b[tableAt:], 0xFFFFFF); return b }, "lies outside"},
		{"sector outside", func(b []byte) []byte {
			at := int(binary.LittleEndian.Uint32(b[tableAt:]))
			binary.LittleEndian.PutUint32(b[at+trackHeader+16:], 0xFFFFFFF)
			return b
		}, "track 0 side 0 sector 0"},
	} {
		if err := Validate(c.f(bytes.Clone(d.Image))); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want %q", c.name, err, c.want)
		}
	}
	again, err := Laid(bytes.Clone(d.Image))
	if err != nil || sectorsOf(again) != sectorsOf(d) || again.Marks[0] == 0 {
		t.Errorf("a laid-out buffer taken again: %v", err)
	}
}

// FuzzRead reads anything as a DSK image: it is laid out, or refused, and
// never panics; a disc laid out validates, saves, and reads back the same.
// Its seeds are in testdata/fuzz/FuzzRead.
func FuzzRead(f *testing.F) {
	f.Add(dsktest.DATA()[:4864*2+256])
	f.Fuzz(func(t *testing.T, b []byte) {
		d, err := Read(b)
		if err != nil {
			return
		}
		if err := Validate(d.Image); err != nil {
			t.Fatalf("laid out, and refused: %v", err)
		}
		out, err := Save(d)
		if err != nil {
			return
		}
		back, err := Read(out)
		if err != nil {
			t.Fatalf("saved, and refused: %v", err)
		}
		if sectorsOf(back) != sectorsOf(d) {
			t.Fatal("saved, and read back otherwise")
		}
		if std, err := SaveStandard(d); err == nil {
			if _, err := Read(std); err != nil {
				t.Fatalf("saved in the original layout, and refused: %v", err)
			}
		}
	})
}

// FuzzValidate holds every buffer Validate passes to the promise it makes:
// nothing read, written, formatted or saved through it reaches outside it
// (KEEP-12).
func FuzzValidate(f *testing.F) {
	d, err := Read(dsktest.Extended(1, 1, []dsktest.Track{{Sectors: []dsktest.Sector{{R: 1, N: 0, Data: make([]byte, 128)}}}}))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(d.Image)
	f.Fuzz(func(t *testing.T, b []byte) {
		if Validate(b) != nil {
			return
		}
		d := Disc{Image: b}
		for c := range d.Cylinders() {
			for s := range d.Sides() {
				tr := d.Track(c, s)
				for i := range tr.Sectors() {
					sec := tr.Sector(i)
					for k := range sec.Copies + 1 {
						for j := range sec.Size + 1 {
							d.Byte(sec, k, j)
						}
					}
					sec = d.Begin(sec, sec.Room+1, true)
					for j := range sec.Room + 1 {
						d.Write(sec, j, 0)
					}
				}
			}
		}
		Save(d)
		d.Format(0, 0, false, 0x4E, 0xE5)
		for i := range maxFormatSectors + 1 {
			d.AddSector(0, 0, 0, 0, byte(i), 6, 0, 8192, 0)
		}
		d.CutSector(0, 0, 100000)
		if err := Validate(b); err != nil {
			t.Fatalf("valid, then invalid once written: %v", err)
		}
	})
}
