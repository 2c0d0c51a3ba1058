package server

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/png"
	"os"
	"strings"
	"testing"

	"colophon/internal/host"
	"colophon/internal/machine/spectrum"
	"colophon/internal/shared"
)

// TestRun holds T-2, T-6, T-7, T-9 and T-11: a run goes by frames or by
// ticks, ends between instructions a few ticks past what was asked, and
// answers its ticks, the frames retraced and the machine's tick.
func TestRun(t *testing.T) {
	w := machineWire(t)
	for _, machine := range []string{"spectrum48", "cpc6128"} {
		t.Run(machine, func(t *testing.T) {
			h := w.open(machine)
			frame := uint64(79872)
			if machine == "spectrum48" {
				frame = 69888
			}
			var r host.Moved
			w.tool("run", args{"handle": h, "ticks": 10 * frame}, &r)
			// The longest instruction either machine runs is well under
			// 32 ticks: a few ticks past what was asked (T-11).
			if r.Ticks < 10*frame || r.Ticks > 10*frame+32 || r.Tick != r.Ticks || r.Stop != "done" || r.Instructions == 0 {
				t.Errorf("run by ticks answered %+v", r)
			}
			var f host.Moved
			w.tool("run", args{"handle": h, "frames": 3}, &f)
			if f.Frames != 3 || f.Tick != r.Tick+f.Ticks || f.Stop != "done" || f.Ticks < 2*frame || f.Ticks > 3*frame+32 {
				t.Errorf("run by frames answered %+v after %+v", f, r)
			}
			var m host.Monitor
			w.tool("monitor", args{"handle": h}, &m)
			if !m.Whole {
				t.Errorf("after a run by frames the picture is not whole: %+v", m)
			}
		})
	}
}

