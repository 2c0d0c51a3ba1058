// Package upd765 is the NEC µPD765A floppy disc controller and the drives
// it reads and writes: its main status register, its command, execution
// and result phases, every command of its instruction set, byte by byte in
// the execution phase at the disc's own pace, and the drives' heads, motors,
// index pulses, ready and write-protect lines.
//
// The controller runs behind the processor. Nothing it does is seen until
// the processor next reads or writes it, or its motor line changes, or a
// disc goes in or comes out; each of those calls first runs it to the tick
// given (run), event by event: a byte ready, a byte asked for, an ID or an
// index hole passing under a head, a step pulse. So the controller costs
// nothing while nobody looks, and what is seen is what a controller
// stepped tick by tick would show at that tick. Its time is the
// processor's, a tick a quarter of a microsecond: the controller's clock
// on a CPC is 4 MHz, at which every interval the datasheet gives for 8 MHz
// is doubled (µPD765, Specify and Polling).
//
// Sources cited at the lines that depend on them:
//   - NEC, "µPD765A/µPD765B Single/Double Density Floppy Disk Controller"
//     (µPD765), as Kevin Thacker's cpctech keeps it: the main status
//     register, the command table, the status registers, each command's
//     functional description, the polling of the ready lines, the
//     transfer rate a processor must keep, and the µPD765A's overrun on a
//     sector's last byte.
//   - CPCWiki, "765 FDC": "the FDC must be serviced every 26µs (for MFM
//     mode with CPC timings)"; that the ready line of a 3" drive "turns on
//     when a disk is inserted and spinning ... after detecting 2 or 3
//     index pulses" and "turns off immediately if the disk is removed or
//     the motor stops"; and, after 64nops' measurements, that seek and
//     recalibrate move the head with the motor off and no disc in.
//   - The specification ("Discs and tapes"): a disc is ready at the third
//     index pulse after it goes in with the motor turning, 600 ms, which
//     the CPC6128 service manual gives as two revolutions.
//   - The IBM System 34 (MFM) and 3740 (FM) track formats, as package dsk
//     gives their gaps.
//   - Kevin Thacker's acid tests for the Arnold emulator, fdc_read and
//     fdc_write (floooh/emu-info, tests/cpc/acid/disc), whose expected
//     results were measured on a real CPC: the result of a read or a write
//     that runs past EOT, and of a sector of the other data mark.
//   - SMSC, FDC37C78 datasheet, "Skip Bit vs Read Data Command": the
//     same, for its µPD765-compatible core.
package upd765

import (
	"fmt"

	"colophon/internal/media/dsk"
)

// Main status register bits (µPD765, Table 2).
const (
	RQM = 0x80 // the data register is ready to take or give a byte
	DIO = 0x40 // set: the controller gives the byte
	EXM = 0x20 // the execution phase, in non-DMA mode
	CB  = 0x10 // a command is under way
)

// ST0 bits (µPD765, Status Register 0).
const (
	icAbnormal = 0x40 // IC 01: begun but not ended properly
	icInvalid  = 0x80 // IC 10: an invalid command
	icReady    = 0xC0 // IC 11: the ready line changed
	stSeekEnd  = 0x20 // SE
	stEquip    = 0x10 // EC: no track 0 after 77 pulses
	stNotReady = 0x08 // NR
)

// ST1 and ST2 bits (µPD765, Status Registers 1 and 2).
const (
	st1EndCylinder = 0x80 // EN
	st1DataError   = 0x20 // DE
	st1Overrun     = 0x10 // OR
	st1NoData      = 0x04 // ND
	st1NotWritable = 0x02 // NW
	st1Missing     = 0x01 // MA
	st2Control     = 0x40 // CM
	st2DataError   = 0x20 // DD
	st2WrongCyl    = 0x10 // WC
	st2ScanHit     = 0x08 // SH
	st2ScanNot     = 0x04 // SN
	st2BadCyl      = 0x02 // BC
	st2Missing     = 0x01 // MD
)

// ST3 bits (µPD765, Status Register 3).
const (
	st3WriteProtect = 0x40
	st3Ready        = 0x20
	st3Track0       = 0x10
	st3TwoSide      = 0x08
)

