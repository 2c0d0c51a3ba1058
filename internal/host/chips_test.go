package host

import (
	"context"
	"fmt"
	"testing"

	"colophon/internal/shared"
	"colophon/internal/watch"
)

// The 6128 firmware's listing cited below is Bread80's
// CPC6128-Firmware-Source, a disassembly of the 6128's ROM with each
// instruction's address; the firmware is the one the tests boot.

// out is LD BC,port; OUT (C),C for a byte carried in the port's low half.
func out(port uint16) []byte {
	return []byte{0x01, byte(port), byte(port >> 8), 0xED, 0x49}
}

func join(parts ...[]byte) []byte {
	var b []byte
	for _, p := range parts {
		b = append(b, p...)
	}
	return b
}

// TestPSG4UnselectedAtPowerOn holds PSG-2 to PSG-5: the PSG is reset at
// power-on, unselected, and takes no write, and a psg condition matches
// none, until a register address from 0 to 15 is latched; a byte above 15
// leaves it unselected again; and every PPI access that leaves port C
// giving WRITE to a selected chip is a write, an IN from the PPI and the
// PPI's bit set/reset among them (spec, "Stopping and watching"). The
// PPI's ports are programmed and the PSG driven as CPCWiki's "How to
// access the PSG via PPI" gives it: port A its data, port C bits 7-6 its
// function, &C0 select, &80 write, &00 inactive.
func TestPSG4UnselectedAtPowerOn(t *testing.T) {
	r := newRig(t, "cpc6128")
	p := prog{at: 0x4000}
	p.emit(0xF3)                             // DI
	p.out(0xF782)                            // PPI: A and C outputs, B an input
	p.out(0xF455)                            // port A: &55
	p.out(0xF680)                            // WRITE, to an unselected chip: nothing
	p.out(0xF600)                            // inactive
	p.out(0xF407)                            // port A: register 7
	p.out(0xF6C0)                            // LATCH ADDRESS: 7
	p.out(0xF600)                            //
	p.out(0xF43F)                            // port A: &3F
	w1 := p.out(0xF680)                      // WRITE: register 7 takes &3F
	w2 := p.emit(0x06, 0xF4, 0xED, 0x78) + 2 // LD B,&F4; IN A,(C): port C still gives WRITE: &3F again
	p.out(0xF600)                            //
	w3 := p.out(0xF70F)                      // bit set: port C's bit 7, WRITE again
	p.out(0xF600)                            //
	p.out(0xF417)                            // port A: &17, above 15
	p.out(0xF6C0)                            // LATCH ADDRESS: unselected
	p.out(0xF600)                            //
	p.out(0xF680)                            // WRITE: nothing
	p.emit(0x18, 0xFE)
	r.program(0x4000, p.code...)
	mv := r.runTicks(2000, Conditions{Gather: []Condition{{Kind: "psg"}}})
	got := field(mv.Gathered, func(m watch.Match) string { return fmt.Sprintf("R%d %s %s", m.Register, m.Byte, m.PC) })
	want := []string{"R7 &3F " + hexes(w1)[0], "R7 &3F " + hexes(w2)[0], "R7 &3F " + hexes(w3)[0]}
	if !same(got, want) {
		t.Errorf("psg matches %v, want %v", got, want)
	}
	if r.num("psg.chip_selected") != 0 {
		t.Error("a latched &17 left the PSG selected")
	}
}

// prog assembles a test program at an address.
type prog struct {
	at   uint16
	code []byte
}

// emit adds bytes, answering where they begin.
func (p *prog) emit(b ...byte) uint16 {
	a := p.at + uint16(len(p.code))
	p.code = append(p.code, b...)
	return a
}

// out adds LD BC,port; OUT (C),C, answering the OUT's address.
func (p *prog) out(port uint16) uint16 { return p.emit(out(port)...) + 3 }

// psgWriter writes register C with A as the PPI protocol above gives it
// (CPCWiki, "How to access the PSG via PPI"), at &4000; its WRITE is
// &4015.
var psgWriter = join(
	[]byte{0x06, 0xF4, 0xED, 0x49}, // LD B,&F4; OUT (C),C: the register
	out(0xF6C0),                    // select
	out(0xF600),                    // inactive
	[]byte{0x06, 0xF4, 0xED, 0x79}, // LD B,&F4; OUT (C),A: the data
	out(0xF680),                    // write (&4015)
	out(0xF600),                    // inactive
	[]byte{0xC9},
)

