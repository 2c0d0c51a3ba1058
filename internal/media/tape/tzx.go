package tape

import (
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"math/bits"
)

// signature opens every TZX: "ZXTape!" and the end-of-file byte &1A,
// followed by the major and minor revision ([TZX] section 3).
var signature = []byte("ZXTape!\x1A")

// majorRevision is the only major revision there is. A file of another
// could lay its blocks out otherwise, so it is refused.
const majorRevision = 1

// cursor reads a file's bytes from a position, refusing to read past the
// end, in the little-endian order every number of the format is written in
// ([TZX] section 2).
type cursor struct {
	b   []byte
	pos int
	err error
}

func (c *cursor) take(n int) []byte {
	if c.err != nil {
		return nil
	}
	if n < 0 || n > len(c.b)-c.pos {
		c.err = fmt.Errorf("it needs %d more bytes and the file has %d", n, len(c.b)-c.pos)
		return nil
	}
	s := c.b[c.pos : c.pos+n : c.pos+n]
	c.pos += n
	return s
}

func (c *cursor) u8() uint32 {
	if s := c.take(1); s != nil {
		return uint32(s[0])
	}
	return 0
}

func (c *cursor) u16() uint32 {
	if s := c.take(2); s != nil {
		return uint32(s[0]) | uint32(s[1])<<8
	}
	return 0
}

func (c *cursor) u24() uint32 {
	if s := c.take(3); s != nil {
		return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16
	}
	return 0
}

func (c *cursor) u32() uint32 {
	if s := c.take(4); s != nil {
		return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
	}
	return 0
}

// sub reads a field of n bytes that must hold exactly what its reader takes
// of it: a block whose length says how long it is.
func (c *cursor) sub(n uint32) *cursor {
	s := c.take(int(min(n, uint32(len(c.b)+1))))
	if s == nil && c.err == nil {
		s = []byte{}
	}
	return &cursor{b: s, err: c.err}
}

// blockError says which block is wrong, where it stands and why.
func blockError(i int, id byte, offset int, err error) error {
	return fmt.Errorf("block %d (ID &%02X, at byte %d of the file): %w", i, id, offset, err)
}

// readTZX reads a TZX: the signature and revision, then blocks to the end
// of the file, each an ID byte and the fields [TZX] gives that ID.
func (t *Tape) readTZX() error {
	b := t.image
	if len(b) < len(signature)+2 || !bytes.Equal(b[:len(signature)], signature) {
		return errors.New(`it does not begin "ZXTape!" and &1A, as a TZX (and a CDT) does`)
	}
	if major := b[len(signature)]; major != majorRevision {
		return fmt.Errorf("it is TZX revision %d.%02d; this reader reads revision 1", major, b[len(signature)+1])
	}
	c := &cursor{b: b, pos: len(signature) + 2}
	var cswTotal int
	for c.pos < len(b) {
		i, at := len(t.blocks), c.pos
		id := b[c.pos]
		c.pos++
		blk := block{id: id, offset: at}
		var err error
		switch id {
		case idStandard, idTurbo, idPureData:
			err = readData(c, &blk)
		case idTone:
			blk.pilot, blk.pilotPulses = c.u16(), c.u16()
		case idPulses:
			n := c.u8()
			blk.data = c.take(int(2 * n))
		case idDirect:
			blk.zero = c.u16() // the T-states of one sample
			blk.pause = c.u16()
			used := c.u8()
			blk.data = c.take(int(c.u24()))
			blk.bits, err = usedBits(blk.data, used, c.err)
		case idCSW:
			err = t.readCSW(c, &blk, &cswTotal)
		case idGeneral:
			err = readGeneral(c, &blk)
		case idPause:
			blk.pause = c.u16()
		case idGroupStart, idText:
			c.take(int(c.u8()))
		case idGroupEnd, idLoopEnd, idReturn:
		case idJump:
			blk.target = c.u16() // a signed offset, made a target below
		case idLoopStart:
			blk.target = c.u16() // the repetitions
		case idCall:
			n := c.u16()
			raw := c.take(int(2 * n))
			for k := 0; k+1 < len(raw); k += 2 {
				blk.calls = append(blk.calls, uint32(raw[k])|uint32(raw[k+1])<<8)
			}
		case idSelect:
			err = readSelect(c.sub(c.u16()))
		case idStop48:
			c.take(int(c.u32())) // its length, 0, by the extension rule
		case idLevel:
			s := c.sub(c.u32())
			blk.level = s.u8() != 0
			err = s.done()
		case idMessage:
			c.u8() // the seconds it is shown for
			c.take(int(c.u8()))
		case idArchive:
			c.u16() // its length, which the texts say again
			err = readArchive(c)
		case idHardware:
			c.take(int(3 * c.u8()))
		case idCustom:
			c.take(16) // its identification string, to offset &10
			c.take(int(c.u32()))
		case idGlue:
			c.take(9)
		case idC64ROM, idC64Turbo:
			// Deprecated blocks for a Commodore 64's encoding, which
			// neither machine here reads: stepped over by their length
			// ([TZX] section 6).
			c.take(int(c.u32()))
		case idEmulation:
			c.take(8) // deprecated ([TZX] section 6)
		case idSnapshot:
			c.u8() // the snapshot's type; deprecated ([TZX] section 6)
			c.take(int(c.u24()))
		default:
			return blockError(i, id, at, fmt.Errorf("TZX 1.20 defines no block with ID &%02X", id))
		}
		if err == nil {
			err = c.err
		}
		if err != nil {
			return blockError(i, id, at, err)
		}
		t.blocks = append(t.blocks, blk)
	}
	return t.resolve()
}

