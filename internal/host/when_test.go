package host

import (
	"testing"

	"colophon/internal/shared"
	"colophon/internal/watch"
)

// Programs that write a word with LD (&9000),HL (UM0080: L to the address,
// then H to the one after, as the emulator writes them) in a loop at
// &8004.
var (
	// countUp writes HL, adding 1 each time, from start.
	countUp = func(start uint16) []byte {
		return []byte{0xF3, 0x21, byte(start), byte(start >> 8), 0x22, 0x00, 0x90, 0x23, 0x18, 0xFA}
	}
	// stepHigh writes HL, adding &100 each time, from start.
	stepHigh = func(start uint16) []byte {
		return []byte{0xF3, 0x21, byte(start), byte(start >> 8), 0x22, 0x00, 0x90, 0x24, 0x18, 0xFA}
	}
)

// when1234 is when &9000 holds the word &1234.
var when1234 = WhenArg{Address: "&9000", Bytes: "34 12"}

func withWhen(c Condition, w WhenArg) Condition { c.When = w; return c }

// wordRig is a Spectrum running a word-writing program.
func wordRig(t *testing.T, code []byte) *rig {
	r := newRig(t, "spectrum48")
	r.program(0x8000, code...)
	return r
}

// gathered runs a word program's rig for ticks with conditions gathered,
// and answers where and what each match wrote.
func gathered(r *rig, ticks uint64, cs ...Condition) []string {
	mv := r.runTicks(ticks, Conditions{Gather: cs})
	return field(mv.Gathered, func(m watch.Match) string { return m.Address + " " + m.Byte })
}

// TestWHEN11HighByte holds WHEN-5, WHEN-6 and WHEN-11: a word is asked for
// on the byte written last, the high byte of LD (nn),HL; there the
// condition matches every write of the word, and once in a program that
// counts the word up, where it writes &1234; never a write of the low
// byte alone.
func TestWHEN11HighByte(t *testing.T) {
	r := wordRig(t, countUp(0x1200))
	if got := gathered(r, 5000, withWhen(writeAt("&9001"), when1234)); !same(got, []string{"&9001 &12"}) {
		t.Errorf("the high byte with when matched %v, want once", got)
	}
	// Every such write, the same value written again included.
	r = wordRig(t, []byte{0xF3, 0x21, 0x34, 0x12, 0x22, 0x00, 0x90, 0x18, 0xFB}) // LD HL,&1234; loop: LD (&9000),HL
	twin := r.twin()
	with := gathered(r, 20*28, withWhen(writeAt("&9001"), when1234))
	if without := gathered(twin, 20*28, writeAt("&9001")); len(with) < 20 || !same(with, without) {
		t.Errorf("the same word written again and again matched %d times, of %d writes", len(with), len(without))
	}
}

// TestWHEN12BothBytes holds WHEN-8 and WHEN-12: a condition on both bytes
// matches the write that completes the value; again where a later value's
// low byte meets the high byte still standing; and at both writes of one
// word whose high byte already stood.
func TestWHEN12BothBytes(t *testing.T) {
	both := withWhen(writeIn("&9000", "&9001"), when1234)
	// &1134, &1234, &1334: &1234's high byte completes it; &1334's low
	// byte meets &12 still standing.
	r := wordRig(t, stepHigh(0x1134))
	if got, want := gathered(r, 34*4, both), []string{"&9001 &12", "&9000 &34"}; !same(got, want) {
		t.Errorf("stepping the high byte, both bytes matched %v, want %v", got, want)
	}
	// &1232, &1233, &1234: &12 stood, so both of &1234's writes match.
	r = wordRig(t, countUp(0x1232))
	if got, want := gathered(r, 10+34*3, both), []string{"&9000 &34", "&9001 &12"}; !same(got, want) {
		t.Errorf("counting up, both bytes matched %v, want %v", got, want)
	}
}

// TestWHEN7ChangesOnTheLastByte holds WHEN-7: changes on the byte written
// last tests that byte alone, and passes over a word whose last byte
// already stood.
func TestWHEN7ChangesOnTheLastByte(t *testing.T) {
	c := withWhen(writeAt("&9001"), when1234)
	c.Changes = true
	if got := gathered(wordRig(t, countUp(0x1232)), 10+34*3, c); len(got) != 0 {
		t.Errorf("changes matched %v where &12 already stood", got)
	}
	if got := gathered(wordRig(t, stepHigh(0x1134)), 34*3, c); !same(got, []string{"&9001 &12"}) {
		t.Errorf("changes matched %v where &11 became &12", got)
	}
}

// TestWHEN5PushOrder holds WHEN-5: PUSH writes the high byte first
// (UM0080, PUSH), so a word it pushes is asked for on its low byte.
func TestWHEN5PushOrder(t *testing.T) {
	code := []byte{0xF3, 0x31, 0x02, 0x90, 0x01, 0x34, 0x12, 0xC5, 0x18, 0xFE} // LD SP,&9002; LD BC,&1234; PUSH BC
	if got := gathered(wordRig(t, code), 60, writeIn("&9000", "&9001")); !same(got, []string{"&9001 &12", "&9000 &34"}) {
		t.Errorf("PUSH wrote %v, want the high byte first", got)
	}
	if got := gathered(wordRig(t, code), 60, withWhen(writeAt("&9000"), when1234)); !same(got, []string{"&9000 &34"}) {
		t.Errorf("the low byte with when matched %v", got)
	}
	if got := gathered(wordRig(t, code), 60, withWhen(writeAt("&9001"), when1234)); len(got) != 0 {
		t.Errorf("the high byte, written first, matched %v", got)
	}
}