// TestPSG8Writes holds PSG-5 to PSG-8: registers written through a
// routine of our own, through MC SOUND REGISTER and through SOUND QUEUE
// are matched where and in the order the 6128's listing makes them. MC
// SOUND REGISTER (&0863, Machine.asm) writes at its OUT (C),A of &087D,
// with its callers' return address on the stack: SOUND QUEUE's tone by
// write_tone_to_PSG (&2481, Sound.asm), registers 0 then 1 (returning to
// &248C, then by its JP to set_tone_and_get_tone_envelope's &240B); the
// channel silenced and its mixer set by update_mixer_for_channel (&23E8),
// registers 8 then 7 (returning to &2401, then to set_initial_values'
// &22FF); the volume by the envelope's write_volume_ (returning to
// &2345); and, the sound over, the channel disabled by the sound
// processing (returning to &2401, then &20CD).
func TestPSG8Writes(t *testing.T) {
	r := newRig(t, "cpc6128")
	r.frames(100)
	r.poke(0x4000, psgWriter...)
	capture := CaptureArgs{Memory: []SpanArg{{Address: "cpu.sp", Length: 2}}}
	psg := Conditions{Gather: []Condition{{Kind: "psg", Capture: capture}}}
	var got, rets []string
	note := func(mv Moved) {
		for _, g := range mv.Gathered {
			ret := g.Captured.Memory[0].Bytes
			got = append(got, fmt.Sprintf("R%d %s %s %s", g.Register, g.Byte, g.PC, g.PCROM))
			rets = append(rets, "&"+ret[3:]+ret[:2])
		}
	}
	note(r.call(CallArgs{Address: "&4000", Values: []byte(`{"cpu.c": 7, "cpu.a": 63}`), Conditions: psg}))
	note(r.call(CallArgs{Address: "&BD34", Values: []byte(`{"cpu.a": 8, "cpu.c": 15}`), Conditions: psg}))
	note(r.call(CallArgs{Address: "&BD34", Values: []byte(`{"cpu.a": 9, "cpu.c": 12}`), Conditions: psg}))
	// SOUND QUEUE's block (SOFT 968): channel A, no envelopes, tone period
	// &011C, no noise, volume 15, 50 hundredths of a second.
	r.poke(0x4100, 0x01, 0x00, 0x00, 0x1C, 0x01, 0x00, 0x0F, 0x32, 0x00)
	note(r.call(CallArgs{Address: "&BCAA", Values: []byte(`{"cpu.h": 65, "cpu.l": 0}`), Conditions: psg}))
	note(r.run(RunArgs{Frames: ptr(uint64(40)), Conditions: psg}))
	want := []string{
		"R7 &3F &4015 ", // our routine in RAM
		"R8 &0F &087D lower",
		"R9 &0C &087D lower",
		"R0 &1C &087D lower",
		"R1 &01 &087D lower",
		"R8 &00 &087D lower",
		"R7 &3E &087D lower",
		"R8 &0F &087D lower",
		"R8 &00 &087D lower",
		"R7 &3F &087D lower",
	}
	// The first three return to where each call was made, which the test
	// does not fix.
	wantRets := []string{"&248C", "&240B", "&2401", "&22FF", "&2345", "&2401", "&20CD"}
	if !same(got, want) || len(rets) != len(want) || !same(rets[3:], wantRets) {
		t.Errorf("the PSG was written\n%v, returning to %v\nwant\n%v, returning to %v", got, rets, want, wantRets)
	}
}