// done refuses a field its reader has not taken whole.
func (c *cursor) done() error {
	if c.err != nil {
		return c.err
	}
	if c.pos != len(c.b) {
		return fmt.Errorf("its length says %d bytes, and what it holds takes %d", len(c.b), c.pos)
	}
	return nil
}

// readData reads a standard speed (0x10), turbo speed (0x11) or pure data
// (0x14) block. A standard block's timings are the ROM's, the values in
// curly brackets of [TZX] ID 11: a pilot of 2168 T-states a pulse, 8063
// pulses before a header (a flag byte below 128) and 3223 before data,
// syncs of 667 and 735, and 855 and 1710 for a 0 and a 1 bit.
func readData(c *cursor, blk *block) error {
	used := uint32(8)
	switch blk.id {
	case idStandard:
		blk.pause = c.u16()
		blk.data = c.take(int(c.u16()))
		standardTimings(blk)
	case idTurbo:
		blk.pilot, blk.sync1, blk.sync2 = c.u16(), c.u16(), c.u16()
		blk.zero, blk.one = c.u16(), c.u16()
		blk.pilotPulses = c.u16()
		used = c.u8()
		blk.pause = c.u16()
		blk.data = c.take(int(c.u24()))
	case idPureData:
		blk.zero, blk.one = c.u16(), c.u16()
		used = c.u8()
		blk.pause = c.u16()
		blk.data = c.take(int(c.u24()))
	}
	var err error
	blk.bits, err = usedBits(blk.data, used, c.err)
	return err
}

// The ROM's timings ([TZX] ID 11, in curly brackets; [ROM] SA-BYTES).
const (
	romPilot        = 2168
	romSync1        = 667
	romSync2        = 735
	romZero         = 855
	romOne          = 1710
	romHeaderPilot  = 8063
	romDataPilot    = 3223
	romPause        = 1000 // ms, a .tap's pause after each block
	romFlagDataFrom = 128
)

func standardTimings(blk *block) {
	blk.pilot, blk.sync1, blk.sync2 = romPilot, romSync1, romSync2
	blk.zero, blk.one = romZero, romOne
	blk.pilotPulses = romHeaderPilot
	if len(blk.data) > 0 && blk.data[0] >= romFlagDataFrom {
		blk.pilotPulses = romDataPilot
	}
}

// usedBits is how many bits of data a block plays: all of every byte but
// the last, and of the last the used bits, counted from its top ([TZX] ID
// 11: "Used bits in the last byte (other bits should be 0)"). A count of
// 0 plays none of the last byte; one past 8 is no count a byte has.
func usedBits(data []byte, used uint32, err error) (uint64, error) {
	if err != nil {
		return 0, err
	}
	if used > 8 {
		return 0, fmt.Errorf("it uses %d bits of its last byte; a byte has 8", used)
	}
	if len(data) == 0 {
		return 0, nil
	}
	return uint64(len(data)-1)*8 + uint64(used), nil
}

