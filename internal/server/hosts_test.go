package server

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"colophon/internal/firmware"
	"colophon/internal/host"
	"colophon/internal/shared"
)

// romsHost is a host that reads the shared firmware (../shared/roms).
func romsHost(t testing.TB) *host.Host {
	t.Helper()
	dir := shared.TestPath(t, "roms")
	return host.New(host.Options{Firmware: firmware.Loader{Dirs: []string{dir}}, Build: testBuild})
}

// machineWire is a client on a server whose host reads the shared
// firmware, opened with initialize in 2025-11-25.
func machineWire(t testing.TB) *wire {
	t.Helper()
	w := dial(t, New(Options{Build: testBuild, Host: romsHost(t)}))
	mustResult(t, "initialize", w.initialize("2025-11-25"))
	return w
}

// toolResult calls a tool and returns its whole result.
func (w *wire) toolResult(name string, args any) map[string]any {
	w.t.Helper()
	params := map[string]any{"name": name}
	if args != nil {
		params["arguments"] = args
	}
	return mustResult(w.t, "tools/call "+name, w.call("tools/call", params))
}

// tool calls a tool, fails if it is refused, and decodes its structured
// content into out, if out is not nil. It returns the answer's text.
func (w *wire) tool(name string, args any, out any) string {
	w.t.Helper()
	res := w.toolResult(name, args)
	if res["isError"] == true {
		w.t.Fatalf("%s %s: refused: %v", name, mustJSON(w.t, args), res["content"])
	}
	content, _ := res["content"].([]any)
	text, _ := content[0].(map[string]any)["text"].(string)
	if out != nil {
		if err := json.Unmarshal([]byte(text), out); err != nil {
			w.t.Fatalf("%s: answer %s: %v", name, text, err)
		}
		structured, _ := json.Marshal(res["structuredContent"])
		var fromStructured, fromText any
		json.Unmarshal(structured, &fromStructured)
		json.Unmarshal([]byte(text), &fromText)
		if fmt.Sprint(fromStructured) != fmt.Sprint(fromText) {
			w.t.Fatalf("%s: structured content %s differs from the text %s", name, structured, text)
		}
	}
	return text
}

// refused calls a tool, fails unless it is refused, and returns why.
func (w *wire) refused(name string, args any) string {
	w.t.Helper()
	res := w.toolResult(name, args)
	if res["isError"] != true {
		w.t.Fatalf("%s %s: want a refusal, got %v", name, mustJSON(w.t, args), res["structuredContent"])
	}
	content, _ := res["content"].([]any)
	text, _ := content[0].(map[string]any)["text"].(string)
	return text
}

func mustJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// args is a tool's arguments, written as a literal.
type args = map[string]any

// open stands a machine up and returns its handle.
func (w *wire) open(machine string) string {
	w.t.Helper()
	var o host.Opened
	w.tool("machine_open", args{"machine": machine}, &o)
	return o.Handle
}

// boot stands a machine up and runs it for the frames the command line
// waits before typing, as the command line counts them: 78 standard frames
// of a CPC's, 128 of a Spectrum's (KEY-19).
func (w *wire) boot(machine string) string {
	w.t.Helper()
	h := w.open(machine)
	ticks := 78 * 79872
	if machine == "spectrum48" {
		ticks = 128 * 69888
	}
	w.tool("run", args{"handle": h, "ticks": ticks}, nil)
	return h
}

// peek reads n bytes from an address as peek answers them.
func (w *wire) peek(h string, addr any, n int) []byte {
	w.t.Helper()
	var p host.Peeked
	w.tool("peek", args{"handle": h, "address": addr, "length": n}, &p)
	return hexBytes(w.t, p.Bytes)
}

// hexBytes reads bytes written as peek writes them.
func hexBytes(t testing.TB, s string) []byte {
	t.Helper()
	var out []byte
	for _, f := range strings.Fields(s) {
		v, err := strconv.ParseUint(f, 16, 8)
		if err != nil || len(f) != 2 {
			t.Fatalf("%q in %q is no pair of capital hex digits", f, s)
		}
		if strings.ToUpper(f) != f {
			t.Fatalf("%q in %q is not in capitals", f, s)
		}
		out = append(out, byte(v))
	}
	return out
}

// inspect reads a field.
func (w *wire) inspect(h, path string) any {
	w.t.Helper()
	var i struct {
		Value any `json:"value"`
	}
	w.tool("inspect", args{"handle": h, "path": path}, &i)
	return i.Value
}

// tick reads a machine's tick from machine_list, which moves nothing.
func (w *wire) tick(h string) uint64 {
	w.t.Helper()
	var list MachineList
	w.tool("machine_list", nil, &list)
	for _, m := range list.Machines {
		if m.Handle == h {
			return m.Tick
		}
	}
	w.t.Fatalf("machine_list does not list %s", h)
	return 0
}

// journalOf reads a machine's whole journal, page by page.
func (w *wire) journalOf(h string) []host.Entry {
	w.t.Helper()
	var all []host.Entry
	start := 0
	for {
		var p host.JournalPage
		w.tool("journal", args{"handle": h, "start": start}, &p)
		all = append(all, p.Entries...)
		if p.Next == nil {
			return all
		}
		start = *p.Next
	}
}

// spectrumText reads a Spectrum's screen as text through its ROM's own
// character set, which The Complete Spectrum ROM Disassembly puts at &3D00
// for the characters &20 to &7F (rom_entries.tsv, CHARSET): 24 lines of 32
// characters, spaces cut from their ends, ? where no character matches.
func (w *wire) spectrumText(h string) []string {
	w.t.Helper()
	screen := append(w.peek(h, "&4000", 4096), w.peek(h, "&5000", 2048)...)
	font := w.peek(h, "&3D00", 96*8)
	lines := make([]string, 24)
	for row := range 24 {
		var b strings.Builder
		for col := range 32 {
			// The bitmap's address of a pixel line y and a column:
			// 010 y7 y6 y2 y1 y0 y5 y4 y3 x4..x0 (the 48K's screen
			// layout, as the ULA reads it).
			ch := byte('?')
			for c := range 96 {
				match := true
				for i := range 8 {
					y := row*8 + i
					at := (y&0xC0)<<5 | (y&7)<<8 | (y&0x38)<<2 | col
					if screen[at] != font[c*8+i] {
						match = false
						break
					}
				}
				if match {
					ch = byte(0x20 + c)
					break
				}
			}
			b.WriteByte(ch)
		}
		lines[row] = strings.TrimRight(b.String(), " ")
	}
	return lines
}
