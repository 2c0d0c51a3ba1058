// Command gen writes the seed corpus of every fuzz target of the repository
// into its package's testdata/fuzz, from the real things each target
// decodes: snapshots each machine writes, a call of each tool, paths and
// values of each machine's fields, the escapes of a line. Run it from the
// module's root, as make fuzz-seeds does; a seed already there is left as
// it is.
package main

import (
	"fmt"
	"os"
	"strings"

	"colophon/internal/chip/ula"
	"colophon/internal/fuzzseed"
	"colophon/internal/machine/cpc"
	"colophon/internal/machine/spectrum"
)

type seed struct {
	dir, target string
	vals        []any
}

func main() {
	var seeds []seed
	add := func(dir, target string, vals ...any) { seeds = append(seeds, seed{dir, target, vals}) }

	// Snapshots, as each machine writes them after a few frames, and cut
	// short.
	for model := range byte(3) {
		m, err := cpc.New(cpc.Config{Model: cpc.Model(model), Firmware: make([]byte, 2*cpc.ROMSize), AMSDOS: make([]byte, cpc.ROMSize)})
		check(err)
		m.RunTicks(3 * cpc.TicksPerFrame)
		b, err := m.Snapshot()
		check(err)
		add("internal/machine/cpc", "FuzzLoadSnapshot", b, model, model)
		add("internal/machine/cpc", "FuzzLoadSnapshot", b[:0x100], model, byte(0))
	}
	add("internal/machine/cpc", "FuzzLoadSnapshot", []byte("MV - SNA"), byte(0), byte(0))
	s, err := spectrum.New(make([]byte, spectrum.ROMSize))
	check(err)
	for _, frames := range []uint64{0, 3} {
		s.RunTicks(frames * ula.TicksPerFrame)
		b, err := s.Snapshot()
		check(err)
		add("internal/machine/spectrum", "FuzzLoadSnapshot", b)
		add("internal/machine/spectrum", "FuzzLoadSnapshot", b[:27])
	}

	// find's bytes and text, over memory that holds them.
	mem := []byte("\x3E\x01\xC9\xCD\x18\xBBREAD\xD9 READY\x00\x00\x3E\x7F\xC9")
	for _, p := range [][2]string{
		{"CD 18 BB", "READY"}, {"3E ?? C9", "REA"}, {"3E??C9", "a"}, {"", ""},
		{strings.Repeat("?? ", 256), strings.Repeat("A", 256)}, {"C", "£"}, {"GG", "\x80"}, {"3E 01 C9 ??", "Y"},
	} {
		add("internal/find", "FuzzPattern", p[0], p[1], mem, uint16(0))
		add("internal/find", "FuzzPattern", p[0], p[1], mem, uint16(3))
	}

	// Typing: text as type and --type take it, escaped and not.
	for _, t := range []struct {
		text    string
		escaped bool
	}{
		{"PRINT 2+2\n", false}, {`p2+2\n`, true}, {"£", false}, {"a{b~", false}, {`\q`, true}, {`\`, true},
		{strings.Repeat("a", 250), false}, {"\t\x1b\b", false}, {"10 PRINT \"HELLO\": GO TO 10\n", false}, {"é", false},
	} {
		add("internal/typing", "FuzzPlan", t.text, t.escaped)
	}

	// inspect's paths and set's values, on each machine (0 a Spectrum,
	// 1, 3 and 5 a cpc464, cpc664 and cpc6128).
	for _, v := range []struct {
		which       byte
		path, value string
	}{
		{0, "cpu.pc", `"&4000"`}, {0, "cpu", `{"a": 1, "tick": 5}`}, {0, "ula.border", `7`}, {0, "ula.border", `8`},
		{0, "ula.keys", `[1, 2, 3, 4, 5, 6, 7, 31]`}, {0, "frame_tick", `69887`}, {0, "cpu.tick", `0`},
		{0, "", `{}`}, {0, "cpu.a", `1` + strings.Repeat("0", 40)}, {0, "cpu.im", `"&03"`}, {0, "cpu.prefix", `253`},
		{1, "crtc.registers[12]", `48`}, {1, "crtc.registers", `[63, 40, 46, 142, 38, 0, 25, 30, 0, 7, 0, 0, 48, 0, 0, 0, 0, 0]`},
		{5, "gate_array.inks", `[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17]`}, {5, "gate_array.pen", `17`},
		{5, "mmr", `"&C4"`}, {1, "mmr", `"&C4"`}, {3, "fdc", `{"taken": 100}`}, {5, "monitor.held", `192`},
		{5, "psg.registers[7]", `"0xFF"`}, {5, "crtc.type", `"MC6845"`}, {5, "model", `0`}, {5, "gate_array.last", `"frame_check"`},
		{5, "keyboard.lines[9]", `255`}, {5, "crtc.registers[99]", `1`}, {5, "cpu..a", `1`}, {5, "cpu[0]", `1`},
	} {
		add("internal/inspect", "FuzzPathValue", v.which, v.path, []byte(v.value))
	}

	// The host's readers of an argument's text.
	for _, a := range []struct {
		text string
		last uint32
	}{
		{"&BB06", 0xFFFF}, {"$C000", 0xFFFF}, {"#FFFF", 0xFFFF}, {"0x1FFFF", 0x1FFFF}, {"47878", 0xFFFF},
		{"&10000", 0xFFFF}, {"-1", 0xFFFF}, {"1.5", 0xFFFF}, {"3E 01 C9", 0xFFFF}, {"3E01C9", 0xFFFF}, {"3 E01", 0xFFFF},
		{"SPACE", 0}, {"79", 0}, {"£", 0}, {"", 0}, {strings.Repeat("ab", 32), 0}, {strings.Repeat("AB", 32), 0}, {"cpu.pc", 0xFFFF},
	} {
		add("internal/host", "FuzzArgumentText", a.text, a.last)
	}

	// A call of each tool, and arguments of each wrong kind.
	for _, c := range [][2]string{
		{"machine_list", `{}`},
		{"machine_open", `{"machine": "cpc464", "crtc": 2}`}, {"machine_open", `{"machine": "SPECTRUM48"}`},
		{"machine_close", `{"handle": "m1"}`},
		{"run", `{"handle": "m1", "frames": 1}`}, {"run", `{"handle": "m2", "ticks": 100, "keys": ["SPACE", 47, "£"]}`},
		{"run", `{"handle": "m2", "frames": 1, "until": [{"pc": "&0038"}]}`},
		{"step", `{"handle": "m1", "instructions": 10}`}, {"step", `{"handle": "m1", "instructions": -1}`},
		{"call", `{"handle": "m1", "address": "&0038", "values": {"cpu.sp": "&8000"}}`},
		{"inspect", `{"handle": "m2", "path": "crtc"}`}, {"inspect", `{"handle": "m1", "path": "cpu.tick"}`},
		{"set", `{"handle": "m1", "values": {"cpu.a": "&42", "ula.border": 7}}`}, {"set", `{"handle": "m1", "values": {"ula.border": 8}}`},
		{"set", `{"handle": "m2", "values": {"cpu.tick": 5}}`},
		{"peek", `{"handle": "m2", "address": "$C000", "length": 16}`}, {"peek", `{"handle": "m2", "address": "&10000", "ram": true}`},
		{"poke", `{"handle": "m1", "address": "&8000", "bytes": "3E 01 C9"}`}, {"poke", `{"handle": "m1", "address": "&FFFF", "bytes": "00 00"}`},
		{"type", `{"handle": "m1", "text": "p2+2\n"}`}, {"type", `{"handle": "m2", "text": "£"}`}, {"type", `{"handle": "m2", "text": ""}`},
		{"monitor", `{"handle": "m1"}`}, {"monitor", `{"handle": "m2", "text": true}`},
		{"journal", `{"handle": "m1", "start": 0}`},
		{"disassemble", `{"handle": "m2", "address": "cpu.pc", "count": 20}`}, {"disassemble", `{"handle": "m2", "address": 0, "ram": true, "count": 1000}`},
		{"find", `{"handle": "m1", "bytes": "CD ?? ??"}`}, {"find", `{"handle": "m1", "text": "READY", "from": ""}`},
		{"compare", `{"handle": "m2", "with": "m2"}`}, {"compare", `{"handle": "m2", "state": "s1"}`},
		{"screen", `{"handle": "m2", "layout": "linear", "width": 80, "height": 200}`}, {"screen", `{"handle": "m2", "base": "&4001"}`},
		{"state_keep", `{"handle": "m1"}`}, {"state_restore", `{"handle": "m1", "state": "s1"}`}, {"state_drop", `{"handle": "m1", "state": "s9"}`},
		{"tape_insert", `{"handle": "m1", "path": "none.tap"}`}, {"snapshot_save", `{"handle": "m1", "path": "m1.sna"}`},
		{"run", `[]`}, {"run", `"m1"`}, {"run", `null`}, {"run", `{"handle": 1}`}, {"run", `{"handle": "m1", "frames": 1e3}`},
		{"run", `{"handle": "m1", "frames": 99999999999999999999999999}`}, {"peek", `{"handle": "m1", "address": {"a": 1}}`},
		{"nonesuch", `{}`}, {"", `{}`},
		// JSON's escapes, in a name, a key and text, and a path of a
		// writing tool that names no directory.
		{"type", `{"handle": "m\u0031", "text": "10 PRINT \"A\"\n\u0052UN\n"}`}, {"peek", `{"handle": "m2", "addr\u0065ss": "\u0026C000"}`},
		{"set", `{"handle": "m1", "values": {"cpu.a": "\/", "cpu\u002eb": 1}}`}, {"find", `{"handle": "m2", "text": "\t\b\f\r\\\ud800"}`},
		{"state_save", `{"handle": "m1", "path": "s\u0031.state"}`}, {"disc_save", `{"handle": "m2", "path": "\n"}`},
	} {
		add("internal/server", "FuzzToolArguments", c[0], []byte(c[1]))
	}

	// pidp10-mcp's tools: a call of each, and arguments of each wrong kind
	// and length.
	for _, c := range [][2]string{
		{"open", `{}`}, {"open", `{"host": "127.0.0.1", "port": 1}`}, {"open", `{"port": 70000}`},
		{"open", `{"host": "` + strings.Repeat("A", 256) + `"}`},
		{"send", `{"input": "~z"}`}, {"send", `{"input": "x", "expect": "("}`}, {"send", `{"input": "\u00e9~x41"}`},
		{"send", `{"input": "foo~ej\n", "expect": "\\*$", "timeout_ms": 0, "quiet_ms": 0, "auto_more": false, "raw": true}`},
		{"send", `{"input": "x", "expect": "((((((((((a))))))))))*{1000}"}`}, {"send", `{"input": 5}`},
		{"read", `{"expect": "[a-", "timeout_ms": "soon"}`}, {"read", `{"timeout_ms": 1e3, "quiet_ms": -1}`},
		{"read", `{"expect": "\u0000\ud800", "auto_more": 1}`}, {"read", `{}{}`},
		{"peek", `{"last_n_chars": 1.5}`}, {"peek", `{"last_n_chars": 99999999999999999999}`}, {"peek", `{"last_n_chars": 2147483648}`},
		{"status", `{"x": null}`}, {"status", `"text"`}, {"status", `{"input": "x", "input": "y"}`},
		{"close", `null`}, {"close", `[]`}, {"nonesuch", `{}`},
	} {
		add("internal/line", "FuzzToolArguments", c[0], []byte(c[1]))
	}

	// pidp10-mcp's escapes and what its line sends back.
	for _, e := range []string{"", "print 1+2", "~z~e~c~g~d~s~o~r~n~t", "~x41~~", "a\r\nb\nc~-", "~", "~q", "~x4", "~xZZ", "é", "~-x"} {
		add("internal/line", "FuzzExpand", e, false)
		add("internal/line", "FuzzExpand", e, true)
	}
	for _, raw := range [][]byte{
		[]byte("LOGIN\r\n*"),
		{255, 251, 1, 255, 253, 3, 'o', 'k', 255, 255, '\r', 0, '\n'},
		{255, 250, 24, 1, 255, 240, 'x'},
		append([]byte{255, 250, 24}, []byte("never ends "+strings.Repeat("x", 300))...),
		{0x1B, 'H', 0x1B, 'J', 0x1B, 'Y', 40, 40, 'a', 0x1B, '1'},
		[]byte("--More--(Space=yes, Rubout=no)"),
		{0x80, 0xFF, 0x7F, 0x07, '\t', 'z'},
	} {
		add("internal/line", "FuzzFilter", raw, uint16(len(raw)/2))
	}

	// Lines of stdio: a request, an answer, a notification, and each kind
	// JSON-RPC 2.0 refuses.
	for _, l := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"run","arguments":{"handle":"m1","frames":1}}}`,
		`{"jsonrpc":"2.0","id":"a","result":{}}`, `{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`not json`, "\xef\xbb\xbf" + `{"jsonrpc":"2.0","id":1,"method":"ping"}`, `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`,
		`{"jsonrpc":"1.0","id":1,"method":"ping"}`, `{"id":1,"method":"ping"}`, `{"jsonrpc":"2.0","id":{},"method":"ping"}`,
		`3`, `"ping"`, `{"jsonrpc":"2.0","id":1,"method":"ping"}{"jsonrpc":"2.0","id":2,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":1,"method":"ping"} trailing`, `{"nrpc":`, `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":1,"method":"ping","params":3}`, `   `, ``,
	} {
		add("internal/transport", "FuzzDecodeLine", []byte(l))
	}

	for _, s := range seeds {
		if err := fuzzseed.Write(s.dir, s.target, s.vals...); err != nil {
			fmt.Fprintln(os.Stderr, "fuzzseed:", err)
			os.Exit(1)
		}
	}
	fmt.Printf("fuzzseed: %d seeds\n", len(seeds))
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "fuzzseed:", err)
		os.Exit(1)
	}
}
