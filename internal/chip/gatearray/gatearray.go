// Package gatearray is the Amstrad 40010 Gate Array: the CPC's colour
// registers, its video modes, its ROM enables, its interrupt generator, and
// the circuit that turns the 6845's syncs into the composite sync a monitor
// takes and the bytes the board fetches into colour samples.
//
// The chip knows no machine. A board tells it each character clock what the
// 6845's syncs stand at (Sync) and hands it the two bytes fetched at the
// 6845's address (Video); it gives back sixteen samples of hardware colour
// codes a character, the composite sync (CSync), and its interrupt request
// (INT). Register writes arrive through Write, dispatched on the byte as the
// silicon dispatches them.
//
// The chip also holds the processor's WAIT so that every machine cycle ends
// on a microsecond; that is a matter of timing, which the board keeps
// (internal/machine/cpc), since this chip is stepped by the microsecond.
//
// Sources cited at the lines that depend on them:
//   - Grim, "The Gate Array"
//     (https://www.grimware.org/doku.php/documentations/devices/gatearray):
//     the command dispatch on bits 7-6, PENR, INKR and RMR, a mode change
//     taking effect after the next HSYNC, how a byte's bits make pixels in
//     each mode, and the measured colour levels (internal/chip/monitor
//     carries those).
//   - Longshot, "The Amstrad CPC CRTC Compendium" v1.11 (Compendium), ch. 16.2
//     for the composite sync: the H06 and V26 counters, the 4 µs C-HSYNC
//     beginning 2 µs after the 6845's, the C-VSYNC of lines 2 to 6 of the
//     6845's, the 26 lines of blanking, and the line pulses inverted during
//     the frame sync; ch. 7.1 for the microsecond between the 6845 handing
//     over an address and the Gate Array showing its bytes; ch. 27 for the
//     interrupt generator (R52, its name; the request held until
//     acknowledged; bit 5 cleared at the acknowledge; the check two HSYNCs
//     into a VSYNC).
//   - Kevin Thacker, cpctech, "Interrupts on the CPC/CPC+ and KC Compact"
//     (https://cpctech.cpcwiki.de/docs/ints.html): RMR bit 4 clears R52 and
//     the pending request.
package gatearray

import "fmt"

// Black is the hardware colour code the chip puts on the cable while the
// beam is blanked: colour 20, INKR &54 (Grim, "The Gate Array", INKR
// colour codes).
const Black = 0x14

// Border is the index of the border's ink among Inks (PENR bit 4 selects
// it; Grim, "The Gate Array", PENR).
const Border = 16

// Action is what the end of a 6845 HSYNC asks of the interrupt generator,
// done a microsecond and a quarter after the HSYNC ends (Compendium ch.
// 27.6.1: "an interrupt always starts 1 µsec after the end of the HSYNC").
type Action uint8

const (
	None       Action = iota
	CountR52          // R52 counts one line; at 52 it asks for an interrupt
	FrameCheck        // two HSYNCs into a VSYNC: ask if R52 bit 5 is set, and clear R52
)

// Samples is one character of picture: sixteen samples of hardware colour
// codes, the Gate Array's 16 MHz pixel clock over one microsecond.
type Samples [16]byte

// GateArray is the chip's state. The zero value is not the power-on state;
// call Reset.
type GateArray struct {
	Pen  byte     `inspect:"pen"`  // the selected colour register, 0-15, or 16 for the border
	Inks [17]byte `inspect:"inks"` // hardware colour codes, 5 bits each; [16] is the border

	Mode        byte `inspect:"mode"`         // the video mode in force, 0-3
	ModePending byte `inspect:"mode_pending"` // RMR bits 1-0, taken up when the next HSYNC ends

	LowerROM bool `inspect:"lower_rom"` // enabled (RMR bit 2 clear)
	UpperROM bool `inspect:"upper_rom"` // enabled (RMR bit 3 clear)

	R52         byte   `inspect:"r52"`          // the interrupt counter of HSYNC ends, 6 bits
	INT         bool   `inspect:"int"`          // the request, held until acknowledged
	Last        Action `inspect:"last,max=2"`   // asked by the HSYNC that ended this character: none, count_r52 or frame_check
	Due         Action `inspect:"due,max=2"`    // asked by the one before, done a quarter into this character
	HSyncsToGo  byte   `inspect:"hsyncs_to_go"` // HSYNC ends until the frame check, 0 when none is armed
	HSyncBefore bool   `inspect:"hsync_before"` // the 6845's HSYNC on the character before
	VSyncBefore bool   `inspect:"vsync_before"` // and its VSYNC

	H06     byte `inspect:"h06"`      // characters since the 6845's HSYNC began, stopping at 6
	V26     byte `inspect:"v26"`      // HSYNC ends since the 6845's VSYNC began, stopping at 26
	VSyncGA bool `inspect:"vsync_ga"` // V26 is counting
	SyncH   bool `inspect:"sync_h"`   // the Gate Array's own line sync
	SyncV   bool `inspect:"sync_v"`   // and its frame sync
	BlankH  bool `inspect:"blank_h"`  // blanked through the 6845's HSYNC
	BlankV  bool `inspect:"blank_v"`  // blanked through 26 lines from its VSYNC

	Latched        [2]byte `inspect:"latched"`         // the bytes fetched a microsecond ago
	LatchedDisplay bool    `inspect:"latched_display"` // and DISPTMG as it stood then

	colours      [256][8]byte // each byte's eight samples in the mode and inks in force
	coloursValid bool
}

