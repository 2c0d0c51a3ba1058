package z80_test

import (
	"fmt"
	"strings"
	"testing"

	"colophon/internal/chip/z80"
)

// logBus is 64K of RAM that logs every bus call with the tick of its T1,
// and whether it came from an interrupt's response. The byte it gives on an
// acknowledge is ack.
type logBus struct {
	cpu   *z80.CPU
	mem   [1 << 16]byte
	ack   byte
	calls []string
	// wait, if set, is added to every memory read and write as wait states.
	wait uint64
}

func (b *logBus) logf(format string, args ...any) {
	s := fmt.Sprintf("%d ", b.cpu.Tick) + fmt.Sprintf(format, args...)
	if b.cpu.Responding {
		s += " response"
	}
	b.calls = append(b.calls, s)
}

func (b *logBus) Fetch(a uint16) byte {
	b.logf("fetch %04x", a)
	return b.mem[a]
}

func (b *logBus) Read(a uint16) byte {
	b.logf("read %04x", a)
	b.cpu.Tick += b.wait
	return b.mem[a]
}

func (b *logBus) Write(a uint16, v byte) {
	b.logf("write %04x %02x", a, v)
	b.cpu.Tick += b.wait
	b.mem[a] = v
}

func (b *logBus) In(p uint16) byte            { b.logf("in %04x", p); return 0xff }
func (b *logBus) Out(p uint16, v byte)        { b.logf("out %04x %02x", p, v) }
func (b *logBus) Internal(a uint16, n int)    { b.logf("internal %04x %d", a, n) }
func (b *logBus) Acknowledge() byte           { b.logf("ack"); return b.ack }
func (b *logBus) load(a uint16, code ...byte) { copy(b.mem[a:], code) }
func (b *logBus) word(a uint16) uint16        { return uint16(b.mem[a]) | uint16(b.mem[a+1])<<8 }
func (b *logBus) setWord(a uint16, v uint16)  { b.mem[a], b.mem[a+1] = byte(v), byte(v>>8) }
func (b *logBus) log() string                 { return strings.Join(b.calls, "\n") }
func (b *logBus) clear()                      { b.calls = b.calls[:0] }

// newLogCPU is a processor at power-on on a fresh logBus, with PC, SP, I and
// R set so that the addresses in a log are easy to tell apart.
func newLogCPU() (*z80.CPU, *logBus) {
	c := &z80.CPU{}
	b := &logBus{cpu: c, ack: 0xff}
	c.Reset()
	c.Bus = b
	c.PC, c.SP, c.I, c.R = 0x1234, 0x8000, 0x3f, 0x10
	return c, b
}

func lines(s ...string) string { return strings.Join(s, "\n") }