// readCSW reads a CSW recording (0x18): a length, the pause after it, the
// sample rate, the compression, 1 for RLE and 2 for Z-RLE, the pulses it
// holds, and the recording ([TZX] ID 18). The run lengths are kept
// uncompressed, in the tape's csw, and checked whole: each is a byte, or a
// byte 0 and a 32-bit length ([CSW] section 3).
func (t *Tape) readCSW(c *cursor, blk *block, total *int) error {
	s := c.sub(c.u32())
	blk.pause = s.u16()
	blk.rate = s.u24()
	compression := s.u8()
	s.u32() // the pulses it holds, which the run lengths say again
	if s.err != nil {
		return s.err
	}
	if blk.rate == 0 {
		return errors.New("its sample rate is 0")
	}
	body := s.b[s.pos:]
	var runs []byte
	switch compression {
	case 1:
		runs = body
	case 2:
		z, err := zlib.NewReader(bytes.NewReader(body))
		if err != nil {
			return fmt.Errorf("its Z-RLE recording is not zlib's: %w", err)
		}
		room := maxCSW - *total
		runs, err = io.ReadAll(io.LimitReader(z, int64(room)+1))
		if err != nil {
			return fmt.Errorf("its Z-RLE recording: %w", err)
		}
		if len(runs) > room {
			return fmt.Errorf("its Z-RLE recording, with the tape's others, holds more than %d bytes (64MB) uncompressed", maxCSW)
		}
	default:
		return fmt.Errorf("its compression is %d; a CSW recording's is 1 (RLE) or 2 (Z-RLE)", compression)
	}
	if *total+len(runs) > maxCSW {
		return fmt.Errorf("the tape's CSW recordings hold more than %d bytes (64MB)", maxCSW)
	}
	for i := 0; i < len(runs); {
		if runs[i] != 0 {
			i++
			continue
		}
		if len(runs)-i < 5 {
			return fmt.Errorf("its recording ends inside a long run length, at byte %d of %d", i, len(runs))
		}
		i += 5
	}
	blk.cswFrom = uint32(len(t.csw))
	t.csw = append(t.csw, runs...)
	blk.cswTo = uint32(len(t.csw))
	*total += len(runs)
	return nil
}

// readGeneral reads a generalized data block (0x19): the pause after it,
// the pilot and sync stream's symbol count TOTP, its pulses per symbol NPP
// and alphabet ASP, the data stream's TOTD, NPD and ASD, the pilot
// alphabet and stream where TOTP is not 0, and the data alphabet and
// stream where TOTD is not 0 ([TZX] ID 19). An alphabet of 0 is of 256
// symbols. Each data symbol takes NB = ceil(log2(ASD)) bits of the stream,
// which is ceil(NB*TOTD/8) bytes and must end the block.
func readGeneral(c *cursor, blk *block) error {
	s := c.sub(c.u32())
	if s.err != nil {
		return s.err
	}
	blk.pause = s.u16()
	totp, npp, asp := s.u32(), s.u8(), s.u8()
	totd, npd, asd := s.u32(), s.u8(), s.u8()
	if s.err != nil {
		return s.err
	}
	if asp == 0 {
		asp = 256
	}
	if asd == 0 {
		asd = 256
	}
	g := &general{totd: totd}
	if totp > 0 {
		g.pilotSyms = readSymbols(s, asp, npp)
		if s.err == nil && uint64(totp)*3 > uint64(len(s.b)-s.pos) {
			return fmt.Errorf("its pilot and sync stream of %d symbols needs %d bytes, and the block has %d", totp, uint64(totp)*3, len(s.b)-s.pos)
		}
		g.prle = make([]repeat, 0, min(totp, uint32(len(s.b))))
		for k := uint32(0); k < totp && s.err == nil; k++ {
			r := repeat{symbol: uint8(s.u8()), count: uint16(s.u16())}
			if uint32(r.symbol) >= asp {
				return fmt.Errorf("its pilot and sync stream names symbol %d of an alphabet of %d", r.symbol, asp)
			}
			g.prle = append(g.prle, r)
		}
	}
	if totd > 0 {
		g.dataSyms = readSymbols(s, asd, npd)
		g.nb = uint8(bits.Len32(asd - 1))
		size := (uint64(g.nb)*uint64(totd) + 7) / 8
		if s.err == nil && size > uint64(len(s.b)-s.pos) {
			return fmt.Errorf("its data stream of %d symbols of %d bits needs %d bytes, and the block has %d", totd, g.nb, size, len(s.b)-s.pos)
		}
		blk.data = s.take(int(size))
		blk.bits = uint64(totd) * uint64(g.nb)
		// Every symbol the stream names must be in the alphabet.
		if s.err == nil && g.nb > 0 && asd < 1<<g.nb {
			for k := uint64(0); k < uint64(totd); k++ {
				if v := streamBits(blk.data, k*uint64(g.nb), g.nb); v >= asd {
					return fmt.Errorf("its data stream names symbol %d of an alphabet of %d, as symbol %d", v, asd, k)
				}
			}
		}
	}
	if err := s.done(); err != nil {
		return err
	}
	blk.gdb = g
	return nil
}