// Reset is power-on. Both ROMs come up enabled, since the processor's
// first fetch at &0000 must find the firmware. The rest wakes at zero, H06
// among it, so the counter runs up to its stop in the first six
// microseconds and makes one line sync on the way, before the 6845 has
// given any; that pulse moves the monitor's beam off its first line at
// power-on, as the reference's screenshots show (the top line of
// ../shared/testdata/golden/cpc6128-boot-full-raster.png is painted only
// as far as the frame sync reaches it).
func (g *GateArray) Reset() {
	*g = GateArray{LowerROM: true, UpperROM: true}
}

// Write is a byte written to the chip's port. Bits 7-6 choose the command
// (Grim, "The Gate Array"): 00 PENR selects a pen, or the border where bit
// 4 is set; 01 INKR gives the selected pen a colour code in bits 4-0; 10
// RMR sets the mode in bits 1-0 (taken up after the next HSYNC), disables
// the lower ROM with bit 2 and the upper with bit 3, and with bit 4 clears
// R52 and the pending request (cpctech, "Interrupts"); 11 is the 6128's
// PAL's, not this chip's. Bit 5 means nothing to the 40010. It reports
// whether the ROM enables may have changed.
func (g *GateArray) Write(v byte) (rmr bool) {
	switch v >> 6 {
	case 0:
		if v&0x10 != 0 {
			g.Pen = Border
		} else {
			g.Pen = v & 0x0F
		}
	case 1:
		g.Inks[g.Pen] = v & 0x1F
		g.coloursValid = false
	case 2:
		g.ModePending = v & 3
		g.LowerROM = v&0x04 == 0
		g.UpperROM = v&0x08 == 0
		if v&0x10 != 0 {
			g.R52 = 0
			g.INT = false
			g.Last = None
			g.Due = None
		}
		return true
	}
	return false
}

// Sync is one character clock, told the 6845's HSYNC and VSYNC for the
// character. It counts out the composite sync and the blanking, takes up a
// pending mode when the HSYNC ends, and moves the interrupt generator's
// queue on: what the HSYNC that ended a character ago asked for becomes
// Due, to be done (Act) a quarter of a microsecond into this character.
func (g *GateArray) Sync(hsync, vsync bool) {
	g.Due = g.Last
	g.Last = None

	hStarted := hsync && !g.HSyncBefore
	hEnded := g.HSyncBefore && !hsync
	vStarted := vsync && !g.VSyncBefore
	g.HSyncBefore = hsync
	g.VSyncBefore = vsync

	if vStarted {
		// The frame check comes two HSYNCs after the VSYNC begins
		// (Compendium ch. 27.3.2), and the frame's own sync and blanking
		// are counted on V26 from here (ch. 16.2.2).
		g.HSyncsToGo = 2
		g.V26 = 0
		g.VSyncGA = true
		g.BlankV = true
	}

	// H06 restarts with the 6845's HSYNC; the C-HSYNC runs from its second
	// character to its sixth, beginning 2 µs late and lasting 4 µs at most
	// (Compendium ch. 16.2.2-16.2.3). The beam is blanked for the whole of
	// the 6845's HSYNC.
	if hStarted {
		g.H06 = 0
		g.BlankH = true
	} else if g.H06 < 6 {
		g.H06++
		switch g.H06 {
		case 2:
			g.SyncH = true
		case 6:
			g.SyncH = false
		}
	}

	if hEnded {
		// A 6845 HSYNC shorter than the C-HSYNC cuts it short (ch. 16.2.3).
		g.SyncH = false
		g.BlankH = false
		if g.VSyncGA {
			// C-VSYNC from the 2nd HSYNC end to the 6th, blanking to the
			// 26th (ch. 16.2.2).
			g.V26++
			switch g.V26 {
			case 2:
				g.SyncV = true
			case 6:
				g.SyncV = false
			case 26:
				g.BlankV = false
				g.VSyncGA = false
			}
		}
		// "The mode change takes effect after the next HSYNC" (Grim, "The
		// Gate Array", RMR).
		if g.Mode != g.ModePending {
			g.Mode = g.ModePending
			g.coloursValid = false
		}
		g.Last = CountR52
		if g.HSyncsToGo > 0 {
			g.HSyncsToGo--
			if g.HSyncsToGo == 0 {
				g.Last = FrameCheck
			}
		}
	}
}

