package sna

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// cpcSample is a snapshot whose every field holds a byte of its own, so
// that a field written at the wrong offset shows.
func cpcSample(ramSize int) *CPCSnapshot {
	s := &CPCSnapshot{
		Version: 1,
		Model:   3,
		CPU: CPCProcessor{
			A: 0x01, F: 0x02, B: 0x03, C: 0x04, D: 0x05, E: 0x06, H: 0x07, L: 0x08,
			A_: 0x11, F_: 0x12, B_: 0x13, C_: 0x14, D_: 0x15, E_: 0x16, H_: 0x17, L_: 0x18,
			IX: 0x2122, IY: 0x2324, SP: 0x2526, PC: 0x2728,
			I: 0x29, R: 0x2A, IFF1: true, IFF2: false, IM: 2,
		},
		GateArray: CPCGateArray{Pen: 0x10, MultiConfig: 0x8D},
		RAMConfig: 0x05,
		UpperROM:  0x07,
		CRTC:      CPCCRTC{Selected: 0x0C},
		PPI:       CPCPPI{A: 0x31, B: 0x32, C: 0x33, Control: 0x82},
		PSG:       CPCPSG{Selected: 0x0E, ChipSelected: true},
		RAM:       make([]byte, ramSize),
	}
	for i := range s.GateArray.Inks {
		s.GateArray.Inks[i] = byte(0x40 + i)
	}
	for i := range s.CRTC.Registers {
		s.CRTC.Registers[i] = byte(0x50 + i)
	}
	for i := range s.PSG.Registers {
		s.PSG.Registers[i] = byte(0x70 + i)
	}
	for i := range s.RAM {
		s.RAM[i] = byte(i*7 + i>>16)
	}
	return s
}

// TestSNAHeaderOffsets holds every field written to the offset cpctech's
// "Snapshot file format" gives it in version 1 (SNA-1).
func TestSNAHeaderOffsets(t *testing.T) {
	b, err := WriteCPC(cpcSample(0x10000))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		at   int
		what string
		want []byte
	}{
		{0x00, "identification string", []byte("MV - SNA")},
		{0x08, "not used", make([]byte, 8)},
		{0x10, "snapshot version", []byte{1}},
		{0x11, "F", []byte{0x02}}, {0x12, "A", []byte{0x01}},
		{0x13, "C", []byte{0x04}}, {0x14, "B", []byte{0x03}},
		{0x15, "E", []byte{0x06}}, {0x16, "D", []byte{0x05}},
		{0x17, "L", []byte{0x08}}, {0x18, "H", []byte{0x07}},
		{0x19, "R", []byte{0x2A}}, {0x1A, "I", []byte{0x29}},
		{0x1B, "IFF0 (our IFF1)", []byte{1}}, {0x1C, "IFF1 (our IFF2)", []byte{0}},
		{0x1D, "IX low, high", []byte{0x22, 0x21}},
		{0x1F, "IY low, high", []byte{0x24, 0x23}},
		{0x21, "SP low, high", []byte{0x26, 0x25}},
		{0x23, "PC low, high", []byte{0x28, 0x27}},
		{0x25, "interrupt mode", []byte{2}},
		{0x26, "F'", []byte{0x12}}, {0x27, "A'", []byte{0x11}},
		{0x28, "C'", []byte{0x14}}, {0x29, "B'", []byte{0x13}},
		{0x2A, "E'", []byte{0x16}}, {0x2B, "D'", []byte{0x15}},
		{0x2C, "L'", []byte{0x18}}, {0x2D, "H'", []byte{0x17}},
		{0x2E, "GA selected pen", []byte{0x10}},
		{0x2F, "GA palette, pens 0-15 then border", []byte{
			0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48,
			0x49, 0x4A, 0x4B, 0x4C, 0x4D, 0x4E, 0x4F, 0x50}},
		{0x40, "GA multi configuration", []byte{0x8D}},
		{0x41, "RAM configuration", []byte{0x05}},
		{0x42, "CRTC selected register", []byte{0x0C}},
		{0x43, "CRTC registers 0-17", []byte{
			0x50, 0x51, 0x52, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58,
			0x59, 0x5A, 0x5B, 0x5C, 0x5D, 0x5E, 0x5F, 0x60, 0x61}},
		{0x55, "ROM selection", []byte{0x07}},
		{0x56, "PPI port A", []byte{0x31}},
		{0x57, "PPI port B", []byte{0x32}},
		{0x58, "PPI port C", []byte{0x33}},
		{0x59, "PPI control", []byte{0x82}},
		{0x5A, "PSG selected register", []byte{0x0E}},
		{0x5B, "PSG registers 0-15", []byte{
			0x70, 0x71, 0x72, 0x73, 0x74, 0x75, 0x76, 0x77,
			0x78, 0x79, 0x7A, 0x7B, 0x7C, 0x7D, 0x7E, 0x7F}},
		{0x6B, "memory dump size in K", []byte{64, 0}},
		{0x6D, "not used", make([]byte, 0x100-0x6D)},
	}
	for _, tt := range tests {
		if got := b[tt.at : tt.at+len(tt.want)]; !bytes.Equal(got, tt.want) {
			t.Errorf("&%02X %s = % X, want % X", tt.at, tt.what, got, tt.want)
		}
	}
}