// Times, in ticks of 0.25 µs.
const (
	// Revolution is a disc's turn at 300 rpm: 200 ms.
	Revolution = 800000
	// A byte passes the head in 32 µs at 250 kbit/s MFM, and 64 µs in FM:
	// a track's 6250 or 3125 bytes make a revolution (package dsk).
	mfmByte = Revolution / dsk.MFMTrackBytes
	fmByte  = Revolution / dsk.FMTrackBytes
	// A processor must serve each byte within 13 µs in MFM, 27 µs in FM,
	// at 8 MHz (µPD765, Read Data), doubled at 4 MHz: CPCWiki's 26 µs.
	mfmService = 2 * 13 * 4
	fmService  = 2 * 27 * 4
	// The drives are polled every 1.024 ms at 8 MHz, 2.048 ms at 4 MHz
	// (µPD765, Polling), in turn.
	pollPeriod = 2 * 1024 * 4
	pollEach   = pollPeriod / Units
	// The Specify command's units at 8 MHz, 1 ms a step, 16 ms of head
	// unload and 2 ms of head load, doubled at 4 MHz.
	stepUnit   = 2 * 1000 * 4
	unloadUnit = 2 * 16000 * 4
	loadUnit   = 2 * 2000 * 4
	// Recalibrate gives up after 77 step pulses (µPD765, Recalibrate).
	recalibratePulses = 77
	// readyPulses is the index pulse at which a drive turning a disc
	// reports it ready: the third (spec, "Discs and tapes").
	readyPulses = 3
)

// Units is how many drives the controller addresses, by US1 and US0.
const Units = 4

// A Phase is where the controller stands in a command (µPD765, Command
// Sequence).
type Phase uint8

const (
	// Command: it takes a command's bytes, the first of which begins one.
	Command Phase = iota
	// Execution: it carries a command out.
	Execution
	// Result: it gives the result's bytes.
	Result
)

func (p Phase) String() string {
	switch p {
	case Command:
		return "command"
	case Execution:
		return "execution"
	case Result:
		return "result"
	}
	return fmt.Sprintf("Phase(%d)", uint8(p))
}

// A Stage is what the execution phase waits for at the tick Due names.
type Stage uint8

const (
	stageNone       Stage = iota
	stageLoad             // the head loading
	stageSearch           // the next ID, or the index hole, passing the head
	stageGive             // a byte read, ready for the processor until its deadline
	stageNext             // the next byte read from the disc
	stageTake             // a byte to write, asked of the processor until its deadline
	stageAsk              // the next byte to ask for
	stageSectorEnd        // the end of a sector's data field and its CRC
	stageMissing          // the data mark that does not come
	stageIndex            // the index hole, which a format or a read track begins at
	stageFormatID         // an ID byte of the sector being formatted, asked for
	stageFormatAsk        // the next ID byte to ask for
	stageFormatData       // the end of the sector being formatted
	stageFormatEnd        // the index hole that ends a format
	stages
)

var stageNames = [stages]string{"none", "load", "search", "give", "next", "take", "ask", "sector_end",
	"missing", "index", "format_id", "format_ask", "format_data", "format_end"}

func (s Stage) String() string {
	if s < stages {
		return stageNames[s]
	}
	return fmt.Sprintf("Stage(%d)", uint8(s))
}

// The commands, by their code's low five bits (µPD765, Table 4).
const (
	cmdReadTrack     = 0x02
	cmdSpecify       = 0x03
	cmdSenseDrive    = 0x04
	cmdWriteData     = 0x05
	cmdReadData      = 0x06
	cmdRecalibrate   = 0x07
	cmdSenseInt      = 0x08
	cmdWriteDeleted  = 0x09
	cmdReadID        = 0x0A
	cmdReadDeleted   = 0x0C
	cmdFormat        = 0x0D
	cmdSeek          = 0x0F
	cmdScanEqual     = 0x11
	cmdScanLowEqual  = 0x19
	cmdScanHighEqual = 0x1D
)