// TestWHEN10WhenIsRead holds WHEN-3, WHEN-4 and WHEN-10: when is read
// before an instruction runs; for a write, after the write's own byte has
// landed and before the next its instruction writes, and a stop on it,
// at the end of the instruction, finds the bytes the instruction leaves.
func TestWHEN10WhenIsRead(t *testing.T) {
	r := wordRig(t, countUp(0x1232))
	exec := withWhen(execAt("&8004"), WhenArg{Address: "&9000", Bytes: "00 00"})
	mv := r.runTicks(10+34*3, Conditions{Gather: []Condition{exec}})
	if len(mv.Gathered) != 1 || mv.Gathered[0].Tick != 14 { // after DI and LD HL,nn: 4 and 10 ticks
		t.Errorf("an exec when reading the word before it was first written: %s; want the first pass alone", asJSON(mv.Gathered))
	}
	// &1234 over &1134: its low byte lands beside &11 still standing.
	r = wordRig(t, stepHigh(0x1134))
	mv = r.runTicks(1000, Conditions{Until: []Condition{withWhen(writeAt("&9000"), WhenArg{Address: "&9000", Bytes: "34 11"})}})
	if mv.Stop != stopUntil || mv.Until.Byte != "&34" || r.peek("&9000", 2).Bytes != "34 12" {
		t.Errorf("until on the low byte's write: %s, &9000 holds %s after; want a stop where 34 11 stood, finding 34 12", asJSON(mv), r.peek("&9000", 2).Bytes)
	}
}

// TestWHEN9Equivalences holds WHEN-9: a stop on when is the first of the
// stops a client makes without it, reading memory after each, at which
// the bytes stand; a gathering on when is the stops it makes one run at a
// time; a count on when is their number.
func TestWHEN9Equivalences(t *testing.T) {
	high := writeAt("&9001")
	r := wordRig(t, countUp(0x1200))
	twin, twin2, twin3 := r.twin(), r.twin(), r.twin()
	mv := r.runTicks(100000, Conditions{Until: []Condition{withWhen(high, when1234)}})
	var found Moved
	for range 100 {
		s := twin.runTicks(100000, Conditions{Until: []Condition{high}})
		if twin.peek("&9000", 2).Bytes == "34 12" {
			found = s
			break
		}
	}
	if mv.Stop != stopUntil || asJSON(mv.Until) != asJSON(found.Until) || r.tick() != twin.tick() {
		t.Errorf("until with when: %s at %d; the client's first stop where 34 12 stands: %s at %d", asJSON(mv.Until), r.tick(), asJSON(found.Until), twin.tick())
	}

	// Over a stretch in which the word counts through &1234 ten times
	// (as the low byte does on each high byte).
	conds := []Condition{withWhen(writeIn("&9000", "&9001"), WhenArg{Address: "&9000", Bytes: "34 ??"})}
	start := twin2.tick()
	g := twin2.runTicks(34*0x1000, Conditions{Gather: conds})
	var stops []stop
	for twin3.tick() < twin2.tick() {
		s := twin3.runTicks(twin2.tick()-twin3.tick(), Conditions{Until: conds})
		if s.Stop != stopUntil {
			break
		}
		stops = append(stops, stop{s.Until, twin3.tick()})
	}
	if len(g.Gathered) < 16 {
		t.Fatalf("the gathering on when found %d matches", len(g.Gathered))
	}
	checkStopsN(t, "when", start, g.Gathered, stops, 16)
	c := wordRig(t, countUp(0x1200)).runTicks(34*0x1000, Conditions{Count: conds})
	n := uint64(0)
	for _, p := range c.Count.Writes {
		n += p.Count
	}
	if n != uint64(len(g.Gathered)) {
		t.Errorf("the count on when is %d, the gathering %d", n, len(g.Gathered))
	}
}

// TestWHEN13CPCReadsTheLowerROM holds WHEN-2 and WHEN-13: a CPC's when
// reads memory as the processor does, the lower ROM where it is enabled
// and the RAM beneath where it is not.
func TestWHEN13CPCReadsTheLowerROM(t *testing.T) {
	rom := shared.ReadFile(t, "roms", "cpc6128.rom")
	romBytes := watch.HexBytes(rom[0x0100:0x0104])
	if romBytes == "00 00 00 00" {
		t.Fatal("the ROM holds zeros at &0100")
	}
	inROM := WhenArg{Address: "&0100", Bytes: romBytes}
	inRAM := WhenArg{Address: "&0100", Bytes: "00 00 00 00"} // the RAM at power-on
	// NOP at &4001 with the lower ROM enabled, as at power-on; the Gate
	// Array's &8D turns the ROMs off; NOP at &4007.
	code := []byte{0xF3, 0x00, 0x01, 0x8D, 0x7F, 0xED, 0x49, 0x00, 0x18, 0xFE}
	r := newRig(t, "cpc6128")
	r.program(0x4000, code...)
	twin := r.twin()
	mv := r.runTicks(200, Conditions{Gather: []Condition{withWhen(execAt("&4001"), inROM), withWhen(execAt("&4007"), inRAM)}})
	if got := field(mv.Gathered, func(m watch.Match) string { return m.Address }); !same(got, []string{"&4001", "&4007"}) {
		t.Errorf("when read the ROM, then the RAM: matched %v", got)
	}
	mv = twin.runTicks(200, Conditions{Gather: []Condition{withWhen(execAt("&4001"), inRAM), withWhen(execAt("&4007"), inROM)}})
	if len(mv.Gathered) != 0 {
		t.Errorf("when read the RAM beneath the enabled ROM, or the ROM disabled: %s", asJSON(mv.Gathered))
	}
}
