package upd765

import "colophon/internal/media/dsk"

// execute is the execution phase's event due at tick at.
func (f *FDC) execute(at uint64) {
	switch f.Stage {
	case stageLoad:
		switch f.cmd() {
		case cmdFormat, cmdReadTrack:
			// A format and a read track begin at the index hole (µPD765,
			// Format a Track and Read a Track).
			f.Stage, f.Due = stageIndex, at+f.drive(f.Unit).untilIndex()
		default:
			f.lookFor(at)
		}
	case stageSearch:
		f.searched(at)
	case stageNext:
		f.offer(at)
	case stageGive:
		// The byte was not taken in time: an overrun, save on a sector's
		// last byte, where the µPD765A sets no OR (µPD765, "Overrun bit").
		f.Request = false
		if f.Count+1 < f.Length {
			f.abort(at, st1Overrun, 0)
			return
		}
		f.gave(at)
	case stageAsk:
		f.Request, f.Stage = true, stageTake
		f.Deadline = at + f.service()
		f.Due = f.Deadline
	case stageTake:
		f.Request = false
		if f.Count+1 < f.Length {
			f.abort(at, st1Overrun, 0)
			return
		}
		f.took(at, f.Data)
	case stageSectorEnd:
		f.sectorEnd(at)
	case stageMissing:
		// No data address mark after the ID: MA and MD (µPD765, Status
		// Register 1).
		f.abort(at, st1Missing, st2Missing)
	case stageIndex:
		f.indexed(at)
	case stageFormatAsk:
		f.Request, f.Stage = true, stageFormatID
		f.Deadline = at + f.service()
		f.Due = min(f.Deadline, f.formatEnd())
	case stageFormatID:
		f.Request = false
		if at >= f.formatEnd() {
			f.formatEnded(at)
			return
		}
		f.abort(at, st1Overrun, 0)
	case stageFormatData:
		f.formatNext(at)
	case stageFormatEnd:
		f.formatEnded(at)
	default:
		f.Stage = stageNone
	}
}

// readable reports whether the controller can read a track with the
// command's encoding: one recorded, in that encoding, at 250 kbit/s.
func (f *FDC) readable(t dsk.Track) bool {
	return t.Formatted() && t.FM() == f.fm() && t.Rate() <= 1
}

// lookFor begins looking for the sector the ID register names: the index
// hole may pass twice before it gives up (µPD765, Read Data).
func (f *FDC) lookFor(at uint64) {
	f.Index, f.SawID, f.Wrong, f.Bad = 0, false, false, false
	f.search(at)
}

// search waits, from tick at, for the next ID to be read off the track
// under the head, or for the index hole, whichever passes first.
func (f *FDC) search(at uint64) {
	d := f.drive(f.Unit)
	wait := d.untilIndex()
	f.Sector, f.Hole = 0, true
	if tr := d.track(f.HD); f.readable(tr) {
		bt := f.byteTicks()
		g := f.gaps()
		for i := range tr.Sectors() {
			// An ID is read once its CRC has passed the head.
			seen := uint64(tr.Sector(i).Place+g.ID) * bt % Revolution
			w := (seen+Revolution-uint64(d.Angle)-1)%Revolution + 1
			if w < wait {
				wait, f.Sector, f.Hole = w, i, false
			}
		}
	}
	f.Stage, f.Due = stageSearch, at+wait
}

// searched is what the search found at tick at: an ID, or the index hole.
func (f *FDC) searched(at uint64) {
	if f.Hole {
		f.Index = min(f.Index+1, 2)
		// The index passing twice ends a search; a read track, which began
		// at the index, ends at the next with no ID read (µPD765, Read a
		// Track).
		ended := f.Index >= 2
		if f.cmd() == cmdReadTrack {
			ended = !f.SawID
		}
		if ended {
			f.notFound(at)
			return
		}
		f.search(at)
		return
	}
	s, ok := f.sector()
	if !ok {
		f.search(at)
		return
	}
	f.SawID = true
	f.Mark = at - uint64(f.gaps().ID)*f.byteTicks()
	f.idRead(at, s)
}

