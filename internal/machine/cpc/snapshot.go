package cpc

import (
	"fmt"

	"colophon/internal/chip/gatearray"
	"colophon/internal/chip/ppi"
	"colophon/internal/chip/psg"
	"colophon/internal/media/sna"
)

// Snapshot writes the machine as an SNA of version 1, as the command
// line's --save does (spec, "Saving a machine"). A snapshot has no room for
// a processor inside a chain of prefixes, so one is refused there.
func (m *CPC) Snapshot() ([]byte, error) {
	c := &m.CPU
	if c.Prefix != 0 {
		return nil, fmt.Errorf("the processor is inside a chain of prefixes, which a snapshot cannot hold")
	}
	s := &sna.CPCSnapshot{
		CPU: sna.CPCProcessor{
			A: c.A, F: c.F, B: c.B, C: c.C, D: c.D, E: c.E, H: c.H, L: c.L,
			A_: c.A_, F_: c.F_, B_: c.B_, C_: c.C_, D_: c.D_, E_: c.E_, H_: c.H_, L_: c.L_,
			IX: c.IX, IY: c.IY, SP: c.SP, PC: c.PC, I: c.I, R: c.R,
			IFF1: c.IFF1, IFF2: c.IFF2, IM: c.IM,
		},
		RAMConfig: m.MMR & 0x3F,
		UpperROM:  m.UpperROM,
		CRTC:      sna.CPCCRTC{Selected: m.CRTC.Selected, Registers: m.CRTC.Registers},
		PSG:       sna.CPCPSG{Selected: m.PSG.Selected & 0x0F, ChipSelected: m.PSG.ChipSelected, Registers: m.PSG.Registers},
		RAM:       m.RAM,
	}
	m.settle()
	g := &m.GA
	s.GateArray.Pen = g.Pen
	if g.Pen == gatearray.Border {
		s.GateArray.Pen = 0x10
	}
	s.GateArray.Inks = g.Inks
	s.GateArray.MultiConfig = m.rmr()
	// Ports A and B as the processor would read them, port B with the
	// board's levels on it, from a copy: saving changes nothing.
	p := m.PPI
	p.SetInput(ppi.PortB, m.portB())
	a, _ := p.Read(ppi.PortA)
	b, _ := p.Read(ppi.PortB)
	s.PPI = sna.CPCPPI{A: a, B: b, C: p.Output[ppi.PortC], Control: p.Control}
	return sna.WriteCPC(s)
}

// rmr is the Gate Array's mode and ROM register as last written, &80-&9F
// (cpctech, "SNA snapshot", note 12).
func (m *CPC) rmr() byte {
	v := byte(0x80) | m.GA.ModePending
	if !m.GA.LowerROM {
		v |= 0x04
	}
	if !m.GA.UpperROM {
		v |= 0x08
	}
	return v
}

// Load builds a machine at power-on and loads a snapshot into it, once its
// firmware is fitted (spec, "What it answers"): versions 1, 2 and 3 are
// read. The machine's tick counts from the snapshot, and its video stands
// as standVideo leaves it.
func Load(cfg Config, b []byte) (*CPC, error) {
	s, err := sna.ReadCPC(b)
	if err != nil {
		return nil, err
	}
	m, err := New(cfg)
	if err != nil {
		return nil, err
	}
	if len(s.RAM) > len(m.RAM) {
		return nil, fmt.Errorf("the snapshot holds %dK of RAM; a %s has %dK", len(s.RAM)/1024, m.Model, len(m.RAM)/1024)
	}
	copy(m.RAM, s.RAM)
	m.markRAM()
	c := &m.CPU
	p := &s.CPU
	c.A, c.F, c.B, c.C, c.D, c.E, c.H, c.L = p.A, p.F, p.B, p.C, p.D, p.E, p.H, p.L
	c.A_, c.F_, c.B_, c.C_, c.D_, c.E_, c.H_, c.L_ = p.A_, p.F_, p.B_, p.C_, p.D_, p.E_, p.H_, p.L_
	c.IX, c.IY, c.SP, c.PC, c.I, c.R = p.IX, p.IY, p.SP, p.PC, p.I, p.R
	c.IFF1, c.IFF2, c.IM = p.IFF1, p.IFF2, p.IM

	g := &m.GA
	g.Pen = s.GateArray.Pen & 0x0F
	if s.GateArray.Pen&0x10 != 0 {
		g.Pen = gatearray.Border
	}
	for i, v := range s.GateArray.Inks {
		g.Inks[i] = v & 0x1F
	}
	rmr := s.GateArray.MultiConfig
	g.Mode, g.ModePending = rmr&3, rmr&3
	g.LowerROM = rmr&0x04 == 0
	g.UpperROM = rmr&0x08 == 0
	// A 64K machine has no PAL to hold a RAM configuration, and keeps its
	// own 0 whatever the file says.
	if len(m.RAM) >= 0x20000 {
		m.MMR = 0xC0 | s.RAMConfig&0x3F
	}
	m.UpperROM = s.UpperROM

	m.CRTC.Select(s.CRTC.Selected)
	sel := m.CRTC.Selected
	for r, v := range s.CRTC.Registers {
		m.CRTC.Select(byte(r))
		m.CRTC.Write(v)
	}
	m.CRTC.Select(sel)

	// The format keeps ports A and B as the processor reads them, the
	// levels on their pins where they are inputs, and port C as its latch
	// (cpctech SNA, notes 6 to 8). An input port's latch is not kept; it
	// is taken as the mode word leaves it, clear.
	m.PPI.Control = s.PPI.Control | ppi.ModeSet
	m.PPI.Output[ppi.PortC] = s.PPI.C
	for port, v := range [2]byte{s.PPI.A, s.PPI.B} {
		if m.PPI.InputMask(port) == 0 {
			m.PPI.Output[port] = v
		}
	}

	m.PSG.Selected = s.PSG.Selected & 0x0F
	m.PSG.ChipSelected = s.PSG.ChipSelected
	for r, v := range s.PSG.Registers {
		m.PSG.Registers[r] = v & psg.Masks[r]
	}
	// The levels the PSG and the board put on the PPI's pins, as the last
	// access to the PPI left them: port A's are what the PSG drives while
	// asked to read, which the file holds where port A is an input.
	m.PSG.PortAInput = m.keyLine(m.pins(ppi.PortC) & 0x0F)
	m.PPI.Input[ppi.PortA] = 0xFF
	if psg.Function(m.pins(ppi.PortC)>>6) == psg.Read {
		m.PPI.Input[ppi.PortA], _ = m.PSG.Read()
	}
	if m.PPI.InputMask(ppi.PortA) != 0 {
		m.PPI.Input[ppi.PortA] = s.PPI.A
	}

	if m.disc {
		m.FDC.Specify = amsdosSpecify
	}
	if v3 := s.V3; v3 != nil {
		m.motor(v3.FDCMotor&1 != 0, 0)
		m.PrinterPort = v3.Printer
	}
	m.standVideo(s.V3)
	m.presentPortB()
	m.derive()
	return m, nil
}