// TestSNA5RAMWhole: the RAM follows the 256-byte header whole, by its own
// addresses, 64K or 128K, and the dump size says which (SNA-5).
func TestSNA5RAMWhole(t *testing.T) {
	for _, size := range []int{0x10000, 0x20000} {
		s := cpcSample(size)
		b, err := WriteCPC(s)
		if err != nil {
			t.Fatal(err)
		}
		if len(b) != 256+size {
			t.Errorf("%dK: file of %d bytes, want %d", size/1024, len(b), 256+size)
		}
		if !bytes.Equal(b[256:], s.RAM) {
			t.Errorf("%dK: the RAM after the header is not the RAM", size/1024)
		}
		if kb := binary.LittleEndian.Uint16(b[0x6B:]); int(kb) != size/1024 {
			t.Errorf("%dK: dump size %d", size/1024, kb)
		}
	}
}

// TestSNA1RoundTrip: a snapshot written and read back is the one written.
func TestSNA1RoundTrip(t *testing.T) {
	for _, size := range []int{0x10000, 0x20000} {
		for _, selected := range []bool{true, false} {
			s := cpcSample(size)
			s.PSG.ChipSelected = selected
			b, err := WriteCPC(s)
			if err != nil {
				t.Fatal(err)
			}
			got, err := ReadCPC(b)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, s) {
				t.Errorf("%dK, PSG selected %v: read back %+v\nwant %+v", size/1024, selected, got, s)
			}
		}
	}
}

// TestSNA6UnselectedPSG: an unselected PSG is written at &5A as its
// selected register plus 16, and a byte above 15 there opens as an
// unselected chip with the register in its low four bits (SNA-6).
func TestSNA6UnselectedPSG(t *testing.T) {
	writes := []struct {
		selected byte
		chip     bool
		want     byte
	}{
		{0, true, 0x00}, {14, true, 0x0E}, {15, true, 0x0F},
		{0, false, 0x10}, {7, false, 0x17}, {15, false, 0x1F},
	}
	for _, tt := range writes {
		s := cpcSample(0x10000)
		s.PSG.Selected, s.PSG.ChipSelected = tt.selected, tt.chip
		b, err := WriteCPC(s)
		if err != nil {
			t.Fatal(err)
		}
		if b[0x5A] != tt.want {
			t.Errorf("register %d, chip selected %v: &5A = &%02X, want &%02X", tt.selected, tt.chip, b[0x5A], tt.want)
		}
	}
	reads := []struct {
		at       byte
		selected byte
		chip     bool
	}{
		{0x00, 0, true}, {0x0F, 15, true}, {0x10, 0, false}, {0x1E, 14, false},
		{0x25, 5, false}, {0xFF, 15, false},
	}
	for _, tt := range reads {
		b, _ := WriteCPC(cpcSample(0x10000))
		b[0x5A] = tt.at
		s, err := ReadCPC(b)
		if err != nil {
			t.Fatal(err)
		}
		if s.PSG.Selected != tt.selected || s.PSG.ChipSelected != tt.chip {
			t.Errorf("&5A = &%02X opens as register %d, chip selected %v; want %d, %v",
				tt.at, s.PSG.Selected, s.PSG.ChipSelected, tt.selected, tt.chip)
		}
	}
}

// TestSNAWritesVersion1: whatever version was read, version 1 is written,
// and the bytes the format leaves unused are zero.
func TestSNAWritesVersion1(t *testing.T) {
	s := cpcSample(0x10000)
	s.Version, s.Model = 3, 2
	s.V3 = &CPCSnapshotV3{CRTCType: 1, GAR52: 30}
	b, err := WriteCPC(s)
	if err != nil {
		t.Fatal(err)
	}
	if b[0x10] != 1 {
		t.Errorf("version written %d, want 1", b[0x10])
	}
	if !bytes.Equal(b[0x6D:0x100], make([]byte, 0x100-0x6D)) {
		t.Errorf("bytes &6D-&FF not zero: % X", b[0x6D:0x100])
	}
}