// TestCRTC8Writes holds CRTC-1 to CRTC-5, CRTC-7 and CRTC-8: registers
// written with OUT and with IN A,(n), one selected with IN A,(n); the
// 6128's firmware loading its table as it starts (Machine.asm, &05B4: R15
// down to R0, each selected at &05B7 and written at &05BC from the 50 Hz
// table at &05C5); and MC SCREEN OFFSET (&07C0) writing R12 at &07D1 and
// R13 at &07DC.
func TestCRTC8Writes(t *testing.T) {
	r := newRig(t, "cpc6128")
	mv := r.run(RunArgs{Frames: ptr(uint64(1)), Conditions: Conditions{Gather: []Condition{
		{Kind: "crtc"},
		{Kind: "out", Port: "&BC00", Mask: "&4300"}, // selects (CRTC-7)
	}}})
	rom := shared.ReadFile(t, "roms", "cpc6128.rom")
	var got, want []string
	for _, g := range mv.Gathered[:32] {
		got = append(got, fmt.Sprintf("%s %d %s %s %s", g.Kind, g.Register, g.Port, g.Byte, g.PC))
	}
	for reg := 15; reg >= 0; reg-- {
		want = append(want, fmt.Sprintf("out 0 &BC%02X &%02X &05B7", reg, reg))
		want = append(want, fmt.Sprintf("crtc %d  &%02X &05BC", reg, rom[0x05C5+reg]))
	}
	if !same(got, want) {
		t.Errorf("the firmware's start-up wrote the 6845\n%v\nwant\n%v", got, want)
	}
	if rom[0x05C5+12] != 0x30 || rom[0x05C5+0] != 0x3F {
		t.Errorf("the 50 Hz table is not where the listing has it")
	}

	r.frames(100)
	mv = r.call(CallArgs{Address: "&BD1F", Values: []byte(`{"cpu.a": 192, "cpu.h": 0, "cpu.l": 80}`), Conditions: Conditions{Gather: []Condition{{Kind: "crtc"}}}})
	got = field(mv.Gathered, func(m watch.Match) string { return fmt.Sprintf("R%d %s %s %s", m.Register, m.Byte, m.PC, m.PCROM) })
	// Base &C0 gives R12 &30, offset &0050 R13 &28 (the listing's
	// arithmetic at &07C1-&07DB).
	if want := []string{"R12 &30 &07D1 lower", "R13 &28 &07DC lower"}; !same(got, want) {
		t.Errorf("MC SCREEN OFFSET wrote %v, want %v", got, want)
	}

	// OUT and IN A,(n): an IN from the select port selects, with A on the
	// address bus's top half; from the write port it writes (CRTC-2,
	// CRTC-3).
	r = newRig(t, "cpc6128")
	r.program(0x4000,
		0xF3,
		0x3E, 0xBC, 0xDB, 0x0C, // LD A,&BC; IN A,(&0C): selects &BC, register 28 (&4003)
		0x01, 0x0C, 0xBC, 0xED, 0x49, // select R12
		0x3E, 0xBD, 0xDB, 0x00, // LD A,&BD; IN A,(&00): writes &BD (&400C)
		0x01, 0x30, 0xBD, 0xED, 0x49, // OUT (C),C: writes &30 (&4011)
		0x18, 0xFE,
	)
	mv = r.runTicks(400, Conditions{Gather: []Condition{{Kind: "crtc"}, {Kind: "in", Port: "&BC00", Mask: "&4300"}}})
	got = field(mv.Gathered, func(m watch.Match) string {
		return fmt.Sprintf("%s %d %s %s", m.Kind, m.Register, m.Port, m.PC)
	})
	if want := []string{"in 0 &BC0C &4003", "crtc 12  &400C", "crtc 12  &4011"}; !same(got, want) {
		t.Errorf("OUT and IN to the 6845: %v, want %v", got, want)
	}
	if mv.Gathered[1].Byte != "&BD" || mv.Gathered[2].Byte != "&30" || r.num("crtc.selected") != 12 {
		t.Errorf("OUT and IN to the 6845: %s, selected %d", asJSON(mv.Gathered), r.num("crtc.selected"))
	}
}

