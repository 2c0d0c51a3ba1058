package server

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"colophon/internal/host"
	"colophon/internal/machine/spectrum"
	"colophon/internal/shared"
)

// TestJournalNormalised holds J-1, J-2, J-3, J-4, W-22 and W-23: the
// journal names the build and the files, and enters each request that
// stood the machine up or changed it, with its tick and its arguments in
// one form: addresses after &, bytes as capital pairs, a CPC's 6845 type
// though none was named, a snapshot by its absolute path and hash; keys,
// text and the values set and call write as given. Reads and refusals are
// not entered.
func TestJournalNormalised(t *testing.T) {
	rom, err := os.ReadFile(shared.TestPath(t, "roms", "spectrum48.rom"))
	if err != nil {
		t.Fatal(err)
	}
	s, _ := spectrum.New(rom)
	s.RunTicks(10 * 69888)
	snap, _ := s.Snapshot()
	snapPath := filepath.Join(t.TempDir(), "s.sna")
	os.WriteFile(snapPath, snap, 0o644)

	w := machineWire(t)
	var o host.Opened
	w.tool("machine_open", args{"machine": "spectrum48", "snapshot": snapPath}, &o)
	h := o.Handle
	w.tool("run", args{"handle": h, "ticks": 1000, "keys": []any{"space", "CAPS"}}, nil)
	w.tool("poke", args{"handle": h, "address": "49152", "bytes": "3e01 c9"}, nil)
	w.tool("peek", args{"handle": h, "address": 0}, nil)
	w.tool("inspect", args{"handle": h, "path": "cpu"}, nil)
	w.tool("monitor", args{"handle": h}, nil)
	w.refused("run", args{"handle": h, "frames": 2000})
	w.tool("set", args{"handle": h, "values": json.RawMessage(`{"cpu.b": "#1F", "cpu.c":  31}`)}, nil)
	w.tool("step", args{"handle": h, "instructions": 3}, nil)
	w.tool("call", args{"handle": h, "address": "0xC000"}, nil)
	w.tool("type", args{"handle": h, "text": "a&b\n"}, nil)

	var p host.JournalPage
	w.tool("journal", args{"handle": h}, &p)
	if p.Build != testBuild || p.Machine != "spectrum48" || p.Handle != h || p.Total != 7 || p.Start != 0 || p.Next != nil {
		t.Errorf("journal answered %+v", p)
	}
	if mustJSON(t, p.Files) != mustJSON(t, o.Files) {
		t.Errorf("journal names files %s, machine_open %s", mustJSON(t, p.Files), mustJSON(t, o.Files))
	}
	want := []string{
		`machine_open {"machine":"spectrum48","snapshot":"` + snapPath + `","snapshot_sha256":"` + o.Files[1].SHA256 + `"}`,
		`run {"ticks":1000,"keys":["space","CAPS"]}`,
		`poke {"address":"&C000","bytes":"3E 01 C9"}`,
		`set {"values":{"cpu.b":"#1F","cpu.c":31}}`,
		`step {"instructions":3}`,
		`call {"address":"&C000"}`,
		`type {"text":"a&b\n"}`,
	}
	var ticks []uint64
	for i, e := range p.Entries {
		ticks = append(ticks, e.Tick)
		if i < len(want) && e.Tool+" "+string(e.Arguments) != want[i] {
			t.Errorf("entry %d is %s %s, want %s", i, e.Tool, e.Arguments, want[i])
		}
	}
	if len(p.Entries) != 7 {
		t.Fatalf("%d entries", len(p.Entries))
	}
	// Each with the tick it began at.
	if ticks[0] != 0 || ticks[1] != 0 || ticks[2] < 1000 || ticks[2] != ticks[3] || ticks[4] != ticks[3] || ticks[5] <= ticks[4] {
		t.Errorf("the entries' ticks are %v", ticks)
	}
	// A CPC's open gives its 6845 type though none was named.
	c := w.open("cpc664")
	var cp host.JournalPage
	w.tool("journal", args{"handle": c}, &cp)
	if got := string(cp.Entries[0].Arguments); got != `{"machine":"cpc664","crtc":0}` {
		t.Errorf("a CPC's open is journaled as %s", got)
	}
	if got := w.refused("journal", args{"handle": c, "start": 2}); !strings.Contains(got, `argument "start" is 2; the journal of m2 holds entries 0 to 0`) {
		t.Errorf("a start past the journal was refused as %q", got)
	}
}

