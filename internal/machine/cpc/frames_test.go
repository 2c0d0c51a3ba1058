package cpc

import (
	"bytes"
	"fmt"
	"testing"

	"colophon/internal/chip/crtc"
	"colophon/internal/machine"
)

// runFramesStepped is a run by frames as the board first did it, kept here
// as the reference for the one it does now: the video is brought up to
// the end of every instruction, so the retrace is seen in the instruction
// it comes in whatever the chips stand at. Setting quietUntil to 0 before
// each instruction's end is what a run by frames used to do.
func runFramesStepped(m *CPC, frames uint64) machine.Result {
	return m.measure(func() (machine.Stop, uint64) {
		if frames == 0 {
			return machine.Done, 0
		}
		c := &m.CPU
		until := c.Tick + frames*2*TicksPerFrame
		var n, ended uint64
		forGood := c.Halted && !c.IFF1
		m.frameEnd = false
		for c.Tick < until {
			c.Exec()
			if c.Prefix != 0 {
				continue
			}
			n++
			m.quietUntil = 0
			m.endInstruction()
			if m.frameEnd {
				m.frameEnd = false
				if ended++; ended >= frames {
					break
				}
			}
			if c.Halted {
				if !c.IFF1 && !c.NMI && !forGood {
					return machine.Halted, n
				}
			} else {
				forGood = false
			}
		}
		if c.Prefix != 0 {
			return machine.Unsettled, n
		}
		return machine.Done, n
	})
}

// crtcProgram is a loop in RAM at &4000 that writes the 6845's registers
// from a table at &4100, each entry a register, a value and a delay of
// DE iterations (about 7 µs each) before the next, &FF ending the table
// and starting it again. Interrupts run in mode 1 to a handler at &0038
// that only enables them again, so the Gate Array's acknowledge comes
// into the runs too.
func crtcProgram(m *CPC, table ...byte) {
	program(m,
		0xED, 0x56, // IM 1
		0xFB,             // EI
		0x21, 0x00, 0x41, // start: LD HL,&4100
		0x7E,       // loop: LD A,(HL)
		0xFE, 0xFF, // CP &FF
		0x28, 0xF8, // JR Z,start
		0x06, 0xBC, // LD B,&BC
		0x4F,       // LD C,A
		0xED, 0x49, // OUT (C),C: select the register
		0x23,       // INC HL
		0x7E,       // LD A,(HL)
		0x04,       // INC B
		0xED, 0x79, // OUT (C),A: write it
		0x23,       // INC HL
		0x5E,       // LD E,(HL)
		0x23,       // INC HL
		0x56,       // LD D,(HL)
		0x23,       // INC HL
		0x1B,       // delay: DEC DE
		0x7A,       // LD A,D
		0xB3,       // OR E
		0x20, 0xFB, // JR NZ,delay
		0x18, 0xE5, // JR loop
	)
	copy(m.RAM[0x0038:], []byte{0xFB, 0xC9}) // EI; RET
	copy(m.RAM[0x4100:], append(table, 0xFF))
}

// entry is one line of crtcProgram's table.
func entry(r, v byte, delay uint16) []byte { return []byte{r, v, byte(delay), byte(delay >> 8)} }

func entries(es ...[]byte) []byte { return bytes.Join(es, nil) }