// withVersion makes a header of a later version from a version 1 one.
func withVersion(t *testing.T, s *CPCSnapshot, version byte) []byte {
	t.Helper()
	b, err := WriteCPC(s)
	if err != nil {
		t.Fatal(err)
	}
	b[0x10] = version
	return b
}

// TestSNAReadVersion2: version 2 adds the CPC type at &6D; the interrupt
// number and multimode bytes after it are CPCEMU's and are not read.
func TestSNAReadVersion2(t *testing.T) {
	b := withVersion(t, cpcSample(0x20000), 2)
	b[0x6D] = 2 // CPC6128
	b[0x6E] = 4
	s, err := ReadCPC(b)
	if err != nil {
		t.Fatal(err)
	}
	if s.Version != 2 || s.Model != 2 || s.V3 != nil {
		t.Errorf("version %d, model %d, v3 %v; want 2, 2, nil", s.Version, s.Model, s.V3)
	}
}

// TestSNAReadVersion3Header reads every field version 3 adds, at the
// offsets cpctech gives them.
func TestSNAReadVersion3Header(t *testing.T) {
	b := withVersion(t, cpcSample(0x10000), 3)
	set := map[int]byte{
		0x6D: 1, 0x9C: 1, 0x9D: 10, 0x9E: 11, 0x9F: 12, 0xA0: 13, 0xA1: 0x41,
		0xA4: 3, 0xA9: 0x2E, 0xAB: 0x1D, 0xAC: 0x07, 0xAD: 0x02, 0xAE: 0x05,
		0xAF: 0x09, 0xB0: 0x83, 0xB1: 0x00, 0xB2: 2, 0xB3: 51, 0xB4: 1,
	}
	for at, v := range set {
		b[at] = v
	}
	s, err := ReadCPC(b)
	if err != nil {
		t.Fatal(err)
	}
	want := &CPCSnapshotV3{
		FDCMotor: 1, FDDTracks: [4]byte{10, 11, 12, 13}, Printer: 0x41, CRTCType: 3,
		CRTCC0: 0x2E, CRTCC4: 0x1D, CRTCC9: 0x07, CRTCAdjust: 0x02, CRTCHSync: 0x05,
		CRTCVSync: 0x09, CRTCFlags: 0x0083, GAVSyncDelay: 2, GAR52: 51, IntRequest: 1,
	}
	if s.Model != 1 || !reflect.DeepEqual(s.V3, want) {
		t.Errorf("model %d, v3 %+v; want 1, %+v", s.Model, s.V3, want)
	}
}

// chunk makes a version 3 chunk.
func chunk(name string, data []byte) []byte {
	h := make([]byte, 8, 8+len(data))
	copy(h, name)
	binary.LittleEndian.PutUint32(h[4:], uint32(len(data)))
	return append(h, data...)
}

// pack codes 64K as a MEM chunk does (CPCWiki "Format:SNA snapshot file
// format"): a run of three or more, or any &E5, as &E5 n b, &E5 0 for one
// &E5, other bytes as they are.
func pack(mem []byte) []byte {
	var out []byte
	for i := 0; i < len(mem); {
		n := 1
		for i+n < len(mem) && mem[i+n] == mem[i] && n < 255 {
			n++
		}
		switch {
		case n >= 3:
			out = append(out, 0xE5, byte(n), mem[i])
		case mem[i] == 0xE5:
			out = append(out, 0xE5, 0)
			n = 1
		default:
			out = append(out, mem[i])
			n = 1
		}
		i += n
	}
	return out
}

