package server

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"

	"colophon/internal/firmware"
	"colophon/internal/host"
	"colophon/internal/shared"
)

// FuzzToolArguments feeds every tool any arguments through the server as
// a client sends them, over the wire to a server of its own with a
// spectrum48 (m1) and a cpc6128 (m2) standing (issue 19's standing guards;
// seeds in testdata/fuzz/FuzzToolArguments: a call of each tool, and
// arguments of every wrong kind). Nothing panics; every call is answered,
// a result or an error, and an error result quotes what was sent short;
// and a refused call leaves each machine's fields, memory and tick as they
// were. The server's own checks hold every answer to its output schema
// (checkAnswers).
//
// Tools run in a directory of the target's own, so that a file written is
// written there. A call of a tool that takes a file (one whose arguments'
// descriptions speak of a file: it reads one, writes one, or takes one
// away) is not sent when a string in its arguments, as JSON decodes it,
// holds a "/": such a path could name a directory anywhere on the machine
// that runs the fuzzer, or a device that never ends. Every other call is
// sent whatever it holds, JSON's escapes (\n, \uXXXX, \/) and all.
func FuzzToolArguments(f *testing.F) {
	wd, err := os.Getwd()
	if err != nil {
		f.Fatal(err)
	}
	roms := shared.TestPath(f, "roms") // found from the module, before the move
	// Every tool the server lists is a seed, so that a tool added is
	// fuzzed with the rest.
	lw := dial(f, New(Options{Build: testBuild}))
	mustResult(f, "initialize", lw.initialize("2025-11-25"))
	takesFile := map[string]bool{}
	for _, tool := range mustResult(f, "tools/list", lw.call("tools/list", nil))["tools"].([]any) {
		tool := tool.(map[string]any)
		name := tool["name"].(string)
		f.Add(name, []byte(`{"handle": "m1"}`))
		f.Add(name, []byte(`{"handle": "m2"}`))
		props, _ := tool["inputSchema"].(map[string]any)["properties"].(map[string]any)
		for _, p := range props {
			if d, _ := p.(map[string]any)["description"].(string); strings.Contains(strings.ToLower(d), "file") {
				takesFile[name] = true
			}
		}
	}
	for _, name := range []string{"machine_open", "disc_insert", "disc_save", "tape_insert", "snapshot_save", "state_save", "run", "call"} {
		if !takesFile[name] {
			f.Fatalf("%s takes a file, and its schema's descriptions do not say so: the fuzzer would send it any path", name)
		}
	}
	dir := f.TempDir()

	f.Fuzz(func(t *testing.T, tool string, args []byte) {
		if takesFile[tool] && namesDirectory(args) {
			return
		}
		// In the target's own directory for the call alone: the fuzzing
		// engine's own files are found from where it began.
		if err := os.Chdir(dir); err != nil {
			t.Fatal(err)
		}
		defer os.Chdir(wd)
		h := host.New(host.Options{Firmware: firmware.Loader{Dirs: []string{roms}}, Build: testBuild})
		w := dial(t, New(Options{Build: testBuild, Host: h}))
		mustResult(t, "initialize", w.initialize("2025-11-25"))
		for _, m := range []string{"spectrum48", "cpc6128"} {
			w.open(m)
		}
		before := []standing{standingOf(t, h, "m1"), standingOf(t, h, "m2")}

		raw := json.RawMessage(args)
		if !json.Valid(args) {
			raw, _ = json.Marshal(string(args)) // arguments that are no JSON object, as a string
		}
		r := w.call("tools/call", map[string]any{"name": tool, "arguments": raw})
		if r.Error != nil {
			// An unknown tool, or no tool named: the protocol's error.
			return
		}
		if r.Result == nil {
			t.Fatalf("%s %s: no answer: %s", tool, args, r.Raw)
		}
		if r.Result["isError"] != true {
			return
		}
		content, _ := r.Result["content"].([]any)
		text, _ := content[0].(map[string]any)["text"].(string)
		if len(text) > 2000 {
			t.Fatalf("%s %.200s: refused in %d bytes: %.300s", tool, args, len(text), text)
		}
		for i, m := range []string{"m1", "m2"} {
			if after := standingOf(t, h, m); !after.equal(before[i]) {
				t.Fatalf("%s %s: refused (%s), and %s changed", tool, args, text, m)
			}
		}
	})
}

// namesDirectory reports whether any string in args, a key or a value, as
// JSON decodes it, holds a "/". Text that is no JSON names nothing: it is
// sent as a string, which no tool takes for its arguments.
func namesDirectory(args []byte) bool {
	if !json.Valid(args) {
		return false
	}
	dec := json.NewDecoder(bytes.NewReader(args))
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		if s, ok := tok.(string); ok && strings.Contains(s, "/") {
			return true
		}
	}
}

// A standing is what a refused call must leave a machine as: its fields,
// its memory as the processor reads it, and its tick.
type standing struct {
	fields []byte
	memory []byte
	tick   uint64
	gone   bool
}

func (s standing) equal(o standing) bool {
	return s.gone == o.gone && s.tick == o.tick && bytes.Equal(s.fields, o.fields) && bytes.Equal(s.memory, o.memory)
}

func standingOf(t *testing.T, h *host.Host, handle string) standing {
	t.Helper()
	ctx := context.Background()
	in, err := h.Inspect(ctx, host.InspectArgs{Handle: handle})
	if err != nil {
		return standing{gone: true}
	}
	fields, err := json.Marshal(in.Value)
	if err != nil {
		t.Fatal(err)
	}
	s := standing{fields: fields}
	for a := 0; a < 0x10000; a += host.MaxPeek {
		p, err := h.Peek(ctx, host.PeekArgs{Handle: handle, Address: host.ReadAddress(strconv.Itoa(a)), Length: ptrTo(host.MaxPeek)})
		if err != nil {
			t.Fatal(err)
		}
		s.memory = append(s.memory, p.Bytes...)
	}
	for _, m := range mustList(t, h) {
		if m.Handle == handle {
			s.tick = m.Tick
		}
	}
	return s
}

func mustList(t *testing.T, h *host.Host) []host.Summary {
	t.Helper()
	l, err := h.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func ptrTo[T any](v T) *T { return &v }
