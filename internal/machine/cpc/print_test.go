package cpc

import (
	"strings"
	"testing"

	"colophon/internal/cpcscreen"
	"colophon/internal/screentext"
)

// text reads the screen the 6845 displays as the firmware's text, through
// the font it draws with now (internal/screentext).
func text(t testing.TB, m *CPC) []string {
	t.Helper()
	m.settle()
	vars := uint16(screentext.MatrixVars6128)
	if m.Model == CPC464 {
		vars = screentext.MatrixVars464
	}
	lines, err := screentext.CPC(cpcscreen.Displayed(&m.CRTC, &m.GA), m.lowerROM, m.RAM, vars)
	if err != nil {
		t.Fatal(err)
	}
	return lines
}

// TestKEY15Print22 types PRINT 2+2 at each CPC after the command line's 78
// frames and reads the answer back from screen memory through the
// firmware's own font (spec, "Keys and typing"; checklist KEY-15).
func TestKEY15Print22(t *testing.T) {
	for _, model := range []Model{CPC464, CPC664, CPC6128} {
		t.Run(model.String(), func(t *testing.T) {
			m := boot(t, model)
			m.RunTicks(78 * TicksPerFrame)
			if _, err := m.Type("PRINT 2+2\n"); err != nil {
				t.Fatal(err)
			}
			screen := text(t, m)
			for i, line := range screen {
				if strings.TrimSpace(line) == "PRINT 2+2" {
					if i+1 >= len(screen) || strings.TrimSpace(screen[i+1]) != "4" {
						t.Fatalf("the line after PRINT 2+2 reads %q; screen:\n%s", screen[i+1], strings.Join(screen, "\n"))
					}
					return
				}
			}
			t.Fatalf("no PRINT 2+2 on the screen:\n%s", strings.Join(screen, "\n"))
		})
	}
}
