package cpc

import "colophon/internal/machine"

// Observe sets the function told of every access the processor makes, and
// of every write a PSG or 6845 register takes from it (machine.PSG,
// machine.CRTC), or with nil none. With none set the board does no work for
// observation beyond one test per access.
func (m *CPC) Observe(o machine.Observer) { m.observe = o }

// Watch sets the watch the machine's runs and steps consult, or none
// (machine.Watch). A watch that asks for accesses is told them as an
// observer is, in place of one Observe set.
func (m *CPC) Watch(w *machine.Watch) {
	m.watch = w
	m.observe = nil
	if w != nil && w.Accesses {
		m.observe = w.Watcher.Access
	}
}

// Control sets the Control the machine's runs, steps and typing look at,
// or none.
func (m *CPC) Control(c *machine.Control) { m.control = c }

// Beam answers where the monitor's beam stood at tick, in the picture's
// pixels, bringing the video up to it: the tick of the access an observer
// is told of, or the machine's own between instructions. The video never
// runs back, so a tick it has passed answers where it stands.
func (m *CPC) Beam(tick uint64) (x, y int) {
	m.catchUp(tick)
	return m.View.Beam(m.Monitor.BeamX, m.Monitor.BeamY)
}

// memEvent tells the observer of a memory access through page p: a write
// lands in the RAM, whatever ROM is enabled over it (Grim, "The Gate
// Array", ROM enables).
func (m *CPC) memEvent(k machine.Kind, tick uint64, addr uint16, v, before, after byte, p *page) {
	a := &m.access
	*a = machine.Access{Kind: k, Tick: tick, Addr: addr, Value: v, Before: before, After: after,
		Operand: m.CPU.Operand, InstrPC: m.CPU.InstrPC, Responding: m.CPU.Responding}
	if p.rom && k != machine.Write {
		a.Source = machine.Source{ROM: true, Upper: !p.lower, Number: p.num}
	} else {
		a.Source = machine.Source{RAM: p.ram + uint32(addr&0x3FFF)}
	}
	m.observe(a)
}

// event tells the observer of a port access, an acknowledge, or a
// register's write.
func (m *CPC) event(k machine.Kind, tick uint64, addr uint16, v, before, after byte) {
	a := &m.access
	*a = machine.Access{Kind: k, Tick: tick, Addr: addr, Value: v, Before: before, After: after,
		InstrPC: m.CPU.InstrPC, Responding: m.CPU.Responding}
	m.observe(a)
}
