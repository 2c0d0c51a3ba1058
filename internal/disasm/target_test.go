package disasm

import (
	"testing"
)

// TestRestartTargetsOf6128MainJumpblock lists the 6128's whole main
// jumpblock as its own JUMP RESTORE lays it from &BB00, and holds the
// target of every restart's word to the table jumpblocks_detail.tsv gives,
// the routine's address in the lower ROM, which SOFT 968's reading of the
// words puts in the lower ROM: a LOW JUMP's bits 13-0 with bit 14 clear, a
// FIRM JUMP's whole word with the lower ROM enabled (issue 18). Five
// entries are also held to addresses read by hand off the 6128's firmware
// listing, where each routine begins.
func TestRestartTargetsOf6128MainJumpblock(t *testing.T) {
	rows := readDetail(t)
	var restore detailRow
	for _, r := range rows {
		if r.name == "JUMP RESTORE" {
			restore = r
		}
	}
	lower := cpcLower(t, CPC6128)
	slots := mainJumpblock(t, rows, CPC6128)
	mem := restoreJumpblock(t, lower, restore.target[CPC6128])
	d := newCPC(t, CPC6128, lower)
	got, err := d.List(mem.read, 0xbb00, len(slots))
	if err != nil {
		t.Fatal(err)
	}
	byAddr := map[uint16]Target{}
	for i, s := range slots {
		in := got[i]
		want := Target{s.target, Bank{Kind: LowerROM}}
		if in.Word == "" || in.Target != want {
			t.Errorf("&%04X %s (%s): %q goes to &%04X in %s, want &%04X in the lower ROM",
				s.addr, s.label, s.restart, in, in.Target.Addr, in.Target.In, s.target)
		}
		byAddr[s.addr] = in.Target
	}
	if len(slots) < 200 {
		t.Errorf("only %d entries listed", len(slots))
	}
	// Read by hand off the 6128's firmware listing: the label each
	// routine begins at.
	for _, e := range []struct {
		entry   uint16
		name    string
		routine uint16
	}{
		{0xBB5A, "TXT OUTPUT", 0x13FE},
		{0xBB5D, "TXT WR CHAR", 0x1335},
		{0xBB60, "TXT RD CHAR", 0x13AC},
		{0xBBA5, "TXT GET MATRIX", 0x12D4},
		{0xBBAE, "TXT GET M TABLE", 0x132B},
	} {
		if got := byAddr[e.entry]; got != (Target{e.routine, Bank{Kind: LowerROM}}) {
			t.Errorf("%s at &%04X goes to &%04X in %s, want &%04X in the lower ROM", e.name, e.entry, got.Addr, got.In, e.routine)
		}
	}
}

// TestRestartTargets works out each restart's target from its word as SOFT
// 968 and the firmware's code read it: LOW JUMP's ROM bits, SIDE CALL's
// offset, FAR CALL's far address and its ROM select, &FC to &FF among them,
// and FIRM JUMP's lower ROM.
func TestRestartTargets(t *testing.T) {
	lower := cpcLower(t, CPC6128)
	d := newCPC(t, CPC6128, lower)
	for _, tt := range []struct {
		name  string
		code  []byte
		far   []byte // a far address at &9000, for FAR CALL
		want  Target
		wants string
	}{
		{"LOW JUMP, lower ROM enabled", []byte{0xCF, 0x5C, 0x9B}, nil, Target{0x1B5C, Bank{Kind: LowerROM}}, "lower"},
		{"LOW JUMP, lower ROM disabled", []byte{0xCF, 0x00, 0x40}, nil, Target{0x0000, Bank{Kind: RAM}}, "ram"},
		{"LOW JUMP, both disabled", []byte{0xCF, 0x34, 0xD2}, nil, Target{0x1234, Bank{Kind: RAM}}, "ram"},
		{"SIDE CALL +0", []byte{0xD7, 0x00, 0x00}, nil, Target{0xC000, Bank{Kind: SideROM}}, "upper +0"},
		{"SIDE CALL +2", []byte{0xD7, 0x10, 0xA1}, nil, Target{0xE110, Bank{Kind: SideROM, ROM: 2}}, "upper +2"},
		{"FAR CALL to ROM 7", []byte{0xDF, 0x00, 0x90}, []byte{0x72, 0xC0, 7}, Target{0xC072, Bank{Kind: UpperROM, ROM: 7}}, "upper 7"},
		{"FAR CALL to ROM 7's bottom 16K", []byte{0xDF, 0x00, 0x90}, []byte{0x00, 0x10, 7}, Target{0x1000, Bank{Kind: RAM}}, "ram"},
		{"FAR CALL &FC, low", []byte{0xDF, 0x00, 0x90}, []byte{0x00, 0x10, 0xFC}, Target{0x1000, Bank{Kind: LowerROM}}, "lower"},
		{"FAR CALL &FC, high", []byte{0xDF, 0x00, 0x90}, []byte{0x00, 0xD0, 0xFC}, Target{0xD000, Bank{Kind: SelectedROM}}, "upper"},
		{"FAR CALL &FD", []byte{0xDF, 0x00, 0x90}, []byte{0x00, 0x10, 0xFD}, Target{0x1000, Bank{Kind: RAM}}, "ram"},
		{"FAR CALL &FE, high", []byte{0xDF, 0x00, 0x90}, []byte{0x00, 0xD0, 0xFE}, Target{0xD000, Bank{Kind: RAM}}, "ram"},
		{"FAR CALL &FE, low", []byte{0xDF, 0x00, 0x90}, []byte{0x00, 0x10, 0xFE}, Target{0x1000, Bank{Kind: LowerROM}}, "lower"},
		{"FAR CALL &FF", []byte{0xDF, 0x00, 0x90}, []byte{0x00, 0xD0, 0xFF}, Target{0xD000, Bank{Kind: RAM}}, "ram"},
		{"FIRM JUMP low", []byte{0xEF, 0x18, 0x2F}, nil, Target{0x2F18, Bank{Kind: LowerROM}}, "lower"},
		{"FIRM JUMP middle", []byte{0xEF, 0x00, 0x80}, nil, Target{0x8000, Bank{Kind: RAM}}, "ram"},
		{"FIRM JUMP high", []byte{0xEF, 0x00, 0xC0}, nil, Target{0xC000, Bank{Kind: AsBanked}}, "banked"},
	} {
		var m flat
		m.load(0, lower[:0x40])
		m.load(0x4000, tt.code)
		m.load(0x9000, tt.far)
		in := d.Decode(m.read, 0x4000)
		if in.Target != tt.want || in.Target.In.String() != tt.wants {
			t.Errorf("%s: %q goes to &%04X in %s, want &%04X in %s", tt.name, in, in.Target.Addr, in.Target.In, tt.want.Addr, tt.wants)
		}
	}
	// A restart listed alone, and any other instruction, goes nowhere.
	var m flat
	m.load(0x4000, []byte{0xCF, 0x00, 0x00, 0xC3, 0x00, 0x10})
	for _, in := range []Instruction{d.Decode(m.read, 0x4000), d.Decode(m.read, 0x4003)} {
		if in.Target != (Target{}) || in.Target.In.String() != "" {
			t.Errorf("%q has a target: %+v", in, in.Target)
		}
	}
}
