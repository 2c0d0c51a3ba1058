package host

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"colophon/internal/media/dsk/dsktest"
	"colophon/internal/media/tape/tapetest"
)

// fullState writes a state file of a 6128 with every section a state file
// has: a disc in drive A, none in B, and a tape in the deck partway
// through, and answers its bytes.
func fullState(t *testing.T) []byte {
	t.Helper()
	ctx := context.Background()
	h := stateHost(t)
	a := openCPC(t, h)
	must(h.DiscInsert(ctx, DiscInsertArgs{Handle: a, Path: discFile(t, "blank.dsk", dsktest.DATA())}))
	must(h.TapeInsert(ctx, TapeInsertArgs{Handle: a, Path: writeFile(t, "bin.cdt", tapetest.CPCBinary("MARKER", 0x4000, 0x4000, cpcMarker))}))
	must(h.Type(ctx, TypeArgs{Handle: a, Text: "|TAPE\nRUN\"\n"}))
	must(h.Run(ctx, RunArgs{Handle: a, Frames: ptr(uint64(10))}))
	must(h.Run(ctx, RunArgs{Handle: a, Frames: ptr(uint64(10)), Keys: []Key{KeyNamed("SPACE")}}))
	// The leader tape takes 5.7 seconds before the first pulse.
	must(h.Run(ctx, RunArgs{Handle: a, Frames: ptr(uint64(400))}))
	if r := deckOf(t, h, a).TapeDeck().Reader; r.Pulses == 0 {
		t.Fatalf("the tape has not moved:\n%s", cpcScreen(t, h, a))
	}
	path := filepath.Join(t.TempDir(), "full.state")
	must(h.StateSave(ctx, StateSaveArgs{Handle: a, Path: path}))
	return must(os.ReadFile(path))
}

// sections answers where each part of a state file begins: its first
// line's end, then each buffer's start, by name.
func sections(t *testing.T, b []byte) (line []byte, starts map[string]int) {
	t.Helper()
	end := bytes.IndexByte(b, '\n')
	var l stateLine
	if err := json.Unmarshal(b[:end], &l); err != nil {
		t.Fatal(err)
	}
	starts = map[string]int{}
	at := end + 1
	for _, buf := range l.Buffers {
		starts[buf.Name] = at
		at += int(buf.Bytes)
	}
	return b[:end], starts
}

