// Package crtc is the 6845 cathode ray tube controller as the Amstrad CPC
// carried it, in the five types the CRTC Compendium numbers 0 to 4.
//
// The chip counts characters across a line (c0), lines down a character row
// (c9), character rows down a frame (c4), the lines of the frame's vertical
// adjustment (c5), and the widths of its two syncs (c3l for the line sync,
// c3h for the frame sync). From those counters it puts out, at each
// character clock, a memory address (MA), a raster address (RA), its two
// syncs and its display enable (DISPTMG). It knows no machine: the board
// wires MA and RA to memory, the syncs to whatever makes a picture of them,
// and its register bus to the processor.
//
// The type is chosen when the chip is made and never changes; it decides
// how each register keeps the bits written to it, which registers read
// back, whether a status register answers, how the two sync widths are
// read from R3, and where the screen's start address (R12/R13) is taken.
//
// Sources cited at the lines that depend on them:
//   - Hitachi, "HD6845S CRT Controller" datasheet (HD6845S): the counter
//     chain, the registers and the timing of the outputs.
//   - Longshot, "The Amstrad CPC CRTC Compendium" v1.11 (Compendium),
//     https://shaker.logonsystem.eu/ACCC1.11-EN.pdf: the type numbering
//     (ch. 1), register widths (ch. 4.3), the sync widths by type (ch. 16),
//     register read-back and the status registers (ch. 21), and where each
//     type takes R12/R13 (ch. 17.4, 20.3).
//   - CPCWiki, "CRTC" (https://www.cpcwiki.eu/index.php/CRTC): the same
//     facts in tables — "On CRTCs 0/1, if 0 is programmed no HSYNC is
//     generated. On CRTCs 2/3/4, if 0 is programmed this gives a HSYNC width
//     of 16"; type 1's R31 reading &FF; the ASICs' eight-entry read table and
//     the bits of their two status bytes.
//
// Not modelled: interlace (R8 bits 1-0 are kept but change nothing), the
// cursor output, the light pen (R16/R17 read 0), display skew of one or two
// characters (R8 bits 5-4 = 3, "border on", is obeyed), and the
// sub-character races the Compendium draws between a register write and the
// comparisons the same character makes.
package crtc

import "fmt"

// Type is a CRTC type as the Compendium numbers them (Compendium ch. 1;
// CPCWiki "CRTC", the part-number table).
type Type uint8

const (
	HD6845S  Type = 0 // Hitachi HD6845S and UMC UM6845
	UM6845R  Type = 1 // UMC UM6845R
	MC6845   Type = 2 // Motorola MC6845
	AMS40489 Type = 3 // the CPC Plus ASIC's CRTC
	AMS40226 Type = 4 // the cost-down CPC's pre-ASIC
)

// Types counts the types there are.
const Types = 5

// String names the type by its part, as inspect and set name an enum's
// value: HD6845S (type 0, which the UMC UM6845 is too), UM6845R, MC6845,
// AMS40489 (the CPC Plus's ASIC) and AMS40226 (the cost-down CPC's
// pre-ASIC), the part numbers the Compendium's ch. 1 and CPCWiki's "CRTC"
// give each type.
func (t Type) String() string {
	switch t {
	case HD6845S:
		return "HD6845S"
	case UM6845R:
		return "UM6845R"
	case MC6845:
		return "MC6845"
	case AMS40489:
		return "AMS40489"
	case AMS40226:
		return "AMS40226"
	}
	return "unknown"
}

