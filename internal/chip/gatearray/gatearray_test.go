package gatearray

import "testing"

func newGA() *GateArray {
	g := &GateArray{}
	g.Reset()
	return g
}

// TestCommands holds the dispatch on bits 7-6 to Grim's "The Gate Array":
// PENR selects a pen or, with bit 4, the border; INKR gives it 5 bits of
// colour; RMR sets the mode and ROM enables; bit 5 means nothing.
func TestCommands(t *testing.T) {
	g := newGA()
	for _, c := range []struct {
		write  byte
		check  func() bool
		reason string
	}{
		{0x03, func() bool { return g.Pen == 3 }, "PENR 3"},
		{0x4B, func() bool { return g.Inks[3] == 0x0B }, "INKR &0B to pen 3"},
		{0x13, func() bool { return g.Pen == Border }, "PENR bit 4: the border"},
		{0x54, func() bool { return g.Inks[Border] == 0x14 }, "INKR to the border"},
		{0x7F, func() bool { return g.Inks[Border] == 0x1F }, "INKR keeps 5 bits"},
		{0x8D, func() bool { return !g.LowerROM && !g.UpperROM && g.ModePending == 1 }, "RMR: both ROMs off, mode 1"},
		{0xA2, func() bool { return g.LowerROM && g.UpperROM && g.ModePending == 2 }, "RMR with bit 5: the same command"},
		{0x84, func() bool { return !g.LowerROM && g.UpperROM }, "RMR bit 2: lower ROM off"},
		{0x88, func() bool { return g.LowerROM && !g.UpperROM }, "RMR bit 3: upper ROM off"},
		{0xC1, func() bool { return g.LowerROM && !g.UpperROM && g.Pen == Border }, "11: the PAL's, nothing here"},
	} {
		g.Write(c.write)
		if !c.check() {
			t.Errorf("&%02X (%s): state %+v", c.write, c.reason, *g)
		}
	}
	if g.Mode != 0 {
		t.Errorf("mode %d taken up with no HSYNC", g.Mode)
	}
}

// line runs one 64-character line with the 6845's HSYNC at 46 for width
// characters (the firmware's line) and the VSYNC as given, returning the
// characters the composite sync and the blanking were on.
func line(g *GateArray, width int, vsync bool) (csync, blank []int, raised int) {
	raised = -1
	for c := range 64 {
		g.Sync(c >= 46 && c < 46+width, vsync)
		if g.Act() {
			raised = c
		}
		if g.CSync() {
			csync = append(csync, c)
		}
		if g.Blanked() {
			blank = append(blank, c)
		}
	}
	return csync, blank, raised
}

// TestLineSync holds the C-HSYNC to the Compendium's ch. 16.2.2-16.2.3: it
// begins 2 µs after the 6845's HSYNC and lasts 4 µs, and an HSYNC shorter
// than 6 cuts it short; the beam is blanked for the 6845's HSYNC.
func TestLineSync(t *testing.T) {
	for _, c := range []struct{ width, from, to int }{
		{14, 48, 51}, {6, 48, 51}, {5, 48, 50}, {3, 48, 48}, {2, -1, -1},
	} {
		g := newGA()
		line(g, c.width, false)
		csync, blank, _ := line(g, c.width, false)
		if c.from < 0 {
			if len(csync) != 0 {
				t.Errorf("HSYNC of %d: C-HSYNC on %v, want none", c.width, csync)
			}
		} else if len(csync) != c.to-c.from+1 || csync[0] != c.from || csync[len(csync)-1] != c.to {
			t.Errorf("HSYNC of %d: C-HSYNC on %v, want %d to %d", c.width, csync, c.from, c.to)
		}
		if len(blank) != c.width || blank[0] != 46 {
			t.Errorf("HSYNC of %d: blanked on %v", c.width, blank)
		}
	}
}

// TestFrameSync holds the C-VSYNC and its blanking to the Compendium's
// ch. 16.2.2: from the 2nd HSYNC end after the 6845's VSYNC begins to the
// 6th, the line pulses inverted within it; blanked to the 26th.
func TestFrameSync(t *testing.T) {
	g := newGA()
	line(g, 14, false)
	var vlines, blanked []int
	for l := range 30 {
		cs, bl, _ := line(g, 14, l < 8)
		if len(cs) > 4 {
			vlines = append(vlines, l)
		}
		if len(bl) == 64 {
			blanked = append(blanked, l)
		}
		if l == 3 {
			// Inside the frame sync the line's own pulse is a gap.
			for _, c := range cs {
				if c >= 48 && c < 52 {
					t.Errorf("line 3: the C-HSYNC's character %d is asserted inside the C-VSYNC", c)
				}
			}
		}
	}
	// The C-VSYNC starts at character 60 of line 1 (the 2nd HSYNC end)
	// and ends at character 60 of line 5 (the 6th).
	if len(vlines) != 5 || vlines[0] != 1 || vlines[4] != 5 {
		t.Errorf("C-VSYNC on lines %v, want 1 to 5", vlines)
	}
	// Blanked from the VSYNC's start, the head of line 0, to the 26th
	// HSYNC end, character 60 of line 25: 25 whole lines.
	if len(blanked) != 25 || blanked[0] != 0 || blanked[24] != 24 {
		t.Errorf("whole lines blanked %v, want 0 to 24", blanked)
	}
}