// TestCRTC6WhereTheChipTakesTheWrite holds CRTC-6: a crtc match comes in
// the µs the chip takes the write, an OUT (C),r's 3rd on types 0 to 2 and
// 4th on types 3 and 4, an OUT (n),A's 3rd and an OUTI's 5th on every type
// (Compendium ch. 4.4.4, as the board's own test holds them).
func TestCRTC6WhereTheChipTakesTheWrite(t *testing.T) {
	for _, c := range []struct {
		name string
		code []byte
		us   [5]uint64
	}{
		{"OUT (C),C", []byte{0x01, 0x0C, 0xBD, 0xED, 0x49}, [5]uint64{3, 3, 3, 4, 4}},
		{"OUT (n),A", []byte{0x3E, 0xBD, 0xD3, 0x0C}, [5]uint64{3, 3, 3, 3, 3}},
		{"OUTI", []byte{0x01, 0x00, 0xBE, 0x21, 0x00, 0x80, 0xED, 0xA3}, [5]uint64{5, 5, 5, 5, 5}},
	} {
		for ty := range 5 {
			h := New(Options{Firmware: newHostFirmware(t), Build: "test"})
			ct := CRTCType(ty)
			o, err := h.Open(context.Background(), OpenArgs{Machine: "cpc6128", CRTC: &ct})
			if err != nil {
				t.Fatal(err)
			}
			r := &rig{t: t, h: h, ctx: context.Background(), handle: o.Handle}
			r.program(0x4000, append([]byte{0xF3}, c.code...)...)
			last := fmt.Sprintf("&%04X", 0x4001+len(c.code)-2)
			mv := r.runTicks(200, Conditions{Gather: []Condition{execAt(last), {Kind: "crtc"}}})
			if len(mv.Gathered) != 2 {
				t.Fatalf("%s type %d: %s", c.name, ty, asJSON(mv.Gathered))
			}
			if us := (mv.Gathered[1].Tick-mv.Gathered[0].Tick)/4 + 1; us != c.us[ty] {
				t.Errorf("%s type %d: the crtc match came in µs %d, want %d", c.name, ty, us, c.us[ty])
			}
		}
	}
}

// TestVC2GateArrayCommands holds VC-1 and VC-2: one condition on the Gate
// Array's port with value &80 to &BF picks out the writes that set its
// mode, ROMs and interrupt counter, the command in the byte's top two bits
// 10 (cpctech, "The Gate Array"), from those that choose pens and inks.
func TestVC2GateArrayCommands(t *testing.T) {
	r := newRig(t, "cpc6128")
	r.frames(90)
	twin := r.twin()
	ga := Condition{Kind: "out", Port: "&7F00", Mask: "&C000"}
	all := r.run(RunArgs{Frames: ptr(uint64(3)), Conditions: Conditions{Gather: []Condition{ga}}})
	ga.Value, ga.ValueTo = "&80", "&BF"
	picked := twin.run(RunArgs{Frames: ptr(uint64(3)), Conditions: Conditions{Gather: []Condition{ga}}})
	var want []watch.Match
	other := 0
	for _, g := range all.Gathered {
		var b int
		fmt.Sscanf(g.Byte, "&%X", &b)
		if b>>6 == 2 {
			want = append(want, g)
		} else {
			other++
		}
	}
	if len(want) == 0 || asJSON(want) != asJSON(picked.Gathered) {
		t.Errorf("value &80-&BF picked %d of the Gate Array's writes; the writes of command 10 are %d", len(picked.Gathered), len(want))
	}
	// A program of our own writes a pen, an ink, and the mode and ROMs.
	p := prog{at: 0x4000}
	p.emit(0xF3)
	p.out(0x7F00) // pen 0: command 00
	p.out(0x7F54) // ink &14: command 01
	mode := p.out(0x7F89)
	p.out(0x7F9D) // 10 with bit 5 set, which has no effect
	p.emit(0x18, 0xFE)
	r.program(0x4000, p.code...)
	mv := r.runTicks(200, Conditions{Gather: []Condition{ga}})
	got := field(mv.Gathered, func(m watch.Match) string { return m.Byte + " " + m.PC })
	if want := []string{"&89 " + hexes(mode)[0], "&9D " + hexes(mode + 5)[0]}; !same(got, want) {
		t.Errorf("value &80-&BF on the Gate Array matched %v, want %v", got, want)
	}
	_ = other
}