// notFound ends a search the index hole passed twice in: MA where no ID
// was read, ND where none was the sector asked for, with WC or BC where
// one had its number but another cylinder (µPD765, Status Registers 1
// and 2; Read Data; Read ID).
func (f *FDC) notFound(at uint64) {
	var st1, st2 byte
	switch {
	case f.cmd() == cmdReadID:
		st1 = st1Missing | st1NoData
	case !f.SawID:
		st1 = st1Missing
	default:
		st1 = st1NoData
	}
	if f.Wrong {
		st2 |= st2WrongCyl
	}
	if f.Bad {
		st2 |= st2BadCyl
	}
	f.abort(at, st1, st2)
}

// sector answers the sector under the head that the controller is at.
func (f *FDC) sector() (dsk.Sector, bool) {
	tr := f.drive(f.Unit).track(f.HD)
	if f.Sector >= tr.Sectors() {
		return dsk.Sector{}, false
	}
	return tr.Sector(f.Sector), true
}

// badID reports whether a sector's ID has a CRC error: DE recorded without
// DD (µPD765, Status Register 1; SAMdisk reads a DSK's flags so).
func badID(s dsk.Sector) bool {
	return s.ST1&dsk.ST1DataError != 0 && s.ST2&dsk.ST2DataError == 0
}

// idRead is an ID read off the disc at tick at.
func (f *FDC) idRead(at uint64, s dsk.Sector) {
	switch f.cmd() {
	case cmdReadID:
		// READ ID gives the first ID it reads without an error (µPD765,
		// Read ID).
		if badID(s) {
			f.search(at)
			return
		}
		f.C, f.H, f.R, f.N = s.C, s.H, s.R, s.N
		f.finish(at)
		return
	case cmdReadTrack:
		// READ TRACK reads each sector as it comes, noting ND where its ID
		// is not the one in the ID register (µPD765, Read a Track).
		if s.C != f.C || s.H != f.H || s.R != f.R || s.N != f.N {
			f.ST1 |= st1NoData
		}
		if badID(s) {
			f.ST1 |= st1DataError
		}
		f.transfer(s)
		return
	}
	if s.C == f.C && s.H == f.H && s.R == f.R && s.N == f.N {
		if badID(s) {
			// A CRC error in the ID asked for ends the command with DE
			// (µPD765, Read Data and Write Data).
			f.abort(at, st1DataError, 0)
			return
		}
		f.found(at, s)
		return
	}
	if s.R == f.R && s.C != f.C {
		f.Wrong = true
		f.Bad = f.Bad || s.C == 0xFF
	}
	f.search(at)
}

// length is the bytes of a sector of size N the command transfers: DTL
// for N 0, 128 << N up to 32K otherwise (µPD765, Command Symbol
// Description: DTL).
func (f *FDC) length(n byte) int {
	if n == 0 && f.DTL < 128 {
		return int(f.DTL)
	}
	return 128 << min(n, 8)
}

// physical is the bytes a sector of size N takes on the track.
func physical(n byte) int { return 128 << min(n, 8) }

// found is the sector asked for, its ID read at tick at.
func (f *FDC) found(at uint64, s dsk.Sector) {
	bt := f.byteTicks()
	g := f.gaps()
	f.Count = 0
	f.Length = f.length(s.N)
	if f.writes() {
		d := f.drive(f.Unit)
		d.Disc.Begin(s, physical(s.N), f.cmd() == cmdWriteDeleted)
		d.Written = true
		// Each byte is asked for as the byte before it is written, the
		// first as the data mark's last.
		f.Stage, f.Due = stageAsk, f.Mark+uint64(g.Data-1)*bt
		return
	}
	if s.Copies == 0 {
		f.Stage, f.Due = stageMissing, f.Mark+uint64(g.Data)*bt
		return
	}
	if f.otherMark(s) {
		// The other data address mark sets CM, whether the sector is read
		// or skipped: "if the FDC encounters a Sector which contains a
		// Deleted Data Address Mark, this flag is set. Also set if DAM
		// found during Read Deleted Data" (µPD765, Status Register 2).
		f.ST2 |= st2Control
		if f.Code&bitSK != 0 {
			// SK skips the sector, "The CRC bits in the deleted data
			// field are not checked when SK=1", and reads the next
			// (µPD765, Read Data and Read Deleted Data).
			f.Length = 0
			f.Stage, f.Due = stageSectorEnd, f.Mark+uint64(g.Data+physical(s.N)+2)*bt
			return
		}
		// Without SK the sector is read whole, and the command ends after
		// it (sectorEnd).
	}
	f.transfer(s)
}