// The responses, cycle by cycle. UZD ("Interrupts") gives their lengths:
// NMI 11 T-states, mode 0 with an RST 13, mode 1 13, mode 2 19. UM0080
// ("Interrupt Response"; figures "Interrupt Request/Acknowledge Cycle" and
// "Non-Maskable Interrupt Request Operation") gives their shapes: the
// acknowledge is an M1 two T-states longer than a fetch, with its refresh;
// the NMI's M1 fetches at PC and ignores the byte; then PC is pushed, high
// byte first, and in mode 2 the vector's word is read.
func TestInterruptResponses(t *testing.T) {
	tests := []struct {
		name   string
		im     byte
		nmi    bool
		ack    byte
		ticks  uint64
		pc     uint16
		log    string
		iff2   bool // after the response
		vector uint16
	}{
		{
			name: "NMI", nmi: true, ticks: 11, pc: 0x0066, iff2: true,
			log: lines(
				"0 fetch 1234 response",
				"4 internal 3f11 1 response",
				"5 write 7fff 12 response",
				"8 write 7ffe 34 response"),
		},
		{
			name: "IM 1", im: 1, ack: 0x00, ticks: 13, pc: 0x0038,
			log: lines(
				"0 ack response",
				"6 internal 3f11 1 response",
				"7 write 7fff 12 response",
				"10 write 7ffe 34 response"),
		},
		{
			// The device's byte, if it is an RST, is the restart taken.
			name: "IM 0 RST &08 on the bus", im: 0, ack: 0xcf, ticks: 13, pc: 0x0008,
			log: lines(
				"0 ack response",
				"6 internal 3f11 1 response",
				"7 write 7fff 12 response",
				"10 write 7ffe 34 response"),
		},
		{
			// &FF, a floating bus, is RST &38.
			name: "IM 0 floating bus", im: 0, ack: 0xff, ticks: 13, pc: 0x0038,
			log: lines(
				"0 ack response",
				"6 internal 3f11 1 response",
				"7 write 7fff 12 response",
				"10 write 7ffe 34 response"),
		},
		{
			// Any other byte is taken as &FF: the package's documented
			// choice, since neither board gives one.
			name: "IM 0 other byte", im: 0, ack: 0x00, ticks: 13, pc: 0x0038,
			log: lines(
				"0 ack response",
				"6 internal 3f11 1 response",
				"7 write 7fff 12 response",
				"10 write 7ffe 34 response"),
		},
		{
			// The vector's low byte is the device's, odd or even: the
			// processor does not clear bit 0.
			name: "IM 2 odd vector", im: 2, ack: 0xff, ticks: 19, pc: 0xbeef, vector: 0x3fff,
			log: lines(
				"0 ack response",
				"6 internal 3f11 1 response",
				"7 write 7fff 12 response",
				"10 write 7ffe 34 response",
				"13 read 3fff response",
				"16 read 4000 response"),
		},
		{
			name: "IM 2 even vector", im: 2, ack: 0x40, ticks: 19, pc: 0xcafe, vector: 0x3f40,
			log: lines(
				"0 ack response",
				"6 internal 3f11 1 response",
				"7 write 7fff 12 response",
				"10 write 7ffe 34 response",
				"13 read 3f40 response",
				"16 read 3f41 response"),
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, b := newLogCPU()
			c.IFF1, c.IFF2, c.IM = true, true, tc.im
			c.NMI, c.INT = tc.nmi, !tc.nmi
			b.ack = tc.ack
			if tc.vector != 0 {
				b.setWord(tc.vector, tc.pc)
			}
			if !c.Interruptible() {
				t.Fatal("Interruptible() = false, want true")
			}
			c.Interrupt()
			if got := b.log(); got != tc.log {
				t.Errorf("bus:\n%s\nwant:\n%s", got, tc.log)
			}
			if c.Tick != tc.ticks {
				t.Errorf("Tick = %d, want %d", c.Tick, tc.ticks)
			}
			if c.PC != tc.pc || c.WZ != tc.pc {
				t.Errorf("PC, WZ = %04x, %04x; want both %04x", c.PC, c.WZ, tc.pc)
			}
			if c.SP != 0x7ffe || b.word(0x7ffe) != 0x1234 {
				t.Errorf("SP = %04x holding %04x, want 7ffe holding 1234", c.SP, b.word(c.SP))
			}
			// The acknowledge and the NMI's M1 each refresh once.
			if c.R != 0x11 {
				t.Errorf("R = %02x, want 11", c.R)
			}
			if c.IFF1 || c.IFF2 != tc.iff2 {
				t.Errorf("IFF1, IFF2 = %v, %v; want false, %v", c.IFF1, c.IFF2, tc.iff2)
			}
			if c.NMI || c.Responding {
				t.Errorf("NMI, Responding = %v, %v after the response; want false, false", c.NMI, c.Responding)
			}
			if c.InstrPC != 0x1234 {
				t.Errorf("InstrPC = %04x, want 1234, where the response came", c.InstrPC)
			}
		})
	}
}

// NMI wins over INT when both are pending (UM0080, "Non-Maskable
// Interrupt": it has the higher priority), and R bit 7 survives the
// response's refresh.
func TestNMIBeforeINT(t *testing.T) {
	c, _ := newLogCPU()
	c.IFF1, c.IFF2, c.IM = true, true, 1
	c.NMI, c.INT = true, true
	c.R = 0xff
	c.Interrupt()
	if c.PC != 0x0066 {
		t.Errorf("PC = %04x, want 0066", c.PC)
	}
	if !c.IFF2 {
		t.Error("IFF2 cleared; an NMI keeps it for RETN")
	}
	if c.R != 0x80 {
		t.Errorf("R = %02x, want 80: bit 7 kept, the low 7 bits wrapped", c.R)
	}
	// INT is still held, but IFF1 is now clear.
	if c.Interruptible() {
		t.Error("Interruptible() after the NMI's response, with IFF1 clear")
	}
}

