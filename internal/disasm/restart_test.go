package disasm

import (
	"bytes"
	"colophon/internal/shared"
	"fmt"
	"strings"
	"testing"
)

// cpcLower is the lower ROM of a CPC's firmware image: its first 16K
// (../shared/roms: each CPC image is the operating system, then BASIC).
func cpcLower(t testing.TB, fw Firmware) []byte {
	t.Helper()
	img := shared.ReadFile(t, "roms", fw.String()+".rom")
	if len(img) != 0x8000 {
		t.Fatalf("%s.rom is %d bytes, want 32768", fw, len(img))
	}
	return img[:0x4000]
}

func newCPC(t testing.TB, fw Firmware, lower []byte) *Disassembler {
	t.Helper()
	d, err := New(Options{Firmware: fw, LowerROM: lower})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// restartProgram is the four restarts that take a word, each with one, and
// the four that take none (SOFT 968, "The Low Kernel Jumpblock").
var restartProgram = []byte{
	0xcf, 0xfe, 0x93, // RST &08, LOW JUMP
	0xd7, 0x00, 0xc0, // RST &10, SIDE CALL
	0xdf, 0x34, 0x12, // RST &18, FAR CALL
	0xef, 0x2e, 0x1d, // RST &28, FIRM JUMP
	0xe7,       // RST &20, RAM LAM: no word
	0xc7,       // RST &00
	0xf7,       // RST &30
	0xff,       // RST &38
	0xdd, 0xdf, // a prefix changes nothing: FAR CALL still
	0x9a, 0x01,
	0xc9,
}

var restartListing = []string{
	"RST &08 : DEFW &93FE",
	"RST &10 : DEFW &C000",
	"RST &18 : DEFW &1234",
	"RST &28 : DEFW &1D2E",
	"RST &20",
	"RST &00",
	"RST &30",
	"RST &38",
	"RST &18 : DEFW &019A",
	"RET",
}

// TestRestartsWithWords lists a firmware restart and its word as one
// instruction, through the lower ROM and beneath it, where the firmware
// keeps a copy of the restarts in RAM (spec, "Reading memory as
// instructions"; DIS-7, DIS-8, DIS-9).
func TestRestartsWithWords(t *testing.T) {
	lower := cpcLower(t, CPC6128)
	d := newCPC(t, CPC6128, lower)
	var ram flat
	ram.load(0x8000, restartProgram)
	through := func(a uint16) byte {
		if a < 0x4000 {
			return lower[a]
		}
		return ram[a]
	}
	beneath := ram
	beneath.load(0, lower[:0x40])
	for _, tt := range []struct {
		name string
		mem  Memory
	}{{"through the ROM", through}, {"beneath it", beneath.read}} {
		got, err := d.List(tt.mem, 0x8000, len(restartListing))
		if err != nil {
			t.Fatal(err)
		}
		var texts []string
		for _, in := range got {
			texts = append(texts, in.String())
		}
		if strings.Join(texts, "\n") != strings.Join(restartListing, "\n") {
			t.Errorf("%s:\n%s\nwant\n%s", tt.name, strings.Join(texts, "\n"), strings.Join(restartListing, "\n"))
		}
		if in := got[2]; in.Addr != 0x8006 || !bytes.Equal(in.Bytes, []byte{0xdf, 0x34, 0x12}) || in.Text != "RST &18" || in.Word != "DEFW &1234" {
			t.Errorf("%s: FAR CALL is %+v", tt.name, in)
		}
		if in := got[8]; in.Addr != 0x8010 || in.Len() != 4 {
			t.Errorf("%s: the prefixed FAR CALL is at &%04X, %d bytes", tt.name, in.Addr, in.Len())
		}
		if end := got[len(got)-1].Next(); end != 0x8000+uint16(len(restartProgram)) {
			t.Errorf("%s: the listing ends at &%04X", tt.name, end)
		}
	}
}

// TestRestartsOfTheirOwn lists a restart alone where the three bytes at
// its address are not the lower ROM's: a program that disabled the ROM and
// put a restart of its own there, as Aliens does at &28, or RAM the
// firmware has not filled. Its word is then read as instructions (DIS-9).
func TestRestartsOfTheirOwn(t *testing.T) {
	lower := cpcLower(t, CPC6128)
	d := newCPC(t, CPC6128, lower)
	var ram flat
	ram.load(0, lower[:0x40])
	ram.load(0x28, []byte{0xc3, 0x00, 0x90}) // the program's own RST &28
	ram.load(0x8000, restartProgram)
	got, err := d.List(ram.read, 0x8000, 6)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"RST &08 : DEFW &93FE", "RST &10 : DEFW &C000", "RST &18 : DEFW &1234", "RST &28", "LD L,&1D", "RST &20"}
	for i, in := range got {
		if in.String() != want[i] {
			t.Errorf("item %d at &%04X: %q, want %q", i, in.Addr, in, want[i])
		}
	}
	// Each byte of the three counts: one differing is enough.
	for i := uint16(0); i < 3; i++ {
		var m flat
		m.load(0, lower[:0x40])
		m[0x18+i] ^= 0xff
		m.load(0x8000, []byte{0xdf, 0x34, 0x12})
		if in := d.Decode(m.read, 0x8000); in.Word != "" || in.Len() != 1 {
			t.Errorf("byte &%04X changed: %q, %d bytes, want RST &18 alone", 0x18+i, in, in.Len())
		}
	}
	// Another firmware's restarts are not this one's: a 464's LOW JUMP
	// jumps elsewhere than a 6128's (../shared/roms).
	var m flat
	m.load(0, cpcLower(t, CPC464)[:0x40])
	m.load(0x8000, []byte{0xcf, 0x34, 0x12})
	if in := d.Decode(m.read, 0x8000); in.Word != "" {
		t.Errorf("a 6128 listing over a 464's restarts gives %q", in)
	}
	// Without a firmware there are no words at all.
	var plain Disassembler
	if in := plain.Decode(ram.read, 0x8000); in.String() != "RST &08" || in.Len() != 1 {
		t.Errorf("without firmware: %q, %d bytes", in, in.Len())
	}
}