// commandLength gives the bytes each command takes, its first included,
// by its low five bits (µPD765, Table 4); 0 is an invalid code.
var commandLength = [32]int{
	cmdReadTrack: 9, cmdSpecify: 3, cmdSenseDrive: 2, cmdWriteData: 9, cmdReadData: 9,
	cmdRecalibrate: 2, cmdSenseInt: 1, cmdWriteDeleted: 9, cmdReadID: 2, cmdReadDeleted: 9,
	cmdFormat: 6, cmdSeek: 3, cmdScanEqual: 9, cmdScanLowEqual: 9, cmdScanHighEqual: 9,
}

// A Seek is a unit's head stepping, in parallel with every other's
// (µPD765, Seek).
type Seek struct {
	Active      bool   `inspect:"active"`      // step pulses are being issued
	Recalibrate bool   `inspect:"recalibrate"` // towards track 0, rather than to NCN
	NCN         uint8  `inspect:"ncn"`         // the cylinder asked for
	Next        uint64 `inspect:"next"`        // the tick it next looks and steps
	Pulses      uint8  `inspect:"pulses"`      // the pulses issued, which a recalibrate gives up at 77
	Busy        bool   `inspect:"busy"`        // DnB in the main status register, until sensed
	Pending     bool   `inspect:"pending"`     // an interrupt waits for SENSE INTERRUPT STATUS
	ST0         byte   `inspect:"st0"`         // the ST0 it will give
}

// FDC is the controller, with its drives.
type FDC struct {
	// The command phase: the command's bytes so far, and how many.
	Command [9]byte `inspect:"command"`
	Taken   int     `inspect:"taken"`
	// The result phase: the bytes, how many there are, how many given.
	Result  [7]byte `inspect:"result"`
	Results int     `inspect:"results"`
	Given   int     `inspect:"given"`

	Phase Phase `inspect:"phase"`
	// The execution phase: what it waits for and when; a byte asked of
	// the processor or ready for it (RQM), by when it must be served, and
	// the data register.
	Stage    Stage  `inspect:"stage"`
	Due      uint64 `inspect:"due"`
	Request  bool   `inspect:"request"`
	Deadline uint64 `inspect:"deadline"`
	Data     byte   `inspect:"data"`

	// The command under way: its code, the unit and head it chose, and
	// the ID register, C H R N, with the rest of its parameters.
	Code   byte  `inspect:"code"`
	Unit   uint8 `inspect:"unit"`
	HD     uint8 `inspect:"hd"`
	C      byte  `inspect:"c"`
	H      byte  `inspect:"h"`
	R      byte  `inspect:"r"`
	N      byte  `inspect:"n"`
	EOT    byte  `inspect:"eot"`
	GPL    byte  `inspect:"gpl"`
	DTL    byte  `inspect:"dtl"`
	SC     byte  `inspect:"sc"`
	Filler byte  `inspect:"filler"` // a format's D
	ST0    byte  `inspect:"st0"`
	ST1    byte  `inspect:"st1"`
	ST2    byte  `inspect:"st2"`

	// The sector under the head: its place on its track, the tick its ID
	// address mark passed, the bytes of it transferred and to transfer,
	// and the copy of a weak sector read. Hole is set where a search waits
	// for the index hole rather than for the sector's ID.
	Sector int    `inspect:"sector"`
	Hole   bool   `inspect:"hole"`
	Mark   uint64 `inspect:"mark"`
	Count  int    `inspect:"count"`
	Length int    `inspect:"length"`
	Copy   uint8  `inspect:"copy"`
	// The search: index holes passed, and whether any ID was read, or one
	// with the sector asked for but another cylinder.
	Index  uint8  `inspect:"index"`
	SawID  bool   `inspect:"saw_id"`
	Wrong  bool   `inspect:"wrong"`  // WC
	Bad    bool   `inspect:"bad"`    // BC
	Done   uint8  `inspect:"done"`   // the sectors a read track has read
	Scan   uint8  `inspect:"scan"`   // a scan's sector so far: bit 0 every byte equal, bit 1 the condition failed
	Format uint64 `inspect:"format"` // the tick of the index hole a format began at

	// Specify's two bytes: SRT and HUT, HLT and ND.
	Specify [2]byte `inspect:"specify"`
	// The head: loaded, and until when, once the last read or write ended.
	Loaded   bool   `inspect:"loaded"`
	UnloadAt uint64 `inspect:"unload_at"`

	// Each unit's present cylinder, seek and interrupt.
	PCN   [Units]uint8 `inspect:"pcn"`
	Seeks [Units]Seek  `inspect:"seeks"`
	// The ready line of each unit as the polling last saw it, and the tick
	// from which polling looks again after a read or a write.
	Polled   [Units]bool `inspect:"polled"`
	PollFrom uint64      `inspect:"poll_from"`

	// Units are the drives, each with the disc it holds.
	Units [Units]Unit `inspect:"units"`
	// Drives is how many drives are wired: unit u is drive u % Drives. A
	// CPC wires US0 alone, so its units 2 and 3 are drives A and B again.
	Drives uint8 `inspect:"drives,fixed"`

	// At is the tick the controller and its drives have been run to.
	At uint64 `inspect:"at"`
}