// amsdosSpecify is the disc controller's SPECIFY as AMSDOS gives it while
// the firmware starts, &A1 &03: a step every 12 ms, the head unloaded 32
// ms after a read or a write and loaded in 4, at the controller's 4 MHz,
// and non-DMA transfers (µPD765, Specify; a machine run from power-on holds
// it, TestSnapshotSpecifiesTheController). An SNA keeps no Specify (cpctech
// SNA: its version 3 holds the drives' motor and tracks, not the
// controller's timings), and AMSDOS gives it only as it starts, so a
// machine stood up from a snapshot of one whose firmware started has its
// controller specified so, as the one the snapshot was taken of had.
// Without it the controller would wait for DMA, which no CPC wires, and
// never hand AMSDOS a byte.
var amsdosSpecify = [2]byte{0xA1, 0x03}

// standVideo puts the video where a snapshot leaves it. Version 1 says
// nothing of where the 6845 stands in its frame, nor of the Gate Array's
// interrupt counter, its syncs, or the monitor's beam; but the Gate Array's
// frame check, two HSYNCs into each VSYNC, sets R52 to 0 whatever it held
// (Compendium ch. 27.3.2), so a machine whose 6845 has made whole frames
// with the same registers stands at the same place at the head of each:
// its counters at 0 with the address from R12/R13, R52 where the lines
// since the check leave it, the monitor's beam where the syncs leave it.
// That is where a machine loaded from version 1 stands, found by running
// the video alone, the processor still, for two frames from power-on, the
// monitor painting the snapshot's screen on the way (each bounded, as a
// run by frames is, by twice a standard frame). No interrupt is requested:
// the format holds none.
//
// Version 3 holds the 6845's counters, R52, the request and the frame
// check's progress (cpctech SNA, version 3): the video runs on from the
// head of the frame to the character its counters name, and takes the
// Gate Array's from the file. Counters no frame of these registers reaches
// are set as they are.
func (m *CPC) standVideo(v3 *sna.CPCSnapshotV3) {
	const limit = 2 * TicksPerFrame / 4 // characters in two standard frames
	c := &m.CRTC
	for range 2 {
		m.runVideo(limit, func() bool { return c.C0 == 0 && c.C4 == 0 && c.C9 == 0 && !c.Adjusting })
	}
	m.GA.INT = false
	m.Monitor.Frames = 0
	if v3 == nil {
		return
	}
	c0, c4, c9 := v3.CRTCC0, v3.CRTCC4&0x7F, v3.CRTCC9&0x1F
	hsync, vsync, adjusting := v3.CRTCFlags&0x02 != 0, v3.CRTCFlags&0x01 != 0, v3.CRTCFlags&0x80 != 0
	at := func() bool {
		return c.C0 == c0 && c.C4 == c4 && c.C9 == c9 && c.HSync == hsync && c.VSync == vsync && c.Adjusting == adjusting
	}
	if !at() && !m.runVideo(limit, at) {
		c.C0, c.C4, c.C9 = c0, c4, c9
		c.HSync, c.VSync, c.Adjusting = hsync, vsync, adjusting
		c.C3l, c.C3h, c.C5 = v3.CRTCHSync, v3.CRTCVSync, v3.CRTCAdjust
	}
	m.Monitor.Frames = 0
	g := &m.GA
	g.R52 = v3.GAR52 & 0x3F
	g.INT = v3.IntRequest&1 != 0
	// The format counts the HSYNCs since the VSYNC began, 1 or 2, or 0 for
	// none; the Gate Array here counts those still to come before its
	// check, as the video left them where the file says none.
	switch v3.GAVSyncDelay {
	case 1:
		g.HSyncsToGo = 1
	case 2:
		g.HSyncsToGo = 0
	}
}

// runVideo runs the video alone, a character clock at a time, until done
// reports true after one, or for n characters; it reports whether done
// did. The Gate Array's interrupt generator acts a quarter into each
// character, as the processor's clock would have it, but where done stops
// the run the action due in that character is left due.
func (m *CPC) runVideo(n int, done func() bool) bool {
	for range n {
		m.clock()
		if done() {
			return true
		}
		if m.GA.Due != gatearray.None {
			m.GA.Act()
		}
	}
	return false
}
