package crtc

import "testing"

// firmware is the screen the CPC's firmware programs at 50 Hz: 64
// characters to a line, 40 shown, the line sync at 46 for 14, 39 rows of 8
// lines with 25 shown, the frame sync at row 30, the screen at &C000
// (SOFT 968, "The Screen Pack": the 6845's settings; the numbers are the
// firmware's own table, which every CPC boots with).
var firmware = [16]byte{63, 40, 46, 0x8E, 38, 0, 25, 30, 0, 7, 0, 0, 0x30, 0, 0, 0}

func program(c *CRTC, regs [16]byte) {
	for r, v := range regs {
		c.Select(byte(r))
		c.Write(v)
	}
}

// frame runs a chip from the head of a frame for one frame and a line,
// recording for each line the first character of each sync and display.
type lineLog struct {
	hsyncStart, hsyncLen int
	vsync                bool
	shown                int    // characters with DISPTMG
	ma0                  uint16 // MA at the line's first character
}

// settle runs the chip to the head of a frame.
func settle(t *testing.T, c *CRTC) {
	t.Helper()
	for range 2 * 64 * 312 {
		c.Tick()
		if c.C0 == 0 && c.C4 == 0 && c.C9 == 0 && !c.Adjusting {
			return
		}
	}
	t.Fatal("no frame began")
}

func logFrame(c *CRTC, lines int) []lineLog {
	logs := make([]lineLog, lines)
	for l := range lines {
		lg := &logs[l]
		lg.hsyncStart = -1
		lg.ma0 = c.MA
		lg.vsync = c.VSync
		for ch := 0; ; ch++ {
			if c.HSync {
				if lg.hsyncStart < 0 {
					lg.hsyncStart = ch
				}
				lg.hsyncLen++
			}
			if c.DisplayEnable() {
				lg.shown++
			}
			c.Tick()
			if c.C0 == 0 {
				break
			}
		}
	}
	return logs
}

// TestFirmwareFrame holds every type to the 6845's counter chain (HD6845S,
// "Horizontal timing" and "Vertical timing"): a line is R0+1 characters,
// the line sync starts at R2 for R3's low nibble, a frame is (R4+1)×(R9+1)
// lines plus R5, R1×R6 characters are shown, each row begins where the
// last ended, and the frame sync starts at row R7.
func TestFirmwareFrame(t *testing.T) {
	for ty := range Type(Types) {
		t.Run(ty.String(), func(t *testing.T) {
			c := New(ty)
			program(c, firmware)
			settle(t, c)
			logs := logFrame(c, 313)
			vlines := 0
			for l, lg := range logs[:312] {
				if lg.hsyncStart != 46 || lg.hsyncLen != 14 {
					t.Fatalf("line %d: line sync from %d for %d, want 46 for 14", l, lg.hsyncStart, lg.hsyncLen)
				}
				wantShown := 0
				if l < 200 {
					wantShown = 40
				}
				if lg.shown != wantShown {
					t.Fatalf("line %d: %d characters shown, want %d", l, lg.shown, wantShown)
				}
				if l < 200 {
					if want := uint16(0x3000 + 40*(l/8)); lg.ma0 != want {
						t.Fatalf("line %d begins at MA &%04X, want &%04X", l, lg.ma0, want)
					}
				}
				if lg.vsync {
					vlines++
					if l < 240 {
						t.Fatalf("frame sync on line %d, before row 30", l)
					}
				}
			}
			if !logs[240].vsync {
				t.Errorf("no frame sync on line 240, row 30's first")
			}
			if logs[312].ma0 != 0x3000 {
				t.Errorf("the next frame begins at &%04X, want &3000", logs[312].ma0)
			}
			// R3's high nibble is 8; types 1 and 2 ignore it for 16.
			want := 8
			if ty == UM6845R || ty == MC6845 {
				want = 16
			}
			if vlines != want {
				t.Errorf("frame sync %d lines, want %d", vlines, want)
			}
		})
	}
}

