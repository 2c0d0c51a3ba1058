package server

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"colophon/internal/host"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Issue 19: nothing an agent sends can break the server, and every refusal
// says what was wrong in the same words wherever it is made.

// TestAddressFormsEverywhere holds item 10: every argument that takes an
// address takes it in each form the schemas list, &, $, # and 0x before
// hexadecimal digits or decimal digits alone, and refuses "" alike,
// rather than reading it as &0000 in one tool and refusing it in another.
func TestAddressFormsEverywhere(t *testing.T) {
	w := machineWire(t)
	h := w.open("cpc6128")
	w.tool("state_keep", args{"handle": h}, nil)
	cases := []struct {
		tool, arg string
		base      args
	}{
		{"peek", "address", args{}},
		{"poke", "address", args{"bytes": "00"}},
		{"disassemble", "address", args{"count": 1}},
		{"find", "from", args{"text": "A"}},
		{"compare", "from", args{"state": "s1"}},
		{"screen", "base", args{"layout": "linear", "width": 2, "height": 1}},
		{"call", "address", args{"values": args{"cpu.sp": "&C000"}}},
	}
	forms := []any{"&4000", "$4000", "#4000", "0x4000", "16384", 16384}
	for _, c := range cases {
		for _, form := range forms {
			a := args{"handle": h, c.arg: form}
			for k, v := range c.base {
				a[k] = v
			}
			res := w.toolResult(c.tool, a)
			if res["isError"] == true {
				t.Errorf("%s %s: refused: %v", c.tool, mustJSON(t, a), res["content"])
			}
		}
		a := args{"handle": h, c.arg: ""}
		for k, v := range c.base {
			a[k] = v
		}
		if got := w.refused(c.tool, a); !strings.HasPrefix(got, `argument "`+c.arg+`" is empty`) {
			t.Errorf("%s with %s \"\" refused as %q; want it refused as empty", c.tool, c.arg, got)
		}
	}
}

// TestMessages holds item 10: the inconsistencies the audit found, each
// put right where it stood.
func TestMessages(t *testing.T) {
	w := machineWire(t)
	c := w.open("cpc6128")
	s := w.open("spectrum48")
	w.tool("state_keep", args{"handle": c}, nil)
	for _, tt := range []struct {
		tool string
		args args
		want string
	}{
		// 0 is refused, so the range says 1.
		{"step", args{"handle": s, "instructions": -1}, `argument "instructions" is -1; it must be from 1 to 100000`},
		{"step", args{"handle": s, "instructions": 0}, `argument "instructions" is 0; it must be from 1 to 100000`},
		// A number is no string, and is not quoted as one.
		{"peek", args{"handle": s, "address": -1}, `argument "address" is -1; it must be at least 0`},
		{"run", args{"handle": s, "frames": 0}, `argument "frames" is 0; it must be from 1 to 1500`},
		{"run", args{"handle": s, "ticks": 0}, `argument "ticks" is 0; it must be at least 1`},
		// The end of the RAM compared is the end, not the last address.
		{"compare", args{"handle": c, "state": "s1", "from": "&20001"}, `argument "from" is &20001, past &20000, the end of the RAM compared`},
		// A SHA-256 is 64 hex digits; anything else is no SHA-256, not a
		// file that has changed.
		{"machine_open", args{"machine": "spectrum48", "snapshot": "x.sna", "snapshot_sha256": "abc"}, `argument "snapshot_sha256" is "abc", which is no SHA-256`},
		{"machine_open", args{"machine": "spectrum48", "snapshot": ""}, `argument "snapshot" is empty`},
		{"machine_open", args{"machine": "spectrum48", "snapshot_sha256": ""}, `argument "snapshot_sha256" is empty`},
		// Items 3 and 4: a field holds what its hardware holds, and the
		// tick moves only as the machine runs.
		{"set", args{"handle": s, "values": args{"ula.border": 8}}, `argument "values": ula.border: 8 is out of range: it holds 0 to 7 (&00 to &07); nothing was written`},
		{"set", args{"handle": s, "values": args{"cpu.tick": 5}}, `argument "values": cpu.tick: it is 0, and set cannot change it: it moves only as the machine runs; nothing was written`},
	} {
		if got := w.refused(tt.tool, tt.args); got != tt.want && !strings.HasPrefix(got, tt.want) {
			t.Errorf("%s %s refused as\n %q\nwant %q", tt.tool, mustJSON(t, tt.args), got, tt.want)
		}
	}
	// The frames and ticks schemas say where they begin.
	list := mustResult(t, "tools/list", w.call("tools/list", nil))
	for _, tool := range list["tools"].([]any) {
		tool := tool.(map[string]any)
		if tool["name"] != "run" {
			continue
		}
		props := tool["inputSchema"].(map[string]any)["properties"].(map[string]any)
		for _, p := range []string{"frames", "ticks"} {
			if min := props[p].(map[string]any)["minimum"]; min != 1.0 {
				t.Errorf("run's %s schema has minimum %v; want 1", p, min)
			}
		}
	}
}