// keptBits gives, for each register R0-R17, the bits a write keeps.
// Type 0's widths are the Compendium's (ch. 4.3): R4, R6, R7 and R10 keep
// seven bits, R5, R9 and R11 five, R12 and R14 six, and R8 the two
// interlace bits and the two skew bits (&F3). Types 1 and 2 have no display
// skew (Compendium ch. 19.1; CPCWiki "CRTC", R8: "DD: Only in CRTCs 0, 3 and
// 4"), so their R8 keeps only the interlace bits. R16 and R17, the light
// pen's latches, cannot be written on any type.
var keptBits = [Types][18]byte{
	HD6845S:  {0xFF, 0xFF, 0xFF, 0xFF, 0x7F, 0x1F, 0x7F, 0x7F, 0xF3, 0x1F, 0x7F, 0x1F, 0x3F, 0xFF, 0x3F, 0xFF, 0, 0},
	UM6845R:  {0xFF, 0xFF, 0xFF, 0xFF, 0x7F, 0x1F, 0x7F, 0x7F, 0x03, 0x1F, 0x7F, 0x1F, 0x3F, 0xFF, 0x3F, 0xFF, 0, 0},
	MC6845:   {0xFF, 0xFF, 0xFF, 0xFF, 0x7F, 0x1F, 0x7F, 0x7F, 0x03, 0x1F, 0x7F, 0x1F, 0x3F, 0xFF, 0x3F, 0xFF, 0, 0},
	AMS40489: {0xFF, 0xFF, 0xFF, 0xFF, 0x7F, 0x1F, 0x7F, 0x7F, 0xF3, 0x1F, 0x7F, 0x1F, 0x3F, 0xFF, 0x3F, 0xFF, 0, 0},
	AMS40226: {0xFF, 0xFF, 0xFF, 0xFF, 0x7F, 0x1F, 0x7F, 0x7F, 0xF3, 0x1F, 0x7F, 0x1F, 0x3F, 0xFF, 0x3F, 0xFF, 0, 0},
}

// KeptBits reports which bits register r (0-31) keeps on type t; registers
// 18 to 31 are none of the chip's and keep nothing.
func KeptBits(t Type, r int) byte {
	if r < 0 || r >= 18 || int(t) >= Types {
		return 0
	}
	return keptBits[t][r]
}

// CRTC is the chip's state. Make one with New; a zero CRTC is a type 0
// fresh from power-on.
type CRTC struct {
	Type      Type     `inspect:"type,fixed"`
	Registers [18]byte `inspect:"registers"`
	Selected  byte     `inspect:"selected"` // the address register, 0-31

	// The counters, each as wide as the datasheet's (HD6845S, "Internal
	// Block Diagram"): C0 eight bits, C4 seven, C9 and C5 five. The two
	// sync-width counters count a sync's characters or lines, 16 at most
	// (Compendium ch. 16), and stand at its width once it ends until the
	// next begins.
	C0  byte `inspect:"c0"`         // character within the line
	C3l byte `inspect:"c3l,max=16"` // characters of the line sync so far
	C3h byte `inspect:"c3h,max=16"` // lines of the frame sync so far
	C4  byte `inspect:"c4,max=&7F"` // character row within the frame
	C5  byte `inspect:"c5,max=&1F"` // line within the vertical adjustment
	C9  byte `inspect:"c9,max=&1F"` // line within the character row

	// The addresses, fourteen bits, MA0-MA13 (HD6845S).
	MA       uint16 `inspect:"ma,max=&3FFF"`        // the memory address put out for this character
	RowStart uint16 `inspect:"row_start,max=&3FFF"` // VMA', where the next line of this row begins
	NextRow  uint16 `inspect:"next_row,max=&3FFF"`  // the address the row after this begins at, latched at C0=R1

	HSync     bool `inspect:"hsync"`
	VSync     bool `inspect:"vsync"`
	HDisplay  bool `inspect:"hdisplay"`  // C0 has not yet met R1 on this line
	VDisplay  bool `inspect:"vdisplay"`  // C4 has not yet met R6 in this frame
	Adjusting bool `inspect:"adjusting"` // in the frame's R5 lines of vertical adjustment
}

// New makes a chip of type t, as it stands at power-on: every register and
// counter zero.
func New(t Type) *CRTC {
	c := &CRTC{}
	c.Reset(t)
	return c
}

// Reset puts the chip of type t in its power-on state. The 6845 has no
// reset that clears its registers (HD6845S, "Reset"), so the state a real
// chip wakes in is whatever it wakes in; zero is this one's.
func (c *CRTC) Reset(t Type) {
	*c = CRTC{Type: t}
	c.HDisplay = true
	c.VDisplay = true
}

// Select writes the address register: the register a following Write or
// Read names. Five bits are kept (Compendium ch. 4.2), so 18 to 31 name
// nothing the chip holds.
func (c *CRTC) Select(v byte) {
	c.Selected = v & 0x1F
}