// RETN restores IFF1 from IFF2 at the end of an NMI's handler (UM0080,
// RETN).
func TestRETNRestoresIFF1(t *testing.T) {
	c, b := newLogCPU()
	c.IFF1, c.IFF2 = true, true
	c.NMI = true
	b.load(0x0066, 0xed, 0x45) // RETN
	c.Step()                   // the instruction at 1234 (NOP), then the NMI
	if c.PC != 0x0066 || c.IFF1 {
		t.Fatalf("after the NMI: PC %04x IFF1 %v", c.PC, c.IFF1)
	}
	c.Step()
	if c.PC != 0x1235 || !c.IFF1 {
		t.Errorf("after RETN: PC %04x IFF1 %v; want 1235 true", c.PC, c.IFF1)
	}
}

// After EI the maskable interrupt waits for one more instruction (UM0080,
// EI: "interrupts are not sampled until the instruction following EI has
// been executed"); the NMI does not wait.
func TestEIDelay(t *testing.T) {
	t.Run("INT", func(t *testing.T) {
		c, b := newLogCPU()
		c.IM, c.INT = 1, true
		b.load(0x1234, 0xfb, 0x00) // EI; NOP
		c.Step()
		if c.PC != 0x1235 || !c.EI || c.Interruptible() {
			t.Fatalf("after EI: PC %04x EI %v Interruptible %v; want 1235 true false", c.PC, c.EI, c.Interruptible())
		}
		c.Step()
		if c.PC != 0x0038 || b.word(c.SP) != 0x1236 {
			t.Errorf("after NOP: PC %04x, pushed %04x; want 0038, 1236", c.PC, b.word(c.SP))
		}
	})
	t.Run("EI DI", func(t *testing.T) {
		c, b := newLogCPU()
		c.IM, c.INT = 1, true
		b.load(0x1234, 0xfb, 0xf3) // EI; DI
		c.Step()
		c.Step()
		if c.PC != 0x1236 || c.IFF1 {
			t.Errorf("after EI; DI: PC %04x IFF1 %v; want 1236 false", c.PC, c.IFF1)
		}
	})
	t.Run("EI EI", func(t *testing.T) {
		// A run of EIs holds the interrupt off until the last is past.
		c, b := newLogCPU()
		c.IM, c.INT = 1, true
		b.load(0x1234, 0xfb, 0xfb, 0x00)
		c.Step()
		c.Step()
		if c.PC != 0x1236 {
			t.Fatalf("after EI; EI: PC %04x, want 1236", c.PC)
		}
		c.Step()
		if c.PC != 0x0038 || b.word(c.SP) != 0x1237 {
			t.Errorf("after EI; EI; NOP: PC %04x pushed %04x; want 0038 1237", c.PC, b.word(c.SP))
		}
	})
	t.Run("NMI", func(t *testing.T) {
		c, b := newLogCPU()
		c.NMI = true
		b.load(0x1234, 0xfb) // EI
		c.Step()
		if c.PC != 0x0066 || b.word(c.SP) != 0x1235 {
			t.Errorf("after EI with NMI: PC %04x pushed %04x; want 0066 1235", c.PC, b.word(c.SP))
		}
	})
}