// TestR52 holds the interrupt generator to the Compendium's ch. 27: an
// interrupt every 52 HSYNCs, a microsecond after the HSYNC ends; the
// check two HSYNCs into a VSYNC that raises one only if R52 has reached 32
// and clears R52 either way; the acknowledge dropping the request and R52's
// bit 5; and RMR bit 4 clearing R52 and the request (cpctech, "Interrupts").
func TestR52(t *testing.T) {
	g := newGA()
	var at []int
	for l := range 200 {
		if _, _, c := line(g, 14, false); c >= 0 {
			at = append(at, l)
			if c != 61 {
				t.Errorf("interrupt at character %d, want 61: a microsecond after the HSYNC ends at 60", c)
			}
			g.Acknowledge(false)
		}
	}
	if len(at) != 3 || at[1]-at[0] != 52 || at[2]-at[1] != 52 {
		t.Errorf("interrupts on lines %v, want every 52", at)
	}

	for _, c := range []struct {
		r52     byte
		raised  bool
		comment string
	}{{30, false, "R52 at 31 at the check: none"}, {31, true, "R52 at 32 at the check: one"}, {40, true, "R52 at 41: one"}} {
		g := newGA()
		line(g, 14, false)
		g.R52 = c.r52
		// The VSYNC begins; the first HSYNC end counts, the second checks.
		_, _, first := line(g, 14, true)
		r := g.R52
		_, _, second := line(g, 14, true)
		if first >= 0 || r != c.r52+1 {
			t.Errorf("%s: the first HSYNC raised %v and left R52 %d", c.comment, first >= 0, r)
		}
		if (second >= 0) != c.raised || g.R52 != 0 {
			t.Errorf("%s: the second raised %v, R52 %d", c.comment, second >= 0, g.R52)
		}
	}

	g = newGA()
	g.R52 = 45
	g.INT = true
	g.Acknowledge(false)
	if g.INT || g.R52 != 45&0x1F {
		t.Errorf("acknowledge leaves INT %v R52 %d, want false and %d", g.INT, g.R52, 45&0x1F)
	}
	g.INT = true
	g.Acknowledge(true)
	if !g.INT {
		t.Errorf("a request raised on the acknowledge's own cycle was withdrawn")
	}
	g.R52 = 20
	g.Write(0x90)
	if g.INT || g.R52 != 0 {
		t.Errorf("RMR bit 4 leaves INT %v R52 %d", g.INT, g.R52)
	}
}

// TestModeAfterHSync holds a mode change to the end of the next HSYNC
// (Grim, "The Gate Array").
func TestModeAfterHSync(t *testing.T) {
	g := newGA()
	g.Write(0x82)
	for c := range 60 {
		g.Sync(c >= 46, false)
		if g.Mode != 0 {
			t.Fatalf("mode taken up at character %d, inside the HSYNC", c)
		}
	}
	g.Sync(false, false)
	if g.Mode != 2 {
		t.Errorf("mode %d after the HSYNC ended, want 2", g.Mode)
	}
}

// TestPens holds the byte layouts to Grim's tables: mode 0's pixel pens
// from bits 7,3,5,1 and 6,2,4,0; mode 1's from bits 7-p and 3-p; mode 2's
// from each bit, 7 first; mode 3 as mode 0's two low pen bits.
func TestPens(t *testing.T) {
	for _, c := range []struct {
		mode, b byte
		want    [8]byte
	}{
		{0, 0x80, [8]byte{1, 1, 1, 1, 0, 0, 0, 0}},
		{0, 0x08, [8]byte{2, 2, 2, 2, 0, 0, 0, 0}},
		{0, 0x20, [8]byte{4, 4, 4, 4, 0, 0, 0, 0}},
		{0, 0x02, [8]byte{8, 8, 8, 8, 0, 0, 0, 0}},
		{0, 0x55, [8]byte{0, 0, 0, 0, 15, 15, 15, 15}},
		{1, 0x88, [8]byte{3, 3, 0, 0, 0, 0, 0, 0}},
		{1, 0x12, [8]byte{0, 0, 0, 0, 2, 2, 1, 1}},
		{2, 0xA1, [8]byte{1, 0, 1, 0, 0, 0, 0, 1}},
		{3, 0xFF, [8]byte{3, 3, 3, 3, 3, 3, 3, 3}},
		{3, 0x22, [8]byte{0, 0, 0, 0, 0, 0, 0, 0}},
	} {
		if got := Pens(c.mode, c.b); got != c.want {
			t.Errorf("mode %d byte &%02X: pens %v, want %v", c.mode, c.b, got, c.want)
		}
	}
}

