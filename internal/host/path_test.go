package host

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"colophon/internal/watch"
)

// TestPATH9FileIsTheRunsThatFill holds PATH-1 to PATH-5, PATH-7, PATH-9 and
// CB-10 on both machines: a gathering written to a file, where it fills at
// 1048576 rather than 128, holds what runs that fill and go on list over
// the same stretch, in the same lines as their answers, and the answer
// names it by its path, its SHA-256 and its lines.
func TestPATH9FileIsTheRunsThatFill(t *testing.T) {
	for _, c := range []struct {
		machine string
		conds   []Condition
	}{
		{"spectrum48", []Condition{execAt("&0038"), writeIn("&5C00", "&5CFF"), writeIn("&FF00", "&FFFF"), {Kind: "out", Port: "&00FE", Mask: "&0001"}}},
		{"cpc6128", []Condition{execAt("&0038"), writeIn("&B800", "&BFFF"), {Kind: "psg"}, {Kind: "out", Port: "&7F00", Mask: "&C000"}}},
	} {
		r := newRig(t, c.machine)
		r.frames(90)
		twin := r.twin()
		var lines []string
		for range 10 {
			mv := r.runTicks(100*79872, Conditions{Gather: c.conds})
			if mv.Stop != stopFull {
				t.Fatalf("%s: a gathering stopped %s", c.machine, mv.Stop)
			}
			for _, g := range mv.Gathered {
				lines = append(lines, asJSON(g))
			}
		}
		path := filepath.Join(t.TempDir(), "lines.jsonl")
		mv := twin.runTicks(r.tick()-twin.tick(), Conditions{Gather: c.conds, Path: path})
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(b)
		if mv.Stop != stopDone || mv.File.Path != path || mv.File.SHA256 != hex.EncodeToString(sum[:]) || mv.File.Lines.Gathered != len(lines) || mv.Gathered != nil {
			t.Errorf("%s: the file's answer %s; %d lines of %d bytes written", c.machine, asJSON(mv), len(lines), len(b))
		}
		if string(b) != strings.Join(lines, "\n")+"\n" {
			t.Errorf("%s: the file differs from the lines of the runs that filled", c.machine)
		}
		if twin.tick() != r.tick() {
			t.Errorf("%s: the file's run ended at %d, the filled runs at %d", c.machine, twin.tick(), r.tick())
		}
	}
}