// Reset is the controller at power-on with drives wired: idle, waiting for
// a command, its drives empty, their heads at track 0, their motors off.
func (f *FDC) Reset(drives int) {
	*f = FDC{Drives: uint8(max(1, min(drives, Units)))}
}

// drives is how many drives are wired, one at least.
func (f *FDC) drives() int { return int(min(max(f.Drives, 1), Units)) }

// drive is the drive a unit reaches.
func (f *FDC) drive(u uint8) *Unit { return &f.Units[int(u)%f.drives()] }

// nonDMA reports whether Specify chose non-DMA transfers (ND).
func (f *FDC) nonDMA() bool { return f.Specify[1]&1 != 0 }

// MainStatus reads the main status register at tick t (µPD765, Table 2).
func (f *FDC) MainStatus(t uint64) byte {
	f.run(t)
	var v byte
	for u := range Units {
		if f.Seeks[u].Busy {
			v |= 1 << u
		}
	}
	switch f.Phase {
	case Command:
		v |= RQM
		if f.Taken > 0 {
			v |= CB
		}
	case Execution:
		v |= CB
		if f.nonDMA() {
			// In DMA mode the controller asks for each byte on DRQ, which
			// the board may leave unwired: no byte is then served.
			v |= EXM
			if f.Request {
				v |= RQM
				if f.reading() {
					v |= DIO
				}
			}
		}
	case Result:
		v |= RQM | DIO | CB
	}
	return v
}

// reading reports whether the execution phase's byte goes to the processor.
func (f *FDC) reading() bool { return f.Stage == stageGive }

// Read reads the data register at tick t: a result byte, a byte read from
// the disc, or the register as it stands.
func (f *FDC) Read(t uint64) byte {
	f.run(t)
	switch {
	case f.Phase == Result && f.Given < f.Results:
		v := f.Result[f.Given]
		f.Given++
		if f.Given == f.Results {
			f.endResult(t)
		}
		return v
	case f.Phase == Execution && f.Request && f.Stage == stageGive && f.nonDMA():
		f.Request = false
		f.gave(t)
	}
	return f.Data
}

// Write writes the data register at tick t: a command's next byte, or a
// byte the execution phase asked for. A byte written in the result phase
// is not taken. The controller is ready for a command's next byte at
// once: the datasheet asks the processor to wait 12 µs before it reads the
// main status register again (µPD765, Processor Interface), and gives no
// time for RQM itself, which this leaves at RQM. The drives are turned to t, where a command begun looks at
// them.
func (f *FDC) Write(t uint64, v byte) {
	f.Run(t)
	switch f.Phase {
	case Command:
		f.Command[f.Taken] = v
		f.Taken++
		n := commandLength[f.Command[0]&0x1F]
		if n == 0 {
			// Invalid codes: ST0 with IC 10 as the one result byte
			// (µPD765, Table 4, Invalid).
			f.Taken = 0
			f.result(t, icInvalid)
			return
		}
		if f.Taken >= n {
			f.Taken = 0
			f.start(t)
		}
	case Execution:
		if f.Request && f.nonDMA() && (f.Stage == stageTake || f.Stage == stageFormatID) {
			f.Request = false
			f.Data = v
			f.took(t, v)
		}
	}
}

