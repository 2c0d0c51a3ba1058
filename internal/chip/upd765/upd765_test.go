package upd765

import (
	"bytes"
	"fmt"
	"testing"

	"colophon/internal/media/dsk"
	"colophon/internal/media/dsk/dsktest"
)

// A bench is a controller with two drives and a processor that talks to
// it as AMSDOS does: it reads the main status register every poll ticks,
// and writes or reads the data register once it says so.
type bench struct {
	t    *testing.T
	f    *FDC
	now  uint64
	poll uint64 // ticks between two looks at the main status register
}

func newBench(t *testing.T) *bench {
	b := &bench{t: t, f: &FDC{}, poll: 32}
	b.f.Reset(2)
	// AMSDOS's SPECIFY: SRT 12 ms, HUT 32 ms, HLT 4 ms at 4 MHz, non-DMA.
	b.cmd(0x03, 0xA1, 0x03)
	return b
}

// disc lays a DSK file out.
func disc(t *testing.T, file []byte) dsk.Disc {
	t.Helper()
	d, err := dsk.Read(file)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// wait lets n ticks pass.
func (b *bench) wait(n uint64) { b.now += n }

// msr reads the main status register.
func (b *bench) msr() byte { return b.f.MainStatus(b.now) }

// until reads the main status register until it shows want under mask,
// for at most limit ticks.
func (b *bench) until(mask, want byte, limit uint64) bool {
	end := b.now + limit
	for b.now < end {
		if b.msr()&mask == want {
			return true
		}
		b.wait(b.poll)
	}
	return false
}

// cmd writes a command, each byte once the controller asks for it.
func (b *bench) cmd(bytes ...byte) {
	b.t.Helper()
	for i, v := range bytes {
		if !b.until(RQM|DIO, RQM, 1000) {
			b.t.Fatalf("command % X: byte %d not asked for: main status &%02X", bytes, i, b.msr())
		}
		b.f.Write(b.now, v)
		b.wait(b.poll)
	}
}

// results reads the result phase whole.
func (b *bench) results() []byte {
	b.t.Helper()
	var out []byte
	if !b.until(RQM|DIO|EXM, RQM|DIO, 10*Revolution) {
		b.t.Fatalf("no result phase: main status &%02X", b.msr())
	}
	for b.msr()&(RQM|DIO) == RQM|DIO {
		out = append(out, b.f.Read(b.now))
		b.wait(b.poll)
	}
	return out
}

// readData reads the execution phase's bytes until the result phase.
func (b *bench) readData() []byte {
	var out []byte
	for {
		m := b.msr()
		switch {
		case m&(RQM|DIO|EXM) == RQM|DIO|EXM:
			out = append(out, b.f.Read(b.now))
		case m&EXM == 0:
			return out
		}
		b.wait(b.poll)
	}
}

// writeData gives the execution phase the bytes it asks for, from data,
// until the result phase.
func (b *bench) writeData(data []byte) int {
	n := 0
	for {
		m := b.msr()
		switch {
		case m&(RQM|DIO|EXM) == RQM|EXM:
			b.f.Write(b.now, data[n%len(data)])
			n++
		case m&EXM == 0:
			return n
		}
		b.wait(b.poll)
	}
}

// ready turns the motor on and lets a disc come ready.
func (b *bench) ready() {
	b.f.SetMotor(b.now, true)
	b.wait(3*Revolution + pollPeriod)
	b.drain()
}

// drain takes every interrupt the controller holds.
func (b *bench) drain() {
	for range 8 {
		b.cmd(0x08)
		if r := b.results(); len(r) == 1 {
			return
		}
	}
}

// seek seeks a unit to a cylinder and senses its end.
func (b *bench) seek(unit, cyl byte) []byte {
	b.t.Helper()
	b.cmd(0x0F, unit, cyl)
	b.until(1<<unit, 0, 0) // nothing: the seek runs on
	for range 1000 {
		b.wait(Revolution / 100)
		b.cmd(0x08)
		r := b.results()
		if len(r) == 2 && r[0]&3 == unit && r[0]&0x20 != 0 {
			return r
		}
	}
	b.t.Fatal("the seek never ended")
	return nil
}

// TestCommandsNoDrive holds the controller to the datasheet's command
// table, as it answers with no disc in its drives.
func TestCommandsNoDrive(t *testing.T) {
	for _, c := range []struct {
		name    string
		command []byte
		results []byte
	}{
		{"sense interrupt status with none pending", []byte{0x08}, []byte{0x80}},
		{"sense drive status: not ready, at track 0", []byte{0x04, 0x01}, []byte{0x11}},
		{"sense drive status, head 1, unit 2", []byte{0x04, 0x06}, []byte{0x16}},
		{"read data: not ready", []byte{0x46, 0x00, 0x05, 0x00, 0xC1, 0x02, 0xC9, 0x2A, 0xFF}, []byte{0x48, 0, 0, 0x05, 0x00, 0xC1, 0x02}},
		{"read ID: not ready", []byte{0x4A, 0x04}, []byte{0x4C, 0, 0, 0, 0, 0, 0}},
		{"version: invalid on a µPD765A", []byte{0x10}, []byte{0x80}},
		{"an invalid code", []byte{0x1F}, []byte{0x80}},
	} {
		b := newBench(t)
		b.cmd(c.command...)
		if got := b.results(); !bytes.Equal(got, c.results) {
			t.Errorf("%s: results % X, want % X", c.name, got, c.results)
		}
		if m := b.msr(); m != RQM {
			t.Errorf("%s: main status &%02X after, want idle &80", c.name, m)
		}
	}
}

// TestDT7ReadyAtThirdIndexPulse: a disc put in while the motor turns is
// ready at the third index pulse, 600 ms on; with the motor started after,
// at its third pulse since; and not ready the moment the motor stops.
func TestDT7ReadyAtThirdIndexPulse(t *testing.T) {
	b := newBench(t)
	b.f.SetMotor(b.now, true)
	in := b.now
	b.f.Insert(in, 0, disc(t, dsktest.DATA()), false)
	ry := func() bool {
		b.cmd(0x04, 0x00)
		return b.results()[0]&st3Ready != 0
	}
	b.now = in + 3*Revolution - 200
	if ry() {
		t.Errorf("ready at %d ticks, before the third pulse", b.now-in)
	}
	b.now = in + 3*Revolution
	if !ry() {
		t.Errorf("not ready at the third pulse, 600 ms")
	}
	b.f.SetMotor(b.now, false)
	if ry() {
		t.Error("ready with the motor stopped")
	}
	// The disc stands where it stopped; started again, it is ready at
	// its third pulse.
	b.wait(Revolution / 4)
	b.f.SetMotor(b.now, true)
	start, angle := b.now, uint64(b.f.Units[0].Angle)
	third := start + (Revolution - angle) + 2*Revolution
	b.now = third - 100
	if ry() {
		t.Error("ready before the third pulse after the motor started")
	}
	b.now = third
	if !ry() {
		t.Error("not ready at the third pulse after the motor started")
	}
}

// TestPollingReadyChange: the ready line's change is polled and reported
// by SENSE INTERRUPT STATUS, IC 11, for units 0 and 2, which a board that
// wires US0 alone reaches the same drive by.
func TestPollingReadyChange(t *testing.T) {
	b := newBench(t)
	b.f.Insert(b.now, 0, disc(t, dsktest.DATA()), false)
	b.f.SetMotor(b.now, true)
	b.wait(3*Revolution + pollPeriod)
	var got []byte
	for range 3 {
		b.cmd(0x08)
		got = append(got, b.results()...)
	}
	if want := []byte{0xC0, 0, 0xC2, 0, 0x80}; !bytes.Equal(got, want) {
		t.Errorf("interrupts % X, want % X", got, want)
	}
	b.f.SetMotor(b.now, false)
	b.wait(pollPeriod)
	b.cmd(0x08)
	if r := b.results(); !bytes.Equal(r, []byte{0xC8, 0}) {
		t.Errorf("the motor stopped: % X, want C8 00", r)
	}
}

// TestSeekAndRecalibrate: a seek steps at the Specify's rate, SRT 12 ms a
// step at 4 MHz, with the unit's busy bit set until its end is sensed; a
// recalibrate from past 77 cylinders gives up with EC and reaches track 0
// when asked again (µPD765, Seek and Recalibrate).
func TestSeekAndRecalibrate(t *testing.T) {
	b := newBench(t)
	b.f.Insert(b.now, 1, disc(t, dsktest.DATA()), false)
	b.ready()
	start := b.now
	b.cmd(0x0F, 0x01, 10)
	if b.msr()&0x02 == 0 {
		t.Error("drive 1's busy bit is not set during its seek")
	}
	// Ten pulses 12 ms apart, the first at once; the end a step after the
	// last, when the controller looks again.
	b.now = start + 10*12*4000 - 1
	b.cmd(0x08)
	if r := b.results(); !bytes.Equal(r, []byte{0x80}) {
		t.Errorf("seek ended early: % X", r)
	}
	b.now = start + 10*12*4000 + 200
	b.cmd(0x08)
	if r := b.results(); !bytes.Equal(r, []byte{0x21, 10}) || b.f.Units[1].Head != 10 {
		t.Errorf("seek: % X, head %d", r, b.f.Units[1].Head)
	}
	if b.msr()&0x02 != 0 {
		t.Error("the busy bit stays once sensed")
	}
	b.seek(1, 80)
	b.cmd(0x07, 0x01)
	b.wait(78 * 12 * 4000)
	b.cmd(0x08)
	if r := b.results(); !bytes.Equal(r, []byte{0x71, 0}) || b.f.Units[1].Head != 3 {
		t.Errorf("recalibrate from 80: % X, head %d; want 71 00 and head 3", r, b.f.Units[1].Head)
	}
	b.cmd(0x07, 0x01)
	b.wait(5 * 12 * 4000)
	b.cmd(0x08)
	if r := b.results(); !bytes.Equal(r, []byte{0x21, 0}) || b.f.Units[1].Head != 0 {
		t.Errorf("recalibrate again: % X, head %d", r, b.f.Units[1].Head)
	}
	// With no disc and the motor off, the head steps all the same, and
	// the end says not ready.
	r := b.seek(0, 5)
	if !bytes.Equal(r, []byte{0x68, 5}) || b.f.Units[0].Head != 5 {
		t.Errorf("seek with no disc: % X, head %d", r, b.f.Units[0].Head)
	}
}

// readCmd is READ DATA of one sector, as AMSDOS asks it.
func readCmd(unit, c, r byte) []byte { return []byte{0x46, unit, c, 0, r, 2, r, 0x2A, 0xFF} }

// TestReadData reads a sector byte by byte, each 32 µs after the last,
// and ends with EN at EOT, as a CPC's reads end with no terminal count; the
// ID register is left at the sector read, as a real CPC's is (nextSector).
func TestReadData(t *testing.T) {
	b := newBench(t)
	f := dsktest.DATA()
	want := bytes.Repeat([]byte{0xE5}, 512)
	// Put a pattern in track 0's sector C3.
	d := disc(t, f)
	s := d.Track(0, 0).Sector(4)
	if s.R != 0xC3 {
		t.Fatalf("sector 4 of track 0 is &%02X", s.R)
	}
	for i := range 512 {
		d.Write(s, i, byte(i*7))
		want[i] = byte(i * 7)
	}
	b.f.Insert(b.now, 0, d, false)
	b.ready()
	b.poll = 4
	b.cmd(readCmd(0, 0, 0xC3)...)
	var times []uint64
	var got []byte
	for b.msr()&EXM != 0 {
		if b.msr()&(RQM|DIO) == RQM|DIO {
			times = append(times, b.now)
			got = append(got, b.f.Read(b.now))
		}
		b.wait(b.poll)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("read %d bytes, not the sector", len(got))
	}
	for i := 1; i < len(times); i++ {
		if times[i]-times[i-1] != 128 {
			t.Fatalf("byte %d came %d ticks after the one before, not 32 µs", i, times[i]-times[i-1])
		}
	}
	if r := b.results(); !bytes.Equal(r, []byte{0x40, 0x80, 0, 0, 0, 0xC3, 2}) {
		t.Errorf("results % X, want 40 80 00 00 00 C3 02", r)
	}
	// A sector that is not there: ND after the index has passed twice.
	b.cmd(readCmd(0, 0, 0xCA)...)
	if r := b.results(); !bytes.Equal(r, []byte{0x40, 0x04, 0, 0, 0, 0xCA, 2}) {
		t.Errorf("no such sector: % X", r)
	}
	// A sector of another cylinder: ND with WC.
	b.cmd(readCmd(0, 5, 0xC1)...)
	if r := b.results(); !bytes.Equal(r, []byte{0x40, 0x04, 0x10, 5, 0, 0xC1, 2}) {
		t.Errorf("wrong cylinder: % X", r)
	}
}

// TestOverrun: a processor too slow for the disc is left behind with OR;
// but one that misses a sector's last byte alone is not, on a µPD765A
// ("Overrun bit").
func TestOverrun(t *testing.T) {
	b := newBench(t)
	b.f.Insert(b.now, 0, disc(t, dsktest.DATA()), false)
	b.ready()
	b.cmd(readCmd(0, 0, 0xC1)...)
	for b.msr()&(RQM|DIO) != RQM|DIO {
		b.wait(4)
	}
	b.f.Read(b.now)
	b.wait(mfmByte + mfmService + 10)
	if r := b.results(); !bytes.Equal(r, []byte{0x40, 0x10, 0, 0, 0, 0xC1, 2}) {
		t.Errorf("overrun: % X", r)
	}
	b.poll = 4
	b.cmd(readCmd(0, 0, 0xC1)...)
	n := 0
	for b.msr()&EXM != 0 {
		if b.msr()&(RQM|DIO) == RQM|DIO && n < 511 {
			b.f.Read(b.now)
			n++
		}
		b.wait(b.poll)
	}
	if r := b.results(); !bytes.Equal(r, []byte{0x40, 0x80, 0, 0, 0, 0xC1, 2}) {
		t.Errorf("the last byte missed: % X", r)
	}
}

// TestDT5WriteAndProtect writes a sector and reads it back; the disc
// records that it was written; a disc put in with its tab set reports it
// and takes no write nor format, NW (DT-5).
func TestDT5WriteAndProtect(t *testing.T) {
	b := newBench(t)
	b.f.Insert(b.now, 0, disc(t, dsktest.DATA()), false)
	b.ready()
	data := make([]byte, 512)
	for i := range data {
		data[i] = byte(i ^ 0x5A)
	}
	b.poll = 8
	b.cmd(0x45, 0, 0, 0, 0xC5, 2, 0xC5, 0x2A, 0xFF)
	if n := b.writeData(data); n != 512 {
		t.Errorf("wrote %d bytes", n)
	}
	if r := b.results(); !bytes.Equal(r, []byte{0x40, 0x80, 0, 0, 0, 0xC5, 2}) {
		t.Errorf("write: % X", r)
	}
	if !b.f.Written(0) {
		t.Error("the disc does not say it was written")
	}
	b.cmd(readCmd(0, 0, 0xC5)...)
	if got := b.readData(); !bytes.Equal(got, data) {
		t.Error("the sector written reads back otherwise")
	}
	b.results()

	b.f.Insert(b.now, 0, disc(t, dsktest.DATA()), true)
	b.ready()
	b.cmd(0x04, 0x00)
	if r := b.results(); r[0]&st3WriteProtect == 0 {
		t.Errorf("sense drive status: &%02X, no WP", r[0])
	}
	b.cmd(0x45, 0, 0, 0, 0xC5, 2, 0xC5, 0x2A, 0xFF)
	if r := b.results(); !bytes.Equal(r, []byte{0x40, 0x02, 0, 0, 0, 0xC5, 2}) {
		t.Errorf("write to a protected disc: % X", r)
	}
	b.cmd(0x4D, 0, 2, 9, 0x52, 0xE5)
	if r := b.results(); r[0] != 0x40 || r[1] != 0x02 {
		t.Errorf("format of a protected disc: % X", r)
	}
	if b.f.Written(0) {
		t.Error("the protected disc was written")
	}
}

// TestReadID reads the next ID to pass the head; on a track with none it
// ends with MA and ND once the index has passed twice.
func TestReadID(t *testing.T) {
	b := newBench(t)
	b.f.Insert(b.now, 0, disc(t, dsktest.DATA()), false)
	b.ready()
	b.cmd(0x4A, 0)
	r := b.results()
	if r[0] != 0 || r[1] != 0 || r[3] != 0 || r[5] < 0xC1 || r[5] > 0xC9 || r[6] != 2 {
		t.Errorf("read ID: % X", r)
	}
	b.seek(0, 41)
	start := b.now
	b.cmd(0x4A, 0)
	if r := b.results(); !bytes.Equal(r, []byte{0x40, 0x05, 0, 0, 0, r[5], 2}) {
		t.Errorf("read ID on an unformatted track: % X", r)
	}
	if took := b.now - start; took < Revolution || took > 2*Revolution+20000 {
		t.Errorf("gave up after %d ticks", took)
	}
}

// TestDT4FormatAndReadBack formats a track the image never had, and one it
// had, sector IDs given in the execution phase, and reads them back; the
// format ends at the index hole a revolution after it began.
func TestDT4FormatAndReadBack(t *testing.T) {
	b := newBench(t)
	b.f.Insert(b.now, 0, disc(t, dsktest.DATA()), false)
	b.ready()
	for _, cyl := range []byte{41, 3} {
		b.seek(0, cyl)
		b.poll = 16
		b.cmd(0x4D, 0, 2, 9, 0x52, 0xAA)
		var ids []byte
		for r := byte(0x41); r <= 0x49; r++ {
			ids = append(ids, cyl, 0, r, 2)
		}
		if n := b.writeData(ids); n != 36 {
			t.Errorf("cylinder %d: %d ID bytes taken", cyl, n)
		}
		if r := b.results(); r[0] != 0 || r[1] != 0 || r[2] != 0 {
			t.Errorf("format: % X", r)
		}
		b.cmd(0x46, 0, cyl, 0, 0x45, 2, 0x45, 0x2A, 0xFF)
		if got := b.readData(); !bytes.Equal(got, bytes.Repeat([]byte{0xAA}, 512)) {
			t.Errorf("cylinder %d: sector &45 reads %d bytes", cyl, len(got))
		}
		b.results()
		if tr := b.f.Units[0].Disc.Track(int(cyl), 0); tr.Sectors() != 9 {
			t.Errorf("cylinder %d has %d sectors", cyl, tr.Sectors())
		}
	}
}

// TestReadTrack reads every sector of a track from the index in the order
// they lie, whatever their IDs.
func TestReadTrack(t *testing.T) {
	b := newBench(t)
	b.f.Insert(b.now, 0, disc(t, dsktest.DATA()), false)
	b.ready()
	b.poll = 8
	b.cmd(0x42, 0, 0, 0, 0xC1, 2, 9, 0x2A, 0xFF)
	if got := b.readData(); len(got) != 9*512 {
		t.Errorf("read %d bytes", len(got))
	}
	if r := b.results(); r[0] != 0x40 || r[1] != 0x84 {
		t.Errorf("read track: % X; want ST0 40, ST1 84 (EN, and ND for the IDs that are not C1 on)", r)
	}
}

// TestScan compares sectors with the processor's bytes, &FF matching
// anything (µPD765, Scan Commands).
func TestScan(t *testing.T) {
	b := newBench(t)
	b.f.Insert(b.now, 0, disc(t, dsktest.DATA()), false)
	b.ready()
	b.poll = 8
	for _, c := range []struct {
		code byte
		give byte
		st2  byte
	}{
		{0x51, 0xE5, st2ScanHit},
		{0x51, 0xFF, st2ScanHit},
		{0x51, 0x00, st2ScanNot},
		{0x59, 0xF0, 0},
		{0x5D, 0xF0, st2ScanNot},
	} {
		b.cmd(c.code, 0, 0, 0, 0xC1, 2, 0xC2, 0x2A, 1)
		b.writeData([]byte{c.give})
		if r := b.results(); r[0]&0xC0 != 0 || r[2] != c.st2 {
			t.Errorf("scan &%02X with &%02X: % X, want ST2 &%02X", c.code, c.give, r, c.st2)
		}
	}
}

// TestWeakAndDeleted: a sector recorded in copies reads a copy at a time;
// a deleted sector is read with CM, or skipped with SK.
func TestWeakAndDeleted(t *testing.T) {
	weak := append(bytes.Repeat([]byte{1}, 512), bytes.Repeat([]byte{2}, 512)...)
	f := dsktest.Extended(1, 1, []dsktest.Track{{GAP3: 0x4E, Filler: 0xE5, Sectors: []dsktest.Sector{
		{R: 1, N: 2, ST1: 0x20, ST2: 0x20, Data: weak},
		{R: 2, N: 2, ST2: 0x40, Data: bytes.Repeat([]byte{3}, 512)},
		{R: 3, N: 2, Data: bytes.Repeat([]byte{4}, 512)},
	}}})
	b := newBench(t)
	b.f.Insert(b.now, 0, disc(t, f), false)
	b.ready()
	b.poll = 8
	for k := range 3 {
		b.cmd(0x46, 0, 0, 0, 1, 2, 1, 0x2A, 0xFF)
		got := b.readData()
		if len(got) != 512 || got[0] != byte(k%2+1) {
			t.Errorf("read %d of the weak sector: %d bytes of &%02X", k, len(got), got[0])
		}
		if r := b.results(); r[1] != 0x20 || r[2] != 0x20 {
			t.Errorf("the weak sector: % X, want DE and DD", r)
		}
	}
	b.cmd(0x46, 0, 0, 0, 2, 2, 3, 0x2A, 0xFF)
	if got := b.readData(); len(got) != 512 || got[0] != 3 {
		t.Errorf("the deleted sector read: %d bytes", len(got))
	}
	if r := b.results(); !bytes.Equal(r, []byte{0x00, 0, 0x40, 0, 0, 2, 2}) {
		t.Errorf("the deleted sector: % X", r)
	}
	b.cmd(0x66, 0, 0, 0, 2, 2, 3, 0x2A, 0xFF)
	if got := b.readData(); len(got) != 512 || got[0] != 4 {
		t.Errorf("with SK: %d bytes of &%02X, want sector 3's", len(got), got[0])
	}
	if r := b.results(); !bytes.Equal(r, []byte{0x40, 0x80, 0x40, 0, 0, 3, 2}) {
		t.Errorf("with SK: % X", r)
	}
}

// markedDisc is a track of four sectors, each filled with its own byte:
// R 1 and 3 recorded with a data address mark, R 2 and 4 with a deleted
// one, R 4's data with a bad CRC as well (DE and DD in its flags, SAMdisk's
// way of writing a data CRC error in a DSK).
func markedDisc(t *testing.T) dsk.Disc {
	fill := func(v byte) []byte { return bytes.Repeat([]byte{v}, 512) }
	return disc(t, dsktest.Extended(1, 1, []dsktest.Track{{GAP3: 0x4E, Filler: 0xE5, Sectors: []dsktest.Sector{
		{R: 1, N: 2, Data: fill(0x11)},
		{R: 2, N: 2, ST2: 0x40, Data: fill(0x22)},
		{R: 3, N: 2, Data: fill(0x33)},
		{R: 4, N: 2, ST1: 0x20, ST2: 0x60, Data: fill(0x44)},
	}}}))
}

// TestReadDeletedData holds READ DATA (&06) and READ DELETED DATA (&0C),
// with SK and without, to what the µPD765 datasheet gives them over
// sectors of either mark: the sectors transferred, each 512 bytes of its
// own fill, and the result. A sector of the mark asked for is read as
// READ DATA reads one; one of the other mark sets CM in ST2 ("if the FDC
// encounters a Sector which contains a Deleted Data Address Mark, this
// flag is set. Also set if DAM found during Read Deleted Data", Status
// Register 2). Without SK it is read whole and the command ends after it,
// normally, its ID register at that sector; with SK it is skipped, its
// data's CRC unchecked ("The CRC bits in the deleted data field are not
// checked when SK=1", Read Data), and the next sector is read (Read Data;
// Read Deleted Data: "If SK=1, then the FDC skips the sector with the
// Data Address Mark and reads the next sector"). A read that reaches EOT
// ends with EN, as every read on a CPC, which wires no terminal count, its
// ID register at the last sector (nextSector). Kevin Thacker's acid test
// (Arnold, fdc_write "write deleted data", run on a real CPC) reads a
// deleted sector at EOT so: READ DATA gives 00 00 40, no EN.
func TestReadDeletedData(t *testing.T) {
	const (
		readData    = 0x46 // MF, READ DATA
		readDeleted = 0x4C // MF, READ DELETED DATA
		sk          = 0x20
	)
	for _, c := range []struct {
		name    string
		code    byte
		r, eot  byte
		sectors []byte // the fill of each sector transferred, in order
		result  []byte
	}{
		{"READ DATA of a deleted sector: read whole, CM, ended there", readData, 2, 3,
			[]byte{0x22}, []byte{0x00, 0x00, 0x40, 0, 0, 2, 2}},
		{"READ DATA of a deleted sector with SK: skipped, CM, the next read", readData | sk, 2, 3,
			[]byte{0x33}, []byte{0x40, 0x80, 0x40, 0, 0, 3, 2}},
		{"READ DATA with SK over all four: the deleted ones skipped, R 4's bad CRC unchecked", readData | sk, 1, 4,
			[]byte{0x11, 0x33}, []byte{0x40, 0x80, 0x40, 0, 0, 4, 2}},
		{"READ DATA of a deleted sector with a bad CRC: CM, DE and DD", readData, 4, 4,
			[]byte{0x44}, []byte{0x40, 0x20, 0x60, 0, 0, 4, 2}},
		{"READ DATA of plain sectors: no CM", readData, 1, 1,
			[]byte{0x11}, []byte{0x40, 0x80, 0x00, 0, 0, 1, 2}},
		{"READ DELETED DATA of a deleted sector: no CM", readDeleted, 2, 2,
			[]byte{0x22}, []byte{0x40, 0x80, 0x00, 0, 0, 2, 2}},
		{"READ DELETED DATA of a plain sector: read whole, CM, ended there", readDeleted, 1, 2,
			[]byte{0x11}, []byte{0x00, 0x00, 0x40, 0, 0, 1, 2}},
		{"READ DELETED DATA with SK: the plain ones skipped, CM", readDeleted | sk, 1, 3,
			[]byte{0x22}, []byte{0x40, 0x80, 0x40, 0, 0, 3, 2}},
		{"READ DELETED DATA with SK over deleted sectors alone", readDeleted | sk, 4, 4,
			[]byte{0x44}, []byte{0x40, 0x20, 0x20, 0, 0, 4, 2}},
		{"READ DELETED DATA with SK over a plain sector alone: nothing read", readDeleted | sk, 3, 3,
			nil, []byte{0x40, 0x80, 0x40, 0, 0, 3, 2}},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := newBench(t)
			b.f.Insert(b.now, 0, markedDisc(t), false)
			b.ready()
			b.poll = 8
			b.cmd(c.code, 0, 0, 0, c.r, 2, c.eot, 0x2A, 0xFF)
			var want []byte
			for _, v := range c.sectors {
				want = append(want, bytes.Repeat([]byte{v}, 512)...)
			}
			if got := b.readData(); !bytes.Equal(got, want) {
				t.Errorf("transferred %d bytes % X…; want sectors % X", len(got), got[:min(len(got), 1)], c.sectors)
			}
			if r := b.results(); !bytes.Equal(r, c.result) {
				t.Errorf("results % X; want % X", r, c.result)
			}
		})
	}
}