// TestRestartWordWraps: a restart at &FFFF takes its word from &0000 and
// &0001, as the processor's reads wrap.
func TestRestartWordWraps(t *testing.T) {
	lower := cpcLower(t, CPC664)
	d := newCPC(t, CPC664, lower)
	m := func(a uint16) byte {
		switch {
		case a == 0xffff:
			return 0xcf
		case a < 0x4000:
			return lower[a]
		}
		return 0
	}
	in := d.Decode(m, 0xffff)
	want := []byte{0xcf, lower[0], lower[1]}
	if !bytes.Equal(in.Bytes, want) || in.Word == "" || in.Next() != 0x0002 {
		t.Errorf("RST &08 at &FFFF: % X %q, next &%04X", in.Bytes, in, in.Next())
	}
}

// TestListCountsInstructions: a listing gives as many instructions as
// asked, each where the one before it ends, a restart with its word being
// one.
func TestListCountsInstructions(t *testing.T) {
	lower := cpcLower(t, CPC6128)
	d := newCPC(t, CPC6128, lower)
	var m flat
	m.load(0, lower[:0x40])
	m.load(0xfffc, []byte{0xdf, 0x34, 0x12, 0x00, 0xcf, 0x01, 0x02})
	got, err := d.List(m.read, 0xfffc, 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[0].Next() != 0xffff || got[1].Addr != 0xffff || got[2].Addr != 0x0000 {
		t.Fatalf("listing: %+v", got)
	}
	// The listing's own bytes wrapped over &0000; the restarts at &08 on
	// are still the ROM's.
	if got[2].String() != "RST &08 : DEFW &0201" {
		t.Errorf("after the wrap: %q (% X)", got[2], got[2].Bytes)
	}
	if l, err := d.List(m.read, 0, 0); err != nil || len(l) != 0 {
		t.Errorf("List of 0: %v, %v", l, err)
	}
}

func TestBadInput(t *testing.T) {
	lower := make([]byte, 0x4000)
	for _, tt := range []struct {
		opts Options
		want string
	}{
		{Options{Firmware: CPC464}, "LowerROM"},
		{Options{Firmware: CPC664, LowerROM: lower[:0x2a]}, "LowerROM"},
		{Options{LowerROM: lower}, "LowerROM"},
		{Options{Firmware: 9, LowerROM: lower}, "Firmware"},
	} {
		if _, err := New(tt.opts); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("New(%v, %d bytes): %v, want an error naming %s", tt.opts.Firmware, len(tt.opts.LowerROM), err, tt.want)
		}
	}
	if _, err := New(Options{Firmware: CPC6128, LowerROM: lower[:lowerROMNeeded]}); err != nil {
		t.Errorf("New with the least lower ROM: %v", err)
	}
	var d Disassembler
	var m flat
	for _, n := range []int{-1, MaxCount + 1} {
		if _, err := d.List(m.read, 0, n); err == nil || !strings.Contains(err.Error(), "count") {
			t.Errorf("List of %d: %v, want an error naming count", n, err)
		}
	}
	if _, err := d.List(nil, 0, 1); err == nil || !strings.Contains(err.Error(), "Memory") {
		t.Errorf("List of nil memory: %v", err)
	}
	if l, err := d.List(m.read, 0, MaxCount); err != nil || len(l) != MaxCount {
		t.Errorf("List of MaxCount: %d, %v", len(l), err)
	}
}

