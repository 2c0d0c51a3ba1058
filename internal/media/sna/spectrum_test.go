package sna

import (
	"strings"
	"testing"
)

func sampleSpectrum48() *Spectrum48Snapshot {
	s := &Spectrum48Snapshot{
		I: 0x3F, HL_: 0x1122, DE_: 0x3344, BC_: 0x5566, AF_: 0x7788,
		HL: 0x99AA, DE: 0xBBCC, BC: 0xDDEE, IY: 0x5C3A, IX: 0x1234,
		IFF2: true, R: 0x5A, AF: 0x4455, SP: 0xFF40, IM: 1, Border: 7,
	}
	for i := range s.RAM {
		s.RAM[i] = uint8(i*7 + i>>8)
	}
	s.RAM[0xFF40-0x4000] = 0x34 // the program counter, &1234, on the stack
	s.RAM[0xFF41-0x4000] = 0x12
	return s
}

// TestSNA5Spectrum48Layout pins each header field to its offset (SP48) and the
// RAM to the 27 bytes after it (SNA-5).
func TestSNA5Spectrum48Layout(t *testing.T) {
	s := sampleSpectrum48()
	b := WriteSpectrum48(s)
	if len(b) != 49179 {
		t.Fatalf("%d bytes, want 49179", len(b))
	}
	for _, c := range []struct {
		at   int
		want []byte
	}{
		{0x00, []byte{0x3F}},       // I
		{0x01, []byte{0x22, 0x11}}, // HL'
		{0x03, []byte{0x44, 0x33}}, // DE'
		{0x05, []byte{0x66, 0x55}}, // BC'
		{0x07, []byte{0x88, 0x77}}, // AF'
		{0x09, []byte{0xAA, 0x99}}, // HL
		{0x0B, []byte{0xCC, 0xBB}}, // DE
		{0x0D, []byte{0xEE, 0xDD}}, // BC
		{0x0F, []byte{0x3A, 0x5C}}, // IY
		{0x11, []byte{0x34, 0x12}}, // IX
		{0x13, []byte{0x04}},       // IFF2 in bit 2
		{0x14, []byte{0x5A}},       // R
		{0x15, []byte{0x55, 0x44}}, // F, A
		{0x17, []byte{0x40, 0xFF}}, // SP
		{0x19, []byte{0x01}},       // IM
		{0x1A, []byte{0x07}},       // border
		{27 + 0xFF40 - 0x4000, []byte{0x34, 0x12}},
	} {
		if got := b[c.at : c.at+len(c.want)]; string(got) != string(c.want) {
			t.Errorf("at &%02X: % X, want % X", c.at, got, c.want)
		}
	}
	for i, v := range s.RAM {
		if b[27+i] != v {
			t.Fatalf("RAM at &%04X: &%02X in the file, want &%02X", 0x4000+i, b[27+i], v)
		}
	}
	r, err := ReadSpectrum48(b)
	if err != nil {
		t.Fatal(err)
	}
	if *r != *s {
		t.Error("read back differs from what was written")
	}
	if pc := r.PC(); pc != 0x1234 {
		t.Errorf("PC = &%04X, want &1234, the word at SP", pc)
	}
	if b2 := WriteSpectrum48(r); string(b2) != string(b) {
		t.Error("written again, the bytes differ")
	}
}

// TestFILE7Spectrum48Refused checks what a 48K .sna cannot be (A-11, FILE-7).
func TestFILE7Spectrum48Refused(t *testing.T) {
	good := WriteSpectrum48(sampleSpectrum48())
	with := func(at int, v ...byte) []byte {
		b := append([]byte(nil), good...)
		copy(b[at:], v)
		return b
	}
	for _, c := range []struct {
		name string
		b    []byte
		want string
	}{
		{"empty", nil, "is 49179 bytes, and this is 0"},
		{"a byte short", good[:49178], "this is 49178"},
		{"a byte long", append(append([]byte(nil), good...), 0), "this is 49180"},
		{"IM 3", with(0x19, 3), "interrupt mode at &19 is 3"},
		{"stack in the ROM", with(0x17, 0xFE, 0x3F), "stack pointer at &17 is &3FFE"},
		{"stack at &FFFF", with(0x17, 0xFF, 0xFF), "&FFFF"},
	} {
		_, err := ReadSpectrum48(c.b)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want one containing %q", c.name, err, c.want)
		}
	}
}