// TestWriteDeletedData writes a sector with WRITE DELETED DATA (&09),
// which writes "a Deleted Data Address Mark ... at the beginning of the
// Data Field instead of the normal Data Address Mark" (µPD765, Write
// Deleted Data): the disc's flags for the sector say so, and so does the
// DSK file saved from it; READ DELETED DATA reads it back with no CM, READ
// DATA with CM. WRITE DATA over it writes a plain mark again.
func TestWriteDeletedData(t *testing.T) {
	b := newBench(t)
	b.f.Insert(b.now, 0, disc(t, dsktest.DATA()), false)
	b.ready()
	b.poll = 8
	data := make([]byte, 512)
	for i := range data {
		data[i] = byte(i * 3)
	}
	marked := func() bool {
		tr := b.f.Disc(0).Track(0, 0)
		for i := range tr.Sectors() {
			if s := tr.Sector(i); s.R == 0xC5 {
				return s.ST2&dsk.ST2ControlMark != 0
			}
		}
		t.Fatal("no sector &C5 on track 0")
		return false
	}
	b.cmd(0x49, 0, 0, 0, 0xC5, 2, 0xC5, 0x2A, 0xFF)
	if n := b.writeData(data); n != 512 {
		t.Errorf("wrote %d bytes", n)
	}
	if r := b.results(); !bytes.Equal(r, []byte{0x40, 0x80, 0, 0, 0, 0xC5, 2}) {
		t.Errorf("WRITE DELETED DATA: % X", r)
	}
	if !marked() {
		t.Error("the sector written has no deleted mark in its flags")
	}
	saved, err := dsk.Save(b.f.Disc(0))
	if err != nil {
		t.Fatal(err)
	}
	if s := disc(t, saved).Track(0, 0).Sector(8); s.R != 0xC5 || s.ST2&dsk.ST2ControlMark == 0 {
		t.Errorf("the saved DSK's sector &%02X has ST2 &%02X; want CM (&40)", s.R, s.ST2)
	}
	b.cmd(0x4C, 0, 0, 0, 0xC5, 2, 0xC5, 0x2A, 0xFF)
	if got := b.readData(); !bytes.Equal(got, data) {
		t.Errorf("READ DELETED DATA read %d bytes, not those written", len(got))
	}
	if r := b.results(); !bytes.Equal(r, []byte{0x40, 0x80, 0, 0, 0, 0xC5, 2}) {
		t.Errorf("READ DELETED DATA: % X; want no CM", r)
	}
	b.cmd(readCmd(0, 0, 0xC5)...)
	if got := b.readData(); !bytes.Equal(got, data) {
		t.Errorf("READ DATA read %d bytes, not those written", len(got))
	}
	if r := b.results(); !bytes.Equal(r, []byte{0x00, 0, 0x40, 0, 0, 0xC5, 2}) {
		t.Errorf("READ DATA: % X; want CM, ended at the sector", r)
	}
	b.cmd(0x45, 0, 0, 0, 0xC5, 2, 0xC5, 0x2A, 0xFF)
	b.writeData(data)
	b.results()
	if marked() {
		t.Error("WRITE DATA left the deleted mark")
	}
	b.cmd(readCmd(0, 0, 0xC5)...)
	b.readData()
	if r := b.results(); r[2] != 0 {
		t.Errorf("READ DATA after WRITE DATA: % X; want no CM", r)
	}
}