// TestJournalPaged holds J-8: a long journal is answered as many entries as
// 8192 characters of their JSON hold, and one at least, with where the next
// page starts.
func TestJournalPaged(t *testing.T) {
	w := machineWire(t)
	h := w.open("spectrum48")
	for i := range 60 {
		w.tool("poke", args{"handle": h, "address": 0x8000 + 64*i, "bytes": strings.Repeat("AB", 64)}, nil)
	}
	// One poke longer than a page alone.
	w.tool("poke", args{"handle": h, "address": "&9000", "bytes": strings.Repeat("CD", 3000)}, nil)
	size := func(e host.Entry) int {
		var b strings.Builder
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		enc.Encode(e)
		return utf8.RuneCountInString(strings.TrimSuffix(b.String(), "\n"))
	}
	var pages [][]host.Entry
	start := 0
	for {
		var p host.JournalPage
		w.tool("journal", args{"handle": h, "start": start}, &p)
		if p.Total != 62 || p.Start != start || len(p.Entries) == 0 {
			t.Fatalf("page from %d answered %d entries of %d", start, len(p.Entries), p.Total)
		}
		pages = append(pages, p.Entries)
		if p.Next == nil {
			break
		}
		if *p.Next != start+len(p.Entries) {
			t.Fatalf("page from %d of %d entries says the next starts at %d", start, len(p.Entries), *p.Next)
		}
		start = *p.Next
	}
	var all []host.Entry
	for i, page := range pages {
		chars := 0
		for _, e := range page {
			chars += size(e)
		}
		if len(page) > 1 && chars > host.JournalPageChars {
			t.Errorf("page %d holds %d characters of entries", i, chars)
		}
		// Each page is as full as it may be: the next entry would not fit.
		if i+1 < len(pages) && chars+size(pages[i+1][0]) <= host.JournalPageChars {
			t.Errorf("page %d stops at %d characters though the next entry, of %d, would fit", i, chars, size(pages[i+1][0]))
		}
		all = append(all, page...)
	}
	if len(pages) < 3 || len(all) != 62 || all[61].Tool != "poke" || len(pages[len(pages)-1]) != 1 || size(all[61]) <= host.JournalPageChars {
		t.Errorf("%d pages hold %d entries; want the last, longer than a page, alone on its page", len(pages), len(all))
	}
}

// TestJournalReplays holds J-6, the spec's test: the same requests made in
// the same order, on the same build with the same files, make a machine
// that stands as the first stands: the same fields, the same memory, the
// same picture.
func TestJournalReplays(t *testing.T) {
	w := machineWire(t)
	for _, machine := range []string{"spectrum48", "cpc6128"} {
		t.Run(machine, func(t *testing.T) {
			h := w.boot(machine)
			text := "PRINT 2+2\n"
			if machine == "spectrum48" {
				text = "p2+2\n"
			}
			w.tool("type", args{"handle": h, "text": text}, nil)
			w.tool("poke", args{"handle": h, "address": "&9000", "bytes": "01 02 03"}, nil)
			w.tool("run", args{"handle": h, "frames": 3, "keys": []any{"SPACE"}}, nil)
			w.tool("step", args{"handle": h, "instructions": 7}, nil)
			w.tool("set", args{"handle": h, "values": map[string]any{"cpu.b": 7}}, nil)

			replay := machineWire(t)
			var handle string
			for _, e := range w.journalOf(h) {
				var a map[string]any
				if err := json.Unmarshal(e.Arguments, &a); err != nil {
					t.Fatal(err)
				}
				if e.Tool == "machine_open" {
					var o host.Opened
					replay.tool("machine_open", a, &o)
					handle = o.Handle
					continue
				}
				a["handle"] = handle
				replay.tool(e.Tool, a, nil)
			}
			sameMachine(t, w, h, replay, handle)
		})
	}
}

// sameMachine fails unless two machines stand alike: their fields, their
// memory as the processor reads it, their picture and their journal.
func sameMachine(t *testing.T, a *wire, ha string, b *wire, hb string) {
	t.Helper()
	if fa, fb := mustJSON(t, a.inspect(ha, "")), mustJSON(t, b.inspect(hb, "")); fa != fb {
		t.Errorf("the fields differ:\n%s\n%s", fa, fb)
	}
	for addr := 0; addr < 0x10000; addr += 4096 {
		if ma, mb := a.peek(ha, addr, 4096), b.peek(hb, addr, 4096); string(ma) != string(mb) {
			t.Errorf("the memory from &%04X differs", addr)
		}
	}
	pa := a.toolResult("monitor", args{"handle": ha})["content"].([]any)[1].(map[string]any)["data"]
	pb := b.toolResult("monitor", args{"handle": hb})["content"].([]any)[1].(map[string]any)["data"]
	if pa != pb {
		t.Errorf("the pictures differ")
	}
	ja, jb := a.journalOf(ha), b.journalOf(hb)
	if mustJSON(t, ja) != mustJSON(t, jb) {
		t.Errorf("the journals differ:\n%s\n%s", mustJSON(t, ja), mustJSON(t, jb))
	}
}