// TestHugeArgumentsAnsweredShort holds item 2: whatever a request sends,
// ten megabytes of a handle, a path, a key, a state's name or an
// argument's name, a million digits, a hundred thousand arguments, its
// refusal quotes 80 characters of it at most, and the machine stands as it
// was.
func TestHugeArgumentsAnsweredShort(t *testing.T) {
	w := machineWire(t)
	h := w.open("cpc6128")
	w.tool("state_keep", args{"handle": h}, nil)
	before := w.inspect(h, "")
	huge := strings.Repeat("A", 10<<20)
	digits := json.Number(strings.Repeat("9", 1000000))
	many := args{"handle": h}
	for i := range 100000 {
		many[fmt.Sprintf("a%d", i)] = i
	}
	for _, tt := range []struct {
		tool string
		args args
		want string
	}{
		{"run", args{"handle": huge, "frames": 1}, `argument "handle" is 10485760 characters long; it may be at most 64`},
		{"run", args{"handle": h, huge: 1}, `unknown argument "AAAA`},
		{"run", args{"handle": h, "frames": digits}, `argument "frames" is a number of 1000000 digits`},
		{"run", args{"handle": h, "ticks": digits}, `argument "ticks" is a number of 1000000 digits`},
		{"run", args{"handle": h, "frames": 1, "keys": []any{huge}}, `argument "keys[0]" is 10485760 characters long; it may be at most 32`},
		{"run", many, `unknown argument "a`},
		{"set", args{"handle": h, "values": args{huge: 1}}, `argument "values": AAAA`},
		{"set", args{"handle": h, "values": args{"cpu": args{huge: 1}}}, `argument "values": cpu.AAAA`},
		{"set", args{"handle": h, "values": args{"cpu.a": "&" + huge}}, `argument "values": cpu.a: "&AAAA`},
		{"set", args{"handle": h, "values": args{"cpu.a": digits}}, `argument "values": cpu.a: 9999`},
		{"call", args{"handle": h, "address": "&4000", "values": args{huge: 1}}, `argument "values": AAAA`},
		{"inspect", args{"handle": h, "path": huge}, `argument "path" is 10485760 characters long; it may be at most 128`},
		{"peek", args{"handle": h, "address": huge}, `argument "address" is 10485760 characters long; it may be at most 32`},
		{"compare", args{"handle": h, "state": huge}, `argument "state" is 10485760 characters long; it may be at most 64`},
		{"state_restore", args{"handle": h, "state": huge}, `argument "state" is 10485760 characters long; it may be at most 64`},
		{"type", args{"handle": h, "text": huge}, `argument "text" is 10485760 characters long; it may be at most 250`},
		{"find", args{"handle": h, "bytes": huge}, `argument "bytes" is 10485760 characters long; it may be at most 1024`},
		{"poke", args{"handle": h, "address": 0, "bytes": huge}, `argument "bytes" is 10485760 characters long; it may be at most 393216`},
		{"machine_open", args{"machine": huge}, `argument "machine" is "AAAA`},
		{"machine_open", args{"machine": "spectrum48", "snapshot": huge}, `argument "snapshot" is 10485760 characters long; it may be at most 4096`},
		{"machine_open", args{"machine": "cpc464", "crtc": digits}, `argument "crtc" is a number of 1000000 digits`},
	} {
		got := w.refused(tt.tool, tt.args)
		if !strings.HasPrefix(got, tt.want) {
			t.Errorf("%s refused as %.300q; want it to begin %q", tt.tool, got, tt.want)
		}
		if len(got) > 1000 {
			t.Errorf("%s refused in %d bytes: %.300s…", tt.tool, len(got), got)
		}
	}
	// Eight faults at most are listed, and the rest counted.
	if got := w.refused("run", many); !strings.HasSuffix(got, "and 99992 faults more") {
		t.Errorf("100000 unknown arguments refused as %.300q…; want eight listed and the rest counted", got)
	}
	if after := w.inspect(h, ""); !reflect.DeepEqual(after, before) {
		t.Errorf("refused requests changed the machine")
	}
}