// TestStateFileCorpus holds the state file's reader to every way a file
// can be cut short or altered (KEEP-9 to KEEP-14, FILE-7): each is refused
// with its cause, and no machine is stood up; and the file unaltered opens.
func TestStateFileCorpus(t *testing.T) {
	ctx := context.Background()
	good := fullState(t)
	line, starts := sections(t, good)
	body := good[len(line)+1:]
	// edit changes the first line, keeping the buffers.
	edit := func(re, to string) []byte {
		t.Helper()
		r := regexp.MustCompile(re)
		if !r.Match(line) {
			t.Fatalf("the first line holds no %s", re)
		}
		return append(append(r.ReplaceAll(bytes.Clone(line), []byte(to)), '\n'), body...)
	}
	ram := starts["ram"]
	type variant struct {
		name string
		b    []byte
		want string
	}
	var cases []variant
	for _, cut := range []struct {
		name string
		at   int
	}{
		{"nothing", 0}, {"within the first line", len(line) / 2}, {"before the newline", len(line)},
		{"after the first line", len(line) + 1}, {"within the RAM", ram + 1000}, {"at the raster", starts["raster"]},
		{"within the raster", starts["raster"] + 5}, {"at drive A's disc", starts["disc_a"]},
		{"within drive A's disc", starts["disc_a"] + 4000}, {"at the tape", starts["tape"]},
		{"within the tape", starts["tape"] + 7}, {"a byte short", len(good) - 1},
	} {
		want := "cut short"
		if cut.at <= len(line) {
			want = "ends before its first line does"
		}
		cases = append(cases, variant{"cut " + cut.name, good[:cut.at], want})
	}
	cases = append(cases,
		variant{"a byte more", append(bytes.Clone(good), 0), "1 bytes follow its buffers"},
		variant{"not JSON", append([]byte("colophon\n"), body...), "its first line is not a state file's"},
		variant{"another format", edit(`"format":"colophon state 1"`, `"format":"colophon state 2"`), `not "colophon state 1"`},
		variant{"an unknown key", edit(`^\{`, `{"colour":1,`), `unknown field "colour"`},
		variant{"an unknown key a thousand characters long", edit(`^\{`, `{"`+strings.Repeat("k", 1000)+`":1,`), `unknown field "kkkkkkkk`},
		variant{"a field out of range", edit(`"gate_array.pen":\d+`, `"gate_array.pen":17`), "gate_array: pen"},
		variant{"a head past its cylinders", edit(`"fdc.units\[0\].head":\d+`, `"fdc.units[0].head":84`), "head is 84"},
		variant{"a 6845 of another type", edit(`"crtc.type":"HD6845S"`, `"crtc.type":"UM6845R"`), "crtc.type: it is fixed"},
		variant{"a field missing", edit(`"cpu.a":\d+,`, ``), "lacks 1 of the machine's fields: cpu.a"},
		variant{"a field unknown", edit(`"cpu.a":`, `"cpu.zz":1,"cpu.a":`), `no field "zz"`},
		variant{"a tick its fields do not stand at", edit(`"tick":(\d+),"files"`, `"tick":1${1},"files"`), "its fields stand at tick"},
		variant{"a buffer too short", shorten(t, good, "ram", 1000), "ram is 130072 bytes; a cpc6128's is 131072"},
		variant{"a buffer renamed", edit(`"name":"raster"`, `"name":"picture"`), `its buffer 1 is "picture"; a cpc6128's is raster`},
		variant{"no tape's format", edit(`,"format":"TZX"`, ``), `its tape is in the format ""`},
		variant{"a reader the tape never comes to", edit(`"tape.reader.pulses":(\d+)`, `"tape.reader.pulses":1${1}`), "never comes to where its deck's reader stands"},
		variant{"a disc not laid out", flip(good, starts["disc_a"]), "disc_a: the disc's buffer is not a disc laid out by this build"},
		variant{"a disc's track outside it", poke32(good, starts["disc_a"]+32, 0x7FFFFFF0), "lies outside the disc's"},
		variant{"no journal", edit(`"journal":\[.*\],"fields"`, `"journal":[],"fields"`), "its journal does not begin with the machine_open"},
		variant{"a journal of another machine", edit(`"arguments":\{"machine":"cpc6128"`, `"arguments":{"machine":"cpc464"`), "a machine_open of another machine"},
		variant{"another machine", edit(`"machine":"cpc6128","crtc"`, `"machine":"cpc464","crtc"`), `it holds a "cpc464", and argument "machine" is cpc6128`},
		variant{"no 6845 type", edit(`"crtc":0,`, ``), "names no 6845 type"},
		variant{"a firmware of another hash", edit(`"sha256":"[0-9a-f]{64}"`, `"sha256":"`+strings.Repeat("ab", 32)+`"`), "abababab"},
		variant{"a firmware named by no hash", edit(`"sha256":"[0-9a-f]{64}"`, `"sha256":"xyz"`), "which is no SHA-256"},
	)
	h := stateHost(t)
	dir := t.TempDir()
	for i, c := range cases {
		path := filepath.Join(dir, fmt.Sprintf("%02d.state", i))
		if err := os.WriteFile(path, c.b, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := h.Open(ctx, OpenArgs{Machine: "cpc6128", State: path})
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: opened with %v; want it refused with %q and its path", c.name, err, c.want)
		}
		// What the file holds is quoted short (issue 19, item 2).
		if err != nil && len(err.Error()) > 400+len(path) {
			t.Errorf("%s: refused in %d characters: %.300s…", c.name, len(err.Error()), err)
		}
	}
	if l := must(h.List(ctx)); len(l) != 0 {
		t.Fatalf("refused opens stood %d machines up", len(l))
	}
	path := filepath.Join(dir, "good.state")
	if err := os.WriteFile(path, good, 0o644); err != nil {
		t.Fatal(err)
	}
	if o := must(h.Open(ctx, OpenArgs{Machine: "cpc6128", State: path})); o.Handle != "m1" {
		t.Errorf("the file unaltered opened as %s", o.Handle)
	}
}

// shorten makes a buffer of a state file shorter, saying so in its first
// line, so the file is whole but the buffer is not the machine's.
func shorten(t *testing.T, b []byte, name string, by int) []byte {
	t.Helper()
	line, starts := sections(t, b)
	var l stateLine
	if err := json.Unmarshal(line, &l); err != nil {
		t.Fatal(err)
	}
	for i := range l.Buffers {
		if l.Buffers[i].Name == name {
			l.Buffers[i].Bytes -= int64(by)
		}
	}
	head := must(marshal(l))
	out := append(append(head, '\n'), b[len(line)+1:starts[name]]...)
	return append(out, b[starts[name]+by:]...)
}

// flip changes the byte at i.
func flip(b []byte, i int) []byte {
	b = bytes.Clone(b)
	b[i] ^= 0xFF
	return b
}

// poke32 writes a little-endian 32-bit number at i.
func poke32(b []byte, i int, v uint32) []byte {
	b = bytes.Clone(b)
	b[i], b[i+1], b[i+2], b[i+3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
	return b
}

// TestFILE7StateFileLimits: a state file past 128MB is refused unread, as
// is one whose first line runs past 32MB, read no further; each names the
// file and the limit (FILE-7).
func TestFILE7StateFileLimits(t *testing.T) {
	ctx := context.Background()
	h := stateHost(t)
	dir := t.TempDir()
	big := filepath.Join(dir, "big.state")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	// A sparse file: nothing is written, and nothing need be read.
	if err := f.Truncate(MaxStateFile + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, err := h.Open(ctx, OpenArgs{Machine: "cpc6128", State: big}); err == nil || !strings.Contains(err.Error(), "134217729 bytes; a state file is at most 128MB") {
		t.Errorf("a file past 128MB: %v", err)
	}
	long := filepath.Join(dir, "long.state")
	if err := os.WriteFile(long, append(bytes.Repeat([]byte(" "), MaxStateLine+1), '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Open(ctx, OpenArgs{Machine: "cpc6128", State: long}); err == nil || !strings.Contains(err.Error(), "first line is longer than 32MB") || !strings.Contains(err.Error(), long) {
		t.Errorf("a first line past 32MB: %v", err)
	}
}
