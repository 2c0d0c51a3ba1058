package cpc

import (
	"encoding/binary"

	"colophon/internal/chip/crtc"
	"colophon/internal/chip/gatearray"
	"colophon/internal/chip/ppi"
	"colophon/internal/chip/psg"
	"colophon/internal/machine"
)

// le reads and writes eight samples of the raster at once; eights spreads
// a sample over eight.
var le = binary.LittleEndian

const eights = 0x0101010101010101

// bus is the board as the processor sees it: one call per machine cycle.
type bus CPC

// WAIT. The Gate Array holds the processor's WAIT on three ticks in four
// and lets it through on the fourth (Compendium ch. 4.4.4), which here is a
// tick t with t%4 == 3, the tick the character clock falls on. A machine
// cycle that samples WAIT on any other tick is stretched, a wait state at a
// time, until its sampling tick is one of those. The processor samples
// WAIT on the falling edge of T2 in an opcode fetch and a memory read or
// write, of TW in an I/O cycle, and of the second automatic wait state of
// an interrupt acknowledge (UM0080, "Timing"; internal/chip/z80's Bus),
// which are T1+1, T1+2 and T1+3. Each function below returns the wait
// states that put its cycle's sampling tick on the microsecond.
func waitMem(t1 uint64) uint64 { return (2 - t1) & 3 }
func waitIO(t1 uint64) uint64  { return (1 - t1) & 3 }
func waitAck(t1 uint64) uint64 { return (0 - t1) & 3 }

func (b *bus) Fetch(addr uint16) byte {
	m := (*CPC)(b)
	t1 := m.CPU.Tick
	m.CPU.Tick += waitMem(t1)
	p := &m.pages[addr>>14]
	v := p.read[addr&0x3FFF]
	if m.CPU.Responding || m.Handlers.Active() {
		m.trackHandlers(addr)
	}
	if m.observe != nil {
		m.memEvent(machine.Fetch, t1, addr, v, v, v, p)
	}
	return v
}

// trackHandlers keeps the account of the interrupt handlers the processor
// is inside (machine.Handlers) at an opcode fetch: an NMI's response
// fetches at the address it then pushes, and any other fetch may be the
// processor coming back from a handler.
func (m *CPC) trackHandlers(addr uint16) {
	if m.CPU.Responding {
		m.Handlers.Enter(m.CPU.SP, addr)
		return
	}
	m.Handlers.Fetched(addr, m.CPU.SP)
}

// InHandler reports whether the processor stands inside an interrupt's
// handler (machine.Interrupts).
func (m *CPC) InHandler() bool { return m.Handlers.Inside(m.CPU.PC, m.CPU.SP) }

func (b *bus) Read(addr uint16) byte {
	m := (*CPC)(b)
	t1 := m.CPU.Tick
	m.CPU.Tick += waitMem(t1)
	p := &m.pages[addr>>14]
	v := p.read[addr&0x3FFF]
	if m.observe != nil {
		m.memEvent(machine.Read, t1, addr, v, v, v, p)
	}
	return v
}

func (b *bus) Write(addr uint16, v byte) {
	m := (*CPC)(b)
	t1 := m.CPU.Tick
	w := waitMem(t1)
	m.CPU.Tick += w
	// The byte lands once WAIT lets the cycle through. A character the
	// video fetches before that tick must find the old byte, so where the
	// video, running behind, would fetch this byte before it, it is
	// brought up to that tick first.
	at := t1 + 1 + w
	p := &m.pages[addr>>14]
	i := addr & 0x3FFF
	if m.nextChar <= at && m.videoReads(p.ram+uint32(i), at) {
		m.catchUp(at)
	}
	before := p.write[i]
	p.write[i] = v
	m.marks.ram[0] |= 1 << ((p.ram + uint32(i)) / machine.PageSize)
	if m.observe != nil {
		m.memEvent(machine.Write, t1, addr, v, before, v, p)
	}
}

func (b *bus) Internal(addr uint16, n int) {}