// TestSyncWidths holds each type to how it reads R3 (Compendium ch. 16;
// CPCWiki "CRTC": "On CRTCs 0/1, if 0 is programmed no HSYNC is
// generated. On CRTCs 2/3/4, if 0 is programmed this gives a HSYNC width
// of 16"; types 1 and 2 fix the VSYNC at 16 lines; on 0, 3 and 4 a high
// nibble of 0 gives 16).
func TestSyncWidths(t *testing.T) {
	for _, c := range []struct {
		ty    Type
		r3    byte
		h, v  int
		notes string
	}{
		{HD6845S, 0x8E, 14, 8, ""},
		{HD6845S, 0x00, 0, 16, "no HSYNC; VSYNC 0 is 16"},
		{HD6845S, 0x45, 5, 4, ""},
		{UM6845R, 0x00, 0, 16, "no HSYNC"},
		{UM6845R, 0x45, 5, 16, "VSYNC fixed"},
		{MC6845, 0x00, 16, 16, "HSYNC 0 is 16"},
		{MC6845, 0x45, 5, 16, "VSYNC fixed"},
		{AMS40489, 0x00, 16, 16, ""},
		{AMS40489, 0x45, 5, 4, ""},
		{AMS40226, 0x00, 16, 16, ""},
		{AMS40226, 0x2F, 15, 2, ""},
	} {
		x := New(c.ty)
		regs := firmware
		regs[3] = c.r3
		program(x, regs)
		if x.HSyncWidth() != c.h || x.VSyncWidth() != c.v {
			t.Errorf("type %v R3=&%02X: widths %d and %d, want %d and %d %s", c.ty, c.r3, x.HSyncWidth(), x.VSyncWidth(), c.h, c.v, c.notes)
		}
		// And the pins bear the widths out.
		settle(t, x)
		logs := logFrame(x, 312)
		if logs[0].hsyncLen != c.h {
			t.Errorf("type %v R3=&%02X: line sync %d characters, want %d", c.ty, c.r3, logs[0].hsyncLen, c.h)
		}
		v := 0
		for _, lg := range logs {
			if lg.vsync {
				v++
			}
		}
		if v != c.v {
			t.Errorf("type %v R3=&%02X: frame sync %d lines, want %d", c.ty, c.r3, v, c.v)
		}
	}
}

// TestKeptBits holds each register to the bits the Compendium's ch. 4.3
// gives it, as a write of &FF leaves it.
func TestKeptBits(t *testing.T) {
	want := [18]byte{0xFF, 0xFF, 0xFF, 0xFF, 0x7F, 0x1F, 0x7F, 0x7F, 0xF3, 0x1F, 0x7F, 0x1F, 0x3F, 0xFF, 0x3F, 0xFF, 0, 0}
	for ty := range Type(Types) {
		c := New(ty)
		for r := range 32 {
			c.Select(byte(r))
			c.Write(0xFF)
		}
		for r := range 18 {
			w := want[r]
			if r == 8 && (ty == UM6845R || ty == MC6845) {
				w = 0x03 // no skew on types 1 and 2 (Compendium ch. 19.1)
			}
			if c.Registers[r] != w {
				t.Errorf("type %v R%d: &FF kept as &%02X, want &%02X", ty, r, c.Registers[r], w)
			}
		}
	}
}

// TestReadBack holds each type's register port to the Compendium's ch. 21
// tables (and CPCWiki "CRTC"): types 0-2 read R14-R17, type 0 R12 and R13
// besides, type 1 &FF at R31, everything else 0; types 3 and 4 read by
// the number's low three bits R16, R17, status 1, status 2, R12, R13, R14,
// R15.
func TestW6ReadBack(t *testing.T) {
	for ty := range Type(Types) {
		c := New(ty)
		for r := range 16 {
			c.Select(byte(r))
			c.Write(byte(0x10 + r))
		}
		for r := range 32 {
			c.Select(byte(r))
			got := c.Read()
			var want byte
			switch ty {
			case AMS40489, AMS40226:
				switch r & 7 {
				case 0, 1:
					want = 0 // the light pen, never strobed
				case 2:
					want = c.asicStatus1()
				case 3:
					want = c.asicStatus2()
				default:
					want = byte(0x10 + 12 + r&7 - 4)
				}
			default:
				switch {
				case r == 14 || r == 15:
					want = byte(0x10 + r)
				case (r == 12 || r == 13) && ty == HD6845S:
					want = byte(0x10 + r)
				case r == 31 && ty == UM6845R:
					want = 0xFF
				}
				if r == 14 {
					want &= 0x3F
				}
				if r == 12 {
					want &= 0x3F
				}
			}
			if got != want {
				t.Errorf("type %v reading R%d: &%02X, want &%02X", ty, r, got, want)
			}
		}
	}
}

// TestStatus holds the status port to the Compendium's ch. 21.3: type 1's
// bit 5 marks the vertical border; types 0 and 2 drive nothing; types 3
// and 4 mirror the register port.
func TestW6Status(t *testing.T) {
	for ty := range Type(Types) {
		c := New(ty)
		program(c, firmware)
		settle(t, c)
		inside, drivenIn := c.Status()
		for range 64 * 8 * 26 { // into row 26, past R6
			c.Tick()
		}
		border, drivenOut := c.Status()
		switch ty {
		case UM6845R:
			if !drivenIn || inside != 0 || border != 0x20 {
				t.Errorf("type 1: status &%02X on screen and &%02X in the border, want &00 and &20", inside, border)
			}
		case HD6845S, MC6845:
			if drivenIn || drivenOut {
				t.Errorf("type %v drives a status register it does not have", ty)
			}
		default:
			c.Select(12)
			if v, _ := c.Status(); v != c.Read() || !drivenOut {
				t.Errorf("type %v: status port does not mirror the register port", ty)
			}
		}
	}
}