// otherMark reports whether a sector read by a read or a scan has the
// data address mark the command does not ask for: a deleted one for READ
// DATA and the scans, a plain one for READ DELETED DATA (µPD765, Read
// Deleted Data).
func (f *FDC) otherMark(s dsk.Sector) bool {
	return (s.ST2&dsk.ST2ControlMark != 0) != (f.cmd() == cmdReadDeleted)
}

// transfer begins reading a sector's data: the next copy of a sector
// recorded in several, byte by byte as each passes the head.
func (f *FDC) transfer(s dsk.Sector) {
	d := f.drive(f.Unit)
	f.Count = 0
	f.Length = f.length(f.N)
	if f.cmd() != cmdReadTrack {
		f.Length = f.length(s.N)
	}
	f.Copy = 0
	if s.Copies > 1 {
		f.Copy = d.Weak % uint8(s.Copies)
		d.Weak++
	}
	if f.scanning() {
		f.Scan = 0
	}
	f.Stage, f.Due = stageNext, f.Mark+uint64(f.gaps().Data+1)*f.byteTicks()
}

// offer puts the next byte of the sector in the data register at tick at,
// asking the processor to read it, or, in a scan, for its own byte to set
// beside it, within the time it has.
func (f *FDC) offer(at uint64) {
	d := f.drive(f.Unit)
	s, _ := f.sector()
	f.Data = d.Disc.Byte(s, int(f.Copy), f.Count)
	if f.scanning() {
		f.Stage = stageTake
	} else {
		f.Stage = stageGive
	}
	f.Request = true
	f.Deadline = at + f.service()
	f.Due = f.Deadline
}

// gave is a byte read from the disc taken by the processor, or let go, at
// tick t.
func (f *FDC) gave(t uint64) {
	f.Count++
	f.next(t)
}

// next goes on to the sector's next byte, or to its end.
func (f *FDC) next(t uint64) {
	bt := f.byteTicks()
	g := f.gaps()
	if f.Count < f.Length {
		f.Stage, f.Due = stageNext, f.Mark+uint64(g.Data+f.Count+1)*bt
		return
	}
	s, _ := f.sector()
	end := max(physical(s.N), f.Length)
	if f.cmd() == cmdReadTrack {
		end = f.Length
	}
	f.Stage, f.Due = stageSectorEnd, max(t, f.Mark+uint64(g.Data+end+2)*bt)
}

// took is a byte the processor wrote at tick t as asked: a byte to write, a
// byte to scan against, or a byte of a format's ID.
func (f *FDC) took(t uint64, v byte) {
	switch {
	case f.Stage == stageFormatID || f.cmd() == cmdFormat:
		f.formatByte(t, v)
	case f.scanning():
		d := f.drive(f.Unit)
		s, _ := f.sector()
		f.compare(d.Disc.Byte(s, int(f.Copy), f.Count), v)
		f.Count++
		f.next(t)
	default:
		d := f.drive(f.Unit)
		s, ok := f.sector()
		if ok {
			d.Disc.Write(s, f.Count, v)
		}
		f.Count++
		if f.Count < f.Length {
			f.Stage, f.Due = stageAsk, f.Mark+uint64(f.gaps().Data+f.Count-1)*f.byteTicks()
			return
		}
		// Where DTL is shorter than the sector, the rest of its data field
		// is written with zeros (µPD765, Write Data: "the remainder of the
		// data field is filled with zeros").
		for i := f.Length; ok && i < physical(s.N); i++ {
			d.Disc.Write(s, i, 0)
		}
		f.next(t)
	}
}