func (b *bus) In(port uint16) byte {
	m := (*CPC)(b)
	t1 := m.CPU.Tick
	w := waitIO(t1)
	m.CPU.Tick += w
	// /IORQ and /RD fall in T2 (UM0080, "Input or Output Cycles"); the
	// processor takes the byte in T3, after the wait states.
	iorq := t1 + 1
	taken := t1 + 3 + w
	if offVideo(port) && m.observe == nil {
		// Only the disc controller can answer: the video stays behind.
		v := byte(0xFF)
		if m.disc && port&0x0580 == 0x0100 {
			v = m.fdcRead(port&1, taken)
		}
		return v
	}
	m.catchUp(iorq)
	v := m.ioRead(port, iorq, taken)
	if m.observe != nil {
		m.event(machine.In, iorq, port, v, v, v)
	}
	return v
}

func (b *bus) Out(port uint16, v byte) {
	m := (*CPC)(b)
	t1 := m.CPU.Tick
	m.CPU.Tick += waitIO(t1)
	iorq := t1 + 1
	if m.observe == nil {
		switch {
		case offVideo(port):
			m.offVideoWrite(port, v, iorq)
			return
		case m.mapsOnly(port, v):
			m.mapWrite(port, v, iorq)
			return
		}
	}
	m.catchUp(iorq)
	if m.observe != nil {
		m.event(machine.Out, iorq, port, v, v, v)
	}
	m.ioWrite(port, v, iorq)
}

// offVideo reports whether an I/O access to port reaches none of the chips
// the video runs by or that move the interrupt line: neither the Gate Array
// nor the PAL (A15), the 6845 (A14), the upper ROM number (A13) nor the PPI
// (A11), only the disc interface and the printer port (cpctech, "I/O port
// allocation"). The video, which runs behind the processor, can stay
// behind over such an access, and the bound on the interrupt line's next
// change stands (quietUntil), where an observer, who is told where the beam
// stood, does not watch. So a loader polling the disc controller a byte at
// a time costs what its instructions cost.
func offVideo(port uint16) bool { return port&0xE800 == 0xE800 }

// mapsOnly reports whether an I/O write changes nothing the video runs by
// or that moves the interrupt line, only the memory map as the processor
// sees it, which the video, reading the RAM alone, never does (Grim, "The
// Gate Array", MMR): the upper ROM number, at &DFxx with neither the Gate
// Array, the 6845 nor the PPI selected; or the Gate Array's ROM enables,
// in a write of its RMR that leaves the mode pending as it stands and the
// interrupt counter alone. AMSDOS switches ROMs so for each call between
// them, many times a sector; such a write leaves the video behind, as
// offVideo's do.
func (m *CPC) mapsOnly(port uint16, v byte) bool {
	switch port & 0xE800 {
	case 0xC800:
		return true
	case 0x6800:
		return v>>6 == 2 && v&0x13 == m.GA.ModePending
	}
	return false
}

// mapWrite is a write mapsOnly passes: the memory map worked out again, and
// the disc interface and the printer port told where A12, A10 and A7 reach
// them.
func (m *CPC) mapWrite(port uint16, v byte, iorq uint64) {
	if port&0x8000 == 0 {
		m.GA.Write(v)
	} else {
		m.UpperROM = v
	}
	m.remap()
	m.offVideoWrite(port, v, iorq)
}

func (b *bus) Acknowledge() byte {
	m := (*CPC)(b)
	t1 := m.CPU.Tick
	w := waitAck(t1)
	m.CPU.Tick += w
	// The Gate Array hears the acknowledge where M1 ends, on the tick after
	// WAIT lets the cycle through (Compendium ch. 27.7.1), and an action of
	// the interrupt generator due on that same tick comes first. A request
	// raised on that tick is not the one acknowledged, and stands.
	heard := t1 + 3 + w + 1
	m.catchUp(heard)
	m.GA.Acknowledge(m.raisedAt == heard)
	m.Handlers.Enter(m.CPU.SP, m.CPU.PC)
	// Nothing drives the data bus during the acknowledge; it floats at &FF
	// (Compendium ch. 27.5 finds it undetermined), which in mode 2 is the
	// low byte of the vector.
	if m.observe != nil {
		m.event(machine.Acknowledge, t1, m.CPU.PC, 0xFF, 0xFF, 0xFF)
	}
	return 0xFF
}

