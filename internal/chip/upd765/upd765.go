// Package upd765 is the NEC µPD765A floppy disc controller as far as a
// controller with no drive ready goes: its main status register, its
// command and result phases, and the answers the datasheet gives each
// command when the drive it names is not ready. It is what a CPC 664's or
// 6128's disc interface answers with no disc system behind it; reading and
// writing discs is not here.
//
// Sources cited at the lines that depend on them:
//   - NEC, "µPD765A/µPD765B Single/Double Density Floppy Disk Controller"
//     datasheet (µPD765): the main status register's bits, the command
//     table (the bytes each command takes and the results it gives), the
//     status registers ST0 and ST3, and "Invalid Codes".
package upd765

import "fmt"

// Main status register bits (µPD765, "Main Status Register").
const (
	RQM = 0x80 // the data register is ready to take or give a byte
	DIO = 0x40 // set: the controller gives a byte (result phase)
	CB  = 0x10 // controller busy: a command is under way
)

// ST0 bits (µPD765, "Status Register 0").
const (
	abnormal = 0x40 // IC = 01: the command did not end normally
	invalid  = 0x80 // IC = 10: an invalid command
	notReady = 0x08 // NR: the drive is not ready
	seekEnd  = 0x20 // SE: a seek or recalibrate ended
)

// commandLength gives the bytes each command takes, its first included,
// by its low five bits (µPD765, "Command Table"); 0 is an invalid code.
var commandLength = [32]int{
	0x02: 9, // read a track
	0x03: 3, // specify
	0x04: 2, // sense drive status
	0x05: 9, // write data
	0x06: 9, // read data
	0x07: 2, // recalibrate
	0x08: 1, // sense interrupt status
	0x09: 9, // write deleted data
	0x0A: 2, // read ID
	0x0C: 9, // read deleted data
	0x0D: 6, // format a track
	0x0F: 3, // seek
	0x11: 9, // scan equal
	0x19: 9, // scan low or equal
	0x1D: 9, // scan high or equal
}

// FDC is the controller's state.
type FDC struct {
	Command [9]byte `inspect:"command"` // the command's bytes so far
	Taken   int     `inspect:"taken"`   // how many
	Result  [7]byte `inspect:"result"`  // the result phase's bytes
	Given   int     `inspect:"given"`   // how many have been read
	Results int     `inspect:"results"` // how many there are

	// Interrupt is set when a seek or recalibrate has ended, until SENSE
	// INTERRUPT STATUS reports it with Status.
	Interrupt bool `inspect:"interrupt"`
	Status    byte `inspect:"status"` // its ST0

	// Specify is the SPECIFY command's two bytes: step rate and head
	// unload time, head load time and non-DMA mode.
	Specify [2]byte `inspect:"specify"`
}

// Reset is the controller at power-on: idle, waiting for a command.
func (f *FDC) Reset() { *f = FDC{} }

// MainStatus reads the main status register: ready for a byte always,
// giving one in the result phase, busy from a command's first byte to its
// last result (µPD765, "Main Status Register").
func (f *FDC) MainStatus() byte {
	switch {
	case f.Given < f.Results:
		return RQM | DIO | CB
	case f.Taken > 0:
		return RQM | CB
	}
	return RQM
}

// Read reads the data register: the next result byte, or &FF where there
// is none to give.
func (f *FDC) Read() byte {
	if f.Given >= f.Results {
		return 0xFF
	}
	v := f.Result[f.Given]
	f.Given++
	return v
}

// Write writes the data register: the next byte of a command. A byte
// written in the result phase is not taken.
func (f *FDC) Write(v byte) {
	if f.Given < f.Results {
		return
	}
	f.Results, f.Given = 0, 0
	f.Command[f.Taken] = v
	f.Taken++
	n := commandLength[f.Command[0]&0x1F]
	if n == 0 {
		// "Invalid Codes": the controller gives ST0 with IC = 10 as its
		// one result byte.
		f.result(invalid)
		return
	}
	if f.Taken < n {
		return
	}
	f.execute()
}

func (f *FDC) result(b ...byte) {
	f.Taken = 0
	f.Results = copy(f.Result[:], b)
	f.Given = 0
}

// execute runs a whole command with no drive ready.
func (f *FDC) execute() {
	c := f.Command
	unit := c[1] & 0x07 // head and drive
	switch c[0] & 0x1F {
	case 0x03:
		f.Specify = [2]byte{c[1], c[2]}
		f.result()
	case 0x04:
		// ST3: the head and drive asked, and RY (bit 5) clear: not ready.
		f.result(unit)
	case 0x08:
		if !f.Interrupt {
			// With no interrupt to report the command is taken as
			// invalid, ST0 = &80 (µPD765, "Sense Interrupt Status").
			f.result(invalid)
			return
		}
		f.Interrupt = false
		f.result(f.Status, 0)
	case 0x07, 0x0F:
		// A seek or recalibrate on a drive that is not ready ends at
		// once, abnormally, with NR and SE set; it has no result phase
		// and asks for SENSE INTERRUPT STATUS.
		f.Interrupt = true
		f.Status = abnormal | seekEnd | notReady | c[1]&0x03
		f.result()
	case 0x0A:
		f.result(abnormal|notReady|unit, 0, 0, 0, 0, 0, 0)
	case 0x0D:
		f.result(abnormal|notReady|unit, 0, 0, 0, 0, 0, c[2])
	default:
		// The data transfers end before they begin: ST0 with NR, ST1 and
		// ST2 clear, and the sector's C, H, R and N as given.
		f.result(abnormal|notReady|unit, 0, 0, c[2], c[3], c[4], c[5])
	}
}

// Validate refuses counts past the buffers they index.
func (f *FDC) Validate() error {
	if f.Taken < 0 || f.Taken >= len(f.Command) || f.Results < 0 || f.Results > len(f.Result) || f.Given < 0 || f.Given > f.Results {
		return fmt.Errorf("taken %d, given %d, results %d: taken runs 0 to %d, results 0 to %d, given 0 to results",
			f.Taken, f.Given, f.Results, len(f.Command)-1, len(f.Result))
	}
	return nil
}