// Write writes v to the selected register, keeping the bits the type keeps
// there; a write to 18-31 reaches no register. A write to R7 can start the
// frame sync at once (Compendium ch. 16.4).
func (c *CRTC) Write(v byte) {
	r := c.Selected
	if r >= 18 {
		return
	}
	c.Registers[r] = v & keptBits[c.Type][r]
	if r == 7 {
		c.r7Written()
	}
}

// r7Written starts the frame sync where a write makes C4 equal R7. The
// Compendium gives types 0, 1 and 2 the comparison on any character of the
// line (ch. 19.7.1: "VSYNC occurs when C4 is equal to R7 on any position of
// C0 (except on CRTC's 3 and 4, which dictate that C4=C9=C0=0)"), and type
// 0 and 2's made in the line's first two characters is a blocked one (ch.
// 16.4.1.1), where type 1 takes it outright (ch. 16.4.2).
func (c *CRTC) r7Written() {
	if c.VSync || c.C4 != c.Registers[7] {
		return
	}
	switch c.Type {
	case UM6845R:
		c.startVSync()
	case HD6845S, MC6845:
		if c.C0 >= 2 {
			c.startVSync()
		}
	}
}

// Read answers a read of the register port (&BFxx on a CPC) for the
// selected register. Types 0, 1 and 2 answer from their registers, with 0
// for a register that cannot be read: R14-R17 on all three, and R12-R13 on
// type 0 alone; type 1 answers &FF for R31 (Compendium ch. 21.2; CPCWiki
// "CRTC": "On CRTC 1, registers 18-30 read as 0, register 31 reads as
// 0xff"). Types 3 and 4 read through a table of eight, chosen by the low
// three bits of the selected number: R16, R17, status 1, status 2, R12,
// R13, R14, R15 (Compendium ch. 21.2.3; CPCWiki "Reading from CRTC
// registers on ASIC/Pre-ASIC").
func (c *CRTC) Read() byte {
	r := c.Selected
	switch c.Type {
	case AMS40489, AMS40226:
		switch r & 7 {
		case 0:
			return c.Registers[16]
		case 1:
			return c.Registers[17]
		case 2:
			return c.asicStatus1()
		case 3:
			return c.asicStatus2()
		default:
			return c.Registers[12+(r&7)-4]
		}
	}
	switch {
	case r >= 14 && r <= 17:
		return c.Registers[r]
	case (r == 12 || r == 13) && c.Type == HD6845S:
		return c.Registers[r]
	case r == 31 && c.Type == UM6845R:
		return 0xFF
	}
	return 0
}

// Status answers a read of the status port (&BExx on a CPC). Only type 1
// has a status register: bit 5 is set while the frame is in its vertical
// border, C4 having met R6, and bit 6 while a light pen strobe stands,
// which nothing here wires; the other bits read 0 (Compendium ch. 21.3.1,
// 21.3.3). Types 3 and 4 answer the register port's table there, the
// status port being "a mirror of the read port" (ch. 21.3.1). Types 0 and 2
// have no status register and drive nothing: driven is false, and the bus
// floats (ch. 21.3.2).
func (c *CRTC) Status() (v byte, driven bool) {
	switch c.Type {
	case UM6845R:
		if !c.VDisplay {
			return 0x20, true
		}
		return 0, true
	case AMS40489, AMS40226:
		return c.Read(), true
	}
	return 0xFF, false
}

// asicStatus1 is the first of the ASICs' two status bytes, each of its low
// six bits cleared while a condition holds (CPCWiki "CRTC", Status 1): bit
// 5, the frame sync's last line; bit 4, the line sync's last character; bit
// 3, C0 = R2; bit 2, C0 = R1; bit 1, C0 = R0/2; bit 0 is set where C0 = R0.
// Bits 7 and 6 are of unknown function and read 0 here.
func (c *CRTC) asicStatus1() byte {
	var v byte = 0x3E
	if c.VSync && c.C3h+1 == c.vsyncWidth() {
		v &^= 0x20
	}
	if c.HSync && c.C3l+1 == c.hsyncWidth() {
		v &^= 0x10
	}
	if c.C0 == c.Registers[2] {
		v &^= 0x08
	}
	if c.C0 == c.Registers[1] {
		v &^= 0x04
	}
	if c.C0 == c.Registers[0]/2 {
		v &^= 0x02
	}
	if c.C0 == c.Registers[0] {
		v |= 0x01
	}
	return v
}