// videoReads reports whether the video, standing where it does, would
// fetch the RAM byte at its own address a in a character at or before tick
// at. It reasons only within the line the 6845 stands on, and answers yes
// where the window reaches past its end. The video reads only the base 64K
// (Grim, "The Gate Array", MMR), at the addresses char gives.
func (m *CPC) videoReads(a uint32, at uint64) bool {
	if a >= 0x10000 {
		return false
	}
	c := &m.CRTC
	k := int((at-m.nextChar)/4) + 1 // characters from nextChar to at
	c0, r0 := int(c.C0), int(c.Registers[0])
	if c0 >= r0 || c0+k > r0 {
		return true
	}
	if byte(a>>11)&7 != c.C9&7 {
		return false
	}
	// The j-th character ahead is at MA+j; find the one whose low ten
	// bits name this byte, and see whether its top two bits do too.
	lo := uint16(a>>1) & 0x3FF
	j := int((lo-(c.MA+1))&0x3FF) + 1
	return j <= k && (c.MA+uint16(j))>>12&3 == uint16(a>>14)&3
}

// catchUp runs the video to tick t: every character clock and every
// action of the interrupt generator due at or before it, in tick order.
func (m *CPC) catchUp(t uint64) {
	if m.actAt <= t {
		m.act()
	}
	for m.nextChar <= t {
		if m.actAt == never && !m.GA.CSync() && !m.Monitor.Sync &&
			m.CRTC.HSync == m.GA.HSyncBefore && m.CRTC.VSync == m.GA.VSyncBefore {
			n := int((t-m.nextChar)/4) + 1
			n = min(n, m.CRTC.Plain(), m.Monitor.Room(), m.GA.Steady())
			if n > 0 {
				m.span(n)
				continue
			}
		}
		m.char()
		if m.actAt <= t {
			m.act()
		}
	}
}

// span runs n character clocks in which nothing changes but the address
// the 6845 puts out and the bytes it finds there: no sync begins or ends,
// no line ends, the display enable holds, and the monitor's beam runs
// straight along its line. It does what char does n times, without asking
// each chip again each time.
func (m *CPC) span(n int) {
	c := &m.CRTC
	g := &m.GA
	pix := m.Monitor.Span(n)
	ra := int(c.C9)
	ma := c.MA
	display := c.DisplayEnable()
	ram := m.video
	// The raster is written eight samples at a time, and what it held is
	// set beside what it is given, for the line to be marked if they
	// differ (monitor.MarkChanged).
	var changed uint64
	if g.Blanked() {
		const black = gatearray.Black * eights
		for i := 0; i < len(pix); i += 8 {
			changed |= le.Uint64(pix[i:]) ^ black
			le.PutUint64(pix[i:], black)
		}
		ma = (ma + uint16(n)) & 0x3FFF
		a := gatearray.VideoAddress(ma, ra)
		g.Latched = [2]byte{ram[a], ram[a|1]}
		g.LatchedDisplay = display
	} else {
		colours := g.Colours()
		border := uint64(g.Inks[gatearray.Border]) * eights
		l0, l1, shown := g.Latched[0], g.Latched[1], g.LatchedDisplay
		for k := 0; k < n; k++ {
			o := pix[16*k : 16*k+16]
			s0, s1 := border, border
			if shown {
				s0, s1 = le.Uint64(colours[l0][:]), le.Uint64(colours[l1][:])
			}
			changed |= le.Uint64(o[0:8]) ^ s0 | le.Uint64(o[8:16]) ^ s1
			le.PutUint64(o[0:8], s0)
			le.PutUint64(o[8:16], s1)
			ma = (ma + 1) & 0x3FFF
			a := gatearray.VideoAddress(ma, ra)
			l0, l1, shown = ram[a], ram[a|1], display
		}
		g.Latched = [2]byte{l0, l1}
		g.LatchedDisplay = shown
	}
	if changed != 0 {
		m.Monitor.MarkChanged(m.Monitor.BeamY)
	}
	c.Advance(n)
	g.Coast(n)
	m.nextChar += 4 * uint64(n)
}

func (m *CPC) act() {
	if m.GA.Act() {
		m.raisedAt = m.actAt
	}
	m.actAt = never
}

// char is one character clock, at the tick nextChar names. An action the
// Gate Array's interrupt generator makes due in it is done a quarter into
// the character (Compendium ch. 27.6.1).
func (m *CPC) char() {
	if m.clock() {
		m.frameEnd = true
	}
	if m.GA.Due != gatearray.None {
		m.actAt = m.nextChar + 1
	}
	m.nextChar += 4
}