// HALT keeps PC on itself and runs 4 T-state M1s at it until an interrupt,
// whose response pushes the address after the HALT (UM0080, HALT; PC as
// the FUSE tests since 2015 keep it).
func TestHALT(t *testing.T) {
	for _, tc := range []struct {
		name string
		nmi  bool
		pc   uint16
		tick uint64
	}{
		{"INT", false, 0x0038, 4 + 3*4 + 13},
		{"NMI", true, 0x0066, 4 + 3*4 + 11},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, b := newLogCPU()
			c.IFF1, c.IFF2, c.IM = true, true, 1
			b.load(0x1234, 0x76) // HALT
			c.Exec()
			if !c.Halted || c.PC != 0x1234 || c.Tick != 4 {
				t.Fatalf("after HALT: halted %v PC %04x tick %d; want true 1234 4", c.Halted, c.PC, c.Tick)
			}
			b.clear()
			for range 3 {
				c.Exec()
			}
			want := lines("4 fetch 1234", "8 fetch 1234", "12 fetch 1234")
			if got := b.log(); got != want || !c.Halted || c.PC != 0x1234 {
				t.Fatalf("halted M1s:\n%s\nwant:\n%s\n(halted %v PC %04x)", got, want, c.Halted, c.PC)
			}
			if c.R != 0x14 {
				t.Errorf("R = %02x, want 14: each M1 refreshes", c.R)
			}
			if c.InstrPC != 0x1234 {
				t.Errorf("InstrPC = %04x while halted, want 1234", c.InstrPC)
			}
			if tc.nmi {
				c.NMI = true
			} else {
				c.INT = true
			}
			c.Interrupt()
			if c.Halted || c.PC != tc.pc || b.word(c.SP) != 0x1235 || c.Tick != tc.tick {
				t.Errorf("after the response: halted %v PC %04x pushed %04x tick %d; want false %04x 1235 %d",
					c.Halted, c.PC, b.word(c.SP), c.Tick, tc.pc, tc.tick)
			}
		})
	}
	t.Run("DI HALT", func(t *testing.T) {
		// With IFF1 clear, INT does not wake it: halted for good.
		c, b := newLogCPU()
		c.IM, c.INT = 1, true
		b.load(0x1234, 0xf3, 0x76) // DI; HALT
		for range 5 {
			c.Step()
		}
		if !c.Halted || c.PC != 0x1235 || c.IFF1 {
			t.Errorf("halted %v PC %04x IFF1 %v; want true 1235 false", c.Halted, c.PC, c.IFF1)
		}
	})
	t.Run("LeaveHalt", func(t *testing.T) {
		c, b := newLogCPU()
		b.load(0x1234, 0x76, 0x3c) // HALT; INC A
		c.Step()
		c.LeaveHalt()
		c.Step()
		if c.Halted || c.PC != 0x1236 || c.A != 0x00 {
			t.Errorf("halted %v PC %04x A %02x; want false 1236 00", c.Halted, c.PC, c.A)
		}
	})
}

// A chain of DD and FD prefixes is no instruction until its last opcode is
// done, so not even an NMI is accepted inside it: a prefix another prefix
// follows is a NONI, "no operation, no interrupt" (Cristian Dinu, "Decoding
// Z80 Opcodes", z80.info).
func TestPrefixLocksOutNMI(t *testing.T) {
	c, b := newLogCPU()
	c.IFF1, c.IFF2, c.IM = true, true, 1
	b.load(0x1234, 0xdd, 0xfd, 0xdd, 0x21, 0x34, 0x12) // DD FD DD LD IX,&1234
	c.NMI, c.INT = true, true
	for i, p := range []byte{0xdd, 0xfd, 0xdd} {
		c.Exec()
		if c.Prefix != p {
			t.Fatalf("after byte %d: Prefix %02x, want %02x", i, c.Prefix, p)
		}
		if c.Interruptible() {
			t.Fatalf("after byte %d: Interruptible inside a prefix chain", i)
		}
		tick := c.Tick
		c.Interrupt()
		if c.Tick != tick || c.PC != 0x1235+uint16(i) || !c.NMI {
			t.Fatalf("after byte %d: Interrupt() ran a response inside a prefix chain", i)
		}
		if c.InstrPC != 0x1234 {
			t.Fatalf("after byte %d: InstrPC %04x, want 1234", i, c.InstrPC)
		}
	}
	c.Exec()
	if c.Prefix != 0 || c.IX != 0x1234 || c.Tick != 2*4+14 {
		t.Fatalf("LD IX,nn after the chain: prefix %02x IX %04x tick %d; want 0 1234 22", c.Prefix, c.IX, c.Tick)
	}
	if !c.Interruptible() {
		t.Fatal("not Interruptible after the instruction")
	}
	c.Interrupt()
	if c.PC != 0x0066 || b.word(c.SP) != 0x123a {
		t.Errorf("PC %04x pushed %04x; want 0066 123a", c.PC, b.word(c.SP))
	}

	// Step runs the whole chain before it looks.
	c, b = newLogCPU()
	b.load(0x1234, 0xfd, 0xdd, 0x00)
	c.NMI = true
	c.Step()
	if c.PC != 0x0066 || b.word(c.SP) != 0x1237 {
		t.Errorf("Step: PC %04x pushed %04x; want 0066 1237", c.PC, b.word(c.SP))
	}
}