// TestPATH6Refusals holds PATH-6 and the refusals a condition's request
// makes: each is refused, naming its argument, with the machine, its
// journal and the file system as they were.
func TestPATH6Refusals(t *testing.T) {
	dir := t.TempDir()
	there := filepath.Join(dir, "there")
	if err := os.WriteFile(there, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		machine string
		conds   Conditions
		says    string
	}{
		{"spectrum48", Conditions{Until: []Condition{{Kind: "jump", Address: "&8000"}}}, `"until[0].kind" is "jump"`},
		{"cpc6128", Conditions{Gather: []Condition{{Kind: "out", Port: "&BC00", Mask: "&1FFFF"}}}, `"gather[0].mask"`},
		{"cpc6128", Conditions{Gather: []Condition{{Kind: "out", Port: "&BC00", Mask: "xyz"}}}, `"gather[0].mask" is "xyz"`},
		{"cpc6128", Conditions{Gather: []Condition{{Kind: "out", Port: "&BC00"}}}, `"gather[0].port" and mask are both needed`},
		{"spectrum48", Conditions{Count: []Condition{{Kind: "psg", Register: RegisterNumbered(7)}}}, `"count[0].kind" is psg, and a spectrum48 has no PSG`},
		{"spectrum48", Conditions{Count: []Condition{{Kind: "crtc"}}}, `"count[0].kind" is crtc`},
		{"spectrum48", Conditions{Gather: []Condition{execAt("&0038")}, Path: there}, `a file is already there`},
		{"spectrum48", Conditions{Gather: []Condition{execAt("&0038")}, Path: filepath.Join(dir, "no", "such", "dir", "f")}, `cannot be made`},
		{"cpc6128", Conditions{Until: []Condition{{Kind: "in", Port: "&F400", Mask: "&0B00", Value: "&80"}}}, `"until[0].value" is given on an in condition, and a port read's byte is never tested`},
		{"cpc6128", Conditions{Until: []Condition{{Kind: "read", Address: "&4000", Changes: true}}}, `"until[0].changes"`},
		{"cpc6128", Conditions{Until: []Condition{{Kind: "write", Address: "&4000", From: "rom"}}}, `"until[0].from"`},
		{"cpc6128", Conditions{Until: []Condition{{Kind: "read", Address: "&4000", From: "upper 256"}}}, `"until[0].from" is "upper 256"`},
		{"spectrum48", Conditions{Until: []Condition{{Kind: "read", Address: "&4000", From: "lower"}}}, `"until[0].from" is "lower"`},
		{"cpc6128", Conditions{Until: []Condition{{Kind: "exec", Address: "&4000", AddressTo: "&3FFF"}}}, `"until[0].address_to" is &3FFF, before address &4000`},
		{"cpc6128", Conditions{Until: []Condition{{Kind: "exec"}}}, `"until[0].address" is missing`},
		{"cpc6128", Conditions{Until: []Condition{{Kind: "exec", Address: "&4000", Value: "&3E"}}}, `"until[0].value" is given, but a exec condition takes no value`},
		{"cpc6128", Conditions{Until: []Condition{{Kind: "exec", Address: "&10000"}}}, `"until[0].address" is &10000, past &FFFF`},
		{"cpc6128", Conditions{Until: []Condition{{Kind: "crtc", Register: RegisterNumbered(32)}}}, `"until[0].register" is 32; a crtc register is 0 to 31`},
		{"cpc6128", Conditions{Until: []Condition{{Kind: "psg", Register: RegisterNumbered(16)}}}, `"until[0].register" is 16`},
		{"cpc6128", Conditions{Until: []Condition{{Kind: "write", Address: "&4000", Value: "&100"}}}, `"until[0].value" is &100; a byte is &00 to &FF`},
		{"cpc6128", Conditions{Until: []Condition{{Kind: "write", Address: "&4000", ValueTo: "&10"}}}, `"until[0].value_to" is given without value`},
		{"cpc6128", Conditions{Until: []Condition{withWhen(execAt("&4000"), WhenArg{Address: "&4000", Bytes: "01 02 03 04 05 06 07 08 09"})}}, `"until[0].when.bytes" holds 9 bytes; when names 8 at most`},
		{"cpc6128", Conditions{Until: []Condition{withWhen(execAt("&4000"), WhenArg{Address: "&4000", Bytes: "0G"})}}, `"until[0].when.bytes"`},
		{"cpc6128", Conditions{Count: []Condition{{Kind: "exec", Address: "&4000", Capture: CaptureArgs{CPU: []string{"cpu.a"}}}}}, `"count[0].capture" is given in count`},
		{"cpc6128", Conditions{Until: []Condition{{Kind: "exec", Address: "&4000", Capture: CaptureArgs{CPU: []string{"crtc.registers[0]"}}}}}, `"until[0].capture.cpu[0]"`},
		{"cpc6128", Conditions{Until: []Condition{{Kind: "exec", Address: "&4000", Capture: CaptureArgs{CPU: []string{"cpu.zz"}}}}}, `"until[0].capture.cpu[0]"`},
		{"cpc6128", Conditions{Until: []Condition{{Kind: "exec", Address: "&4000", Capture: CaptureArgs{Memory: []SpanArg{{Address: "cpu.sp", Length: 65}}}}}}, `"until[0].capture.memory[0].length" is 65`},
		{"spectrum48", Conditions{Until: []Condition{{Kind: "exec", Address: "&4000", Capture: CaptureArgs{Memory: []SpanArg{{Address: "&4000", Length: 4, RAM: true}}}}}}, `"until[0].capture.memory[0].ram"`},
		{"cpc6128", Conditions{Gather: []Condition{execAt("&0038")}, GatherLast: []Condition{execAt("&0038")}}, `"gather" and "gather_last" are both given`},
		{"cpc6128", Conditions{CountBy: "pc"}, `"count_by" is given without "count"`},
		{"cpc6128", Conditions{Count: []Condition{execAt("&0038")}, CountBy: "size"}, `"count_by" is "size"`},
		{"cpc6128", Conditions{Until: []Condition{execAt("&0038")}, Path: filepath.Join(dir, "p")}, `nothing is gathered or counted`},
		{"cpc6128", Conditions{PathSHA256: "00"}, `"path_sha256" is given without "path"`},
		{"cpc6128", Conditions{Until: make([]Condition, 17)}, `"until" holds 17 conditions; a list holds at most 16`},
	} {
		r := newRig(t, c.machine)
		r.frames(2)
		before := r.tick()
		n := len(r.entries())
		_, err := r.runErr(RunArgs{Frames: ptr(uint64(5)), Conditions: c.conds})
		if err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s %s: %v; want it refused saying %s", c.machine, asJSON(c.conds), err, c.says)
			continue
		}
		if r.tick() != before || len(r.entries()) != n {
			t.Errorf("%s %s: refused, but the machine moved to %d or the journal grew", c.machine, asJSON(c.conds), r.tick())
		}
		if b, _ := os.ReadFile(there); string(b) != "mine" {
			t.Fatalf("the file that was there holds %q", b)
		}
		entries, _ := os.ReadDir(dir)
		if len(entries) != 1 {
			t.Errorf("%s: refused, it left %d files", asJSON(c.conds), len(entries))
		}
	}
	// call takes them as run does, and refuses them alike, with its
	// values taken back.
	r := newRig(t, "spectrum48")
	r.frames(2)
	pc := r.num("cpu.pc")
	_, err := r.h.Call(r.ctx, CallArgs{Handle: r.handle, Address: "&0E44", Values: []byte(`{"cpu.a": 7}`), Conditions: Conditions{Gather: []Condition{{Kind: "psg"}}}})
	if err == nil || !strings.Contains(err.Error(), `"gather[0].kind" is psg`) || r.num("cpu.pc") != pc || r.num("cpu.a") == 7 {
		t.Errorf("call refused psg on a Spectrum: %v", err)
	}
}

