package main

import (
	"os"
	"path/filepath"
	"testing"

	"colophon/internal/media/tape/tapetest"
	"colophon/internal/shared"
)

// TestDT16CommandLineTapes loads a tape given with --tape: a Spectrum's
// BASIC program by LOAD "" typed at it, which autostarts and pokes 123
// into 32768, and a CPC 464's binary by RUN" and a space for the key the
// firmware asks for, which writes &42 to &5000; each snapshot then holds
// what the program wrote.
func TestDT16CommandLineTapes(t *testing.T) {
	roms := shared.TestPath(t, "roms")
	dir := t.TempDir()
	prog := tapetest.Line(10, append(append(append([]byte{0xF4}, tapetest.Number(32768)...), ','), tapetest.Number(123)...)...)
	tap := filepath.Join(dir, "prog.tap")
	cdt := filepath.Join(dir, "marker.cdt")
	os.WriteFile(tap, tapetest.SpectrumProgram("colophon", 10, prog), 0o644)
	os.WriteFile(cdt, tapetest.CPCBinary("MARKER", 0x4000, 0x4000, []byte{0x3E, 0x42, 0x32, 0x00, 0x50, 0x18, 0xFE}), 0o644)
	for _, c := range []struct {
		machine, tape, text, wait string
		at                        int // where the byte stands in the snapshot
		want                      byte
	}{
		{"spectrum48", tap, `j""\n`, "700", 27 + 32768 - 0x4000, 123},
		{"cpc464", cdt, `RUN"\n `, "1500", 0x100 + 0x5000, 0x42},
	} {
		sna := filepath.Join(dir, c.machine+".sna")
		args := []string{"boot", "--machine", c.machine, "--roms", roms, "--tape", c.tape, "--type", c.text, "--wait", c.wait, "--save", sna}
		if status, _, errs := colophon(args...); status != 0 {
			t.Fatalf("%q: status %d: %s", args, status, errs)
		}
		b, err := os.ReadFile(sna)
		if err != nil {
			t.Fatal(err)
		}
		if b[c.at] != c.want {
			t.Errorf("%s: the snapshot holds &%02X where the program writes &%02X", c.machine, b[c.at], c.want)
		}
	}
}