// On an NMOS Z80 an interrupt accepted right after LD A,I or LD A,R clears
// the P/V flag the instruction copied from IFF2 (UM0080, LD A,I: "If an
// interrupt occurs during execution of this instruction, the Parity flag
// contains a 0"; UZD, "LD A,I / LD A,R").
func TestLDAIParityQuirk(t *testing.T) {
	for _, tc := range []struct {
		name     string
		code     []byte
		int, nmi bool
		pv       bool
	}{
		{"LD A,I alone", []byte{0xed, 0x57}, false, false, true},
		{"LD A,I then INT", []byte{0xed, 0x57}, true, false, false},
		{"LD A,R then INT", []byte{0xed, 0x5f}, true, false, false},
		{"LD A,I then NMI", []byte{0xed, 0x57}, false, true, false},
		{"LD A,I; NOP then INT", []byte{0xed, 0x57, 0x00}, true, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, b := newLogCPU()
			c.IFF1, c.IFF2, c.IM = true, true, 1
			b.load(0x1234, tc.code...)
			if len(tc.code) == 3 {
				c.Step() // LD A,I with nothing pending
			}
			c.INT, c.NMI = tc.int, tc.nmi
			c.Step()
			if got := c.F&z80.FlagPV != 0; got != tc.pv {
				t.Errorf("P/V = %v, want %v (F %02x)", got, tc.pv, c.F)
			}
			// P marks the last instruction as LD A,I or LD A,R, until
			// an instruction or a response follows it.
			wantP := len(tc.code) == 2 && !tc.int && !tc.nmi
			if c.P != wantP {
				t.Errorf("P = %v, want %v", c.P, wantP)
			}
		})
	}
}

// A board adds wait states to Tick during a call; the processor adds the
// cycle's own length after (the Bus contract). LD A,(nn) is 13 T-states
// with three memory reads (UM0080), so three waits make 16.
func TestWaitStates(t *testing.T) {
	c, b := newLogCPU()
	b.load(0x1234, 0x3a, 0x00, 0x40) // LD A,(&4000)
	b.mem[0x4000] = 0x5a
	b.wait = 1
	c.Step()
	want := lines("0 fetch 1234", "4 read 1235", "8 read 1236", "12 read 4000")
	if got := b.log(); got != want {
		t.Errorf("bus:\n%s\nwant:\n%s", got, want)
	}
	if c.Tick != 16 || c.A != 0x5a {
		t.Errorf("Tick %d A %02x; want 16 5a", c.Tick, c.A)
	}
}

// Reset gives the power-on state: PC, I, R, IFF1, IFF2 and IM cleared
// (UM0080, RESET), AF and SP &FFFF (UZD, "Power on defaults"), and keeps
// the board's Bus and clock.
func TestReset(t *testing.T) {
	c, b := newLogCPU()
	c.Tick = 1000
	c.IFF1, c.IFF2, c.IM, c.Halted, c.Prefix, c.NMI = true, true, 2, true, 0, true
	c.Reset()
	if c.PC != 0 || c.I != 0 || c.R != 0 || c.IFF1 || c.IFF2 || c.IM != 0 || c.Halted || c.NMI {
		t.Errorf("after Reset: %+v", *c)
	}
	if c.A != 0xff || c.F != 0xff || c.SP != 0xffff {
		t.Errorf("AF %02x%02x SP %04x; want ffff ffff", c.A, c.F, c.SP)
	}
	if c.Tick != 1000 || c.Bus != b {
		t.Errorf("Reset lost the board's Tick or Bus")
	}
}

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		name string
		set  func(*z80.CPU)
		want string // in the error, or "" for none
	}{
		{"power-on", func(*z80.CPU) {}, ""},
		{"im 3", func(c *z80.CPU) { c.IM = 3 }, "im"},
		{"prefix &CB", func(c *z80.CPU) { c.Prefix = 0xcb }, "prefix"},
		{"prefix &FD", func(c *z80.CPU) { c.Prefix = 0xfd }, ""},
		{"halted in a prefix", func(c *z80.CPU) { c.Prefix, c.Halted = 0xdd, true }, "halted"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var c z80.CPU
			c.Reset()
			tc.set(&c)
			err := c.Validate()
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("Validate() = %v, want nil", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("Validate() = %v, want an error naming %q", err, tc.want)
			}
		})
	}
}
