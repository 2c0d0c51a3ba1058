package tape

import "fmt"

// readTAP reads a .tap: blocks, each two bytes saying how many bytes
// follow and then those bytes, the flag byte first and the checksum last,
// as the ROM writes them ([FAQ] "TAP"). Each plays as a standard speed
// data block does, at the ROM's timings, with a second's pause after it.
func (t *Tape) readTAP() error {
	c := &cursor{b: t.image}
	for c.pos < len(c.b) {
		i, at := len(t.blocks), c.pos
		n := c.u16()
		if c.err != nil {
			return fmt.Errorf("block %d (at byte %d of the file) has one byte of the two that say its length", i, at)
		}
		blk := block{id: idStandard, offset: at, pause: romPause}
		blk.data = c.take(int(n))
		if c.err != nil {
			return fmt.Errorf("block %d (at byte %d of the file) says %d bytes follow: %w", i, at, n, c.err)
		}
		if n == 0 {
			return fmt.Errorf("block %d (at byte %d of the file) holds no bytes; a block holds at least its flag byte", i, at)
		}
		standardTimings(&blk)
		blk.bits = uint64(n) * 8
		t.blocks = append(t.blocks, blk)
	}
	return nil
}
