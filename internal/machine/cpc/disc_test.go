package cpc

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"colophon/internal/chip/upd765"
	"colophon/internal/machine"
	"colophon/internal/media/dsk"
	"colophon/internal/media/dsk/dsktest"
	"colophon/internal/shared"
)

// media reads a disc from the shared media.
func media(t testing.TB, name string) []byte {
	return shared.ReadFile(t, "testdata", "media", "cpc", name)
}

// screen is the machine's text, its lines' trailing spaces cut, blank
// lines left out.
func screen(t testing.TB, m *CPC) string {
	t.Helper()
	var lines []string
	for _, l := range text(t, m) {
		if l = strings.TrimRight(l, " "); l != "" {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "\n")
}

// typeAt types text, then runs frames frames by ticks, as the command line
// counts them.
func typeAt(t testing.TB, m *CPC, text string, frames uint64) {
	t.Helper()
	if _, err := m.Type(text); err != nil {
		t.Fatal(err)
	}
	m.RunTicks(frames * TicksPerFrame)
}

// bootWithDisc boots a model with a disc in drive A from power-on, and
// runs the firmware's start-up wait.
func bootWithDisc(t testing.TB, model Model, image []byte) *CPC {
	t.Helper()
	m := boot(t, model)
	if err := m.InsertDisc(0, image, false); err != nil {
		t.Fatal(err)
	}
	m.RunTicks(78 * TicksPerFrame)
	return m
}

// shows fails unless the screen holds every line given, in order, each
// the start of a line of its own once its spaces are cut (the cursor may
// follow).
func shows(t *testing.T, m *CPC, what string, lines ...string) {
	t.Helper()
	s := screen(t, m)
	at := 0
	all := strings.Split(s, "\n")
	for _, want := range lines {
		for at < len(all) && !strings.HasPrefix(strings.TrimSpace(all[at]), want) {
			at++
		}
		if at == len(all) {
			t.Errorf("%s: the screen has no line %q after the ones before it:\n%s", what, want, s)
			return
		}
	}
}

// TestMediaCatalogues catalogues the shared discs on the 664 and the 6128:
// AMSDOS lists their files and the room left (the media tests).
func TestMediaCatalogues(t *testing.T) {
	for _, model := range []Model{CPC664, CPC6128} {
		for _, c := range []struct {
			disc  string
			lines []string
		}{
			{"cpcrogue_basic.dsk", []string{"Drive A: user  0", "ROGUE   .BAS   4K", "174K free"}},
			{"romdump.dsk", []string{"Drive A: user  0", "ROMDUMP .BAS   1K   ROMDUMP .BIN   1K", "176K free"}},
			{"caprice32_hello_extended.dsk", []string{"Drive A: user  0", "HELLO   .BAS   1K", "177K free"}},
		} {
			m := bootWithDisc(t, model, media(t, c.disc))
			typeAt(t, m, "cat\n", 150)
			shows(t, m, model.String()+" "+c.disc, c.lines...)
		}
	}
}

// TestMediaHelloPrints runs the Caprice32 test disc's program, which
// prints to the printer port what the shared file expects.
func TestMediaHelloPrints(t *testing.T) {
	m := bootWithDisc(t, CPC6128, media(t, "caprice32_hello_extended.dsk"))
	var printed []byte
	m.AttachPrinter(func(b byte) { printed = append(printed, b) })
	typeAt(t, m, "run\"hello\n", 200)
	if want := media(t, "caprice32_hello_expected_printer.txt"); !bytes.Equal(printed, want) {
		t.Errorf("printed %q, want %q", printed, want)
	}
	shows(t, m, "after the program", "run\"hello", "Ready")
}

// TestMediaRogueTitle loads cpcrogue from its disc and reaches its title
// screen, held to a picture of it checked by eye
// (testdata/cpcrogue-title.png). COLOPHON_UPDATE_GOLDEN=1 writes it anew.
func TestMediaRogueTitle(t *testing.T) {
	m := bootWithDisc(t, CPC6128, media(t, "cpcrogue_basic.dsk"))
	typeAt(t, m, "run\"rogue\n", 600)
	shows(t, m, "the title", "PRESS ENTER TO START")
	golden := filepath.Join("testdata", "cpcrogue-title.png")
	p := m.Picture()
	if os.Getenv("COLOPHON_UPDATE_GOLDEN") == "1" {
		b, err := p.PNG()
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if n, first := diffRGB(t, p.Image(), golden); n != 0 {
		t.Errorf("%d pixels differ from %s; %s", n, golden, first)
	}
}

// TestDT13SaveToBlankDisc saves a one-line program to a blank disc in the
// DATA format, and AMSDOS catalogues it as the CPC 6128's manual shows,
// EXAMPLE.BAS 1K and 177K free; the image it came from is untouched and
// blank; the disc as saved, put in another machine, catalogues the same
// (DT-2, DT-6, DT-13, the machine's half: the host's holds the files).
func TestDT13SaveToBlankDisc(t *testing.T) {
	blank := dsktest.DATA()
	source := bytes.Clone(blank)
	m := bootWithDisc(t, CPC6128, source)
	typeAt(t, m, "10 PRINT \"EXAMPLE\"\nsave\"example\n", 150)
	typeAt(t, m, "cat\n", 150)
	want := []string{"Drive A: user  0", "EXAMPLE .BAS   1K", "177K free"}
	shows(t, m, "saved", want...)
	if !bytes.Equal(source, blank) {
		t.Error("the image the disc was read from was written")
	}
	saved, written, err := m.SaveDisc(0)
	if err != nil || !written {
		t.Fatalf("SaveDisc: written %v, %v", written, err)
	}
	again := bootWithDisc(t, CPC6128, saved)
	typeAt(t, again, "cat\n", 150)
	shows(t, again, "the disc saved, in another machine", want...)
	if _, written, _ := again.SaveDisc(0); written {
		t.Error("a disc only catalogued says it was written")
	}
	fresh := bootWithDisc(t, CPC6128, source)
	typeAt(t, fresh, "cat\n", 150)
	shows(t, fresh, "the source again", "Drive A: user  0", "178K free")
}

// TestDT15WriteProtected: a disc put in with its tab set takes no SAVE;
// AMSDOS asks the drive, and says so as its message table spells it
// (DT-5, DT-15).
func TestDT15WriteProtected(t *testing.T) {
	m := boot(t, CPC6128)
	if err := m.InsertDisc(0, dsktest.DATA(), true); err != nil {
		t.Fatal(err)
	}
	m.RunTicks(78 * TicksPerFrame)
	typeAt(t, m, "10 PRINT \"EXAMPLE\"\nsave\"example\n", 150)
	shows(t, m, "a save", "save\"example", "Drive A: disc is write protected", "Retry, Ignore or Cancel?")
	if _, written, _ := m.SaveDisc(0); written || m.FDC.Units[0].Written {
		t.Error("the protected disc was written")
	}
}

// TestDT8DiscChangedWithMotorRunning: AMSDOS leaves the motor turning 5
// seconds after it reads; a disc put in meanwhile and asked for before it
// is ready is reported missing, and found once it is (DT-7, DT-8).
func TestDT8DiscChangedWithMotorRunning(t *testing.T) {
	m := bootWithDisc(t, CPC6128, media(t, "romdump.dsk"))
	typeAt(t, m, "cat\n", 150)
	shows(t, m, "the first disc", "ROMDUMP .BAS   1K   ROMDUMP .BIN   1K")
	if !m.Motor {
		t.Fatal("the motor stopped within 5 seconds of the read")
	}
	if err := m.InsertDisc(0, media(t, "cpcrogue_basic.dsk"), false); err != nil {
		t.Fatal(err)
	}
	// cat typed at once: its last key goes down within 600 ms.
	typeAt(t, m, "cat\n", 30)
	shows(t, m, "the second disc, asked for too soon", "cat", "Drive A: disc missing", "Retry, Ignore or Cancel?")
	typeAt(t, m, "r", 150)
	shows(t, m, "retried", "Drive A: user  0", "ROGUE   .BAS   4K", "174K free")
	// The motor stops 5 seconds after the last read.
	m.RunTicks(300 * TicksPerFrame)
	if m.Motor {
		t.Error("the motor still turns 6 seconds after the last read")
	}
}

// TestBothDrives reads drive B: |B makes it AMSDOS's drive, and a program
// there loads; drive A's disc is untouched by it.
func TestBothDrives(t *testing.T) {
	m := bootWithDisc(t, CPC6128, media(t, "romdump.dsk"))
	if err := m.InsertDisc(1, media(t, "cpcrogue_basic.dsk"), false); err != nil {
		t.Fatal(err)
	}
	typeAt(t, m, "cat\n", 150)
	shows(t, m, "drive A", "Drive A: user  0", "ROMDUMP .BAS   1K   ROMDUMP .BIN   1K")
	typeAt(t, m, "|b\ncat\n", 150)
	shows(t, m, "drive B", "Drive B: user  0", "ROGUE   .BAS   4K", "174K free")
	typeAt(t, m, "run\"rogue\n", 600)
	shows(t, m, "a program loaded from drive B", "PRESS ENTER TO START")
	if m.FDC.Units[1].Head == 0 {
		t.Error("drive B's head never moved")
	}
}

// TestDiscRefusals: a 464 takes no disc; a drive past B is refused; an image
// that is not a DSK is refused, the drive left as it was.
func TestDiscRefusals(t *testing.T) {
	if err := boot(t, CPC464).InsertDisc(0, dsktest.DATA(), false); err == nil || !strings.Contains(err.Error(), "cpc464 has no disc interface, and none can be fitted") {
		t.Errorf("a 464: %v", err)
	}
	m := boot(t, CPC6128)
	if err := m.InsertDisc(2, dsktest.DATA(), false); err == nil {
		t.Error("drive 2 was taken")
	}
	if err := m.InsertDisc(0, dsktest.DATA(), false); err != nil {
		t.Fatal(err)
	}
	if err := m.InsertDisc(0, []byte("not a disc"), false); err == nil {
		t.Error("a file that is no DSK was taken")
	}
	if !m.FDC.Disc(0).In() {
		t.Error("a refused disc took the drive's disc out")
	}
	if _, _, err := m.SaveDisc(1); err == nil || !strings.Contains(err.Error(), "drive B holds no disc") {
		t.Errorf("saving an empty drive: %v", err)
	}
}

// TestDiscLoadAsObserved: the disc controller's accesses leave the video
// behind, where it runs on lazily (offVideo); a machine watched by an
// observer, whose every access brings the video up to it, ends a load where
// the unwatched one does, every field, byte and pixel alike.
func TestDiscLoadAsObserved(t *testing.T) {
	var ms [2]*CPC
	for i := range ms {
		m := boot(t, CPC6128)
		if i == 1 {
			m.Observe(func(*machine.Access) {})
		}
		if err := m.InsertDisc(0, media(t, "cpcrogue_basic.dsk"), false); err != nil {
			t.Fatal(err)
		}
		m.RunTicks(78 * TicksPerFrame)
		typeAt(t, m, "run\"rogue\n", 150)
		m.RunFrames(20)
		ms[i] = m
	}
	same(t, "watched and not", ms[0], ms[1])
}

// TestDT11SaveMidWrite: a disc written out while AMSDOS writes it holds the
// sector as far as the write has come: the bytes written, and after them
// the bytes the sector held (DT-11). AMSDOS writes the file's first sector,
// &C5, twice, the second time with the file; the test saves the disc
// halfway through that write, and sets it beside the sector before the
// write and after it.
func TestDT11SaveMidWrite(t *testing.T) {
	m := bootWithDisc(t, CPC6128, dsktest.DATA())
	if _, err := m.Type("10 PRINT \"EXAMPLE\"\nsave\"example\n"); err != nil {
		t.Fatal(err)
	}
	f := &m.FDC
	sector := func() []byte {
		d := f.Units[0].Disc
		tr := d.Track(0, 0)
		for i := range tr.Sectors() {
			if s := tr.Sector(i); s.R == 0xC5 {
				b := make([]byte, 512)
				for j := range b {
					b[j] = d.Byte(s, 0, j)
				}
				return b
			}
		}
		t.Fatal("no sector &C5")
		return nil
	}
	writing := func() bool {
		f.Run(m.CPU.Tick)
		return f.Phase == upd765.Execution && f.Code&0x1F == 0x05 && f.R == 0xC5
	}
	// Step by steps short of a byte's 32 µs, to the second write's start.
	var before, mid, after []byte
	count := 0
	writes := 0
	for n := 0; n < 400000 && after == nil; n++ {
		was := writing()
		m.RunTicks(100)
		now := writing()
		switch {
		case !was && now:
			if writes++; writes == 2 {
				before = sector()
			}
		case writes == 2 && now && mid == nil && f.Count >= 20:
			b, written, err := m.SaveDisc(0)
			if err != nil || !written {
				t.Fatalf("SaveDisc: %v, written %v", err, written)
			}
			d, err := dsk.Read(b)
			if err != nil {
				t.Fatal(err)
			}
			tr := d.Track(0, 0)
			for i := range tr.Sectors() {
				if s := tr.Sector(i); s.R == 0xC5 {
					for j := range 512 {
						mid = append(mid, d.Byte(s, 0, j))
					}
				}
			}
			count = f.Count
		case writes == 2 && was && !now:
			after = sector()
		}
	}
	if after == nil || mid == nil {
		t.Fatalf("AMSDOS wrote &C5 %d times; the test saw no second write whole", writes)
	}
	if !bytes.Equal(mid[:count], after[:count]) || !bytes.Equal(mid[count:], before[count:]) {
		t.Errorf("saved %d bytes into the write: the sector is not the bytes written, then the bytes it held", count)
	}
	if bytes.Equal(mid, before) || bytes.Equal(mid, after) {
		t.Error("the write changed nothing of the sector saved halfway")
	}
}
