package disasm

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"colophon/internal/chip/z80"
	"colophon/internal/shared"
)

// detailRow is one row of jumpblocks_detail.tsv, with the address each
// entry's routine has in each firmware's lower ROM.
type detailRow struct {
	block, name, models, note string
	addr                      uint16
	target                    map[Firmware]uint16 // absent where the column is empty
}

func readDetail(t *testing.T) []detailRow {
	t.Helper()
	f, err := os.Open(shared.TestPath(t, "testdata", "cpc-firmware", "jumpblocks_detail.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []detailRow
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		c := strings.Split(sc.Text(), "\t")
		if n == 1 {
			if !strings.HasPrefix(sc.Text(), "block\tindex\tname\taddress\tmodels\trom_target_464\trom_target_664\trom_target_6128\tnote") {
				t.Fatalf("jumpblocks_detail.tsv: header %q", sc.Text())
			}
			continue
		}
		if len(c) != 9 {
			t.Fatalf("jumpblocks_detail.tsv line %d: %d columns", n, len(c))
		}
		r := detailRow{block: c[0], name: c[2], models: c[4], note: c[8], target: map[Firmware]uint16{}}
		r.addr = mustHex16(t, c[3])
		for i, fw := range []Firmware{CPC464, CPC664, CPC6128} {
			if c[5+i] != "" {
				r.target[fw] = mustHex16(t, c[5+i])
			}
		}
		rows = append(rows, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

func mustHex16(t *testing.T, s string) uint16 {
	t.Helper()
	v, err := strconv.ParseUint(s, 16, 16)
	if err != nil {
		t.Fatalf("%q is not hex: %v", s, err)
	}
	return uint16(v)
}

func (r detailRow) on(fw Firmware) bool {
	for _, m := range strings.Split(r.models, ",") {
		if "cpc"+m == fw.String() {
			return true
		}
	}
	return false
}

// slot is one entry of the RAM jumpblock as a firmware lays it from &BB00.
type slot struct {
	addr    uint16
	restart string // the RST's text
	target  uint16 // where the routine is in the lower ROM
	label   string // the entry's SOFT 968 name, if the listing gives one
}

var (
	// The undocumented editor sits in the slot after each firmware's
	// last main entry; the table's notes give its place and routine on
	// the 464 and 664, its rows on the 6128.
	editSlot = regexp.MustCompile(`on (464|664) this slot \(&([0-9A-F]{4})\).*?ROM &([0-9A-F]{4})`)
	// The 664's maths entries are the 6128's, 3 bytes lower.
	maths664 = regexp.MustCompile(`on 664 the same routine is 3 bytes lower at &([0-9A-F]{4})`)
)

// mainJumpblock is the whole main jumpblock a firmware lays from &BB00 as
// jumpblocks_detail.tsv gives it: the documented entries as LOW JUMPs, the
// editor's entry after them, and the maths entries as FIRM JUMPs.
func mainJumpblock(t *testing.T, rows []detailRow, fw Firmware) []slot {
	var slots []slot
	var edit, maths []slot
	for _, r := range rows {
		switch {
		case r.block == "main" && r.on(fw):
			slots = append(slots, slot{r.addr, "RST &08", r.target[fw], r.name})
		case r.block == "main_undocumented" && r.on(fw):
			edit = append(edit, slot{r.addr, "RST &08", r.target[fw], ""})
		case r.block == "maths_464" && fw == CPC464:
			maths = append(maths, slot{r.addr, "RST &28", r.target[fw], ""})
		case r.block == "maths_6128" && fw == CPC6128:
			maths = append(maths, slot{r.addr, "RST &28", r.target[fw], ""})
		case r.block == "maths_6128" && fw == CPC664:
			m := maths664.FindStringSubmatch(r.note)
			if m == nil {
				t.Fatalf("%s: no 664 address in %q", r.name, r.note)
			}
			maths = append(maths, slot{mustHex16(t, m[1]), "RST &28", r.target[fw], ""})
		}
		if m := editSlot.FindStringSubmatch(r.note); m != nil && "cpc"+m[1] == fw.String() {
			edit = append(edit, slot{mustHex16(t, m[2]), "RST &08", mustHex16(t, m[3]), ""})
		}
	}
	if len(edit) != 1 {
		t.Fatalf("%s: %d editor entries in the table, want 1", fw, len(edit))
	}
	return append(append(slots, edit...), maths...)
}

// flatBus is a board with the lower ROM at &0000-&3FFF, read-only, and RAM
// above it: enough for the firmware's JUMP RESTORE, which only reads its
// table and writes the jumpblock.
type flatBus struct{ mem *flat }

func (b flatBus) Fetch(a uint16) byte { return b.mem[a] }
func (b flatBus) Read(a uint16) byte  { return b.mem[a] }
func (b flatBus) Write(a uint16, v byte) {
	if a >= 0x4000 {
		b.mem[a] = v
	}
}
func (flatBus) In(uint16) byte       { return 0xff }
func (flatBus) Out(uint16, byte)     {}
func (flatBus) Internal(uint16, int) {}
func (flatBus) Acknowledge() byte    { return 0xff }

// restoreJumpblock runs the firmware's own JUMP RESTORE from its lower
// ROM, as the firmware does when it starts, and returns the memory it
// leaves: the lower ROM, and the RAM with the jumpblock it copied.
func restoreJumpblock(t *testing.T, lower []byte, entry uint16) *flat {
	t.Helper()
	var mem flat
	mem.load(0, lower)
	const back = 0xfff0 // an address the routine returns to and never runs
	cpu := z80.CPU{Bus: flatBus{&mem}}
	cpu.Reset()
	cpu.PC, cpu.SP = entry, 0xc000
	binary.LittleEndian.PutUint16(mem[0xbffe:], back)
	cpu.SP -= 2
	for steps := 0; cpu.PC != back; steps++ {
		if steps == 1_000_000 {
			t.Fatalf("JUMP RESTORE at &%04X has not returned after a million instructions", entry)
		}
		cpu.Step()
	}
	return &mem
}

// TestMainJumpblock lists each CPC's whole main jumpblock entry by entry,
// as its firmware lays it from &BB00, through the lower ROM and beneath
// it (DIS-10): each entry a restart with its word, the routine's address
// in the lower ROM, as jumpblocks_detail.tsv gives it; and the listing of
// n entries ends where the n+1th begins.
func TestMainJumpblock(t *testing.T) {
	rows := readDetail(t)
	var restore detailRow
	for _, r := range rows {
		if r.name == "JUMP RESTORE" {
			restore = r
		}
	}
	for _, fw := range []Firmware{CPC464, CPC664, CPC6128} {
		t.Run(fw.String(), func(t *testing.T) {
			lower := cpcLower(t, fw)
			slots := mainJumpblock(t, rows, fw)
			// The copy's source: the routines' addresses, a word each, in
			// the order of the entries, once in the lower ROM.
			src := make([]byte, 0, 2*len(slots))
			for _, s := range slots {
				src = binary.LittleEndian.AppendUint16(src, s.target)
			}
			if n := strings.Count(string(lower), string(src)); n != 1 {
				t.Fatalf("the %d entries' routine addresses are in the lower ROM %d times, want once", len(slots), n)
			}
			at := strings.Index(string(lower), string(src))
			t.Logf("%s: %d entries, copied from the lower ROM's &%04X", fw, len(slots), at)

			mem := restoreJumpblock(t, lower, restore.target[fw])
			end := slots[len(slots)-1].addr + 3
			if mem[end] != 0 {
				t.Errorf("JUMP RESTORE wrote past the last entry, at &%04X", end)
			}
			beneath := *mem
			beneath.load(0, make([]byte, 0x4000))
			// The firmware keeps a copy of its restarts in the RAM
			// beneath the ROM (spec, "Reading memory as instructions").
			beneath.load(0, lower[:0x40])
			d := newCPC(t, fw, lower)
			for _, view := range []struct {
				name string
				mem  Memory
			}{{"through the ROM", mem.read}, {"beneath it", beneath.read}} {
				got, err := d.List(view.mem, 0xbb00, len(slots))
				if err != nil {
					t.Fatal(err)
				}
				for i, s := range slots {
					in := got[i]
					w := binary.LittleEndian.Uint16(in.Bytes[1:])
					// A LOW JUMP's word is the routine's address in bits
					// 13-0, with bit 14 clear to enable the lower ROM it
					// is in; a FIRM JUMP's is the address alone (SOFT 968,
					// "The Low Kernel Jumpblock").
					target := w
					if s.restart == "RST &08" {
						target = w & 0x3fff
						if w&0x4000 != 0 {
							t.Errorf("%s: &%04X's LOW JUMP disables the lower ROM: DEFW &%04X", view.name, s.addr, w)
						}
					}
					if in.Addr != s.addr || in.Len() != 3 || in.Text != s.restart || in.Word != fmt.Sprintf("DEFW &%04X", w) ||
						target != s.target || in.Label != s.label || in.Name != "" {
						t.Errorf("%s: entry at &%04X (%s, &%04X): &%04X %q (% X) label %q", view.name, s.addr, s.label, s.target, in.Addr, in, in.Bytes, in.Label)
					}
				}
				if next := got[len(got)-1].Next(); next != end {
					t.Errorf("%s: the listing ends at &%04X, want &%04X", view.name, next, end)
				}
			}
			// Beneath a ROM the firmware has not copied its restarts to,
			// the restarts are listed alone (DIS-9).
			blank := beneath
			blank.load(0, make([]byte, 0x40))
			if in := d.Decode(blank.read, 0xbb00); in.Word != "" || in.Len() != 1 {
				t.Errorf("without the restarts' copy: %q, %d bytes", in, in.Len())
			}
		})
	}
}