// TestRunFramesAsStepped holds a run by frames, which lets the video lag
// behind the processor wherever the monitor cannot retrace (noRetrace), to
// the run that kept the video up at every instruction: two machines built
// alike are given the same calls, one running by frames as the board does
// and the other as the reference does, and after each call they must
// agree on the call's result and on every field, every byte of RAM and
// every sample of the raster. The calls take each 6845 type through its
// boot, typing at BASIC, runs by ticks and steps that end anywhere before
// a run by frames, a program that moves R0, R4, R7 and R9 (and R2 and R3)
// in mid-frame with interrupts running, a frame that never ends because
// R0 < R2 leaves no line sync, and a HALT with interrupts off.
func TestRunFramesAsStepped(t *testing.T) {
	type call struct {
		name string
		do   func(m *CPC, frames func(uint64) machine.Result) machine.Result
		// want, where given, says what the call must have done.
		want func(r machine.Result) bool
	}
	frames := func(n uint64) call {
		return call{name: fmt.Sprintf("run %d frames", n), do: func(m *CPC, f func(uint64) machine.Result) machine.Result { return f(n) }}
	}
	// never is a run by frames in which no frame comes: it is held to
	// twice a standard frame's ticks for each frame asked.
	never := func(n uint64) call {
		c := frames(n)
		c.name += ", which never come"
		c.want = func(r machine.Result) bool {
			return r.Frames == 0 && r.Ticks >= 2*n*TicksPerFrame && r.Stop == machine.Done
		}
		return c
	}
	ticks := func(n uint64) call {
		return call{name: fmt.Sprintf("run %d ticks", n), do: func(m *CPC, _ func(uint64) machine.Result) machine.Result { return m.RunTicks(n) }}
	}
	step := func(n int) call {
		return call{name: fmt.Sprintf("step %d", n), do: func(m *CPC, _ func(uint64) machine.Result) machine.Result { return m.Step(n) }}
	}
	typed := func(s string) call {
		return call{name: fmt.Sprintf("type %q", s), do: func(m *CPC, _ func(uint64) machine.Result) machine.Result {
			r, err := m.Type(s)
			if err != nil {
				panic(err)
			}
			return r
		}}
	}
	load := func(name string, table []byte) call {
		return call{name: name, do: func(m *CPC, _ func(uint64) machine.Result) machine.Result {
			crtcProgram(m, table...)
			return machine.Result{}
		}}
	}
	// A run by frames that starts in the frame sync, before the retrace,
	// after calls that did not watch for it.
	intoSync := call{name: "step into the frame sync", do: func(m *CPC, _ func(uint64) machine.Result) machine.Result {
		var r machine.Result
		for i := 0; i < 200000; i++ {
			s := m.Step(1)
			r.Ticks += s.Ticks
			r.Frames += s.Frames
			r.Instructions += s.Instructions
			if m.GA.SyncV && !m.Monitor.Retraced {
				return r
			}
		}
		panic("no instruction ended in the frame sync before the retrace")
	}}
	boot := []call{frames(1), frames(2), ticks(12345), frames(1), step(7), frames(40), ticks(TicksPerFrame/2 + 3), frames(50),
		intoSync, frames(1), intoSync, ticks(100), frames(2)}
	prompt := []call{typed("?2+2\n"), frames(3), ticks(999), frames(5)}
	// The standard screen is R0 63, R2 46, R3 &8E, R4 38, R7 30, R9 7.
	reprogram := load("reprogram R0, R4, R7 and R9", entries(
		entry(7, 25, 1000), entry(4, 20, 700), entry(9, 5, 1300), entry(0, 50, 500),
		entry(7, 12, 333), entry(0, 63, 900), entry(9, 7, 333), entry(4, 38, 1777),
		entry(7, 30, 250), entry(2, 40, 640), entry(3, 0x48, 800), entry(2, 46, 30),
		entry(3, 0x8E, 2100), entry(4, 30, 900), entry(7, 29, 1500), entry(4, 38, 60),
	))
	// R0 40 < R2 46: the 6845 never meets R2, so no line sync, no frame
	// sync and no retrace for as long as the delay holds it (about 23
	// frames), after which the table puts R0 back. The registers the
	// last program may have left moved are put back first.
	endless := load("R0 < R2, no HSYNC", entries(
		entry(2, 46, 1), entry(3, 0x8E, 1), entry(4, 38, 1), entry(7, 30, 1), entry(9, 7, 1),
		entry(0, 40, 0xFFFF), entry(0, 63, 3000),
	))
	halt := call{name: "DI; HALT", do: func(m *CPC, _ func(uint64) machine.Result) machine.Result {
		program(m, 0xF3, 0x76)
		return machine.Result{}
	}}
	var sequence []call
	sequence = append(sequence, boot...)
	sequence = append(sequence, prompt...)
	sequence = append(sequence, reprogram, frames(1), ticks(54321), frames(2), step(3), frames(1), intoSync, frames(1), frames(30))
	// The first run by frames may still see the line syncs of the frame the
	// write came in, on types whose C0 runs on past R0 to wrap at 255.
	sequence = append(sequence, endless, frames(1), never(1), never(2), ticks(777), frames(30))
	halted := frames(2)
	halted.want = func(r machine.Result) bool { return r.Stop == machine.Halted && r.Frames == 0 }
	sequence = append(sequence, halt, halted)
	for ty := range crtc.Type(crtc.Types) {
		t.Run(ty.String(), func(t *testing.T) {
			now := build(t, CPC6128, ty)
			ref := build(t, CPC6128, ty)
			for i, c := range sequence {
				what := fmt.Sprintf("call %d, %s", i, c.name)
				got := c.do(now, now.RunFrames)
				want := c.do(ref, func(n uint64) machine.Result { return runFramesStepped(ref, n) })
				if got != want {
					t.Fatalf("%s: the run gave %+v, the reference %+v", what, got, want)
				}
				if c.want != nil && !c.want(got) {
					t.Fatalf("%s: the call gave %+v", what, got)
				}
				same(t, what, ref, now)
				if !bytes.Equal(now.Monitor.Raster, ref.Monitor.Raster) {
					t.Errorf("%s: the raster differs", what)
				}
				if t.Failed() {
					t.FailNow()
				}
			}
			// The sequence is held to have done what it says.
			if f := now.Frames(); f < 150 {
				t.Errorf("the sequence ran %d frames in all", f)
			}
		})
	}
}
