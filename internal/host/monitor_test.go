package host

import (
	"context"
	"slices"
	"strings"
	"testing"
	"unicode"

	"colophon/internal/screentext"
)

// typeAndRead types text at a machine, lets the firmware finish, and reads
// the screen as text through monitor.
func typeAndRead(t *testing.T, h *Host, handle, text string) []string {
	t.Helper()
	ctx := context.Background()
	if _, err := h.Type(ctx, TypeArgs{Handle: handle, Text: text}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Run(ctx, RunArgs{Handle: handle, Frames: ptr(uint64(10))}); err != nil {
		t.Fatal(err)
	}
	m, _, err := h.Monitor(ctx, MonitorArgs{Handle: handle, Text: true})
	if err != nil {
		t.Fatal(err)
	}
	return m.Text
}

// follows reports whether want stands in lines as consecutive lines.
func follows(lines []string, want ...string) bool {
	for i := range lines {
		if i+len(want) <= len(lines) && slices.Equal(lines[i:i+len(want)], want) {
			return true
		}
	}
	return false
}

// TestMonitorTextPrintInEachMode reads PRINT 2+2, its 4 and Ready off
// each CPC's screen in modes 0, 1 and 2 (issue 18): the screen's cells of
// the mode, 20, 40 or 80 across, in the firmware's own matrices.
func TestMonitorTextPrintInEachMode(t *testing.T) {
	h := newHost(t)
	for _, name := range []string{"cpc464", "cpc664", "cpc6128"} {
		for mode, width := range []int{20, 40, 80} {
			handle := booted(t, h, name)
			lines := typeAndRead(t, h, handle, "MODE "+string(rune('0'+mode))+"\nPRINT 2+2\n")
			if len(lines) != 25 {
				t.Errorf("%s mode %d: %d lines, want the 6845's 25 rows", name, mode, len(lines))
			}
			if !follows(lines, "PRINT 2+2", " 4", "Ready") {
				t.Errorf("%s mode %d reads:\n%s", name, mode, strings.Join(lines, "\n"))
			}
			// A row of the mode is as wide as its cells: BASIC's
			// prompt lines are short, so fill one to the edge.
			lines = typeAndRead(t, h, handle, "PRINT STRING$("+itoa(width)+",\"x\");\n")
			if !slices.Contains(lines, strings.Repeat("x", width)) {
				t.Errorf("%s mode %d: no row of %d x's:\n%s", name, mode, width, strings.Join(lines, "\n"))
			}
		}
	}
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

// TestMonitorTextListsAProgram types a program at a 6128 and reads its
// LIST back as it was typed, BASIC's spacing and all.
func TestMonitorTextListsAProgram(t *testing.T) {
	h := newHost(t)
	handle := booted(t, h, "cpc6128")
	program := []string{`10 PRINT "HELLO, WORLD";`, `20 FOR i=1 TO 10:x=i*2:NEXT`, `30 GOTO 10`}
	lines := typeAndRead(t, h, handle, "MODE 2\n"+strings.Join(program, "\n")+"\nLIST\n")
	if !follows(lines, append(append([]string{"LIST"}, program...), "Ready")...) {
		t.Errorf("the listing reads:\n%s", strings.Join(lines, "\n"))
	}
}

// TestMonitorTextSymbol redefines A with SYMBOL and finds the A printed
// after it read as A: its matrix is found through the firmware's own
// pointer to the user-defined table SYMBOL AFTER set up, and the A drawn
// before, in the ROM's matrix, is no character any more.
func TestMonitorTextSymbol(t *testing.T) {
	h := newHost(t)
	for _, name := range []string{"cpc464", "cpc6128"} {
		handle := booted(t, h, name)
		lines := typeAndRead(t, h, handle, "SYMBOL AFTER 65\nSYMBOL 65,255,129,129,153,153,129,129,255\nPRINT \"BAB\"\n")
		if !slices.Contains(lines, "BAB") {
			t.Errorf("%s: no BAB after SYMBOL 65:\n%s", name, strings.Join(lines, "\n"))
		}
		// "SYMBOL AFTER 65" was drawn with the ROM's A.
		if !slices.Contains(lines, "SYMBOL "+string(screentext.Placeholder)+"FTER 65") {
			t.Errorf("%s: the A drawn before SYMBOL 65 does not read as a placeholder:\n%s", name, strings.Join(lines, "\n"))
		}
	}
}

// TestMonitorTextInverse reads text BASIC prints in inverse video, pen and
// paper exchanged with CHR$(24) (SOFT 968, TXT INVERSE), and text in other
// pens and papers.
func TestMonitorTextInverse(t *testing.T) {
	h := newHost(t)
	handle := booted(t, h, "cpc6128")
	lines := typeAndRead(t, h, handle, "PRINT CHR$(24);\"INVERSE\";CHR$(24);\" NORMAL\"\nPEN 3:PAPER 2:PRINT \"COLOUR\":PEN 1:PAPER 0\n")
	if !slices.Contains(lines, "INVERSE NORMAL") || !slices.Contains(lines, "COLOUR") {
		t.Errorf("the screen reads:\n%s", strings.Join(lines, "\n"))
	}
}

// TestMonitorTextPlot draws a curve with PLOT and finds the rows it
// crosses read as placeholders, not letters.
func TestMonitorTextPlot(t *testing.T) {
	h := newHost(t)
	handle := booted(t, h, "cpc6128")
	typeAndRead(t, h, handle, "MODE 1:FOR x=0 TO 639 STEP 2:PLOT x,200+90*SIN(x/40):NEXT\n")
	if _, err := h.Run(context.Background(), RunArgs{Handle: handle, Frames: ptr(uint64(400))}); err != nil {
		t.Fatal(err)
	}
	m, _, err := h.Monitor(context.Background(), MonitorArgs{Handle: handle, Text: true})
	if err != nil {
		t.Fatal(err)
	}
	lines := m.Text
	if !slices.Contains(lines, "Ready") {
		t.Fatalf("the program has not finished:\n%s", strings.Join(lines, "\n"))
	}
	// The curve runs over graphics y 110 to 290, the rows 6 to 18 of
	// the 25 (y 399 is row 0's top line, 16 units to a row).
	placeholders := 0
	for row := 6; row <= 18; row++ {
		for _, r := range lines[row] {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				t.Errorf("row %d reads %q: a letter in the curve", row, lines[row])
				break
			}
			if r == screentext.Placeholder {
				placeholders++
			}
		}
	}
	if placeholders < 40 {
		t.Errorf("%d placeholders where the curve is:\n%s", placeholders, strings.Join(lines, "\n"))
	}
}

// TestMonitorTextSpectrum reads a Spectrum's report, 0 OK, 0:1, after
// p2+2, and the listing of a program typed at it.
func TestMonitorTextSpectrum(t *testing.T) {
	h := newHost(t)
	handle := booted(t, h, "spectrum48")
	lines := typeAndRead(t, h, handle, "p2+2\n")
	if len(lines) != 24 || lines[0] != "4" || lines[23] != "0 OK, 0:1" {
		t.Errorf("after p2+2 the screen reads:\n%s", strings.Join(lines, "\n"))
	}
	// The ROM lists a line as it is entered: its number in four
	// columns, > after the current line's, a keyword typed where the
	// cursor shows K with its spaces, the rest as typed.
	lines = typeAndRead(t, h, handle, "10 p\"HELLO\"\n20 g10\n")
	if !follows(lines, `  10 PRINT "HELLO"`, "  20> GO TO 10") {
		t.Errorf("after a program the screen reads:\n%s", strings.Join(lines, "\n"))
	}
}

// TestMonitorTextRefusesNothingElse holds monitor's answer without text to
// what it was: no text field at all.
func TestMonitorTextOnlyWhenAsked(t *testing.T) {
	h := newHost(t)
	handle := booted(t, h, "cpc6128")
	m, _, err := h.Monitor(context.Background(), MonitorArgs{Handle: handle})
	if err != nil || m.Text != nil {
		t.Errorf("monitor without text answered %v, %v", m.Text, err)
	}
}