// TestSNAMemoryChunks reads memory from version 3's MEM0 and MEM1 chunks,
// over a dump or with none, skips every other chunk by name, and refuses
// RAM past 128K.
func TestSNAMemoryChunks(t *testing.T) {
	base := cpcSample(0x20000).RAM
	for i := 0x100; i < 0x400; i++ {
		base[i] = 0xE5 // the control byte itself, in the data
	}
	for i := 0x800; i < 0x1000; i++ {
		base[i] = 0 // long runs
	}
	mem0, mem1 := base[:0x10000], base[0x10000:]

	t.Run("no dump, MEM0 and MEM1", func(t *testing.T) {
		b := withVersion(t, cpcSample(0x10000), 3)[:256]
		b[0x6B], b[0x6C] = 0, 0
		b = append(b, chunk("BRKS", []byte{1, 2, 3, 4, 5})...)
		b = append(b, chunk("MEM0", pack(mem0))...)
		b = append(b, chunk("DSCA", []byte("disc.dsk"))...)
		b = append(b, chunk("MEM1", pack(mem1))...)
		got, err := ReadCPC(b)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.RAM, base) {
			t.Error("RAM read from MEM0 and MEM1 is not the RAM packed")
		}
		if want := []string{"BRKS", "DSCA"}; !reflect.DeepEqual(got.Skipped, want) {
			t.Errorf("skipped %q, want %q", got.Skipped, want)
		}
	})
	t.Run("MEM0 over a dump", func(t *testing.T) {
		b := withVersion(t, cpcSample(0x10000), 3)
		b = append(b, chunk("MEM0", pack(mem0))...)
		got, err := ReadCPC(b)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.RAM, mem0) {
			t.Error("a MEM0 chunk did not take priority over the dump")
		}
	})
	t.Run("examples", func(t *testing.T) {
		// CPCWiki's examples: 11 22 33 = 11 22 33; E5 03 11 = 11 11 11;
		// E5 00 = E5. The rest of the 64K is a run of zeros.
		data := []byte{0x11, 0x22, 0x33, 0xE5, 0x03, 0x11, 0xE5, 0x00}
		for left := 0x10000 - 7; left > 0; left -= 255 {
			data = append(data, 0xE5, byte(min(left, 255)), 0)
		}
		got, err := unpackCPC(data)
		if err != nil {
			t.Fatal(err)
		}
		if want := []byte{0x11, 0x22, 0x33, 0x11, 0x11, 0x11, 0xE5, 0}; !bytes.Equal(got[:8], want) {
			t.Errorf("unpacked % X, want % X", got[:8], want)
		}
	})
	bad := []struct {
		name string
		tail []byte
		want string
	}{
		{"MEM2", chunk("MEM2", pack(mem0)), "MEM2"},
		{"short MEM0", chunk("MEM0", []byte{1, 2, 3}), "not 64K"},
		{"long MEM0", chunk("MEM0", append(pack(mem0), 1)), "more than 64K"},
		{"cut run", chunk("MEM0", []byte{0xE5, 0x05}), "inside a run"},
		{"cut control", chunk("MEM0", []byte{0x00, 0xE5}), "inside a run"},
		{"chunk too long", chunk("MEM0", pack(mem0))[:100], "claims"},
		{"stray bytes", []byte{'M', 'E', 'M'}, "stray"},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			b := withVersion(t, cpcSample(0x10000), 3)
			b = append(b, tt.tail...)
			if _, err := ReadCPC(b); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one saying %q", err, tt.want)
			}
		})
	}
}

// TestSNARefuses: bad files are refused with what is wrong.
func TestSNARefuses(t *testing.T) {
	good := func() []byte {
		b, err := WriteCPC(cpcSample(0x10000))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	tests := []struct {
		name  string
		bytes func() []byte
		want  string
	}{
		{"empty", func() []byte { return nil }, "shorter than its 256-byte header"},
		{"header cut", func() []byte { return good()[:255] }, "shorter than its 256-byte header"},
		{"identifier", func() []byte { b := good(); b[3] = '_'; return b }, `"MV - SNA"`},
		{"version 0", func() []byte { b := good(); b[0x10] = 0; return b }, "version 0"},
		{"version 4", func() []byte { b := good(); b[0x10] = 4; return b }, "version 4"},
		{"interrupt mode", func() []byte { b := good(); b[0x25] = 3; return b }, "interrupt mode 3"},
		{"dump 32K", func() []byte { b := good(); b[0x6B] = 32; return b }, "32K"},
		{"dump 0 in version 1", func() []byte { b := good(); b[0x6B] = 0; return b }, "0K"},
		{"no memory in version 3", func() []byte {
			b := good()[:256]
			b[0x10], b[0x6B] = 3, 0
			return b
		}, "no memory"},
		{"memory cut", func() []byte { return good()[:256+0x8000] }, "cut short"},
		{"128K declared, 64K given", func() []byte { b := good(); b[0x6B] = 128; return b }, "cut short"},
		{"too long", func() []byte { return append(good(), make([]byte, CPCMaxFileSize)...) }, "8MB"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := ReadCPC(tt.bytes()); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one saying %q", err, tt.want)
			}
		})
	}

	writes := []struct {
		name string
		edit func(*CPCSnapshot)
		want string
	}{
		{"RAM 48K", func(s *CPCSnapshot) { s.RAM = make([]byte, 0xC000) }, "64K or 128K"},
		{"no RAM", func(s *CPCSnapshot) { s.RAM = nil }, "64K or 128K"},
		{"PSG register 16", func(s *CPCSnapshot) { s.PSG.Selected = 16 }, "registers 0 to 15"},
		{"interrupt mode 3", func(s *CPCSnapshot) { s.CPU.IM = 3 }, "interrupt mode 3"},
	}
	for _, tt := range writes {
		t.Run(fmt.Sprint("write ", tt.name), func(t *testing.T) {
			s := cpcSample(0x10000)
			tt.edit(s)
			if _, err := WriteCPC(s); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one saying %q", err, tt.want)
			}
		})
	}
}