// The bits of a scan's sector.
const (
	scanUnequal = 1 // some byte differed
	scanFailed  = 2 // some byte failed the condition
)

// compare sets a byte of the disc's beside the processor's, &FF from
// either meeting every condition (µPD765, Scan Commands).
func (f *FDC) compare(disc, cpu byte) {
	if disc == 0xFF || cpu == 0xFF {
		return
	}
	if disc != cpu {
		f.Scan |= scanUnequal
	}
	switch f.cmd() {
	case cmdScanEqual:
		if disc != cpu {
			f.Scan |= scanFailed
		}
	case cmdScanLowEqual:
		if disc > cpu {
			f.Scan |= scanFailed
		}
	case cmdScanHighEqual:
		if disc < cpu {
			f.Scan |= scanFailed
		}
	}
}

// sectorEnd is the end of a sector's data field and its CRC, at tick at.
func (f *FDC) sectorEnd(at uint64) {
	s, ok := f.sector()
	switch {
	case f.cmd() == cmdReadTrack:
		// READ TRACK reads on past errors, noting them, until it has read
		// EOT sectors (µPD765, Read a Track).
		if ok && s.ST2&dsk.ST2DataError != 0 {
			f.ST1 |= st1DataError
			f.ST2 |= st2DataError
		}
		f.Done++
		f.R++
		if f.Done >= f.EOT {
			f.abort(at, st1EndCylinder, 0)
			return
		}
		f.search(at)
		return
	case f.writes():
	case f.Length == 0:
		// A sector skipped: its CRC is not checked.
	case ok && s.ST2&dsk.ST2DataError != 0:
		// A CRC error in the data ends the command with DE and DD.
		f.abort(at, st1DataError, st2DataError)
		return
	case f.scanning():
		if f.Scan&scanFailed == 0 {
			// The condition met: SH where every byte was equal, and the
			// command ends (µPD765, Scan Commands, Table 8).
			if f.Scan&scanUnequal == 0 {
				f.ST2 |= st2ScanHit
			}
			f.finish(at)
			return
		}
		if ok && f.otherMark(s) && f.Code&bitSK == 0 {
			f.abort(at, 0, 0)
			return
		}
		// Not met: on to the sector STP further, or SN past EOT.
		if int(f.R)+int(max(f.DTL, 1)) > int(f.EOT) {
			f.ST2 |= st2ScanNot
			f.finish(at)
			return
		}
		f.R += max(f.DTL, 1)
		f.lookFor(at)
		return
	case ok && f.otherMark(s):
		// A sector of the other mark, read without SK, ends the command
		// after it, its ID register left at that sector ("Address not
		// incremented. Next sector not searched for", as SMSC's FDC37C78
		// datasheet, "Skip Bit vs Read Data Command", puts it for its
		// µPD765-compatible core), and ends it normally: the
		// datasheet gives IC 01 for the other endings of Read Data but not
		// for this one, and Kevin Thacker's acid test (Arnold, fdc_read,
		// "read data mt"), run on a real CPC, has READ DATA of a deleted
		// sector below EOT give ST0 &00 with CM, R unchanged.
		f.finish(at)
		return
	}
	f.nextSector(at)
}

// nextSector goes on from the sector the ID register names to the next,
// or ends the command at EOT: on to sector 1 of side 1 with MT from side 0,
// or with EN (µPD765, Read Data and Write Data). The CPC wires no terminal
// count, so every read and write ends so, and the datasheet's table 6, the
// ID register for a command the processor ends with TC, is not what it
// leaves: a µPD765A run past EOT leaves the ID register at the last
// sector, C and R unchanged, as Kevin Thacker's acid tests measured on a
// real CPC (Arnold, fdc_read "read data" and "read deleted data": 40 80 00
// C 00 &41 02 for sector &41 read with EOT &41; fdc_write "write data" and
// "write deleted data" the same; "ready change between sectors", nine
// sectors &41 to &49 read or written, R &49). With MT, ending on side 1,
// none of them measured it, and table 6's is kept: the next cylinder, the
// head's LSB complemented, R 1.
func (f *FDC) nextSector(at uint64) {
	if f.R != f.EOT {
		f.R++
		f.lookFor(at)
		return
	}
	if f.Code&bitMT != 0 {
		if f.HD == 0 {
			f.HD, f.H, f.R = 1, f.H^1, 1
			f.lookFor(at)
			return
		}
		f.R = 1
		f.C++
		f.H ^= 1
	}
	f.abort(at, st1EndCylinder, 0)
}