// clock is the video's part of a character clock, which knows no tick. The
// 6845 moves to its next character; the Gate Array follows its syncs,
// fetches the two bytes at its address, and puts out the character it
// fetched a microsecond ago; the monitor takes it. The board sends the
// 6845's MA13-MA12 to A15-A14, RA2-RA0 to A13-A11 and MA9-MA0 to A10-A1,
// the Gate Array choosing A0 (cpctech, "Screen memory addresses"), and the
// video reads the base 64K whatever the processor sees (Grim, "The Gate
// Array", MMR). It reports whether the monitor retraced.
func (m *CPC) clock() (retraced bool) {
	c := &m.CRTC
	c.Tick()
	m.GA.Sync(c.HSync, c.VSync)
	ma := c.MA
	a := gatearray.VideoAddress(ma, int(c.C9))
	var s gatearray.Samples
	m.GA.Video(c.DisplayEnable(), m.video[a], m.video[a|1], &s)
	return m.Monitor.Receive((*[16]byte)(&s), m.GA.CSync())
}

// ioWrite decodes an I/O write by single address bits (cpctech, "I/O port
// allocation"): each device that sees its bit low takes the byte, so one
// write may reach several.
func (m *CPC) ioWrite(port uint16, v byte, iorq uint64) {
	m.quietUntil = 0
	// The 6128's PAL sits on A15 with the Gate Array and takes the bytes
	// whose top two bits are 11 (cpctech, "Amstrad CPC Ram Paging"). A 64K
	// machine has no PAL.
	if port&0x8000 == 0 && v&0xC0 == 0xC0 && len(m.RAM) >= 0x20000 {
		m.MMR = v
		m.remap()
	}
	// The Gate Array: A15 low, A14 high.
	if port&0xC000 == 0x4000 {
		if m.GA.Write(v) {
			m.remap()
		}
	}
	// The 6845: A14 low; A9 chooses write (0) or read (1), A8 the register
	// (1) or the address register (0) (Grim, "The CRTC", I/O ports).
	if port&0x4000 == 0 && port&0x0200 == 0 {
		at := iorq
		if m.CRTC.Type == crtc.AMS40489 || m.CRTC.Type == crtc.AMS40226 {
			// The ASICs take a write on the first character clock after
			// the strobe, an OUT (C),r's a microsecond after a Gate Array's
			// CRTC would, where an OUT (n),A's and an OUTI's strobe falls
			// just before a clock (Compendium ch. 4.4.4).
			at = iorq + 1
			at += (3 - at) & 3
			m.catchUp(at)
		}
		m.crtcBus(port, v, at)
	}
	// The upper ROM number: A13 low (cpctech, "Expansion ROM Selection").
	if port&0x2000 == 0 {
		m.UpperROM = v
		m.remap()
	}
	// The PPI: A11 low, A9 A8 the port.
	if port&0x0800 == 0 {
		m.PPI.Write(int(port>>8)&3, v)
		m.runPSG(iorq)
		// The cassette motor, port C bit 4 (cpctech, "8255 PPI").
		m.Tape.SetMotor(m.pins(ppi.PortC)&0x10 != 0, iorq)
	}
	m.offVideoWrite(port, v, iorq)
}

// offVideoWrite is an I/O write's part that reaches the disc interface and
// the printer port.
func (m *CPC) offVideoWrite(port uint16, v byte, iorq uint64) {
	// The disc interface: A10 and A7 low; A8 low is the motor, high the
	// controller (cpctech, "Floppy disc controller").
	if m.disc && port&0x0480 == 0 {
		if port&0x0100 == 0 {
			m.motor(v&1 != 0, iorq)
		} else {
			m.fdcWrite(port&1, v, iorq)
		}
	}
	// The printer port: A12 low (cpctech, "I/O port allocation").
	if port&0x1000 == 0 {
		m.printer(v)
	}
}

// crtcBus is a select or register write reaching the 6845 through &BCxx
// or &BDxx, by out or by in.
func (m *CPC) crtcBus(port uint16, v byte, at uint64) {
	if port&0x0100 == 0 {
		m.CRTC.Select(v)
		return
	}
	r := m.CRTC.Selected
	var before byte
	if r < 18 {
		before = m.CRTC.Registers[r]
	}
	m.CRTC.Write(v)
	if m.observe != nil {
		var after byte
		if r < 18 {
			after = m.CRTC.Registers[r]
		}
		m.event(machine.CRTC, at, uint16(r), v, before, after)
	}
}