// TestMultiTrack reads on from side 0 to side 1 with MT on a disc of two
// sides, and ends at side 1's EOT with the head's LSB complemented and the
// next cylinder (µPD765, Table 6).
func TestMultiTrack(t *testing.T) {
	sector := func(h, r, v byte) dsktest.Sector {
		return dsktest.Sector{H: h, R: r, N: 2, Data: bytes.Repeat([]byte{v}, 512)}
	}
	f := dsktest.Extended(1, 2, []dsktest.Track{
		{Sectors: []dsktest.Sector{sector(0, 1, 0x10), sector(0, 2, 0x20)}},
		{Sectors: []dsktest.Sector{sector(1, 1, 0x30), sector(1, 2, 0x40)}},
	})
	b := newBench(t)
	b.f.Insert(b.now, 0, disc(t, f), false)
	b.ready()
	b.poll = 8
	b.cmd(0xC6, 0, 0, 0, 1, 2, 2, 0x2A, 0xFF)
	got := b.readData()
	if len(got) != 4*512 || got[0] != 0x10 || got[512] != 0x20 || got[1024] != 0x30 || got[1536] != 0x40 {
		t.Errorf("read %d bytes across the sides", len(got))
	}
	if r := b.results(); !bytes.Equal(r, []byte{0x44, 0x80, 0, 1, 0, 1, 2}) {
		t.Errorf("MT: % X", r)
	}
}

