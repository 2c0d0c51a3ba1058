package compare

import (
	"bytes"
	"fmt"
	"os"
	"testing"

	"colophon/internal/machine/cpc"
	"colophon/internal/shared"
)

// newCPC builds a model at power-on from the shared firmware.
func newCPC(t testing.TB, model cpc.Model) *cpc.CPC {
	t.Helper()
	read := func(name string) []byte {
		b, err := os.ReadFile(shared.TestPath(t, "roms", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	cfg := cpc.Config{Model: model, Firmware: read(model.String() + ".rom")}
	if model.DiscInterface() {
		cfg.AMSDOS = read("amsdos.rom")
	}
	m, err := cpc.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// The program the character test runs, put at &4000 in RAM, which BASIC
// leaves free below HIMEM. Its first part is CALLed from BASIC, so that it
// starts where the firmware is at rest; it takes the cursor off the screen
// and sets it at column 10, row 12, then waits at waitAt. The second part,
// at printAt, prints an X there with TXT OUTPUT and waits; the twin's, at
// idleAt, does the same but for the CALL, which it leaves out as three
// NOPs. Entry points as SOFT 968 and ../shared/testdata/cpc-firmware give
// them: TXT CUR DISABLE &BB7E, TXT SET CURSOR &BB75 (H the column, L the
// row, from 1 at the window's top left), TXT OUTPUT &BB5A.
var program = map[uint16][]byte{
	0x4000: {
		0xCD, 0x7E, 0xBB, // CALL TXT CUR DISABLE
		0x21, 12, 10, // LD HL,&0A0C: H column 10, L row 12
		0xCD, 0x75, 0xBB, // CALL TXT SET CURSOR
		0x18, 0xFE, // JR $
	},
	0x4010: {0x3E, 'X', 0xCD, 0x5A, 0xBB, 0x18, 0xFE}, // LD A,'X' : CALL TXT OUTPUT : JR $
	0x4020: {0x3E, 'X', 0x00, 0x00, 0x00, 0x18, 0xFE}, // LD A,'X' : NOP x3 : JR $
}

const (
	waitAt  = 0x4009
	printAt = 0x4010
	idleAt  = 0x4020
	column  = 10 // logical, from 1
	row     = 12
)

// readied boots a 6128 and brings it to the program's first wait: 78
// frames from power-on, as the command line boots, then CALL &4000 typed
// at BASIC, and on until the program stands in its loop.
func readied(t *testing.T) *cpc.CPC {
	t.Helper()
	m := newCPC(t, cpc.CPC6128)
	m.RunTicks(78 * cpc.TicksPerFrame)
	for addr, code := range program {
		for i, v := range code {
			m.Poke(addr+uint16(i), v)
		}
	}
	if _, err := m.Type("CALL &4000\n"); err != nil {
		t.Fatal(err)
	}
	m.RunFrames(5)
	// Step to the loop itself, out of any interrupt taken in it.
	for i := 0; m.CPU.PC != waitAt; i++ {
		if i == 100000 {
			t.Fatalf("the program never reached &%04X; PC &%04X", waitAt, m.CPU.PC)
		}
		m.Step(1)
	}
	return m
}

// TestCMP6CharacterWhereSOFT968LaysItsMatrix prints one character through
// the 6128's firmware and finds the bytes it wrote, on the screen, exactly
// where SOFT 968 lays out that character's matrix and nowhere else, both
// against a state kept before (the RAM as it stood) and against a second
// machine made alike that did not print (checklist CMP-6, CMP-2, CMP-4).
func TestCMP6CharacterWhereSOFT968LaysItsMatrix(t *testing.T) {
	m := readied(t)
	twin := readied(t)
	kept := bytes.Clone(m.RAM)
	if r, _ := Diff(kept, twin.RAM, 0); r.Total != 0 {
		t.Fatalf("two machines made alike differ in %d bytes before either prints", r.Total)
	}

	// The screen as the firmware left it at boot: base &C000 with no
	// offset (R12=&30, R13=0: MA13-12 = 3, the top 16K), in mode 1.
	if r12, r13 := m.CRTC.Registers[12], m.CRTC.Registers[13]; r12 != 0x30 || r13 != 0 {
		t.Fatalf("the screen starts at R12=&%02X R13=&%02X; the test expects &C000 unscrolled", r12, r13)
	}
	if m.GA.Mode != 1 {
		t.Fatalf("mode %d; the test expects BASIC's mode 1", m.GA.Mode)
	}

	// SOFT 968, "The Screen Pack": with the screen at &C000 unscrolled,
	// line l (0-7) of the character at physical column c and row r is at
	// &C000 + l*&800 + r*80 + c*2 in mode 1, where a character is 2 bytes
	// across and a row 80. Logical (10,12) is physical (9,11), the window
	// being the whole screen.
	cell := uint32(0xC000 + (row-1)*80 + (column-1)*2)
	// The matrix of X in the lower ROM's font at &3800, eight bytes, top
	// line first, bit 7 leftmost (SOFT 968, "The Text VDU").
	matrix := m.LowerROMBytes()[0x3800+8*'X' : 0x3800+8*'X'+8]
	// In mode 1 a byte holds four pixels; pixel p (0 leftmost) takes pen
	// bit 0 from byte bit 7-p and pen bit 1 from bit 3-p (Grim, "The Gate
	// Array"). BASIC prints in pen 1 on paper 0, so each pixel of ink sets
	// its bit 7-p alone: the matrix's left nibble, then its right, each
	// moved to the top of its byte.
	var want []Run
	for l, bits := range matrix {
		at := cell + uint32(l)*0x800
		if kept[at] != 0 || kept[at+1] != 0 {
			t.Fatalf("the cell's line %d holds %02X %02X before; the test wants it blank (paper 0)", l, kept[at], kept[at+1])
		}
		left, right := bits&0xF0, bits<<4
		switch {
		case left != 0 && right != 0:
			want = append(want, Run{Addr: at, A: []byte{0, 0}, B: []byte{left, right}})
		case left != 0:
			want = append(want, Run{Addr: at, A: []byte{0}, B: []byte{left}})
		case right != 0:
			want = append(want, Run{Addr: at + 1, A: []byte{0}, B: []byte{right}})
		}
		// A line of the matrix with no ink is written as paper over
		// paper: the same value, and no difference.
	}
	if len(want) < 4 {
		t.Fatalf("X has only %d lines of ink in the ROM's font", len(want))
	}

	m.CPU.PC = printAt
	twin.CPU.PC = idleAt
	m.RunFrames(2)
	twin.RunFrames(2)

	for _, c := range []struct {
		name  string
		other []byte
	}{
		{"against the state kept", kept},
		{"against the twin", twin.RAM},
	} {
		t.Run(c.name, func(t *testing.T) {
			// The screen: &C000 to &FFFF, the base 64K's top 16K.
			r, err := Diff(c.other[:0x10000], m.RAM[:0x10000], 0xC000)
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(r.Runs) != fmt.Sprint(want) || r.More {
				t.Errorf("on the screen:\n got %v\nwant %v", r.Runs, want)
			}
			n := 0
			for _, w := range want {
				n += len(w.A)
			}
			if r.Total != n {
				t.Errorf("total %d, want %d", r.Total, n)
			}
		})
	}
}

// TestCMP7ConfigurationsCompareAlike writes through a 6128's banking
// beneath its lower ROM and across the end of its base 64K into the
// second, and finds the same answer whatever RAM configuration stands,
// since the RAM is compared by its own addresses (checklist CMP-1, CMP-4,
// CMP-7).
func TestCMP7ConfigurationsCompareAlike(t *testing.T) {
	m := newCPC(t, cpc.CPC6128)
	twin := newCPC(t, cpc.CPC6128)
	kept := bytes.Clone(m.RAM)
	// Configuration 0 at power-on, both ROMs enabled: a write lands in
	// the RAM beneath either ROM (Grim, "The Gate Array").
	for i, v := range []byte{1, 2, 3, 4} {
		m.Poke(0x0100+uint16(i), v)
	}
	m.Poke(0xFFFE, 5)
	m.Poke(0xFFFF, 6)
	// A byte written with the value it holds is no difference.
	m.Poke(0x8000, kept[0x8000])
	// Configuration 4 puts the second 64K's first 16K, RAM &10000, at
	// &4000 (cpctech, "Amstrad CPC Ram Paging").
	m.MMR = 0xC4
	m.Remap()
	m.Poke(0x4000, 7)
	m.Poke(0x4001, 8)

	want := []Run{
		{Addr: 0x00100, A: []byte{0, 0, 0, 0}, B: []byte{1, 2, 3, 4}},
		{Addr: 0x0FFFE, A: []byte{0, 0, 0, 0}, B: []byte{5, 6, 7, 8}},
	}
	for _, cfg := range []byte{4, 0, 4} {
		m.MMR = 0xC0 | cfg
		m.Remap()
		for _, c := range []struct {
			name  string
			other []byte
		}{
			{"the state kept", kept},
			{"a twin in configuration 0", twin.RAM},
		} {
			r, err := Diff(c.other, m.RAM, 0)
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(r.Runs) != fmt.Sprint(want) || r.Total != 8 || r.More || r.Size != 0x20000 {
				t.Errorf("configuration %d against %s: %+v, want %v", cfg, c.name, r, want)
			}
		}
	}
	// A 64K machine beside the 6128 is compared as far as its 64K.
	m464 := newCPC(t, cpc.CPC464)
	r, err := Diff(m464.RAM, m.RAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	if r.Size != 0x10000 || fmt.Sprint(r.Runs) != fmt.Sprint([]Run{want[0], {Addr: 0xFFFE, A: []byte{0, 0}, B: []byte{5, 6}}}) {
		t.Errorf("a 464 beside the 6128: %+v", r)
	}
}