// asicStatus2 is the second status byte (CPCWiki "CRTC", Status 2): bit 7
// cleared while the raster address is not 0, bit 5 cleared while it equals
// R9. The others' functions are unknown and read 0 here.
func (c *CRTC) asicStatus2() byte {
	var v byte = 0xA0
	if c.C9 != 0 {
		v &^= 0x80
	}
	if c.C9 == c.Registers[9] {
		v &^= 0x20
	}
	return v
}

// hsyncWidth is the line sync's width in characters from R3's low nibble.
// A nibble of 0 gives no sync at all on types 0 and 1 and sixteen
// characters on types 2, 3 and 4 (Compendium ch. 16; CPCWiki "CRTC",
// HSYNC). No sync is returned as 0.
func (c *CRTC) hsyncWidth() byte {
	w := c.Registers[3] & 0x0F
	if w == 0 && c.Type != HD6845S && c.Type != UM6845R {
		return 16
	}
	return w
}

// vsyncWidth is the frame sync's width in lines. Types 0, 3 and 4 read it
// from R3's high nibble, 0 meaning sixteen; types 1 and 2 ignore the
// nibble and give sixteen always (Compendium ch. 16: the VSYNC "is fixed at
// 16" on those two; CPCWiki "CRTC", R3, Type 1: "Vertical Sync is fixed at
// 16 lines").
func (c *CRTC) vsyncWidth() byte {
	if c.Type == UM6845R || c.Type == MC6845 {
		return 16
	}
	w := c.Registers[3] >> 4
	if w == 0 {
		return 16
	}
	return w
}

// HSyncWidth and VSyncWidth report the widths the present R3 gives on
// this chip's type: characters of line sync (0 for none) and lines of frame
// sync.
func (c *CRTC) HSyncWidth() int { return int(c.hsyncWidth()) }

// VSyncWidth reports the lines of frame sync the present R3 gives.
func (c *CRTC) VSyncWidth() int { return int(c.vsyncWidth()) }

// DisplayEnable is DISPTMG for the present character: inside both the
// line's displayed characters and the frame's displayed rows, unless R8's
// skew field (types 0, 3 and 4) holds 3, which turns the display off
// (Compendium ch. 19.2, the "BORDER ON" function).
func (c *CRTC) DisplayEnable() bool {
	return c.HDisplay && c.VDisplay && c.Registers[8]&0x30 != 0x30
}

// start is the screen's start address, R12 and R13 as fourteen bits.
func (c *CRTC) start() uint16 {
	return (uint16(c.Registers[12])<<8 | uint16(c.Registers[13])) & 0x3FFF
}

func (c *CRTC) startVSync() {
	c.VSync = true
	c.C3h = 0
}

// Tick is one character clock: the chip leaves the character it stood on
// and stands on the next, with its outputs (MA, C9 as RA, HSync, VSync,
// DisplayEnable) those of the new character.
func (c *CRTC) Tick() {
	// The line sync is counted in the characters it covers (HD6845S,
	// horizontal sync width).
	if c.HSync {
		c.C3l++
		if c.C3l >= c.hsyncWidth() {
			c.HSync = false
		}
	}
	if c.C0 == c.Registers[0] {
		c.C0 = 0
		c.endLine()
	} else {
		c.C0++
		c.MA = (c.MA + 1) & 0x3FFF
	}
	// A row's next address is what MA reached when C0 met R1 on the row's
	// last line (HD6845S, "Linear address generator"; Compendium ch. 20.1).
	if c.C0 == c.Registers[1] {
		c.HDisplay = false
		if c.C9 == c.Registers[9] && !c.Adjusting {
			c.NextRow = c.MA
		}
	}
	if c.C0 == c.Registers[2] && !c.HSync {
		if w := c.hsyncWidth(); w != 0 {
			c.HSync = true
			c.C3l = 0
		}
	}
}