// TestReadyLostDuringRead: the motor stopped during a read ends it with IC
// 11 (µPD765, Status Register 0).
func TestReadyLostDuringRead(t *testing.T) {
	b := newBench(t)
	b.f.Insert(b.now, 0, disc(t, dsktest.DATA()), false)
	b.ready()
	b.cmd(readCmd(0, 0, 0xC9)...)
	b.wait(1000)
	b.f.SetMotor(b.now, false)
	if r := b.results(); r[0] != 0xC8 {
		t.Errorf("motor stopped during a read: % X", r)
	}
}

// TestPathIndependent: a controller run to a tick in one call stands as one
// looked at all the way there (the determinism the lazy run must keep).
func TestPathIndependent(t *testing.T) {
	run := func(look uint64) string {
		b := newBench(t)
		b.f.Insert(b.now, 0, disc(t, dsktest.DATA()), false)
		b.f.Insert(b.now, 1, disc(t, dsktest.DATA()), false)
		b.f.SetMotor(b.now, true)
		b.cmd(0x0F, 0x01, 7)
		end := b.now + 4*Revolution + 1234
		for b.now+look < end {
			b.wait(look)
			b.f.Run(b.now)
		}
		b.f.Run(end)
		return fmt.Sprintf("%+v", *b.f)
	}
	if a, c := run(1), run(3*Revolution); a != c {
		t.Errorf("looked at every tick:\n%s\nlooked at once:\n%s", a, c)
	}
}

