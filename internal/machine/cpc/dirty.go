package cpc

import (
	"fmt"
	"math/bits"

	"colophon/internal/chip/monitor"
	"colophon/internal/machine"
	"colophon/internal/media/dsk"
)

// marks are the pages of the machine's two big buffers written since a
// host last cleaned them (machine.Dirty): the RAM, marked by every write
// that lands in it, and the monitor's raster, whose lines the monitor and
// span mark where they paint what a line did not hold.
//
// A page of RAM is marked by its own address, whatever configuration
// paged it in. The RAM is 128K at most, 32 pages, so one word holds its
// marks, and a write marks it with one OR.
type marks struct {
	ram    [1]uint64
	raster [(rasterPages + 63) / 64]uint64 // worked out from the monitor's lines when asked
	bufs   [2 + Drives]machine.Buffer
}

// A disc's pages are the machine's, or this does not compile.
var _ [dsk.PageSize - machine.PageSize]struct{}
var _ [machine.PageSize - dsk.PageSize]struct{}

// discBuffers names the drives' discs as buffers.
var discBuffers = [Drives]string{"disc_a", "disc_b"}

const rasterPages = (monitor.Width*monitor.Height + machine.PageSize - 1) / machine.PageSize

// markRAM marks every page of the RAM, as when it is new or loaded whole.
func (m *CPC) markRAM() {
	m.marks.ram[0] = 1<<(len(m.RAM)/machine.PageSize) - 1
}

// Buffers answers the RAM, by its own addresses, the monitor's raster, and
// the disc in each drive, with the pages of each written since Clean. A
// drive with no disc is a buffer of no bytes; a disc just put in has every
// page marked.
func (m *CPC) Buffers() []machine.Buffer {
	k := m.marks
	k.raster = [len(k.raster)]uint64{}
	for w, lines := range m.Monitor.Changed() {
		for lines != 0 {
			y := 64*w + bits.TrailingZeros64(lines)
			lines &= lines - 1
			first, last := y*monitor.Width/machine.PageSize, ((y+1)*monitor.Width-1)/machine.PageSize
			for p := first; p <= last; p++ {
				k.raster[p/64] |= 1 << (p % 64)
			}
		}
	}
	k.bufs[0] = machine.Buffer{Name: "ram", Bytes: m.RAM, Dirty: k.ram[:]}
	k.bufs[1] = machine.Buffer{Name: "raster", Bytes: m.Monitor.Raster, Dirty: k.raster[:]}
	for i, name := range discBuffers {
		d := m.FDC.Units[i].Disc
		k.bufs[2+i] = machine.Buffer{Name: name, Bytes: d.Image, Dirty: d.Marks}
	}
	return k.bufs[:]
}

// Clean clears the marks of the RAM and of the monitor's lines.
func (m *CPC) Clean() {
	m.marks.ram = [1]uint64{}
	m.marks.raster = [len(m.marks.raster)]uint64{}
	m.Monitor.ClearChanged()
	for i := range Drives {
		clear(m.FDC.Units[i].Disc.Marks)
	}
}

// SetBuffer puts back one of the buffers Buffers answers, as a state file
// holds it (machine.BufferSetter): the RAM or the monitor's raster, as long
// as the machine's; or the disc in a drive, a buffer of no bytes for none,
// held to the bounds package dsk keeps a disc it laid out itself to
// (KEEP-12), and put in at the machine's tick with its tab clear, which
// the drive's fields, restored after, set as they stood.
func (m *CPC) SetBuffer(name string, b []byte) error {
	switch name {
	case "ram", "raster":
		to := m.RAM
		if name == "raster" {
			to = m.Monitor.Raster
		}
		if len(b) != len(to) {
			return fmt.Errorf("%s is %d bytes; a %s's is %d", name, len(b), m.Model, len(to))
		}
		copy(to, b)
		m.markRAM()
		for y := range monitor.Height {
			m.Monitor.MarkChanged(y)
		}
		return nil
	}
	for drive, d := range discBuffers {
		if name != d {
			continue
		}
		if len(b) == 0 {
			if m.disc {
				m.FDC.Eject(m.CPU.Tick, drive)
			}
			return nil
		}
		if !m.disc {
			return fmt.Errorf("%s: a %s has no disc interface", name, m.Model)
		}
		disc, err := dsk.Laid(b)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		m.FDC.Insert(m.CPU.Tick, drive, disc, false)
		return nil
	}
	return fmt.Errorf("a %s has no buffer called %q", m.Model, name)
}