// result enters the result phase with the bytes given.
func (f *FDC) result(t uint64, b ...byte) {
	f.Phase = Result
	f.Stage = stageNone
	f.Request = false
	f.Results = copy(f.Result[:], b)
	f.Given = 0
	if f.Results == 0 {
		f.endResult(t)
	}
}

// endResult ends a command once its last result byte is read; after a
// read or a write the controller polls its drives again from there.
func (f *FDC) endResult(t uint64) {
	f.Phase = Command
	f.Results, f.Given = 0, 0
	if f.rw() {
		f.PollFrom = t
	}
	f.Code = 0
}

// SetMotor sets the drives' motor line at tick t: each drive's motor follows
// it. A drive whose motor stops is not ready (CPCWiki "765 FDC").
func (f *FDC) SetMotor(t uint64, on bool) {
	f.Run(t)
	for i := range f.drives() {
		f.Units[i].setMotor(on)
	}
	f.readyLost()
}

// Insert puts a disc in a drive at tick t, with its write-protect tab set
// or not, taking out any disc there. It begins turning under the head as
// though its index hole had just passed, and is ready at the third index
// pulse while the motor turns.
func (f *FDC) Insert(t uint64, drive int, d dsk.Disc, protect bool) {
	f.Run(t)
	u := &f.Units[drive]
	u.Disc, u.WriteProtect, u.Written = d, protect, false
	u.Angle, u.Pulses = 0, 0
	f.readyLost()
}

// Eject takes the disc out of a drive at tick t.
func (f *FDC) Eject(t uint64, drive int) {
	f.Insert(t, drive, dsk.Disc{}, false)
}

// readyLost ends a read or a write whose drive is no longer ready, with IC
// 11 (µPD765, Status Register 0).
func (f *FDC) readyLost() {
	if f.Phase != Execution || f.drive(f.Unit).Ready() {
		return
	}
	f.ST0 = icReady | stNotReady
	f.finish(f.At)
}

// Run runs the controller and its drives to tick t, for a host that reads
// its fields.
func (f *FDC) Run(t uint64) {
	f.run(t)
	f.turn(t)
}

// run runs the controller to tick t: each event due, in tick order, the
// drives turned to it, and the ready lines polled.
func (f *FDC) run(t uint64) {
	if t <= f.At {
		return
	}
	// Polling is off through a read or a write, so from its execution
	// phase on to its end; the ready lines are looked at only otherwise.
	polling := !(f.Phase != Command && f.rw())
	if at, _ := f.due(); at > t && (!polling || f.settled(t)) {
		// Nothing happens by t: the drives are turned when next something
		// does, or someone looks at them, in one go. So a processor
		// polling the main status register, as AMSDOS does while the disc
		// turns to its sector, costs a look at the events due.
		return
	}
	var rise [Units]uint64
	var was [Units]bool
	if polling {
		for i := range f.drives() {
			was[i] = f.Units[i].Ready()
			rise[i] = f.Units[i].readyAt(f.At)
		}
	}
	from := f.At
	for {
		at, what := f.due()
		if at > t {
			break
		}
		f.turn(at)
		if what < 0 {
			f.execute(at)
		} else {
			f.step(what, at)
		}
	}
	f.turn(t)
	if polling {
		f.poll(from, t, was, rise)
	}
}

// due answers the earliest event due and what it is: the execution
// phase's, as -1, or a unit's seek.
func (f *FDC) due() (uint64, int) {
	at, what := ^uint64(0), 0
	if f.Phase == Execution && f.Stage != stageNone {
		at, what = f.Due, -1
	}
	for u := range Units {
		if s := &f.Seeks[u]; s.Active && s.Next < at {
			at, what = s.Next, u
		}
	}
	return at, what
}

// turn turns every drive to tick t.
func (f *FDC) turn(t uint64) {
	if t <= f.At {
		return
	}
	for i := range f.drives() {
		f.Units[i].turn(t - f.At)
	}
	f.At = t
}