// TestVC4Changes holds VC-3 to VC-7: changes matches a write only where it
// leaves the byte or register holding other than it held; with value on
// memory it is the write that makes the byte that, once; a register is
// judged as it keeps the byte, value by the byte given; a write beneath a
// CPC's enabled ROM by the RAM it lands in; and a write to a Spectrum's
// ROM changes nothing.
func TestVC4Changes(t *testing.T) {
	// A counter from 0 to 9, each value written twice.
	s := newRig(t, "spectrum48")
	s.program(0x8000, 0xF3, 0xAF, 0x32, 0x00, 0x90, 0x32, 0x00, 0x90, 0x3C, 0xFE, 0x0A, 0x20, 0xF5, 0x18, 0xFE)
	twin1, twin2 := s.twin(), s.twin()
	count := func(r *rig, c Condition) int {
		return len(r.runTicks(3000, Conditions{Gather: []Condition{c}}).Gathered)
	}
	six := writeAt("&9000")
	six.Value, six.Changes = "6", true
	if n := count(s, six); n != 1 {
		t.Errorf("the counter became 6 %d times", n)
	}
	six.Changes = false
	if n := count(twin1, six); n != 2 {
		t.Errorf("6 was written %d times, want 2", n)
	}
	changes := writeAt("&9000")
	changes.Changes = true
	if n := count(twin2, changes); n != 9 {
		t.Errorf("the counter changed %d times, want 9: from 0 to 9, 0 written over 0", n)
	}
	// A write to the Spectrum's ROM lands nowhere.
	s = newRig(t, "spectrum48")
	s.program(0x8000, 0xF3, 0x3E, 0xAA, 0x32, 0x10, 0x00, 0x18, 0xFE) // LD A,&AA; LD (&0010),A
	rom := writeAt("&0010")
	rom.Changes = true
	twin := s.twin()
	if n := count(s, rom); n != 0 {
		t.Errorf("a write to the ROM changed it %d times", n)
	}
	if n := count(twin, writeAt("&0010")); n != 1 {
		t.Errorf("the write to the ROM matched %d times, want 1", n)
	}

	// A write beneath the CPC's lower ROM, enabled at power-on, is judged
	// by the RAM there, 0, and not by the ROM's byte.
	c := newRig(t, "cpc6128")
	c.program(0x4000, 0xF3, 0xAF, 0x32, 0x00, 0x01, 0x3C, 0x32, 0x00, 0x01, 0x18, 0xFE) // XOR A; LD (&0100),A; INC A; LD (&0100),A
	if c.peek("&0100", 1).Bytes == "00" {
		t.Fatal("the lower ROM holds 0 at &0100; the test needs another byte")
	}
	beneath := writeAt("&0100")
	beneath.Changes = true
	mv := c.runTicks(200, Conditions{Gather: []Condition{beneath}})
	if len(mv.Gathered) != 1 || mv.Gathered[0].Byte != "&01" {
		t.Errorf("writes beneath the ROM that changed the RAM: %s; want the 1 alone", asJSON(mv.Gathered))
	}

	// Registers: R12 keeps six bits, so &F0 leaves &30 standing; a PSG's
	// register 1 keeps four, so &F1 leaves &01.
	c = newRig(t, "cpc6128")
	c.program(0x4000, join(
		[]byte{0xF3},
		out(0xBC0C), // select R12
		out(0xBD30), out(0xBD30), out(0xBDF0), out(0xBD31),
		out(0xF782), out(0xF401), out(0xF6C0), out(0xF600), // the PSG's register 1
		out(0xF401), out(0xF680), out(0xF600),
		out(0xF4F1), out(0xF680), out(0xF600),
		[]byte{0x18, 0xFE},
	)...)
	twin = c.twin()
	ch := Conditions{Gather: []Condition{{Kind: "crtc", Register: RegisterNumbered(12), Changes: true}, {Kind: "psg", Register: RegisterNumbered(1), Changes: true}}}
	mv = c.runTicks(1000, ch)
	got := field(mv.Gathered, func(m watch.Match) string { return fmt.Sprintf("%s %d %s", m.Kind, m.Register, m.Byte) })
	if want := []string{"crtc 12 &30", "crtc 12 &31", "psg 1 &01"}; !same(got, want) {
		t.Errorf("register writes that changed: %v, want %v", got, want)
	}
	// value tests the byte given, whatever the register keeps (VC-5).
	mv = twin.runTicks(1000, Conditions{Gather: []Condition{{Kind: "crtc", Value: "&F0"}, {Kind: "psg", Value: "&F1"}}})
	got = field(mv.Gathered, func(m watch.Match) string { return fmt.Sprintf("%s %d %s", m.Kind, m.Register, m.Byte) })
	if want := []string{"crtc 12 &F0", "psg 1 &F1"}; !same(got, want) {
		t.Errorf("register writes of value: %v, want %v", got, want)
	}
}