// TestProtocolRefusalsQuoteShort holds item 2 for what the protocol's own
// refusals quote: a tool's or a prompt's name, a revision named in _meta
// or asked for by initialize, each of five thousand characters, is
// refused in a short answer that quotes 80 characters of it, where the
// SDK's own refusals quoted a name whole.
func TestProtocolRefusalsQuoteShort(t *testing.T) {
	long := strings.Repeat("A", 5000)
	w := newWire(t)
	check := func(what string, r reply, want string) {
		t.Helper()
		if r.Error == nil || !strings.Contains(r.Error.Message, want) || len(r.Raw) > 600 {
			t.Errorf("%s: answered in %d bytes, %.300s; want a short refusal saying %q", what, len(r.Raw), r.Raw, want)
		}
	}
	check("initialize asking for a long revision",
		w.call("initialize", withMeta("2025-11-25", map[string]any{"protocolVersion": long, "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "x", "version": "1"}})),
		`asks for "AAAA`)
	mustResult(t, "initialize", w.initialize("2025-11-25"))
	check("tools/call of a long name", w.call("tools/call", map[string]any{"name": long}), `unknown tool "AAAA`)
	check("prompts/get of a long name", w.call("prompts/get", map[string]any{"name": long}), `unknown prompt "AAAA`)
	check("a long revision in _meta", w.call("tools/list", withMeta(long, nil)), `_meta["io.modelcontextprotocol/protocolVersion"] is 5000 characters long`)
	check("an object for a revision in _meta", w.call("tools/list", map[string]any{"_meta": map[string]any{mcp.MetaKeyProtocolVersion: map[string]any{long: 1}}}),
		`_meta["io.modelcontextprotocol/protocolVersion"] is {"AAAA`)
}

// TestDisassembleLongChain holds item 5: a 64K of FD prefixes, listed a
// thousand at a time, is listed in pieces of 16 prefixes as the processor
// meets them, within 4096 bytes to an answer, and next always moves on,
// where it once was one instruction of 65536 bytes listed a thousand
// times over in a 196 MB answer whose next never moved.
func TestDisassembleLongChain(t *testing.T) {
	w := machineWire(t)
	h := w.open("cpc6128")
	w.tool("poke", args{"handle": h, "address": 0, "ram": true, "bytes": strings.Repeat("FD", 0x10000)}, nil)
	at := "&0000"
	seen := map[string]bool{}
	// 16 listings of 4096 bytes go once round the 64K, each from where
	// the one before ended.
	for range 16 {
		var d struct {
			Instructions []struct{ Address, Bytes, Text string }
			Next         string
		}
		text := w.tool("disassemble", args{"handle": h, "address": at, "ram": true, "count": 1000}, &d)
		if len(text) > 100000 {
			t.Fatalf("disassemble from %s answered %d bytes", at, len(text))
		}
		if len(d.Instructions) != 4096/16 {
			t.Errorf("from %s: %d instructions, want 256 within 4096 bytes", at, len(d.Instructions))
		}
		for _, in := range d.Instructions {
			if in.Text != "NONI" || len(in.Bytes) != 16*3-1 {
				t.Fatalf("from %s: %s %q %q; want NONI of 16 prefixes", at, in.Address, in.Bytes, in.Text)
			}
		}
		if d.Next == at || seen[d.Next] && d.Next != "&0000" {
			t.Fatalf("next %s after a listing from %s does not move on", d.Next, at)
		}
		seen[at] = true
		at = d.Next
	}
	if at != "&0000" {
		t.Errorf("16 listings of 4096 bytes end at %s, not round to &0000", at)
	}
}

// TestCallResetNotReturned holds item 6: a call of &0000 resets the
// machine, and the rebooted firmware's return to the address pushed, with
// the stack pointer where it was, is not the routine's: the call runs to
// its limit and says so, where it once said done. A routine that returns
// with interrupts running through it is still done.
func TestCallResetNotReturned(t *testing.T) {
	w := machineWire(t)
	for _, name := range []string{"cpc6128", "spectrum48"} {
		h := w.boot(name)
		var r host.Moved
		w.tool("call", args{"handle": h, "address": "&0000"}, &r)
		if r.Stop != "limit" {
			t.Errorf("%s: call &0000 answered %+v; want it to run to its limit, the reset never returning", name, r)
		}
		// The delay routine runs three frames, through their interrupts.
		w.tool("poke", args{"handle": h, "address": "&8000", "bytes": delayRoutine}, nil)
		w.tool("call", args{"handle": h, "address": "&8000", "values": args{"cpu.iff1": true, "cpu.iff2": true, "cpu.sp": "&7F00"}}, &r)
		if r.Stop != "done" || r.Frames < 2 {
			t.Errorf("%s: a routine returning through interrupts answered %+v; want done after some frames", name, r)
		}
	}
}

// TestTypeRefusalsHoldable holds item 9: every character type refuses
// and sends to run is held through run by the names its refusal gives,
// and a CPC held at SHIFT and £ types £ at BASIC's prompt, as a Spectrum
// held at SYM and £ does.
func TestTypeRefusalsHoldable(t *testing.T) {
	w := machineWire(t)
	for _, tt := range []struct{ machine, pound string }{{"cpc6128", "£"}, {"spectrum48", "£"}} {
		h := w.boot(tt.machine)
		sent := 0
		for r := rune(1); r < 0x2200; r++ {
			got := w.refusedOrNot("type", args{"handle": h, "text": string(r)})
			_, keys, ok := strings.Cut(got, "hold its keys through run instead, as keys ")
			if !ok {
				continue
			}
			var names []string
			if err := json.Unmarshal([]byte(keys), &names); err != nil {
				t.Fatalf("%s: type %q refused as %q, whose keys are no list: %v", tt.machine, r, got, err)
			}
			if res := w.toolResult("run", args{"handle": h, "frames": 1, "keys": names}); res["isError"] == true {
				t.Errorf("%s: type %q sends to run with keys %v, and run refuses them: %v", tt.machine, r, names, res["content"])
			}
			sent++
		}
		if sent == 0 {
			t.Errorf("%s: type sent no character to run; £ at least should be", tt.machine)
		}
	}
}

// refusedOrNot calls a tool and answers its refusal's text, or "" where it
// was not refused.
func (w *wire) refusedOrNot(name string, a args) string {
	w.t.Helper()
	res := w.toolResult(name, a)
	if res["isError"] != true {
		return ""
	}
	content, _ := res["content"].([]any)
	text, _ := content[0].(map[string]any)["text"].(string)
	return text
}

// TestPoundHeld: the keys type's refusal of £ names, held through a run at
// BASIC's prompt, type £, which the screen then shows, on each machine.
func TestPoundHeld(t *testing.T) {
	w := machineWire(t)
	for _, m := range []string{"cpc6128", "spectrum48"} {
		h := w.boot(m)
		msg := w.refused("type", args{"handle": h, "text": "£"})
		_, keys, _ := strings.Cut(msg, "as keys ")
		var names []string
		if err := json.Unmarshal([]byte(keys), &names); err != nil {
			t.Fatalf("%s: type £ refused as %q: %v", m, msg, err)
		}
		w.tool("run", args{"handle": h, "frames": 3, "keys": names}, nil)
		w.tool("run", args{"handle": h, "frames": 10}, nil)
		var mon struct{ Text []string }
		w.tool("monitor", args{"handle": h, "text": true}, &mon)
		if !strings.Contains(strings.Join(mon.Text, "\n"), "£") {
			t.Errorf("%s: held %v through a run, and the screen reads %q; want £ on it", m, names, mon.Text)
		}
	}
}