// TestRunRefused holds T-17 and A-4: a run past the limits, or asking for
// neither or both of frames and ticks, is refused naming what is wrong,
// and the machine is left as it was.
func TestRunRefused(t *testing.T) {
	w := machineWire(t)
	spectrum := w.open("spectrum48")
	cpc := w.open("cpc464")
	w.tool("run", args{"handle": spectrum, "ticks": 1000}, nil)
	tests := []struct {
		handle string
		args   args
		want   string
	}{
		{spectrum, args{}, `run needs "frames" or "ticks"`},
		{spectrum, args{"frames": 1, "ticks": 1}, `run takes "frames" or "ticks", not both`},
		{spectrum, args{"frames": 1501}, `argument "frames" is 1501; it must be from 1 to 1500`},
		{spectrum, args{"frames": 0}, `argument "frames" is 0`},
		{spectrum, args{"ticks": 1500*69888 + 1}, `argument "ticks": ticks is 104832001; a request runs at most 104832000, the ticks of 1500 standard frames`},
		{cpc, args{"ticks": 1500*79872 + 1}, `ticks is 119808001; a request runs at most 119808000`},
		{spectrum, args{"ticks": 0}, `argument "ticks" is 0`},
		{spectrum, args{"ticks": -5}, `argument "ticks" is -5`},
		{spectrum, args{"frames": "10"}, `argument "frames" is a string`},
		{spectrum, args{"frames": 1, "keys": []any{"SPACE", "FIRE"}}, `argument "keys": spectrum48 has no key "FIRE"`},
		{spectrum, args{"frames": 1, "keys": []any{69}}, `argument "keys[0]" is 69; a Spectrum's keys go by the names on them`},
		{cpc, args{"frames": 1, "keys": []any{80}}, `argument "keys[0]": CPC key number 80 is out of range: keys are numbered 0 to 79`},
		{cpc, args{"frames": 1, "keys": []any{"SPACE", "SPACEBAR"}}, `no CPC key is named "SPACEBAR"`},
		{"m3", args{"frames": 1}, `no machine is called "m3"; the machines standing are m1, m2`},
	}
	before := map[string]uint64{spectrum: w.tick(spectrum), cpc: w.tick(cpc)}
	for _, tt := range tests {
		a := args{"handle": tt.handle}
		for k, v := range tt.args {
			a[k] = v
		}
		if got := w.refused("run", a); !strings.Contains(got, tt.want) {
			t.Errorf("run %s: refused as %q, want %q", mustJSON(t, a), got, tt.want)
		}
	}
	for h, tick := range before {
		if now := w.tick(h); now != tick {
			t.Errorf("refused runs moved %s from tick %d to %d", h, tick, now)
		}
		if n := len(w.journalOf(h)); n != 1+boolInt(h == spectrum) {
			t.Errorf("refused runs were journaled: %s has %d entries", h, n)
		}
	}
	// No key is left held by a refused run.
	if keys := w.inspect(spectrum, "ula.keys"); mustJSON(t, keys) != "[0,0,0,0,0,0,0,0]" {
		t.Errorf("after refused runs the Spectrum holds %v", keys)
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestRunHalted holds T-13, T-14 and T-15: a run stops at the end of a HALT
// that leaves interrupts disabled, and says so; a run that begins there runs
// as asked; and set carries the processor on, with an NMI or by writing it
// as no longer halted.
func TestRunHalted(t *testing.T) {
	w := machineWire(t)
	h := w.boot("spectrum48")
	// DI; HALT at &8000, then NOPs.
	w.tool("poke", args{"handle": h, "address": "&8000", "bytes": "F3 76 00 00"}, nil)
	w.tool("set", args{"handle": h, "values": map[string]any{"cpu.pc": "&8000"}}, nil)
	var r host.Moved
	w.tool("run", args{"handle": h, "frames": 10}, &r)
	if r.Stop != "halted" || r.Frames != 0 || r.Ticks > 16 || r.Instructions != 2 {
		t.Errorf("a run into DI; HALT answered %+v, want it halted at once", r)
	}
	if w.inspect(h, "cpu.halted") != true || w.inspect(h, "cpu.pc") != float64(0x8001) {
		t.Errorf("the processor is not halted on the HALT at &8001")
	}
	// From there a run runs as asked, and the frames pass (T-14).
	w.tool("run", args{"handle": h, "frames": 2}, &r)
	if r.Stop != "done" || r.Frames != 2 || w.inspect(h, "cpu.halted") != true {
		t.Errorf("a run begun halted answered %+v", r)
	}
	// Written as no longer halted, it carries on past the HALT (T-15).
	w.tool("set", args{"handle": h, "values": map[string]any{"cpu.halted": false}}, nil)
	if pc := w.inspect(h, "cpu.pc"); pc != float64(0x8002) {
		t.Errorf("set halted false left pc at %v, want &8002, past the HALT", pc)
	}
	w.tool("step", args{"handle": h, "instructions": 1}, &r)
	if pc := w.inspect(h, "cpu.pc"); pc != float64(0x8003) || r.Stop != "done" {
		t.Errorf("a step after it went to %v and answered %+v, want the NOP at &8002 run", pc, r)
	}
	// An NMI written in wakes it (T-15): the response goes to &0066.
	w.tool("set", args{"handle": h, "values": map[string]any{"cpu.pc": "&8000"}}, nil)
	w.tool("run", args{"handle": h, "ticks": 100}, &r)
	if r.Stop != "halted" {
		t.Fatalf("the second HALT answered %+v", r)
	}
	w.tool("set", args{"handle": h, "values": map[string]any{"cpu.nmi": true}}, nil)
	w.tool("step", args{"handle": h, "instructions": 1}, &r)
	if w.inspect(h, "cpu.halted") != false || r.Stop != "done" {
		t.Errorf("an NMI did not wake the processor: %+v, halted %v", r, w.inspect(h, "cpu.halted"))
	}
	if pc := w.inspect(h, "cpu.pc"); pc != float64(0x0066) {
		t.Errorf("after the NMI's response pc is %v, want &0066", pc)
	}
}

// TestRunUnsettled holds T-12: a run or a step that ends inside a chain of
// prefixes says it stopped unsettled, and call is refused there (CALL-7).
func TestRunUnsettled(t *testing.T) {
	w := machineWire(t)
	h := w.boot("spectrum48")
	w.tool("poke", args{"handle": h, "address": "&8000", "bytes": strings.Repeat("DD ", 40) + "00"}, nil)
	w.tool("set", args{"handle": h, "values": map[string]any{"cpu.pc": "&8000", "cpu.iff1": false}}, nil)
	var r host.Moved
	w.tool("run", args{"handle": h, "ticks": 10}, &r)
	if r.Stop != "unsettled" || r.Instructions != 0 || w.inspect(h, "cpu.prefix") != float64(0xDD) {
		t.Errorf("a run into a chain of prefixes answered %+v", r)
	}
	if got := w.refused("call", args{"handle": h, "address": "&8100"}); !strings.Contains(got, "inside a chain of prefixes (&DD)") {
		t.Errorf("a call inside prefixes was refused as %q", got)
	}
	w.tool("step", args{"handle": h, "instructions": 1}, &r)
	if r.Stop != "done" || r.Instructions != 1 || w.inspect(h, "cpu.pc") != float64(0x8029) {
		t.Errorf("a step through the chain answered %+v, pc %v", r, w.inspect(h, "cpu.pc"))
	}
}

// TestStep holds T-10: a step runs whole instructions, and is refused past
// 100000 or below 1.
func TestStep(t *testing.T) {
	w := machineWire(t)
	h := w.boot("spectrum48")
	// LD A,1; LD B,2; NOP
	w.tool("poke", args{"handle": h, "address": "&8000", "bytes": "3E 01 06 02 00"}, nil)
	w.tool("set", args{"handle": h, "values": map[string]any{"cpu.pc": "&8000", "cpu.iff1": false}}, nil)
	var r host.Moved
	w.tool("step", args{"handle": h, "instructions": 2}, &r)
	if r.Instructions != 2 || r.Ticks != 14 || w.inspect(h, "cpu.a") != 1.0 || w.inspect(h, "cpu.b") != 2.0 || w.inspect(h, "cpu.pc") != float64(0x8004) {
		t.Errorf("two steps answered %+v", r)
	}
	tick := w.tick(h)
	for _, n := range []any{0, 100001, -1, "1"} {
		got := w.refused("step", args{"handle": h, "instructions": n})
		if !strings.Contains(got, `argument "instructions"`) {
			t.Errorf("step %v refused as %q", n, got)
		}
	}
	if got := w.refused("step", args{"handle": h, "instructions": 100001}); !strings.Contains(got, "from 1 to 100000") {
		t.Errorf("step 100001 refused as %q, which names no limit", got)
	}
	if got := w.refused("step", args{"handle": h}); got != `missing argument "instructions": step requires "handle" and "instructions"` {
		t.Errorf("step without instructions refused as %q", got)
	}
	if w.tick(h) != tick {
		t.Errorf("refused steps moved the machine")
	}
	w.tool("step", args{"handle": h, "instructions": 100000}, &r)
	if r.Instructions != 100000 {
		t.Errorf("a step of 100000 answered %+v", r)
	}
}

// TestTypeSpectrum holds KEY-4, KEY-15, KEY-18 and T-16 on a Spectrum: p2+2
// typed after the command line's 128 frames prints 4, as the ROM's font
// reads it, and the typing takes 9 standard frames a character.
func TestTypeSpectrum(t *testing.T) {
	w := machineWire(t)
	h := w.boot("spectrum48")
	var r host.Moved
	w.tool("type", args{"handle": h, "text": "p2+2\n"}, &r)
	if want := uint64(5 * 9 * 69888); r.Ticks < want || r.Ticks > want+23 || r.Stop != "done" {
		t.Errorf("typing answered %+v, want %d ticks and the end of an instruction", r, want)
	}
	lines := w.spectrumText(h)
	if lines[0] != "4" || lines[23] != "0 OK, 0:1" {
		t.Errorf("the screen reads %q ... %q, want 4 and 0 OK, 0:1", lines[0], lines[23])
	}
}

// TestTypeRefused holds KEY-9 and KEY-10: a text too long, not ASCII, or
// with a character no key types is refused before any key goes down.
func TestTypeRefused(t *testing.T) {
	w := machineWire(t)
	spectrum := w.open("spectrum48")
	cpc := w.open("cpc464")
	tests := []struct {
		handle, text, want string
	}{
		{spectrum, strings.Repeat("a", 167), "the text is 167 characters; a Spectrum takes at most 166"},
		// Past the most any machine types, the schema refuses it; past a
		// Spectrum's, the machine.
		{cpc, strings.Repeat("a", 251), "is 251 characters long; it may be at most 250"},
		{spectrum, strings.Repeat("a", 167), "the text is 167 characters; a Spectrum takes at most 166"},
		{spectrum, "", "is empty"},
		{spectrum, "PRINT £", "the text is not ASCII"},
		{spectrum, "a{b", `no key on a Spectrum types '{', at 1`},
		{spectrum, "a\tb", `no key on a Spectrum types a tab (\t), at 1`},
		{cpc, "a~", `no key on a CPC types '~'`},
	}
	for _, tt := range tests {
		got := w.refused("type", args{"handle": tt.handle, "text": tt.text})
		if !strings.Contains(got, tt.want) || !strings.HasPrefix(got, `argument "text"`) {
			t.Errorf("type %q refused as %q, want %q", tt.text, got, tt.want)
		}
	}
	// The longest texts are taken.
	for _, h := range []string{spectrum, cpc} {
		if w.tick(h) != 0 {
			t.Errorf("refused typing moved %s", h)
		}
	}
	var r host.Moved
	w.tool("type", args{"handle": spectrum, "text": strings.Repeat("a", 166)}, &r)
	if r.Ticks < 166*9*69888 {
		t.Errorf("166 characters took %d ticks", r.Ticks)
	}
}

// TestMonitorAsCommandLine holds MON-1, MON-2, MON-3 and MON-6: monitor
// answers the picture as a PNG, byte for byte the command line's
// screenshot of the same machine (cmd/colophon boot: RunTicks of its
// frames, --type, then Picture().PNG()), beside JSON that says where the
// beam stands.
func TestMonitorAsCommandLine(t *testing.T) {
	rom, err := os.ReadFile(shared.TestPath(t, "roms", "spectrum48.rom"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := spectrum.New(rom)
	if err != nil {
		t.Fatal(err)
	}
	s.RunTicks(128 * 69888)
	if _, err := s.Type("p2+2\n"); err != nil {
		t.Fatal(err)
	}
	want, err := s.Picture().PNG()
	if err != nil {
		t.Fatal(err)
	}

	w := machineWire(t)
	h := w.boot("spectrum48")
	w.tool("type", args{"handle": h, "text": "p2+2\n"}, nil)
	res := w.toolResult("monitor", args{"handle": h})
	content := res["content"].([]any)
	if len(content) != 2 {
		t.Fatalf("monitor answered %d items, want the JSON and the picture", len(content))
	}
	img := content[1].(map[string]any)
	if img["type"] != "image" || img["mimeType"] != "image/png" {
		t.Fatalf("monitor's second item is %v", img["type"])
	}
	got, err := base64.StdEncoding.DecodeString(img["data"].(string))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("monitor's PNG (%d bytes) is not the command line's (%d bytes)", len(got), len(want))
	}
	pic, err := png.Decode(bytes.NewReader(got))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := pic.(*image.Paletted); !ok || pic.Bounds().Dx() != 352 || pic.Bounds().Dy() != 264 {
		t.Errorf("the picture is a %T of %v, want a paletted 352x264", pic, pic.Bounds())
	}
	var m host.Monitor
	w.tool("monitor", args{"handle": h}, &m)
	p := s.Picture()
	if m.Handle != h || m.Machine != "spectrum48" || m.Tick != s.Tick() || m.Width != 352 || m.Height != 264 ||
		m.Beam.X != p.BeamX || m.Beam.Y != p.BeamY || m.Whole != p.Whole() {
		t.Errorf("monitor answered %+v; the machine stands at tick %d, beam %d,%d, whole %v", m, s.Tick(), p.BeamX, p.BeamY, p.Whole())
	}
	// Partway through a frame, the picture is not whole (MON-5, MON-6).
	w.tool("run", args{"handle": h, "ticks": 69888 / 2}, nil)
	w.tool("monitor", args{"handle": h}, &m)
	if m.Whole || m.Beam.Y < 0 || m.Beam.Y >= 264 {
		t.Errorf("half a frame on, monitor answered %+v", m)
	}
}
