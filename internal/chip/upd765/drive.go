package upd765

import (
	"fmt"

	"colophon/internal/media/dsk"
)

// A Unit is a drive: the disc it holds, its motor, its head's cylinder, and
// where the disc stands in its turn.
type Unit struct {
	// Disc is the disc in the drive, laid out in its buffer, which a host
	// keeps as a buffer of its own; none where Disc.Image is empty.
	Disc dsk.Disc `inspect:"-"`
	// WriteProtect is the disc's tab, which the drive reports on its WP
	// line; the controller then writes and formats nothing on it.
	WriteProtect bool `inspect:"write_protect"`
	// Motor is the drive's motor line.
	Motor bool `inspect:"motor"`
	// Head is the cylinder the head stands over, 0 to 83: it steps no
	// further than an 80-track drive's last (dsk.MaxCylinders).
	Head uint8 `inspect:"head"`
	// Angle is the ticks since the index hole last passed the sensor,
	// below a Revolution; the disc turns only while the motor does.
	Angle uint32 `inspect:"angle"`
	// Pulses counts the index pulses since the disc went in or the motor
	// started, up to 3, at which the drive is ready.
	Pulses uint8 `inspect:"pulses"`
	// Written is set once the controller writes to the disc.
	Written bool `inspect:"written"`
	// Weak counts the reads of sectors recorded in several copies, each
	// read giving the next copy.
	Weak uint8 `inspect:"weak"`
}

// Ready reports the drive's ready line: a disc in, the motor turning, and
// the third index pulse come since either began (spec, "Discs and tapes";
// CPCWiki "765 FDC").
func (u *Unit) Ready() bool { return u.Disc.In() && u.Motor && u.Pulses >= readyPulses }

// Track0 reports the drive's track 0 line.
func (u *Unit) Track0() bool { return u.Head == 0 }

// TwoSided reports the drive's two-side line: a disc of two sides, which
// the drive reads with two heads. A disc of one side is read by one head,
// whatever side the controller selects.
func (u *Unit) TwoSided() bool { return u.Disc.In() && u.Disc.Sides() == 2 }

// side is the side of the disc the head a command selects reads.
func (u *Unit) side(hd uint8) int {
	if u.TwoSided() {
		return int(hd & 1)
	}
	return 0
}

// track is the track under the head selected.
func (u *Unit) track(hd uint8) dsk.Track { return u.Disc.Track(int(u.Head), u.side(hd)) }

// setMotor starts or stops the motor; a drive counts its index pulses
// afresh each time the motor starts, and is not ready while it stops.
func (u *Unit) setMotor(on bool) {
	if on != u.Motor {
		u.Pulses = 0
	}
	u.Motor = on
}

// turn turns the disc for d ticks, counting the index pulses.
func (u *Unit) turn(d uint64) {
	if !u.Motor || !u.Disc.In() {
		return
	}
	total := uint64(u.Angle) + d
	if total < Revolution {
		u.Angle = uint32(total)
		return
	}
	u.Pulses = uint8(min(uint64(readyPulses), uint64(u.Pulses)+total/Revolution))
	u.Angle = uint32(total % Revolution)
}

// readyAt is the tick at which the drive, standing as it does at tick at,
// becomes ready if it goes on turning: at itself where it is ready, and
// never where it does not turn.
func (u *Unit) readyAt(at uint64) uint64 {
	switch {
	case u.Ready():
		return at
	case !u.Motor || !u.Disc.In():
		return ^uint64(0)
	}
	return at + uint64(Revolution-u.Angle) + uint64(readyPulses-1-u.Pulses)*Revolution
}

// untilIndex is the ticks until the index hole next passes, a revolution
// where it has just passed.
func (u *Unit) untilIndex() uint64 { return uint64(Revolution - u.Angle) }

// step moves the head a cylinder in or out, no further than its stops.
func (u *Unit) step(in bool) {
	switch {
	case in && u.Head < dsk.MaxCylinders-1:
		u.Head++
	case !in && u.Head > 0:
		u.Head--
	}
}

// Validate refuses a drive set where the controller could not use it.
func (u *Unit) Validate() error {
	switch {
	case u.Head >= dsk.MaxCylinders:
		return fmt.Errorf("head is %d; a head stands over cylinder 0 to %d", u.Head, dsk.MaxCylinders-1)
	case u.Angle >= Revolution:
		return fmt.Errorf("angle is %d; a revolution is 0 to %d ticks", u.Angle, Revolution-1)
	case u.Pulses > readyPulses:
		return fmt.Errorf("pulses is %d; the drive counts 0 to %d", u.Pulses, readyPulses)
	}
	return nil
}
