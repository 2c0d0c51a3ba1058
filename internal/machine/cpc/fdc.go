package cpc

import (
	"fmt"

	"colophon/internal/machine"
	"colophon/internal/media/dsk"
)

// The disc interface of the 664 and 6128: a µPD765A with US0 alone wired,
// so that its units 2 and 3 are drives A and B again, and the motor
// flip-flop at &FA7E that turns both drives' motors (cpctech, "Floppy disc
// controller"; CPCWiki, "765 FDC": "It is not possible to turn on/off the
// motor of a specific drive separately"). The controller's INT and its
// terminal count are not wired: the processor polls it, and its reads and
// writes end at their EOT.

// Drives is the number of drives the disc interface has: A and B.
const Drives = 2

// fdcWrite and fdcRead reach the disc controller at the tick of the
// access: A0 low its main status register, high its data register.
func (m *CPC) fdcWrite(a0 uint16, v byte, at uint64) {
	if a0 == 1 {
		m.FDC.Write(at, v)
	}
}

func (m *CPC) fdcRead(a0 uint16, at uint64) byte {
	if a0 == 0 {
		return m.FDC.MainStatus(at)
	}
	return m.FDC.Read(at)
}

// motor sets the motor flip-flop at the tick of the access.
func (m *CPC) motor(on bool, at uint64) {
	m.Motor = on
	m.FDC.SetMotor(at, on)
}

// InsertDisc puts a disc in drive A (0) or B (1) at the machine's tick, from
// a DSK image of either layout, with its write-protect tab set or not; the
// disc in the drive before comes out, and what the machine wrote to it with
// it (spec, "Discs and tapes"; DT-3, DT-5, DT-6). The image is copied: the
// machine writes to its own copy alone (DT-2).
func (m *CPC) InsertDisc(drive int, image []byte, protect bool) error {
	if !m.disc {
		return fmt.Errorf("a %s has no disc interface, and none can be fitted", m.Model)
	}
	if drive < 0 || drive >= Drives {
		return fmt.Errorf("drive %d: a %s has drives A and B, 0 and 1", drive, m.Model)
	}
	d, err := dsk.Read(image)
	if err != nil {
		return err
	}
	m.FDC.Insert(m.CPU.Tick, drive, d, protect)
	return nil
}

var _ machine.Discs = (*CPC)(nil)

// SaveDisc writes the disc in drive A (0) or B (1) as it stands at the
// machine's tick, as an extended DSK naming this emulator its creator, and
// says whether the machine has written to it since it went in (DT-9,
// DT-10, DT-11).
func (m *CPC) SaveDisc(drive int) ([]byte, bool, error) {
	if !m.disc {
		return nil, false, fmt.Errorf("a %s has no disc interface", m.Model)
	}
	if drive < 0 || drive >= Drives {
		return nil, false, fmt.Errorf("drive %d: a %s has drives A and B, 0 and 1", drive, m.Model)
	}
	d := m.FDC.Disc(drive)
	if !d.In() {
		return nil, false, fmt.Errorf("drive %c holds no disc", 'A'+drive)
	}
	b, err := dsk.Save(d)
	if err != nil {
		return nil, false, err
	}
	return b, m.FDC.Written(drive), nil
}