// TestVideo holds the serialiser to the Compendium's ch. 7.1: a character
// is shown a microsecond after its bytes are handed over; the border where
// DISPTMG was low; black while blanked.
func TestVideo(t *testing.T) {
	g := newGA()
	g.Write(0x01) // pen 1
	g.Write(0x4B) // white
	g.Write(0x10) // the border
	g.Write(0x44) // blue
	g.Write(0x00) // pen 0
	g.Write(0x54) // black
	g.Write(0x82) // mode 2, taken up at once for the test
	g.Mode = 2
	var s Samples
	g.Video(true, 0xF0, 0x0F, &s)
	for i, v := range s {
		if v != 0x04 {
			t.Fatalf("sample %d of the first character: &%02X, want the border's &04 (nothing was latched)", i, v)
		}
	}
	g.Video(false, 0, 0, &s)
	want := Samples{0x0B, 0x0B, 0x0B, 0x0B, 0x14, 0x14, 0x14, 0x14, 0x14, 0x14, 0x14, 0x14, 0x0B, 0x0B, 0x0B, 0x0B}
	if s != want {
		t.Errorf("the displayed character, a microsecond late: %v, want %v", s, want)
	}
	g.BlankH = true
	g.Video(true, 0xFF, 0xFF, &s)
	for _, v := range s {
		if v != Black {
			t.Fatalf("blanked sample &%02X, want black &%02X", v, Black)
		}
	}
}

// TestValidate holds the range checks set and a state file meet (spec,
// "What a machine holds"): the pen picks one of seventeen inks, 0 to 15 or
// the border's 16 (Grim, "The Gate Array", PENR); a colour is 5 bits
// (INKR); the modes are 0 to 3 (RMR); R52 is 6 bits (Compendium ch. 27);
// H06 and V26 stop at 6 and 26 (ch. 16.2.2); and the frame check is armed
// two HSYNCs ahead at most (ch. 27.3.2).
func TestValidate(t *testing.T) {
	for _, c := range []struct {
		name string
		set  func(g *GateArray)
		ok   bool
	}{
		{"reset", func(g *GateArray) {}, true},
		{"pen 16", func(g *GateArray) { g.Pen = 16 }, true},
		{"pen 17", func(g *GateArray) { g.Pen = 17 }, false},
		{"ink &1F", func(g *GateArray) { g.Inks[3] = 0x1F }, true},
		{"ink &20", func(g *GateArray) { g.Inks[3] = 0x20 }, false},
		{"mode 4", func(g *GateArray) { g.Mode = 4 }, false},
		{"mode_pending 4", func(g *GateArray) { g.ModePending = 4 }, false},
		{"r52 64", func(g *GateArray) { g.R52 = 64 }, false},
		{"h06 7", func(g *GateArray) { g.H06 = 7 }, false},
		{"v26 27", func(g *GateArray) { g.V26 = 27 }, false},
		{"hsyncs_to_go 2", func(g *GateArray) { g.HSyncsToGo = 2 }, true},
		{"hsyncs_to_go 3", func(g *GateArray) { g.HSyncsToGo = 3 }, false},
	} {
		var g GateArray
		g.Reset()
		c.set(&g)
		if err := g.Validate(); (err == nil) != c.ok {
			t.Errorf("%s: Validate() = %v, want ok %v", c.name, err, c.ok)
		}
	}
}

func TestVideoAddress(t *testing.T) {
	// cpctech, "Screen memory addresses": MA13-12 to A15-14, RA2-0 to
	// A13-11, MA9-0 to A10-1.
	tests := []struct {
		ma   uint16
		ra   int
		want uint16
	}{
		{0x3000, 0, 0xC000},
		{0x3000, 1, 0xC800},
		{0x3000, 7, 0xF800},
		{0x3001, 0, 0xC002},
		{0x33FF, 7, 0xFFFE},
		{0x0000, 0, 0x0000},
		{0x1000, 0, 0x4000},
		{0x2000, 3, 0x9800},
		{0x0C00, 0, 0x0000}, // MA11-10 reach no address line
		{0x3400, 0, 0xC000}, // MA10 likewise: the 2K wraps
		{0x3000, 8, 0xC000}, // RA3 likewise: a 9th line reads the 1st's 2K
		{0x3000, 13, 0xE800},
		{0x3123, 2, 0xD246},
	}
	for _, tt := range tests {
		if got := VideoAddress(tt.ma, tt.ra); got != tt.want {
			t.Errorf("MA &%04X RA %d: &%04X, want &%04X", tt.ma, tt.ra, got, tt.want)
		}
	}
}
