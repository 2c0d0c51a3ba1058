package typing_test

import (
	"testing"

	"colophon/internal/machine/cpc"
	"colophon/internal/machine/spectrum"
	"colophon/internal/typing"
)

// FuzzPlan feeds typing any text, as type's argument and the command
// line's --type give it, with both machines' keyboards (issue 19's
// standing guards; seeds in testdata/fuzz/FuzzPlan). Nothing panics; a
// refusal quotes what was sent short; a plan presses one character after
// another, each by keys the machine holds by those names; and the keys a
// refusal sends to run are keys run holds.
func FuzzPlan(f *testing.F) {
	s, err := spectrum.New(make([]byte, spectrum.ROMSize))
	if err != nil {
		f.Fatal(err)
	}
	c, err := cpc.New(cpc.Config{Model: cpc.CPC6128, Firmware: make([]byte, 2*cpc.ROMSize), AMSDOS: make([]byte, cpc.ROMSize)})
	if err != nil {
		f.Fatal(err)
	}
	machines := []struct {
		layout typing.Layout
		hold   func([]string) error
	}{{spectrum.Layout, s.Hold}, {cpc.Typing, c.Hold}}
	f.Fuzz(func(t *testing.T, text string, escaped bool) {
		if escaped {
			var err error
			if text, err = typing.Unescape(text); err != nil {
				return
			}
		}
		for _, m := range machines {
			presses, total, err := typing.Plan(text, m.layout)
			if err != nil {
				if len(err.Error()) > 1000 {
					t.Fatalf("Plan(%.40q…) on %s: an error of %d bytes", text, m.layout.Machine, len(err.Error()))
				}
				continue
			}
			if len(presses) != len(text) {
				t.Fatalf("Plan(%q) on %s: %d presses for %d characters", text, m.layout.Machine, len(presses), len(text))
			}
			var last uint64
			for i, p := range presses {
				if len(p.Keys) == 0 || p.Down < last || p.Up <= p.Down || p.Up > total {
					t.Fatalf("Plan(%q) on %s: press %d is %+v, after %d, of %d", text, m.layout.Machine, i, p, last, total)
				}
				if err := m.hold(p.Keys); err != nil {
					t.Fatalf("Plan(%q) on %s: press %d's keys %v are no keys: %v", text, m.layout.Machine, i, p.Keys, err)
				}
				last = p.Up
			}
		}
		// Every character outside ASCII that a keyboard types is held by
		// the names it is refused with.
		for _, r := range text {
			for _, m := range machines {
				if m.layout.Outside == nil {
					continue
				}
				if keys := m.layout.Outside(r); keys != nil {
					if err := m.hold(keys); err != nil {
						t.Fatalf("%q on %s: refused for run's keys %v, which run refuses: %v", r, m.layout.Machine, keys, err)
					}
				}
			}
		}
	})
}