// readSymbols reads an alphabet of n symbols of up to max pulses each.
func readSymbols(s *cursor, n, max uint32) []symbol {
	if s.err == nil && uint64(n)*uint64(2*max+1) > uint64(len(s.b)-s.pos) {
		s.err = fmt.Errorf("its alphabet of %d symbols of %d pulses needs %d bytes, and the block has %d", n, max, n*(2*max+1), len(s.b)-s.pos)
		return nil
	}
	syms := make([]symbol, n)
	for k := range syms {
		syms[k].polarity = uint8(s.u8()) & 3
		for p := uint32(0); p < max; p++ {
			v := uint16(s.u16())
			if v == 0 {
				s.take(int(2 * (max - p - 1)))
				break
			}
			syms[k].pulses = append(syms[k].pulses, v)
		}
	}
	return syms
}

// streamBits reads n bits of a stream from bit k, the top bit of each byte
// first ([TZX] ID 19: the data stream is read most significant bit first).
func streamBits(data []byte, k uint64, n uint8) uint32 {
	var v uint32
	for i := uint64(0); i < uint64(n); i++ {
		at := k + i
		bit := data[at/8] >> (7 - at%8) & 1
		v = v<<1 | uint32(bit)
	}
	return v
}

// readSelect checks a select block: its selections, each an offset and a
// text ([TZX] ID 28).
func readSelect(s *cursor) error {
	n := s.u8()
	for k := uint32(0); k < n && s.err == nil; k++ {
		s.u16()
		s.take(int(s.u8()))
	}
	return s.done()
}

// readArchive reads an archive info block's texts, each an ID and a
// string ([TZX] ID 32). The block's length says again how long they are,
// but it is the texts that are read, by their count, as libspectrum reads
// them: its own complete-tzx.tzx, which it plays, gives a length one byte
// short of its two texts.
func readArchive(c *cursor) error {
	n := c.u8()
	for k := uint32(0); k < n && c.err == nil; k++ {
		c.u8()
		c.take(int(c.u8()))
	}
	if c.err != nil {
		return fmt.Errorf("its %d texts do not fit the file: %w", n, c.err)
	}
	return nil
}

// resolve turns the relative offsets of jumps and calls into the blocks
// they name, refusing one that names a block the tape has not got: a jump
// may land on any block or at the end of the tape, as jumping past the
// last block ends it ([TZX] ID 23: "All blocks are included in the block
// count!").
func (t *Tape) resolve() error {
	n := len(t.blocks)
	to := func(i int, rel uint32) (uint32, error) {
		j := i + int(int16(rel))
		if j < 0 || j > n {
			return 0, fmt.Errorf("it jumps %d blocks, to block %d, and the tape has blocks 0 to %d", int16(rel), j, n-1)
		}
		return uint32(j), nil
	}
	for i := range t.blocks {
		blk := &t.blocks[i]
		var err error
		switch blk.id {
		case idJump:
			blk.target, err = to(i, blk.target)
		case idCall:
			for k, rel := range blk.calls {
				if blk.calls[k], err = to(i, rel); err != nil {
					break
				}
			}
		}
		if err != nil {
			return blockError(i, blk.id, blk.offset, err)
		}
	}
	return nil
}