// endLine moves the chip to the head of the next line.
func (c *CRTC) endLine() {
	if c.VSync {
		c.C3h++
		if c.C3h >= c.vsyncWidth() {
			c.VSync = false
		}
	}
	newRow := false
	switch {
	case c.Adjusting:
		c.C5 = (c.C5 + 1) & 0x1F
		c.C9 = (c.C9 + 1) & 0x1F
		if c.C5 >= c.Registers[5] {
			c.newFrame()
			return
		}
	case c.C9 == c.Registers[9]:
		c.C9 = 0
		if c.C4 == c.Registers[4] {
			if c.Registers[5] == 0 {
				c.newFrame()
				return
			}
			// The vertical adjustment: R5 more lines, counted on C5 (types
			// 1 and 2) or on C9 (types 0, 3 and 4) with C4 one past R4
			// (Compendium ch. 11.1).
			c.Adjusting = true
			c.C5 = 0
			c.C4 = (c.C4 + 1) & 0x7F
		} else {
			c.C4 = (c.C4 + 1) & 0x7F
		}
		c.RowStart = c.NextRow
		newRow = true
	default:
		c.C9 = (c.C9 + 1) & 0x1F
	}
	c.lineHead(newRow)
}

// newFrame starts a frame: C4, C9 and C5 to 0 and the address from R12 and
// R13, which every type takes here (Compendium ch. 17.4, 20.3).
func (c *CRTC) newFrame() {
	c.C4 = 0
	c.C9 = 0
	c.C5 = 0
	c.Adjusting = false
	c.RowStart = c.start()
	c.NextRow = c.RowStart
	c.VDisplay = true
	c.lineHead(true)
}

// lineHead sets up the outputs of a line's first character.
func (c *CRTC) lineHead(newRow bool) {
	// Type 1 reloads its address from R12/R13 at the head of every line
	// while C4 is 0, where the others take them once a frame (CPCWiki
	// "CRTC", internal counters: "The exception is the CRTC 1 for which the
	// MA is reloaded with R12/R13 instead of MA' as long as C4=0";
	// Compendium ch. 17.4.2).
	if c.Type == UM6845R && c.C4 == 0 && !c.Adjusting {
		c.RowStart = c.start()
	}
	c.MA = c.RowStart
	c.HDisplay = true
	if newRow {
		if c.C4 == c.Registers[6] {
			c.VDisplay = false
		}
		if c.C4 == c.Registers[7] && !c.VSync && !c.Adjusting {
			c.startVSync()
		}
	}
}

// Plain reports how many of the next character clocks change nothing but
// C0, MA and the line sync's count: none reaches R0's end of line, R1, R2
// or the end of the line sync. A board may run those by Advance rather
// than Tick, one at a time.
func (c *CRTC) Plain() int {
	c0 := int(c.C0)
	r0 := int(c.Registers[0])
	if c0 >= r0 {
		return 0
	}
	n := r0 - c0
	if r1 := int(c.Registers[1]); r1 > c0 && r1-c0-1 < n {
		n = r1 - c0 - 1
	}
	if r2 := int(c.Registers[2]); r2 > c0 && r2-c0-1 < n {
		n = r2 - c0 - 1
	}
	if c.HSync {
		if left := int(c.hsyncWidth()) - int(c.C3l) - 1; left < n {
			n = left
		}
	}
	if n < 0 {
		return 0
	}
	return n
}

// Advance runs n character clocks that Plain has said are plain.
func (c *CRTC) Advance(n int) {
	c.C0 += byte(n)
	c.MA = (c.MA + uint16(n)) & 0x3FFF
	if c.HSync {
		c.C3l += byte(n)
	}
}

// Validate refuses what set may not leave in the chip: a register holding
// bits its type does not keep, or an address register past 31.
func (c *CRTC) Validate() error {
	if int(c.Type) >= Types {
		return fmt.Errorf("type is %d; a 6845 is of type 0 to 4", c.Type)
	}
	for r, v := range c.Registers {
		if k := keptBits[c.Type][r]; v&^k != 0 {
			return fmt.Errorf("registers[%d] is &%02X; on type %d it keeps only the bits of &%02X", r, v, c.Type, k)
		}
	}
	if c.Selected > 31 {
		return fmt.Errorf("selected is %d; the address register holds 0 to 31", c.Selected)
	}
	return nil
}