// Act does what is Due, a quarter of a microsecond into the character
// (Compendium ch. 27.6.1-27.6.2, where the interrupt comes R3+1 µs after C0
// meets R2), and reports whether it raised the interrupt request. R52
// counts to 52, where it returns to 0 and asks for an interrupt (ch.
// 27.3.1); the frame check asks for one only if R52's bit 5 is set, the
// last being far enough away, and returns R52 to 0 either way (ch. 27.3.2).
func (g *GateArray) Act() (raised bool) {
	a := g.Due
	g.Due = None
	switch a {
	case CountR52:
		g.R52 = (g.R52 + 1) & 0x3F
		if g.R52 == 52 {
			g.R52 = 0
			g.INT = true
			return true
		}
	case FrameCheck:
		raised = g.R52&0x20 != 0
		if raised {
			g.INT = true
		}
		g.R52 = 0
	}
	return raised
}

// Acknowledge is the processor acknowledging the interrupt: the request
// drops, unless it was raised on the very cycle the acknowledge is heard
// (keep), and R52 loses bit 5 so that the next comes no sooner than 32
// lines on (Compendium ch. 27.7.1).
func (g *GateArray) Acknowledge(keep bool) {
	if !keep {
		g.INT = false
	}
	g.R52 &= 0x1F
}

// CSync is the composite sync on the cable, true while asserted: the two
// syncs of the chip exclusive-ored, so that a frame sync is a long pulse
// with its line pulses inverted into gaps (Compendium ch. 16.2.2).
func (g *GateArray) CSync() bool {
	return g.SyncH != g.SyncV
}

// Blanked reports whether the chip is putting out black for the syncs.
func (g *GateArray) Blanked() bool {
	return g.BlankH || g.BlankV
}

// Video is the serialiser for one character. It writes into out the
// character whose bytes it was handed a microsecond ago (Compendium ch.
// 7.1), in the mode and inks in force now, or the border where DISPTMG was
// low then, or black where the syncs blank the beam now; then it keeps this
// character's display enable and two bytes for the next.
func (g *GateArray) Video(display bool, b0, b1 byte, out *Samples) {
	switch {
	case g.BlankH || g.BlankV:
		fill(out, Black)
	case !g.LatchedDisplay:
		fill(out, g.Inks[Border])
	default:
		if !g.coloursValid {
			g.paint()
		}
		*(*[8]byte)(out[0:8]) = g.colours[g.Latched[0]]
		*(*[8]byte)(out[8:16]) = g.colours[g.Latched[1]]
	}
	g.LatchedDisplay = display
	g.Latched[0] = b0
	g.Latched[1] = b1
}

func fill(out *Samples, c byte) {
	v := [8]byte{c, c, c, c, c, c, c, c}
	*(*[8]byte)(out[0:8]) = v
	*(*[8]byte)(out[8:16]) = v
}

// paint makes every byte's eight samples in the mode and inks in force.
func (g *GateArray) paint() {
	t := &pens[g.Mode&3]
	for b := range 256 {
		for i := range 8 {
			g.colours[b][i] = g.Inks[t[b][i]]
		}
	}
	g.coloursValid = true
}

// Invalidate tells the chip its inks or mode were set from outside (a
// snapshot, or set), so that its cached colours are made again.
func (g *GateArray) Invalidate() { g.coloursValid = false }

// pens holds, for each mode and byte, the pen of each of the byte's eight
// samples: a byte is always eight samples wide, its pixels widened to fit.
var pens = makePens()

// Pens reports the pen of each of a byte's eight samples in a mode (0-3).
func Pens(mode, b byte) [8]byte { return pens[mode&3][b] }