// faulty fails a write once n bytes are written.
type faulty struct {
	w io.Writer
	n int
}

func (f *faulty) Write(b []byte) (int, error) {
	if len(b) > f.n {
		f.w.Write(b[:f.n])
		return f.n, errors.New("the disc is full")
	}
	f.n -= len(b)
	return f.w.Write(b)
}

// TestPATH8FileNotWrittenWhole holds PATH-8: a file that cannot be written
// whole is taken away, and the request refused with how far it ran and
// where the machine stands; the run is not taken back, and is journaled
// without the file, as the run it was; and J-7: a replayed request that
// writes a file writes the same, the journal naming it by its SHA-256, to
// a path that names nothing yet.
func TestPATH8FileNotWrittenWhole(t *testing.T) {
	dir := t.TempDir()
	r := newRig(t, "spectrum48")
	r.frames(90)
	twin := r.twin()
	fileFault = func(w io.Writer) io.Writer { return &faulty{w: w, n: 100} }
	defer func() { fileFault = nil }()
	conds := Conditions{Gather: []Condition{writeIn("&5C00", "&5CFF")}, Path: filepath.Join(dir, "f.jsonl")}
	_, err := r.runErr(RunArgs{Frames: ptr(uint64(3)), Conditions: conds})
	if err == nil || !strings.Contains(err.Error(), "could not be written whole, and is taken away") || !strings.Contains(err.Error(), "the run went") {
		t.Fatalf("a file not written whole: %v", err)
	}
	if _, serr := os.Stat(conds.Path); !errors.Is(serr, os.ErrNotExist) {
		t.Errorf("the file is still there: %v", serr)
	}
	j := r.entries()
	last := j[len(j)-1].args()
	if last["path"] != nil || last["gather"] != nil || last["ticks"] == nil || last["frames"] != nil {
		t.Errorf("journaled as %s; want the run's ticks, without the file", j[len(j)-1].Arguments)
	}
	fileFault = nil
	twin.replay(j[len(j)-1])
	if twin.tick() != r.tick() || twin.num("cpu.pc") != r.num("cpu.pc") {
		t.Errorf("the journal's run leads to tick %d, the machine stands at %d", twin.tick(), r.tick())
	}

	// A file written whole: the journal names it by what it holds, and a
	// replay to a fresh path writes the same.
	mv := r.run(RunArgs{Frames: ptr(uint64(3)), Conditions: Conditions{Count: []Condition{writeIn("&4000", "&FFFF")}, Path: filepath.Join(dir, "g.jsonl")}})
	j = r.entries()
	e := j[len(j)-1]
	var a RunArgs
	json.Unmarshal(e.Arguments, &a)
	if a.Path != mv.File.Path || a.PathSHA256 != mv.File.SHA256 {
		t.Errorf("journaled %s; the file %s", e.Arguments, asJSON(mv.File))
	}
	a.Path = filepath.Join(dir, "again.jsonl")
	a.Handle = twin.handle
	again, err := twin.h.Run(twin.ctx, a)
	if err != nil || again.File.SHA256 != mv.File.SHA256 {
		t.Errorf("the replay wrote %v, %v", asJSON(again.File), err)
	}
	// call writes a file as run does (PATH-1, CALL-11, A-5).
	cmv := twin.call(CallArgs{Address: "&0E44", Values: []byte(`{"cpu.b": 1}`), Conditions: Conditions{Gather: []Condition{writeIn("&4000", "&5AFF")}, Path: filepath.Join(dir, "call.jsonl")}})
	if cmv.Stop != stopDone || cmv.File.Lines.Gathered != 8*32+32 {
		t.Errorf("a call gathering CL-LINE's writes of the bottom line to a file: %s", asJSON(cmv))
	}
	// One whose file holds anything else is refused, and the file taken
	// away.
	a.Path = filepath.Join(dir, "otherwise.jsonl")
	a.PathSHA256 = strings.Repeat("0", 64)
	if _, err := twin.h.Run(twin.ctx, a); err == nil || !strings.Contains(err.Error(), "not 000") {
		t.Errorf("a file that holds other than path_sha256: %v", err)
	}
	if _, serr := os.Stat(a.Path); !errors.Is(serr, os.ErrNotExist) {
		t.Errorf("the file that differs is still there")
	}
}

