package window

import (
	"bytes"
	"context"
	"encoding/binary"
	"image/color"
	"sync"
	"time"

	"colophon/internal/picture"
)

// frames is the picture as the page is shown it: the monitor's picture as
// the loop last published it, each row with the number of the publication
// that last changed it, so that a page that has publication n is sent only
// the rows changed since. The loop publishes after each frame and after
// each request it serves; the page asks for what changed (GET /frame) and
// waits until something has.
type frames struct {
	mu      sync.Mutex
	seq     uint32 // publications that changed something, 0 for none yet
	tick    uint64 // the machine's tick the picture was painted up to
	width   int
	height  int
	pix     []uint8
	rowSeq  []uint32 // the publication that last changed each row
	palette []byte   // RGB, three bytes to an index
	changed chan struct{}
}

func newFrames() *frames { return &frames{changed: make(chan struct{})} }

// publish takes the picture as it stands into the store. It reports
// whether anything the page shows changed.
func (f *frames) publish(p *picture.Picture, tick uint64) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	next := f.seq + 1
	changed := false
	if p.Width != f.width || p.Height != f.height || !samePalette(f.palette, p.Palette) {
		f.width, f.height = p.Width, p.Height
		f.pix = make([]uint8, len(p.Pix))
		f.rowSeq = make([]uint32, p.Height)
		f.palette = rgb(p.Palette)
		for y := range f.rowSeq {
			f.rowSeq[y] = next
		}
		copy(f.pix, p.Pix)
		changed = true
	} else {
		w := p.Width
		for y := 0; y < p.Height; y++ {
			row := p.Pix[y*w : (y+1)*w]
			mine := f.pix[y*w : (y+1)*w]
			if !bytes.Equal(row, mine) {
				copy(mine, row)
				f.rowSeq[y] = next
				changed = true
			}
		}
	}
	if tick != f.tick {
		f.tick = tick
		changed = true
	}
	if changed {
		f.seq = next
		close(f.changed)
		f.changed = make(chan struct{})
	}
	return changed
}

func samePalette(have []byte, p color.Palette) bool {
	if len(have) != 3*len(p) {
		return false
	}
	return bytes.Equal(have, rgb(p))
}

func rgb(p color.Palette) []byte {
	out := make([]byte, 0, 3*len(p))
	for _, c := range p {
		r, g, b, _ := c.RGBA()
		out = append(out, byte(r>>8), byte(g>>8), byte(b>>8))
	}
	return out
}

// frameMagic opens every frame the page is sent.
var frameMagic = [4]byte{'C', 'F', 'R', '1'}

// wait waits until the store has a publication after since, or ctx is
// done, or the wait is over; it answers the rows changed after since, or
// nil for none. A since past the store's own, from a page that watched a
// window before this one, is answered as 0 is: everything.
//
// The answer is little-endian: the magic CFR1; the publication (4 bytes);
// the tick (8); the width and height (2 each); the palette's colours (2)
// and their RGB (3 each); the runs of rows (2); and each run's first row
// and rows (2 each), then its pixels, one palette index to a byte, row by
// row.
func (f *frames) wait(ctx context.Context, since uint32, most time.Duration) []byte {
	timer := time.NewTimer(most)
	defer timer.Stop()
	for {
		f.mu.Lock()
		if since > f.seq {
			since = 0
		}
		if f.seq > since {
			b := f.encode(since)
			f.mu.Unlock()
			return b
		}
		ch := f.changed
		f.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return nil
		case <-timer.C:
			return nil
		}
	}
}

// encode writes the rows changed after since. f.mu is held.
func (f *frames) encode(since uint32) []byte {
	type run struct{ first, n int }
	var runs []run
	size := 0
	for y := 0; y < f.height; y++ {
		if f.rowSeq[y] <= since {
			continue
		}
		if k := len(runs) - 1; k >= 0 && runs[k].first+runs[k].n == y {
			runs[k].n++
		} else {
			runs = append(runs, run{y, 1})
		}
		size += f.width
	}
	b := make([]byte, 0, 24+len(f.palette)+2+4*len(runs)+size)
	b = append(b, frameMagic[:]...)
	b = binary.LittleEndian.AppendUint32(b, f.seq)
	b = binary.LittleEndian.AppendUint64(b, f.tick)
	b = binary.LittleEndian.AppendUint16(b, uint16(f.width))
	b = binary.LittleEndian.AppendUint16(b, uint16(f.height))
	b = binary.LittleEndian.AppendUint16(b, uint16(len(f.palette)/3))
	b = append(b, f.palette...)
	b = binary.LittleEndian.AppendUint16(b, uint16(len(runs)))
	for _, r := range runs {
		b = binary.LittleEndian.AppendUint16(b, uint16(r.first))
		b = binary.LittleEndian.AppendUint16(b, uint16(r.n))
		b = append(b, f.pix[r.first*f.width:(r.first+r.n)*f.width]...)
	}
	return b
}