// indexed is the index hole a format or a read track waits for, at tick at.
func (f *FDC) indexed(at uint64) {
	if f.cmd() == cmdReadTrack {
		f.Index, f.SawID, f.Wrong, f.Bad = 0, false, false, false
		f.search(at)
		return
	}
	d := f.drive(f.Unit)
	f.Format = at
	f.Sector, f.Count = 0, 0
	d.Disc.Format(int(d.Head), d.side(f.HD), f.fm(), f.GPL, f.Filler)
	d.Written = true
	if f.SC == 0 {
		f.Stage, f.Due = stageFormatEnd, f.formatEnd()
		return
	}
	f.formatAsk()
}

// formatEnd is the tick of the index hole that ends the format, a
// revolution after the one it began at (µPD765, Format a Track).
func (f *FDC) formatEnd() uint64 { return f.Format + Revolution }

// formatPlace is where the format lays sector i's ID address mark, in
// bytes after the index: after the gaps the format opens the track with,
// each sector its fixed bytes, its data and GPL bytes of gap 3 (µPD765,
// Format a Track; IBM System 34 and 3740).
func (f *FDC) formatPlace(i int) int {
	g := f.gaps()
	return g.First + i*(g.Sector+physical(f.Command[2])+int(f.GPL))
}

// formatAsk asks for the next byte of the ID of the sector being
// formatted, as the byte before it is written, or ends the format at the
// index where that comes first.
func (f *FDC) formatAsk() {
	g := f.gaps()
	mark := g.ID - 6 // the ID address mark, before C H R N and the CRC
	at := f.Format + uint64(f.formatPlace(f.Sector)+mark+f.Count-1)*f.byteTicks()
	if at >= f.formatEnd() {
		f.Stage, f.Due = stageFormatEnd, f.formatEnd()
		return
	}
	f.Stage, f.Due = stageFormatAsk, at
}

// formatByte is a byte of a sector's ID given at tick t; the fourth adds
// the sector, its data the fill byte.
func (f *FDC) formatByte(t uint64, v byte) {
	switch f.Count {
	case 0:
		f.C = v
	case 1:
		f.H = v
	case 2:
		f.R = v
	case 3:
		f.N = v
	}
	f.Count++
	if f.Count < 4 {
		f.formatAsk()
		return
	}
	d := f.drive(f.Unit)
	place := f.formatPlace(f.Sector)
	// The sector's size is the format's N; the ID's N is what is read.
	size := physical(f.Command[2])
	d.Disc.AddSector(int(d.Head), d.side(f.HD), f.C, f.H, f.R, f.N, place, size, f.Filler)
	end := f.Format + uint64(place+f.gaps().Data+size+2)*f.byteTicks()
	if end > f.formatEnd() {
		// The index comes before the sector's data is written whole: the
		// format ends there, and the sector's data has no good CRC.
		cut := int((f.formatEnd()-f.Format)/f.byteTicks()) - place - f.gaps().Data
		d.Disc.CutSector(int(d.Head), d.side(f.HD), cut)
		f.Stage, f.Due = stageFormatEnd, f.formatEnd()
		return
	}
	f.Stage, f.Due = stageFormatData, end
}

// formatNext goes on to the next sector once one is formatted, or to gap
// 4b once SC are: R counts them (µPD765, Format a Track).
func (f *FDC) formatNext(at uint64) {
	f.R++
	f.Sector++
	f.Count = 0
	if f.Sector >= int(f.SC) {
		f.Stage, f.Due = stageFormatEnd, f.formatEnd()
		return
	}
	f.formatAsk()
}

// formatEnded ends a format at the index hole.
func (f *FDC) formatEnded(at uint64) {
	f.Request = false
	f.finish(at)
}
