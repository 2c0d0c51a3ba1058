package spectrum

import (
	"bytes"
	"fmt"

	"colophon/internal/chip/ula"
	"colophon/internal/machine"
)

// marks are the pages of the machine's two big buffers written since a
// host last cleaned them (machine.Dirty): its memory, marked by every
// write that lands in the RAM, and the ULA's picture.
//
// The memory is 64K, 16 pages, so one word holds its marks, and a write
// marks it with one OR. The ULA paints its picture without telling the
// board, but it cannot paint without moving on: each chunk it paints
// moves it along its row, and each frame it ends moves its frame's start.
// So where the ULA stands as it stood at Clean, it has painted nothing
// since, unless something stood it elsewhere, which set and SetFrameTick
// do, and say so (moved). Where it has moved, every page of the picture
// is marked, since a frame paints the whole of it.
type marks struct {
	mem   [1]uint64
	pic   [(picPages + 63) / 64]uint64
	seen  ula.ULA // the ULA as it stood at Clean
	moved bool    // the ULA was stood somewhere new since Clean
	bufs  [2]machine.Buffer
}

const picPages = (ula.Width*ula.Height + machine.PageSize - 1) / machine.PageSize

// markAll marks every page of both buffers, as when they are new or a
// snapshot is loaded.
func (s *Spectrum) markAll() {
	s.marks.mem[0] = 1<<(len(s.mem)/machine.PageSize) - 1
	s.marks.moved = true
}

// Buffers answers the processor's whole 64K, the ROM below &4000 among
// it, and the ULA's picture, with the pages of each written since Clean.
func (s *Spectrum) Buffers() []machine.Buffer {
	k := s.marks
	k.pic = [len(k.pic)]uint64{}
	if k.moved || s.ULA != k.seen {
		for p := range picPages {
			k.pic[p/64] |= 1 << (p % 64)
		}
	}
	k.bufs = [2]machine.Buffer{
		{Name: "memory", Bytes: s.mem[:], Dirty: k.mem[:]},
		{Name: "picture", Bytes: s.ULA.Picture().Pix, Dirty: k.pic[:]},
	}
	return k.bufs[:]
}

// Clean clears the marks, and takes the ULA as it stands for where it
// last painted.
func (s *Spectrum) Clean() {
	k := s.marks
	k.mem = [1]uint64{}
	k.pic = [len(k.pic)]uint64{}
	k.seen = s.ULA
	k.moved = false
}

// SetBuffer puts back one of the buffers Buffers answers, as a state file
// holds it (machine.BufferSetter): the processor's 64K, whose ROM below
// &4000 must be the firmware this machine was built with, byte for byte,
// and the ULA's picture, each as long as the machine's.
func (s *Spectrum) SetBuffer(name string, b []byte) error {
	switch name {
	case "memory":
		if len(b) != len(s.mem) {
			return fmt.Errorf("memory is %d bytes; a Spectrum's is %d", len(b), len(s.mem))
		}
		if !bytes.Equal(b[:ROMSize], s.mem[:ROMSize]) {
			return fmt.Errorf("memory below &4000 is not the ROM this machine was built with")
		}
		copy(s.mem[ROMSize:], b[ROMSize:])
	case "picture":
		pix := s.ULA.Picture().Pix
		if len(b) != len(pix) {
			return fmt.Errorf("picture is %d bytes; a Spectrum's is %d", len(b), len(pix))
		}
		copy(pix, b)
	default:
		return fmt.Errorf("a Spectrum has no buffer called %q", name)
	}
	s.markAll()
	return nil
}
