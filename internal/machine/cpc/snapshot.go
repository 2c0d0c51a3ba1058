package cpc

import (
	"fmt"

	"colophon/internal/chip/gatearray"
	"colophon/internal/chip/ppi"
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
	g := &m.GA
	s.GateArray.Pen = g.Pen
	if g.Pen == gatearray.Border {
		s.GateArray.Pen = 0x10
	}
	s.GateArray.Inks = g.Inks
	s.GateArray.MultiConfig = m.rmr()
	m.presentPortB()
	a, _ := m.PPI.Read(ppi.PortA)
	b, _ := m.PPI.Read(ppi.PortB)
	s.PPI = sna.CPCPPI{A: a, B: b, C: m.PPI.Output[ppi.PortC], Control: m.PPI.Control}
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
// read. The machine's tick counts from the snapshot.
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
	g.Invalidate()
	m.MMR = 0xC0 | s.RAMConfig&0x3F
	m.UpperROM = s.UpperROM

	m.CRTC.Select(s.CRTC.Selected)
	sel := m.CRTC.Selected
	for r, v := range s.CRTC.Registers {
		m.CRTC.Select(byte(r))
		m.CRTC.Write(v)
	}
	m.CRTC.Select(sel)

	m.PPI.Control = s.PPI.Control | ppi.ModeSet
	m.PPI.Output = [3]byte{s.PPI.A, s.PPI.B, s.PPI.C}
	m.PPI.Input[ppi.PortA] = s.PPI.A

	m.PSG.Selected = s.PSG.Selected & 0x0F
	m.PSG.ChipSelected = s.PSG.ChipSelected
	m.PSG.Registers = s.PSG.Registers

	if v3 := s.V3; v3 != nil {
		m.Motor = v3.FDCMotor&1 != 0
		m.CRTC.C0, m.CRTC.C4, m.CRTC.C9 = v3.CRTCC0, v3.CRTCC4&0x7F, v3.CRTCC9&0x1F
		m.CRTC.HSync = v3.CRTCFlags&0x02 != 0
		m.CRTC.VSync = v3.CRTCFlags&0x01 != 0
		m.CRTC.Adjusting = v3.CRTCFlags&0x80 != 0
		m.CRTC.C3l, m.CRTC.C3h, m.CRTC.C5 = v3.CRTCHSync, v3.CRTCVSync, v3.CRTCAdjust
		g.R52 = v3.GAR52 & 0x3F
		g.INT = v3.IntRequest&1 != 0
		// The format counts the HSYNCs since the VSYNC began, 0 for none;
		// the Gate Array here counts those still to come before its check.
		if d := v3.GAVSyncDelay; d == 1 {
			g.HSyncsToGo = 1
		}
	}
	m.remap()
	return m, nil
}