// TestStartAddressTaken holds where R12/R13 are taken: type 1 at the head
// of every line while C4 is 0, the others only at the frame's head
// (Compendium ch. 17.4, 20.3; CPCWiki "CRTC": "the CRTC 1 for which the MA
// is reloaded with R12/R13 instead of MA' as long as C4=0").
func TestStartAddressTaken(t *testing.T) {
	for ty := range Type(Types) {
		c := New(ty)
		program(c, firmware)
		settle(t, c)
		logFrame(c, 3) // into row 0's fourth line
		c.Select(12)
		c.Write(0x20)
		c.Select(13)
		c.Write(0x00)
		logs := logFrame(c, 6) // lines 3 to 8
		want3, want8 := uint16(0x3000), uint16(0x3000+40)
		if ty == UM6845R {
			// Line 3 began before the write; lines 4-7 take R12/R13, and
			// row 1 begins where row 0's last line, begun at &2000, ended.
			want3, want8 = 0x3000, 0x2000+40
			if logs[1].ma0 != 0x2000 {
				t.Errorf("type 1: line 4 begins at &%04X, want &2000", logs[1].ma0)
			}
		} else if logs[1].ma0 != 0x3000 {
			t.Errorf("type %v: line 4 begins at &%04X, want &3000", ty, logs[1].ma0)
		}
		if logs[0].ma0 != want3 || logs[5].ma0 != want8 {
			t.Errorf("type %v: lines 3 and 8 begin at &%04X and &%04X, want &%04X and &%04X", ty, logs[0].ma0, logs[5].ma0, want3, want8)
		}
		// Every type takes the new start at the next frame's head.
		settle(t, c)
		if c.MA != 0x2000 {
			t.Errorf("type %v: the next frame begins at &%04X, want &2000", ty, c.MA)
		}
	}
}

// TestR7Write holds a frame sync begun by writing R7 with the row already
// reached: types 0 and 2 on any character but the line's first two, type
// 1 on any, types 3 and 4 never but at the row's head (Compendium ch.
// 16.4.1.1, 16.4.2, 19.7.1).
func TestR7Write(t *testing.T) {
	for ty := range Type(Types) {
		for _, c0 := range []int{1, 10} {
			c := New(ty)
			program(c, firmware)
			settle(t, c)
			logFrame(c, 8*5+1) // row 5, its second line
			for range c0 {
				c.Tick()
			}
			c.Select(7)
			c.Write(5)
			want := map[Type]bool{HD6845S: c0 >= 2, MC6845: c0 >= 2, UM6845R: true}[ty]
			if c.VSync != want {
				t.Errorf("type %v, R7 written with C4 at C0=%d: VSYNC %v, want %v", ty, c0, c.VSync, want)
			}
		}
	}
}

// TestPlain holds Plain and Advance to Tick: running the characters Plain
// allows by Advance leaves the chip where ticking them does.
func TestPlain(t *testing.T) {
	a, b := New(HD6845S), New(HD6845S)
	program(a, firmware)
	program(b, firmware)
	for i := 0; i < 64*312*2; {
		if n := a.Plain(); n > 0 {
			a.Advance(n)
			for range n {
				b.Tick()
			}
			i += n
		} else {
			a.Tick()
			b.Tick()
			i++
		}
		if *a != *b {
			t.Fatalf("after %d characters Advance leaves %+v, Tick %+v", i, *a, *b)
		}
	}
}

// TestTypeNames holds each type's name, which inspect and set give as the
// value of crtc.type, to its part number (Compendium ch. 1; CPCWiki
// "CRTC"): a name and no more, so that it reads as an enumerator.
func TestTypeNames(t *testing.T) {
	for _, c := range []struct {
		ty   Type
		want string
	}{
		{HD6845S, "HD6845S"}, {UM6845R, "UM6845R"}, {MC6845, "MC6845"},
		{AMS40489, "AMS40489"}, {AMS40226, "AMS40226"}, {Types, "unknown"},
	} {
		if got := c.ty.String(); got != c.want {
			t.Errorf("type %d is named %q, want %q", uint8(c.ty), got, c.want)
		}
	}
}