// poll looks at the ready lines as the controller polls them between
// commands, each unit every 2.048 ms in turn, from tick from to t: a line
// changed since the last poll raises an interrupt, IC 11 with NR where the
// drive is not ready (µPD765, Polling). Within the span a line can only
// rise, at the tick rise gives; it stood at was when the span began.
func (f *FDC) poll(from, t uint64, was [Units]bool, rise [Units]uint64) {
	if f.Phase != Command && f.rw() {
		return
	}
	from = max(from, f.PollFrom)
	for u := range Units {
		d := u % f.drives()
		// The first poll of this unit after from.
		first := pollAfter(from, u)
		if first > t {
			continue
		}
		ready := was[d] || rise[d] <= first
		if ready != f.Polled[u] {
			f.pollChanged(u, ready)
		}
		if !f.Polled[u] && rise[d] > first && rise[d] <= t {
			if at := pollAfter(rise[d]-1, u); at <= t {
				f.pollChanged(u, true)
			}
		}
	}
}

// settled reports whether polling would find nothing new by tick t: each
// unit's ready line as last polled is its drive's, and stays so.
func (f *FDC) settled(t uint64) bool {
	for u := range Units {
		d := &f.Units[u%f.drives()]
		ready := d.Ready()
		if ready != f.Polled[u] || !ready && d.readyAt(f.At) <= t {
			return false
		}
	}
	return true
}

// pollAfter is the first tick after from at which unit u is polled.
func pollAfter(from uint64, u int) uint64 {
	offset := uint64(u * pollEach)
	if from < offset {
		return offset
	}
	return from + pollPeriod - (from-offset)%pollPeriod
}

// pollChanged raises unit u's ready-change interrupt.
func (f *FDC) pollChanged(u int, ready bool) {
	f.Polled[u] = ready
	s := &f.Seeks[u]
	s.Pending = true
	s.ST0 = icReady | byte(u)
	if !ready {
		s.ST0 |= stNotReady
	}
}

// Written reports whether the machine has written to the disc in a drive
// since it went in.
func (f *FDC) Written(drive int) bool { return f.Units[drive].Written }

// Disc answers the disc in a drive; its Image is empty where there is none.
func (f *FDC) Disc(drive int) dsk.Disc { return f.Units[drive].Disc }

// Validate refuses what set may not leave in the controller, the counts
// and indexes it uses unchecked (IS-6): the bytes of a command taken and of
// a result given, the unit its command chose and its head, the bytes of a
// sector transferred, and each drive's turn and head.
func (f *FDC) Validate() error {
	switch {
	case f.Taken < 0 || f.Taken >= len(f.Command):
		return fmt.Errorf("taken is %d; taken runs 0 to %d, the bytes of a command so far", f.Taken, len(f.Command)-1)
	case f.Results < 0 || f.Results > len(f.Result):
		return fmt.Errorf("results is %d; results 0 to %d, the bytes of a result", f.Results, len(f.Result))
	case f.Given < 0 || f.Given > f.Results:
		return fmt.Errorf("given is %d; given 0 to results (%d), the result's bytes read", f.Given, f.Results)
	case f.Unit >= Units:
		return fmt.Errorf("unit is %d; the units are 0 to %d", f.Unit, Units-1)
	case f.HD > 1:
		return fmt.Errorf("hd is %d; the heads are 0 and 1", f.HD)
	case f.Length < 0 || f.Length > maxLength:
		return fmt.Errorf("length is %d; a sector's transfer is 0 to %d bytes", f.Length, maxLength)
	case f.Count < 0 || f.Count > f.Length:
		return fmt.Errorf("count is %d; 0 to length (%d) bytes are transferred", f.Count, f.Length)
	case f.Sector < 0 || f.Sector > 0xFFFF:
		return fmt.Errorf("sector is %d; a track's sectors are counted 0 to 65535", f.Sector)
	case f.Phase > Result:
		return fmt.Errorf("phase is %d; the phases are command, execution and result", f.Phase)
	case f.Stage >= stages:
		return fmt.Errorf("stage is %d; the stages are 0 to %d", f.Stage, stages-1)
	}
	for i := range f.Units {
		if err := f.Units[i].Validate(); err != nil {
			return fmt.Errorf("units[%d]: %w", i, err)
		}
	}
	return nil
}

// maxLength is the longest transfer of a sector: 128 << 8.
const maxLength = 128 << 8
