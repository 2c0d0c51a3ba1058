package server

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestKEY17Break is the spec's test of keys held through a run (KEY-1,
// KEY-17): a Spectrum running a BASIC program, held at CAPS and SPACE,
// breaks into it with report L; and the keyboard holds nothing once the
// run is over.
func TestKEY17Break(t *testing.T) {
	w := machineWire(t)
	h := w.boot("spectrum48")
	// 10 GO TO 10, then RUN: at the K cursor g is GO TO and r is RUN
	// (KEY-18).
	w.tool("type", args{"handle": h, "text": "10g10\nr\n"}, nil)
	w.tool("run", args{"handle": h, "frames": 20}, nil)
	if lines := w.spectrumText(h); strings.Contains(strings.Join(lines, "\n"), "BREAK") {
		t.Fatalf("the program broke before the keys were held: %q", lines)
	}
	w.tool("run", args{"handle": h, "frames": 10, "keys": []any{"CAPS", "SPACE"}}, nil)
	if keys := w.inspect(h, "ula.keys"); mustJSON(t, keys) != "[0,0,0,0,0,0,0,0]" {
		t.Errorf("after the run the keyboard holds %v", keys)
	}
	if lines := w.spectrumText(h); lines[23] != "L BREAK into program, 10:1" {
		t.Errorf("the report line reads %q, want L BREAK into program, 10:1", lines[23])
	}
}

// TestKeysSetStayHeld holds KEY-12 and KEY-1: keys the keyboard holds
// already, as set writes them, stay held through typing and through a run
// that holds more, and are held still after both.
func TestKeysSetStayHeld(t *testing.T) {
	w := machineWire(t)
	for _, tt := range []struct{ machine, path, held, typed string }{
		// CAPS is bit 0 of the half-row A8 selects.
		{"spectrum48", "ula.keys", "[1,0,0,0,0,0,0,0]", "a"},
		// CTRL is key 23, line 2 bit 7, a bit clear where a key is down.
		{"cpc6128", "keyboard.lines", "[255,255,127,255,255,255,255,255,255,255]", "a"},
	} {
		t.Run(tt.machine, func(t *testing.T) {
			h := w.boot(tt.machine)
			var held any
			if err := json.Unmarshal([]byte(tt.held), &held); err != nil {
				t.Fatal(err)
			}
			w.tool("set", args{"handle": h, "values": map[string]any{tt.path: held}}, nil)
			w.tool("type", args{"handle": h, "text": tt.typed}, nil)
			if got := mustJSON(t, w.inspect(h, tt.path)); got != tt.held {
				t.Errorf("after typing the keyboard holds %s, want %s", got, tt.held)
			}
			w.tool("run", args{"handle": h, "frames": 2, "keys": []any{"SPACE"}}, nil)
			if got := mustJSON(t, w.inspect(h, tt.path)); got != tt.held {
				t.Errorf("after a run holding SPACE the keyboard holds %s, want %s", got, tt.held)
			}
		})
	}
}