func TestFirmwareOf(t *testing.T) {
	for name, want := range map[string]Firmware{"cpc464": CPC464, "cpc664": CPC664, "cpc6128": CPC6128, "spectrum48": NoFirmware} {
		if got, ok := FirmwareOf(name); !ok || got != want {
			t.Errorf("FirmwareOf(%q) = %v, %v", name, got, ok)
		}
		if want != NoFirmware && want.String() != name {
			t.Errorf("%v.String() = %q", want, want.String())
		}
	}
	if _, ok := FirmwareOf("cpc472"); ok {
		t.Error("FirmwareOf(cpc472) accepted")
	}
}

// TestEndlessChain holds issue 19's item 5: memory that is all prefixes,
// a chain the processor would run for ever, is listed in pieces of
// MaxChain prefixes as the processor meets them, each a NONI, so that a
// listing of it moves on with every instruction and stays short.
func TestEndlessChain(t *testing.T) {
	var d Disassembler
	all := func(a uint16) byte { return 0xdd | byte(a&1)<<5 }
	in := d.Decode(all, 0x1234)
	if in.Len() != MaxChain || in.Text != "NONI" || in.Next() != 0x1234+MaxChain {
		t.Errorf("all prefixes: %q, %d bytes, next &%04X", in.Text, in.Len(), in.Next())
	}
	list, err := d.List(all, 0xFFF0, 1000)
	if err != nil || len(list) != 1000 {
		t.Fatalf("List of 1000 over all prefixes: %d, %v", len(list), err)
	}
	for i, in := range list {
		if want := uint16(0xFFF0 + i*MaxChain); in.Addr != want || in.Len() != MaxChain || in.Text != "NONI" {
			t.Fatalf("instruction %d: &%04X %q, %d bytes; want &%04X NONI, %d bytes", i, in.Addr, in.Text, in.Len(), want, MaxChain)
		}
	}
}

// TestLongChainInPieces: a chain longer than MaxChain is NONI pieces, then
// the last prefixes with the instruction they rule; one as long as
// MaxChain is still one instruction.
func TestLongChainInPieces(t *testing.T) {
	var d Disassembler
	for _, tt := range []struct {
		prefixes int
		want     []string // texts, with each one's length
	}{
		{1, []string{"LD IY,&1234/4"}},
		{MaxChain, []string{fmt.Sprintf("LD IY,&1234/%d", MaxChain+3)}},
		{MaxChain + 1, []string{fmt.Sprintf("NONI/%d", MaxChain), "LD IY,&1234/4"}},
		{2*MaxChain + 5, []string{fmt.Sprintf("NONI/%d", MaxChain), fmt.Sprintf("NONI/%d", MaxChain), "LD IY,&1234/8"}},
	} {
		mem := make([]byte, 0x10000)
		for i := range tt.prefixes {
			mem[0x8000+i] = 0xdd // DD then FD: FD rules
		}
		mem[0x8000+tt.prefixes-1] = 0xfd
		copy(mem[0x8000+tt.prefixes:], []byte{0x21, 0x34, 0x12})
		list, err := d.List(func(a uint16) byte { return mem[a] }, 0x8000, len(tt.want))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, in := range list {
			got = append(got, fmt.Sprintf("%s/%d", in.Text, in.Len()))
		}
		if strings.Join(got, " ") != strings.Join(tt.want, " ") {
			t.Errorf("%d prefixes then 21 34 12: %v; want %v", tt.prefixes, got, tt.want)
		}
	}
}

// TestListWithin: a listing keeps to its budget of bytes, and lists one
// instruction at least.
func TestListWithin(t *testing.T) {
	var d Disassembler
	nops := func(uint16) byte { return 0 }
	if l, _ := d.ListWithin(nops, 0, 1000, 100); len(l) != 100 {
		t.Errorf("1000 NOPs within 100 bytes: %d listed", len(l))
	}
	chain := func(uint16) byte { return 0xfd }
	if l, _ := d.ListWithin(chain, 0, 1000, 100); len(l) != 100/MaxChain {
		t.Errorf("chains within 100 bytes: %d listed", len(l))
	}
	if l, _ := d.ListWithin(chain, 0, 1000, 1); len(l) != 1 {
		t.Errorf("within 1 byte: %d listed, want the one", len(l))
	}
}
