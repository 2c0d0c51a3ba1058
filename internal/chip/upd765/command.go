package upd765

import "colophon/internal/media/dsk"

// The command code's bits beside its low five (µPD765, Table 4).
const (
	bitMT = 0x80 // multi-track
	bitMF = 0x40 // MFM
	bitSK = 0x20 // skip deleted (or, for READ DELETED DATA, undeleted) data
)

// rw reports whether the command under way reads or writes a disc, during
// which the controller does not poll its drives (µPD765, Polling).
func (f *FDC) rw() bool {
	switch f.Code & 0x1F {
	case cmdReadTrack, cmdWriteData, cmdReadData, cmdWriteDeleted, cmdReadID, cmdReadDeleted,
		cmdFormat, cmdScanEqual, cmdScanLowEqual, cmdScanHighEqual:
		return f.Code != 0
	}
	return false
}

func (f *FDC) cmd() byte { return f.Code & 0x1F }

// writes reports whether the command writes to the disc.
func (f *FDC) writes() bool {
	c := f.cmd()
	return c == cmdWriteData || c == cmdWriteDeleted || c == cmdFormat
}

// scanning reports whether the command is a scan.
func (f *FDC) scanning() bool {
	c := f.cmd()
	return c == cmdScanEqual || c == cmdScanLowEqual || c == cmdScanHighEqual
}

// fm reports whether the command asks for FM rather than MFM (MF clear).
func (f *FDC) fm() bool { return f.Code&bitMF == 0 }

// The timing of the command's encoding: a byte's ticks, and the time the
// processor has to serve one.
func (f *FDC) byteTicks() uint64 {
	if f.fm() {
		return fmByte
	}
	return mfmByte
}

func (f *FDC) service() uint64 {
	if f.fm() {
		return fmService
	}
	return mfmService
}

func (f *FDC) gaps() dsk.Gaps { return dsk.FormatGaps(f.fm()) }

// start carries out a command whose last byte came at tick t.
func (f *FDC) start(t uint64) {
	c := f.Command
	f.Code = c[0]
	f.Unit, f.HD = c[1]&3, c[1]>>2&1
	switch f.cmd() {
	case cmdSpecify:
		f.Specify = [2]byte{c[1], c[2]}
		f.result(t)
	case cmdSenseDrive:
		f.result(t, f.st3())
	case cmdSenseInt:
		// The pending interrupts are reported a unit at a time, and clear
		// the unit's busy bit; with none pending the command is taken as
		// invalid (µPD765, Sense Interrupt Status).
		for u := range Units {
			if s := &f.Seeks[u]; s.Pending {
				s.Pending, s.Busy = false, false
				f.result(t, s.ST0, f.PCN[u])
				return
			}
		}
		f.result(t, icInvalid)
	case cmdSeek, cmdRecalibrate:
		// Seek and recalibrate have no result phase: the controller is free
		// for another command as the unit steps (µPD765, Seek).
		u := f.Unit
		f.Seeks[u] = Seek{Active: true, Busy: true, Recalibrate: f.cmd() == cmdRecalibrate, NCN: c[2], Next: t}
		if f.Seeks[u].Recalibrate {
			f.PCN[u] = 0
		}
		f.result(t)
	default:
		f.begin(t)
	}
}

// st3 is the selected drive's status (µPD765, Status Register 3).
func (f *FDC) st3() byte {
	d := f.drive(f.Unit)
	v := f.HD<<2 | f.Unit
	if d.Disc.In() && d.WriteProtect {
		v |= st3WriteProtect
	}
	if d.Ready() {
		v |= st3Ready
	}
	if d.Track0() {
		v |= st3Track0
	}
	if d.TwoSided() {
		v |= st3TwoSide
	}
	return v
}

