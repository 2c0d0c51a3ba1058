package cpc

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"colophon/internal/shared"
)

func config(t *testing.T, model Model) Config {
	t.Helper()
	fw, err := os.ReadFile(shared.TestPath(t, "roms", model.String()+".rom"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Model: model, Firmware: fw}
	if model.DiscInterface() {
		if cfg.AMSDOS, err = os.ReadFile(shared.TestPath(t, "roms", "amsdos.rom")); err != nil {
			t.Fatal(err)
		}
	}
	return cfg
}

// TestSNA1RoundTrip saves a booted machine as an SNA, loads it into a new
// machine and saves that again (spec, "Saving a machine"; checklist
// SNA-1): the two files are the same bytes. Two machines loaded from it
// run on alike, and each still answers PRINT 2+2 at its BASIC prompt.
func TestSNA1RoundTrip(t *testing.T) {
	for _, model := range []Model{CPC464, CPC6128} {
		t.Run(model.String(), func(t *testing.T) {
			m := boot(t, model)
			m.RunTicks(78 * TicksPerFrame)
			s1, err := m.Snapshot()
			if err != nil {
				t.Fatal(err)
			}
			a, err := Load(config(t, model), s1)
			if err != nil {
				t.Fatal(err)
			}
			s2, err := a.Snapshot()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(s1, s2) {
				t.Fatalf("a snapshot loaded and saved again differs")
			}
			b, _ := Load(config(t, model), s1)
			for _, x := range []*CPC{a, b} {
				if _, err := x.Type("PRINT 2+2\n"); err != nil {
					t.Fatal(err)
				}
			}
			ca, cb := a.CPU, b.CPU
			ca.Bus, cb.Bus = nil, nil
			if ca != cb || !bytes.Equal(a.RAM, b.RAM) {
				t.Errorf("two machines loaded from one snapshot ran on differently")
			}
			screen := a.Text()
			found := false
			for i, l := range screen[:len(screen)-1] {
				if strings.TrimSpace(l) == "PRINT 2+2" && strings.TrimSpace(screen[i+1]) == "4" {
					found = true
				}
			}
			if !found {
				t.Errorf("a machine loaded from a snapshot does not answer PRINT 2+2:\n%s", strings.Join(screen, "\n"))
			}
		})
	}
}