// TestJ3ConditionsNormalised holds J-3 for conditions: addresses, ports and
// value bytes after &, a register a number, a range of one as that one, a
// test of every byte and a changes that is false left out, when's bytes as
// capital pairs or ??, a capture's cpu.sp kept as given, and a path
// absolute.
func TestJ3ConditionsNormalised(t *testing.T) {
	dir := t.TempDir()
	wd, _ := os.Getwd()
	rel, err := filepath.Rel(wd, filepath.Join(dir, "n.jsonl"))
	if err != nil {
		t.Skip("no relative path to the temporary directory")
	}
	r := newRig(t, "cpc6128")
	r.run(RunArgs{Frames: ptr(uint64(2)), Conditions: Conditions{
		Until: []Condition{
			{Kind: "exec", Address: "47878", AddressTo: "#BB06", Capture: CaptureArgs{CPU: []string{"cpu.a"}, Memory: []SpanArg{{Address: " cpu.sp", Length: 2}, {Address: "0x10", Length: 1}}}},
			{Kind: "write", Address: "0xbf00", AddressTo: "&bfff", Value: "0", ValueTo: "255", Changes: false},
			{Kind: "out", Port: "48128", Mask: "#4300"},
			{Kind: "crtc", Register: RegisterNumbered(12), RegisterTo: RegisterNumbered(12), Value: "0x30", ValueTo: "&3F"},
			{Kind: "read", Address: "&C000", From: " Upper   7 ", When: WhenArg{Address: "49152", Bytes: "01??c9"}},
		},
		Count: []Condition{{Kind: "psg"}}, CountBy: "range", Path: rel,
	}})
	j := r.entries()
	got := string(j[len(j)-1].Arguments)
	want := `{"frames":2,"until":[` +
		`{"kind":"exec","address":"&BB06","capture":{"cpu":["cpu.a"],"memory":[{"address":"cpu.sp","length":2},{"address":"&0010","length":1}]}},` +
		`{"kind":"write","address":"&BF00","address_to":"&BFFF"},` +
		`{"kind":"out","port":"&BC00","mask":"&4300"},` +
		`{"kind":"crtc","register":12,"value":"&30","value_to":"&3F"},` +
		`{"kind":"read","address":"&C000","from":"upper 7","when":{"address":"&C000","bytes":"01 ?? C9"}}],` +
		`"count":[{"kind":"psg"}],"count_by":"range","path":"` + filepath.Join(dir, "n.jsonl") + `","path_sha256":"`
	if !strings.HasPrefix(got, want) {
		t.Errorf("journaled\n%s\nwant\n%s...", got, want)
	}
}

// TestJ6ConditionsReplay holds J-5 and J-6 for runs and calls with
// conditions: the journal's requests made again of a new machine make one
// that stands as the first stands, a run stopped before an instruction and
// the run after it, which runs it first, among them.
func TestJ6ConditionsReplay(t *testing.T) {
	r := newRig(t, "spectrum48")
	r.frames(90)
	r.runTicks(100000, Conditions{Until: []Condition{execAt("&0038")}})
	r.runTicks(100000, Conditions{Until: []Condition{execAt("&0038")}, Gather: []Condition{writeIn("&5C00", "&5CFF")}})
	r.runTicks(100000, Conditions{Count: []Condition{execIn("&0000", "&3FFF")}, CountBy: "pc"})
	r.call(CallArgs{Address: "&0E44", Values: []byte(`{"cpu.b": 2}`), Conditions: Conditions{Until: []Condition{writeAt("&4000")}}})
	last := r.runTicks(100000, Conditions{GatherLast: []Condition{execIn("&0000", "&FFFF")}})
	twin := r.twin()
	if twin.tick() != r.tick() || twin.num("cpu.pc") != r.num("cpu.pc") || twin.peek("&5C00", 256).Bytes != r.peek("&5C00", 256).Bytes {
		t.Errorf("the replay stands at %d, PC &%04X; the machine at %d, PC &%04X", twin.tick(), twin.num("cpu.pc"), r.tick(), r.num("cpu.pc"))
	}
	if next, tnext := r.runTicks(100000, Conditions{Until: []Condition{execAt("&0038")}}), twin.runTicks(100000, Conditions{Until: []Condition{execAt("&0038")}}); asJSON(next.Until) != asJSON(tnext.Until) {
		t.Errorf("after the replay, the next stop differs: %s and %s", asJSON(next.Until), asJSON(tnext.Until))
	}
	if len(last.Gathered) != watch.AnswerMatches {
		t.Errorf("gather_last kept %d", len(last.Gathered))
	}
}

