package upd765

import (
	"bytes"
	"testing"
)

// TestCommands holds the controller to the µPD765 datasheet's command
// table, as a controller whose drives are never ready answers it.
func TestCommands(t *testing.T) {
	for _, c := range []struct {
		name    string
		command []byte
		results []byte
	}{
		{"specify, as AMSDOS gives it", []byte{0x03, 0xA1, 0x03}, nil},
		{"sense interrupt status with none pending", []byte{0x08}, []byte{0x80}},
		{"sense drive status: not ready", []byte{0x04, 0x01}, []byte{0x01}},
		{"read data: not ready", []byte{0x46, 0x00, 0x05, 0x00, 0xC1, 0x02, 0xC9, 0x2A, 0xFF}, []byte{0x48, 0, 0, 0x05, 0x00, 0xC1, 0x02}},
		{"read ID", []byte{0x4A, 0x00}, []byte{0x48, 0, 0, 0, 0, 0, 0}},
		{"an invalid code", []byte{0x1F}, []byte{0x80}},
	} {
		f := &FDC{}
		f.Reset()
		for i, b := range c.command {
			if f.MainStatus()&(RQM|DIO) != RQM {
				t.Fatalf("%s: byte %d: main status &%02X, not ready to take it", c.name, i, f.MainStatus())
			}
			f.Write(b)
		}
		var got []byte
		for f.MainStatus()&DIO != 0 {
			got = append(got, f.Read())
		}
		if !bytes.Equal(got, c.results) {
			t.Errorf("%s: results % X, want % X", c.name, got, c.results)
		}
		if f.MainStatus() != RQM {
			t.Errorf("%s: main status &%02X after, want idle &80", c.name, f.MainStatus())
		}
	}
}

// TestSeekNotReady holds a recalibrate on a drive that is not ready to its
// interrupt and the sense that reports it.
func TestSeekNotReady(t *testing.T) {
	f := &FDC{}
	f.Reset()
	f.Write(0x07)
	f.Write(0x00)
	if f.MainStatus() != RQM {
		t.Fatalf("recalibrate has a result phase: main status &%02X", f.MainStatus())
	}
	f.Write(0x08)
	if st0, pcn := f.Read(), f.Read(); st0 != 0x68 || pcn != 0 {
		t.Errorf("sense interrupt status: ST0 &%02X PCN %d, want &68 and 0", st0, pcn)
	}
}
