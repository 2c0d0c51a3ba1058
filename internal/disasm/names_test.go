package disasm

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"colophon/internal/disasm/internal/gen"
	"colophon/internal/shared"
)

// sharedEntries parses the shared jumpblock tables as the generator does.
func sharedEntries(t *testing.T) []gen.Entry {
	t.Helper()
	names, err := os.Open(shared.TestPath(t, "testdata", "cpc-firmware", "jumpblocks.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer names.Close()
	detail, err := os.Open(shared.TestPath(t, "testdata", "cpc-firmware", "jumpblocks_detail.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer detail.Close()
	es, err := gen.Parse(names, detail)
	if err != nil {
		t.Fatal(err)
	}
	return es
}

// TestNamesTableIsShared holds the compiled names to the shared tables
// they were generated from, so that the two cannot drift: the file is
// exactly what the generator writes today, and each entry says what the
// tables say.
func TestNamesTableIsShared(t *testing.T) {
	es := sharedEntries(t)
	src, err := gen.Source(es)
	if err != nil {
		t.Fatal(err)
	}
	have, err := os.ReadFile("names_table.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(src, have) {
		t.Error("names_table.go differs from the shared tables: run go generate in internal/disasm")
	}
	blocks := map[string]block{"high_kernel": highKernel, "main": mainBlock, "indirection": indirections}
	if len(es) != len(entries) {
		t.Fatalf("%d entries compiled, the tables have %d", len(entries), len(es))
	}
	for i, e := range es {
		var ms models
		for _, m := range e.Models {
			ms |= map[string]models{"464": in464, "664": in664, "6128": in6128}[m]
		}
		want := entry{block: blocks[e.Block], index: int16(e.Index), addr: e.Addr, name: e.Name, models: ms}
		if entries[i] != want {
			t.Errorf("entry %d is %+v, the tables say %+v", i, entries[i], want)
		}
	}
}

// TestNamesAsSOFT968 holds every name to the number and the address SOFT
// 968 gives its entry and to the spacing SOFT 968 gives it: an entry's
// address is its block's start plus three times its number (SOFT 968,
// section 15: "Entry address = Start of jumpblock + 3 * Entry number"),
// numbered from zero without a gap; names are upper case words a single
// space apart.
func TestNamesAsSOFT968(t *testing.T) {
	starts := map[block]uint16{mainBlock: 0xbb00, indirections: 0xbdcd}
	counts := map[block]int{}
	seen := map[uint16]string{}
	for _, e := range entries {
		if other, dup := seen[e.addr]; dup {
			t.Errorf("&%04X is both %s and %s", e.addr, other, e.name)
		}
		seen[e.addr] = e.name
		if e.name != strings.Join(strings.Fields(e.name), " ") || e.name != strings.ToUpper(e.name) {
			t.Errorf("&%04X: %q is not upper case words a single space apart", e.addr, e.name)
		}
		if start, numbered := starts[e.block]; numbered {
			if int(e.index) != counts[e.block] {
				t.Errorf("%s is number %d, want %d", e.name, e.index, counts[e.block])
			}
			if want := start + 3*uint16(e.index); e.addr != want {
				t.Errorf("%s at &%04X, want &%04X for number %d", e.name, e.addr, want, e.index)
			}
		} else if e.index != -1 {
			t.Errorf("%s has number %d where the table numbers no high kernel entry", e.name, e.index)
		}
		counts[e.block]++
		if e.addr < namesFrom || e.addr >= namesTo {
			t.Errorf("%s at &%04X is outside &%04X-&%04X", e.name, e.addr, namesFrom, namesTo-1)
		}
	}
	// SOFT 968 lists 202 main entries, 0 to 201, 14 indirections and 13
	// high kernel entries (jumpblocks.tsv).
	if counts[mainBlock] != 202 || counts[indirections] != 14 || counts[highKernel] != 13 {
		t.Errorf("entries per block: %v", counts)
	}
}

// TestNamesByFirmware gives a jump or call to every entry of the tables
// its name on each firmware that sets the entry up, and on no other; and
// names nothing between the entries or without a firmware.
func TestNamesByFirmware(t *testing.T) {
	has := map[Firmware]string{CPC464: "464", CPC664: "664", CPC6128: "6128"}
	named := map[uint16]bool{}
	for _, e := range sharedEntries(t) {
		named[e.Addr] = true
		for fw, model := range has {
			want := ""
			for _, m := range e.Models {
				if m == model {
					want = e.Name
				}
			}
			if got := callName(t, fw, e.Addr); got != want {
				t.Errorf("%s: CALL &%04X names %q, want %q", fw, e.Addr, got, want)
			}
		}
		if got := callName(t, NoFirmware, e.Addr); got != "" {
			t.Errorf("without firmware, CALL &%04X names %q", e.Addr, got)
		}
	}
	for a := 0; a < 0x10000; a++ {
		if named[uint16(a)] {
			continue
		}
		for fw := CPC464; fw <= CPC6128; fw++ {
			if n, ok := fw.EntryAt(uint16(a)); ok {
				t.Errorf("%s names &%04X %q, which no table names", fw, a, n)
			}
		}
	}
}

// callName is the Name of CALL addr on a firmware.
func callName(t *testing.T, fw Firmware, addr uint16) string {
	t.Helper()
	d := namesOnly(t, fw)
	var m flat
	m.load(0x8000, []byte{0xcd, byte(addr), byte(addr >> 8)})
	return d.Decode(m.read, 0x8000).Name
}

// namesOnly returns a Disassembler for fw whose lower ROM is blank, so
// that only the names are at work.
func namesOnly(t *testing.T, fw Firmware) *Disassembler {
	t.Helper()
	var opts Options
	if fw != NoFirmware {
		opts = Options{Firmware: fw, LowerROM: make([]byte, lowerROMNeeded)}
	}
	d, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestNamesSpecCases are the spec's own examples of what each firmware
// lacks (spec, "Reading memory as instructions"; checklist DIS-11, DIS-12).
func TestNamesSpecCases(t *testing.T) {
	tests := []struct {
		addr uint16
		fw   Firmware
		want string
	}{
		{0xbb18, CPC464, "KM WAIT KEY"},
		{0xbb18, CPC6128, "KM WAIT KEY"},
		{0xbd37, CPC464, "JUMP RESTORE"},
		{0xbd3a, CPC464, ""}, // KM SET LOCKS on: none on the 464
		{0xbd3a, CPC664, "KM SET LOCKS"},
		{0xbd58, CPC464, ""},
		{0xbd58, CPC664, "MC PRINT TRANSLATION"},
		{0xb92a, CPC464, ""},
		{0xb92a, CPC664, "KL SCAN NEEDED"},
		{0xbdf4, CPC464, ""},
		{0xbdf4, CPC6128, "IND: KM SCAN KEYS"},
		{0xbd5b, CPC664, ""},
		{0xbd5b, CPC6128, "KL BANK SWITCH"},
		{0xbd5e, CPC6128, ""}, // EDIT, which SOFT 968 does not list
		{0xb900, CPC464, "KL U ROM ENABLE"},
		{0xbdcd, CPC664, "IND: TXT DRAW CURSOR"},
		{0xbb19, CPC6128, ""}, // inside an entry
	}
	for _, tt := range tests {
		if got := callName(t, tt.fw, tt.addr); got != tt.want {
			t.Errorf("%s: CALL &%04X names %q, want %q", tt.fw, tt.addr, got, tt.want)
		}
	}
}

// TestNamesOnJumps: a name goes with every JP, CALL, JR and DJNZ to the
// entry, conditional or not, prefixed or not, and with nothing else that
// merely holds the address; it is given whatever the memory there holds
// (DIS-13), and an instruction that begins at an entry is labelled with it.
func TestNamesOnJumps(t *testing.T) {
	d := namesOnly(t, CPC6128)
	tests := []struct {
		at   uint16
		code []byte
		text string
		name string
	}{
		{0x8000, []byte{0xc3, 0x18, 0xbb}, "JP &BB18", "KM WAIT KEY"},
		{0x8000, []byte{0xca, 0x18, 0xbb}, "JP Z,&BB18", "KM WAIT KEY"},
		{0x8000, []byte{0xcd, 0x5a, 0xbb}, "CALL &BB5A", "TXT OUTPUT"},
		{0x8000, []byte{0xd4, 0x5a, 0xbb}, "CALL NC,&BB5A", "TXT OUTPUT"},
		{0x8000, []byte{0xdd, 0xcd, 0x5a, 0xbb}, "CALL &BB5A", "TXT OUTPUT"},
		{0xbb10, []byte{0x18, 0x06}, "JR &BB18", "KM WAIT KEY"},
		{0xbb10, []byte{0x20, 0x06}, "JR NZ,&BB18", "KM WAIT KEY"},
		{0xbb10, []byte{0x10, 0x06}, "DJNZ &BB18", "KM WAIT KEY"},
		{0x8000, []byte{0x21, 0x18, 0xbb}, "LD HL,&BB18", ""},
		{0x8000, []byte{0x22, 0x18, 0xbb}, "LD (&BB18),HL", ""},
		{0x8000, []byte{0xe9}, "JP (HL)", ""},
	}
	for _, tt := range tests {
		for _, fill := range []byte{0x00, 0xc9, 0xdf} {
			var m flat
			for a := 0xb900; a < 0xbe00; a++ {
				m[a] = fill
			}
			m.load(tt.at, tt.code)
			got := d.Decode(m.read, tt.at)
			if got.Text != tt.text || got.Name != tt.name {
				t.Errorf("% X at &%04X over &%02X: %q named %q, want %q named %q", tt.code, tt.at, fill, got.Text, got.Name, tt.text, tt.name)
			}
		}
	}
	var m flat
	m.load(0xbb18, []byte{0xc3, 0x34, 0x12})
	got := d.Decode(m.read, 0xbb18)
	if got.Label != "KM WAIT KEY" || got.Name != "" || got.String() != "JP &1234" {
		t.Errorf("JP at &BB18: label %q, name %q, %q", got.Label, got.Name, got)
	}
	if got := d.Decode(m.read, 0xbb19); got.Label != "" {
		t.Errorf("&BB19 labelled %q", got.Label)
	}
	m.load(0x8000, []byte{0xcd, 0x18, 0xbb})
	if s := d.Decode(m.read, 0x8000).String(); s != "CALL &BB18 ; KM WAIT KEY" {
		t.Errorf("String() = %q", s)
	}
}