// TestCancelled holds the cancellation of long requests: a client's
// cancel stops a run, a call, a step and a typing between instructions,
// answering where the machine stands, and each is journaled as the
// request it was, so that the journal made again stands a machine where
// this one stands; a request cancelled before it begins is refused. And a
// long request tells a Progress how far it has gone.
func TestCancelled(t *testing.T) {
	r := rigOn(t, New(Options{Firmware: newHostFirmware(t), Build: "test", ProgressEvery: time.Millisecond}), "cpc6128")
	r.frames(100)
	// cancelAfter is a context cancelled once the request has told its
	// progress twice.
	cancelAfter := func() (context.Context, *[]float64) {
		ctx, cancel := context.WithCancel(context.Background())
		var told []float64
		return WithProgress(ctx, func(done, total float64, _ string) {
			told = append(told, done)
			if len(told) == 2 {
				cancel()
			}
		}), &told
	}
	ctx, told := cancelAfter()
	mv, err := r.h.Run(ctx, RunArgs{Handle: r.handle, Frames: ptr(uint64(1500)), Conditions: Conditions{Count: []Condition{execIn("&0000", "&FFFF")}, CountBy: "range"}})
	if err != nil || mv.Stop != stopCancelled || mv.Frames >= 1500 || len(*told) < 2 || (*told)[1] <= (*told)[0] {
		t.Fatalf("a cancelled run: %v %s; told %v", err, asJSON(mv.Stop), *told)
	}
	if mv.Ranges.Places == 0 {
		t.Errorf("a cancelled run lost its count")
	}
	ctx, _ = cancelAfter()
	if mv, err := r.h.Type(ctx, TypeArgs{Handle: r.handle, Text: strings.Repeat("1", 200)}); err != nil || mv.Stop != stopCancelled {
		t.Fatalf("a cancelled typing: %v %s", err, mv.Stop)
	}
	r.program(0x4000, 0xF3, 0x18, 0xFE)
	ctx, _ = cancelAfter()
	if mv, err := r.h.Call(ctx, CallArgs{Handle: r.handle, Address: "&4001"}); err != nil || mv.Stop != stopCancelled {
		t.Fatalf("a cancelled call: %v %s", err, mv.Stop)
	}
	twin := r.twin()
	if twin.tick() != r.tick() || twin.num("cpu.pc") != r.num("cpu.pc") || twin.num("cpu.sp") != r.num("cpu.sp") {
		t.Errorf("the journal of cancelled requests leads to %d, the machine stands at %d", twin.tick(), r.tick())
	}
	done, cancel := context.WithCancel(context.Background())
	cancel()
	before := r.tick()
	if _, err := r.h.Run(done, RunArgs{Handle: r.handle, Frames: ptr(uint64(5))}); err == nil || r.tick() != before {
		t.Errorf("a run cancelled before it began: %v", err)
	}
}

// TestUntilAnswersJSON holds each match an answer lists to reading back
// as the same Match from its JSON, whatever kind it is.
func TestUntilAnswersJSON(t *testing.T) {
	r := newRig(t, "cpc6128")
	r.frames(100)
	mv := r.run(RunArgs{Frames: ptr(uint64(2)), Conditions: Conditions{Gather: []Condition{
		{Kind: "psg"}, {Kind: "crtc"}, execAt("&0038"), {Kind: "in", Port: "&F500", Mask: "&0B00"}, writeIn("&B800", "&BFFF"),
	}}})
	if len(mv.Gathered) == 0 {
		t.Fatal("nothing gathered")
	}
	for _, g := range mv.Gathered {
		var back watch.Match
		json.Unmarshal([]byte(asJSON(g)), &back)
		if asJSON(back) != asJSON(g) {
			t.Errorf("%s reads back as %s", asJSON(g), asJSON(back))
		}
	}
}
