package cpc

import (
	"strings"
	"testing"

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

func TestDebugCat(t *testing.T) {
	m := bootWithDisc(t, CPC6128, media(t, "romdump.dsk"))
	typeAt(t, m, "cat\n", 150)
	t.Log("\n" + screen(t, m))
}

func TestDebugHello(t *testing.T) {
	m := bootWithDisc(t, CPC6128, media(t, "caprice32_hello_extended.dsk"))
	var printed []byte
	m.AttachPrinter(func(b byte) { printed = append(printed, b) })
	typeAt(t, m, "run\"hello\n", 300)
	t.Logf("%q\n%s", printed, screen(t, m))
	m2 := bootWithDisc(t, CPC6128, media(t, "cpcrogue_basic.dsk"))
	typeAt(t, m2, "run\"rogue\n", 1000)
	t.Logf("\n%s", screen(t, m2))
}