// makePens lays out each mode's pixels as Grim's "The Gate Array" gives
// them. Mode 0: two pixels of sixteen pens, the first from bits 7, 3, 5 and
// 1 (pen bits 0 to 3), the second from 6, 2, 4 and 0. Mode 1: four pixels
// of four pens, pixel p from bits 7-p (pen bit 0) and 3-p (pen bit 1).
// Mode 2: eight pixels of two pens, bit 7 first. Mode 3, undocumented by
// Amstrad: mode 0's two wide pixels with only their two low pen bits (bits
// 7 and 3, then 6 and 2).
func makePens() (t [4][256][8]byte) {
	bit := func(b byte, n uint) byte { return b >> n & 1 }
	for v := range 256 {
		b := byte(v)
		p0 := bit(b, 7) | bit(b, 3)<<1 | bit(b, 5)<<2 | bit(b, 1)<<3
		p1 := bit(b, 6) | bit(b, 2)<<1 | bit(b, 4)<<2 | bit(b, 0)<<3
		for i := range 4 {
			t[0][b][i], t[0][b][4+i] = p0, p1
			t[3][b][i], t[3][b][4+i] = p0&3, p1&3
		}
		for p := range 4 {
			pen := bit(b, uint(7-p)) | bit(b, uint(3-p))<<1
			t[1][b][2*p], t[1][b][2*p+1] = pen, pen
		}
		for p := range 8 {
			t[2][b][p] = bit(b, uint(7-p))
		}
	}
	return t
}

func (a Action) String() string {
	switch a {
	case None:
		return "none"
	case CountR52:
		return "count_r52"
	case FrameCheck:
		return "frame_check"
	}
	return "unknown"
}

// Steady reports how many of the next character clocks, given 6845 syncs
// that stand as they stood on the last, change nothing in the chip but its
// latched bytes and H06's count: the interrupt generator has nothing
// queued, and H06 does not reach the 2 or the 6 at which the C-HSYNC
// begins or ends. A board runs those by Coast rather than Sync.
func (g *GateArray) Steady() int {
	if g.Last != None || g.Due != None {
		return 0
	}
	switch h := int(g.H06); {
	case h >= 6:
		return 1 << 30
	case h < 1:
		return 1 - h
	case h >= 2 && h < 5:
		return 5 - h
	}
	return 0
}

// Coast runs n character clocks that Steady has said are steady.
func (g *GateArray) Coast(n int) {
	if g.H06 < 6 {
		g.H06 += byte(n)
	}
}

// Colours returns each byte's eight samples in the mode and inks in force.
func (g *GateArray) Colours() *[256][8]byte {
	if !g.coloursValid {
		g.paint()
	}
	return &g.colours
}

// Validate refuses what set may not leave in the chip: a pen past the
// border's 16, which would index past the seventeen inks; a colour past 5
// bits, a mode past 3, R52 past 6 bits, and counters past where they stop.
func (g *GateArray) Validate() error {
	switch {
	case g.Pen > Border:
		return fmt.Errorf("pen is %d; the Gate Array has pens 0 to 15 and the border, 16", g.Pen)
	case g.Mode > 3 || g.ModePending > 3:
		return fmt.Errorf("mode is %d and mode_pending %d; the modes are 0 to 3", g.Mode, g.ModePending)
	case g.R52 > 63:
		return fmt.Errorf("r52 is %d; the counter holds 0 to 63", g.R52)
	case g.H06 > 6 || g.V26 > 26:
		return fmt.Errorf("h06 is %d and v26 %d; they stop at 6 and 26", g.H06, g.V26)
	case g.HSyncsToGo > 2:
		return fmt.Errorf("hsyncs_to_go is %d; the frame check is armed two HSYNCs ahead at most, 0 to 2", g.HSyncsToGo)
	}
	for i, v := range g.Inks {
		if v > 0x1F {
			return fmt.Errorf("inks[%d] is %d; a hardware colour is 0 to 31", i, v)
		}
	}
	return nil
}

// VideoAddress is the address in the base 64K the video reads for the
// 6845's MA and RA, the first of the character's two bytes; it reads the second at the address after (CCLK high). MA13-MA12 go to
// A15-A14, RA2-RA0 to A13-A11 and MA9-MA0 to A10-A1 (cpctech, "Screen
// memory addresses"); MA11-MA10 and RA4-RA3 go nowhere.
func VideoAddress(ma uint16, ra int) uint16 {
	return (ma&0x3000)<<2 | uint16(ra&7)<<11 | (ma&0x03FF)<<1
}