// TestValidate holds set's range checks (IS-6).
func TestValidate(t *testing.T) {
	for _, c := range []struct {
		name string
		set  func(f *FDC)
	}{
		{"taken", func(f *FDC) { f.Taken = 9 }},
		{"results", func(f *FDC) { f.Results = 8 }},
		{"given", func(f *FDC) { f.Results, f.Given = 2, 3 }},
		{"unit", func(f *FDC) { f.Unit = 4 }},
		{"count", func(f *FDC) { f.Length, f.Count = 10, 11 }},
		{"length", func(f *FDC) { f.Length = maxLength + 1 }},
		{"stage", func(f *FDC) { f.Stage = stages }},
		{"head", func(f *FDC) { f.Units[1].Head = dsk.MaxCylinders }},
		{"angle", func(f *FDC) { f.Units[0].Angle = Revolution }},
	} {
		f := &FDC{}
		f.Reset(2)
		if err := f.Validate(); err != nil {
			t.Fatal(err)
		}
		c.set(f)
		if err := f.Validate(); err == nil {
			t.Errorf("%s: accepted", c.name)
		}
	}
}

// BenchmarkReadSector reads a sector as AMSDOS does, the processor looking
// at the main status register every 4 µs and taking each byte as it comes:
// the cost of the controller's part of a disc load, each op one sector's
// 512 bytes and the looks between (docs/performance.md, "Discs").
func BenchmarkReadSector(b *testing.B) {
	t := &testing.T{}
	bench := newBench(t)
	bench.f.Insert(bench.now, 0, disc(t, dsktest.DATA()), false)
	bench.ready()
	bench.poll = 16
	calls := 0
	for b.Loop() {
		bench.cmd(readCmd(0, 0, 0xC1)...)
		for bench.f.MainStatus(bench.now)&EXM != 0 {
			calls++
			if bench.f.MainStatus(bench.now)&(RQM|DIO) == RQM|DIO {
				bench.f.Read(bench.now)
				calls++
			}
			calls++
			bench.wait(bench.poll)
		}
		bench.results()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(calls), "ns/call")
}