// ioRead decodes an I/O read. The bus floats at &FF where nothing drives
// it, and where several devices answer, the last below wins.
func (m *CPC) ioRead(port uint16, iorq, taken uint64) byte {
	m.quietUntil = 0
	v := byte(0xFF)
	if port&0x4000 == 0 {
		if port&0x0200 == 0 {
			// The 6845 is given no direction line, so an IN from its two
			// write ports writes too, with whatever the address bus's top
			// half carries: A, for IN A,(n) (spec, "Stopping and watching";
			// CPCWiki "CRTC": "if you perform an IN instruction to the select
			// or write functions, it will write data to the CRTC").
			m.crtcBus(port, byte(port>>8), iorq)
		} else {
			m.catchUp(taken)
			if port&0x0100 != 0 {
				v = m.CRTC.Read()
			} else if s, driven := m.CRTC.Status(); driven {
				v = s
			}
		}
	}
	if port&0x0800 == 0 {
		m.catchUp(taken)
		m.Tape.Run(taken)
		m.presentPortB()
		m.runPSG(iorq)
		if r, driven := m.PPI.Read(int(port>>8) & 3); driven {
			v = r
		}
	}
	if m.disc && port&0x0580 == 0x0100 {
		v = m.fdcRead(port&1, taken)
	}
	return v
}

// presentPortB puts the board's levels on PPI port B.
func (m *CPC) presentPortB() { m.PPI.SetInput(ppi.PortB, m.portB()) }

// portB is what the board holds on PPI port B's pins (cpctech, "8255
// PPI"): bit 7 the cassette's read data, the level at the deck's head as
// it was last run, low with no tape; bit 6 the printer's BUSY, pulled high
// with no printer, low with one attached that is always ready (printer.go);
// bit 5 the expansion port's /EXP, low as the reference measures it; bit 4
// the refresh link, high for 50 Hz; bits 3-1 the manufacturer; bit 0 the
// 6845's VSYNC.
func (m *CPC) portB() byte {
	v := m.Manufacturer << 1 & 0x0E
	if !m.printerReady() {
		v |= 0x40
	}
	if m.Tape.Level {
		v |= 0x80
	}
	if m.FiftyHz {
		v |= 0x10
	}
	if m.CRTC.VSync {
		v |= 0x01
	}
	return v
}

// pins is what a device wired to a PPI port sees on its pins: the bits the
// PPI drives as it drives them, and the rest high. A port programmed as an
// input drives nothing, its output buffer off (Intel 8255A datasheet, mode
// 0; internal/chip/ppi's Pins), and its lines read high: "When port is
// input, then data present on the ports outputs is 0xff", as Kevin
// Thacker, cpctech's author, notes in MAME's 8255 (8255ppi.c, 2000). So
// after a reset, which makes every port an input, the PSG's BDIR and BC1
// see LATCH ADDRESS and its data bus &FF, which leaves it unselected (spec,
// "Stopping and watching"), and a WRITE with port A an input writes &FF.
func (m *CPC) pins(port int) byte {
	levels, driven := m.PPI.Pins(port)
	return levels | ^driven
}

// runPSG runs the PSG by port C as the PPI access leaves it: bits 7 and 6
// are BDIR and BC1, port A its data bus, and the low nibble the keyboard
// line its port A reads (cpctech, "8255 PPI"; spec, "Stopping and
// watching": "each access that leaves port C giving WRITE to a selected
// chip is a write").
func (m *CPC) runPSG(at uint64) {
	c := m.pins(ppi.PortC)
	m.PSG.PortAInput = m.keyLine(c & 0x0F)
	a := m.pins(ppi.PortA)
	switch psg.Function(c >> 6) {
	case psg.Latch:
		m.PSG.Latch(a)
	case psg.Write:
		r := m.PSG.Selected & 0x0F
		before := m.PSG.Registers[r]
		if _, ok := m.PSG.Write(a); ok && m.observe != nil {
			m.event(machine.PSG, at, uint16(r), a, before, m.PSG.Registers[r])
		}
	case psg.Read:
		// The PSG drives port A's lines while it is asked to read, if it
		// is selected; otherwise they float high.
		v, _ := m.PSG.Read()
		m.PPI.SetInput(ppi.PortA, v)
		return
	}
	m.PPI.SetInput(ppi.PortA, 0xFF)
}