// begin begins a command that reads or writes the disc: it refuses a drive
// not ready, and a write to a disc whose tab is set; loads the head, unless
// it is loaded still; and then looks for its sector, or waits for the index
// hole.
func (f *FDC) begin(t uint64) {
	c := f.Command
	f.ST0, f.ST1, f.ST2 = 0, 0, 0
	f.Count, f.Length, f.Done, f.Scan = 0, 0, 0, 0
	if f.cmd() == cmdFormat {
		f.N, f.SC, f.GPL, f.Filler = c[2], c[3], c[4], c[5]
	} else if f.cmd() != cmdReadID {
		f.C, f.H, f.R, f.N, f.EOT, f.GPL, f.DTL = c[2], c[3], c[4], c[5], c[6], c[7], c[8]
	}
	f.Phase = Execution
	d := f.drive(f.Unit)
	if !d.Ready() {
		// NR: the drive is not ready as the command is issued (µPD765,
		// Status Register 0).
		f.ST0 = icAbnormal | stNotReady
		f.finish(t)
		return
	}
	if f.writes() && d.WriteProtect {
		// NW: a write or a format to a protected disc (µPD765, Status
		// Register 1).
		f.ST0, f.ST1 = icAbnormal, st1NotWritable
		f.finish(t)
		return
	}
	// The head is loaded HLT after the command unless it is loaded still,
	// HUT not having passed since the last read or write (µPD765, Read
	// Data and Specify).
	load := t
	if !f.Loaded || t >= f.UnloadAt {
		hlt := uint64(f.Specify[1] >> 1)
		if hlt == 0 {
			hlt = 128
		}
		load += hlt * loadUnit
	}
	f.Loaded, f.UnloadAt = true, ^uint64(0)
	f.Stage, f.Due = stageLoad, load
}

// finish ends the execution phase at tick at with the result: ST0, ST1,
// ST2 and the ID register; the head unloads HUT later.
func (f *FDC) finish(at uint64) {
	hut := uint64(f.Specify[0] & 0x0F)
	if hut == 0 {
		hut = 16
	}
	f.UnloadAt = at + hut*unloadUnit
	f.result(at, f.ST0|f.HD<<2|f.Unit, f.ST1, f.ST2, f.C, f.H, f.R, f.N)
}

// abort ends the command abnormally, with the bits of ST1 and ST2 given.
func (f *FDC) abort(at uint64, st1, st2 byte) {
	f.ST0 |= icAbnormal
	f.ST1 |= st1
	f.ST2 |= st2
	f.finish(at)
}

// step is a unit's seek at tick at: it looks, and ends the seek or issues a
// step pulse, looking again a step's time later. A seek ends once the
// present cylinder is the one asked for, a recalibrate once the drive
// reports track 0, or gives up after 77 pulses (µPD765, Seek and
// Recalibrate). The head steps whether or not the drive is ready (CPCWiki
// "765 FDC", after 64nops); a drive not ready at the end is reported so.
func (f *FDC) step(u int, at uint64) {
	s := &f.Seeks[u]
	d := f.drive(uint8(u))
	if s.Recalibrate {
		switch {
		case d.Track0():
			f.seekEnd(u, 0)
			return
		case s.Pulses >= recalibratePulses:
			f.seekEnd(u, icAbnormal|stEquip)
			return
		}
		d.step(false)
	} else {
		if f.PCN[u] == s.NCN {
			f.seekEnd(u, 0)
			return
		}
		in := s.NCN > f.PCN[u]
		if in {
			f.PCN[u]++
		} else {
			f.PCN[u]--
		}
		d.step(in)
	}
	s.Pulses = min(s.Pulses+1, recalibratePulses)
	// SRT: 16 ms to 1 ms, F being 1 (µPD765, Specify), doubled at 4 MHz.
	s.Next = at + uint64(16-f.Specify[0]>>4)*stepUnit
}

// seekEnd ends unit u's seek with SE and the bits given, and raises its
// interrupt.
func (f *FDC) seekEnd(u int, st0 byte) {
	s := &f.Seeks[u]
	s.Active = false
	s.Pending = true
	s.ST0 = stSeekEnd | st0 | byte(u)
	if !f.drive(uint8(u)).Ready() {
		s.ST0 |= icAbnormal | stNotReady
	}
}
