package window

import (
	"slices"
	"strings"
	"testing"
)

// TestKeyboardMapsOntoTheMachinesKeys: the person's keys reach each
// machine as its own keys, by place for letters, digits and the keys both
// have, by character for the rest, with the person's modifiers let go
// while a key mapped by its character is down.
func TestKeyboardMapsOntoTheMachinesKeys(t *testing.T) {
	down := func(code, key string) keyEvent { return keyEvent{Type: "down", Code: code, Key: key} }
	for _, c := range []struct {
		name   string
		l      *layout
		events []keyEvent
		want   string
	}{
		{"a CPC's letter", cpcLayout, []keyEvent{down("KeyA", "a")}, "A"},
		{"a CPC's capital: SHIFT and the letter", cpcLayout, []keyEvent{down("ShiftLeft", "Shift"), down("KeyA", "A")}, "SHIFT A"},
		{"a CPC's digit", cpcLayout, []keyEvent{down("Digit2", "2")}, "2"},
		// A PC's Shift-2 types @ (US); a CPC's @ is a key of its own.
		{"a CPC's @ from a PC's Shift-2", cpcLayout, []keyEvent{down("ShiftLeft", "Shift"), down("Digit2", "@")}, "@"},
		{"a CPC's + is SHIFT and ;", cpcLayout, []keyEvent{down("ShiftLeft", "Shift"), down("Equal", "+")}, "SHIFT ;"},
		{"a CPC's : alone", cpcLayout, []keyEvent{down("Semicolon", ":")}, ":"},
		{"a CPC's £ is SHIFT and ^", cpcLayout, []keyEvent{down("Digit3", "£")}, "SHIFT ^"},
		{"a CPC's RETURN", cpcLayout, []keyEvent{down("Enter", "Enter")}, "RETURN"},
		{"a CPC's keypad ENTER", cpcLayout, []keyEvent{down("NumpadEnter", "Enter")}, "ENTER"},
		{"a CPC's arrows", cpcLayout, []keyEvent{down("ArrowUp", "ArrowUp"), down("ArrowLeft", "ArrowLeft")}, "↑ ←"},
		{"a CPC's COPY", cpcLayout, []keyEvent{down("AltLeft", "Alt")}, "COPY"},
		{"a CPC's function keys", cpcLayout, []keyEvent{down("F1", "F1"), down("F10", "F10"), down("Numpad7", "7")}, "f7 f1 f0"},
		{"a CPC's CTRL and a letter", cpcLayout, []keyEvent{down("ControlLeft", "Control"), down("KeyC", "c")}, "CTRL C"},
		{"a CPC has no F12", cpcLayout, []keyEvent{down("F12", "F12")}, ""},
		{"a Spectrum's letter", spectrumLayout, []keyEvent{down("KeyP", "p")}, "P"},
		{"a Spectrum's capital", spectrumLayout, []keyEvent{down("ShiftLeft", "Shift"), down("KeyP", "P")}, "CAPS P"},
		{"a Spectrum's + is SYM and K", spectrumLayout, []keyEvent{down("ShiftLeft", "Shift"), down("Equal", "+")}, "K SYM"},
		{"a Spectrum's \" is SYM and P", spectrumLayout, []keyEvent{down("ShiftRight", "Shift"), down("Quote", "\"")}, "P SYM"},
		{"a Spectrum's SYM and a letter by place", spectrumLayout, []keyEvent{down("ControlLeft", "Control"), down("KeyP", "p")}, "P SYM"},
		{"a Spectrum's DELETE", spectrumLayout, []keyEvent{down("Backspace", "Backspace")}, "CAPS 0"},
		{"a Spectrum's BREAK", spectrumLayout, []keyEvent{down("Escape", "Escape")}, "CAPS SPACE"},
		{"a Spectrum's cursor right", spectrumLayout, []keyEvent{down("ArrowRight", "ArrowRight")}, "CAPS 8"},
		{"a Spectrum's £ is SYM and X", spectrumLayout, []keyEvent{down("Digit3", "£")}, "X SYM"},
		{"a Spectrum's ENTER", spectrumLayout, []keyEvent{down("Enter", "Enter")}, "ENTER"},
	} {
		t.Run(c.name, func(t *testing.T) {
			k := newKeyboard(c.l)
			k.push(c.events)
			held, _ := k.step()
			if got := strings.Join(held, " "); got != c.want {
				t.Errorf("held %q, want %q", got, c.want)
			}
		})
	}
}

// TestKeyboardHoldsEachKeyAsTypingDoes: keys pressed and let go faster
// than a firmware scans them stay down for typing's 3 frames, and a key
// goes down again only once it has been up for the machine's release
// frames (3 on a CPC, 6 on a Spectrum; KEY-6), in the order they came.
func TestKeyboardHoldsEachKeyAsTypingDoes(t *testing.T) {
	for _, c := range []struct {
		name    string
		l       *layout
		release int
	}{
		{"cpc", cpcLayout, 3},
		{"spectrum", spectrumLayout, 6},
	} {
		t.Run(c.name, func(t *testing.T) {
			k := newKeyboard(c.l)
			// 2, then 2 again at once, as a test's keys come.
			k.push([]keyEvent{
				{Type: "down", Code: "Digit2", Key: "2"}, {Type: "up", Code: "Digit2", Key: "2"},
				{Type: "down", Code: "Digit2", Key: "2"}, {Type: "up", Code: "Digit2", Key: "2"},
			})
			var frames []string
			for range 3 + c.release + 3 + 2 {
				held, _ := k.step()
				frames = append(frames, strings.Join(held, " "))
			}
			want := slices.Concat(repeat("2", 3), repeat("", c.release), repeat("2", 3), repeat("", 2))
			if !slices.Equal(frames, want) {
				t.Errorf("frame by frame %q, want %q", frames, want)
			}
		})
	}
}

func repeat(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}

// TestKeyboardRepeatsAndBlur: a key the browser repeats is down once, an
// up for a key not down is nothing, and blur lets every key go.
func TestKeyboardRepeatsAndBlur(t *testing.T) {
	k := newKeyboard(cpcLayout)
	k.push([]keyEvent{{Type: "down", Code: "KeyQ", Key: "q"}, {Type: "down", Code: "KeyQ", Key: "q"}, {Type: "up", Code: "KeyZ", Key: "z"}, {Type: "down", Code: "ShiftLeft", Key: "Shift"}})
	if held, _ := k.step(); strings.Join(held, " ") != "SHIFT Q" {
		t.Fatalf("held %q", held)
	}
	k.push([]keyEvent{{Type: "blur"}})
	if held, changed := k.step(); len(held) != 0 || !changed {
		t.Errorf("after blur, held %q (changed %v)", held, changed)
	}
}

// TestKeyEventsRefused: what the page sends that is no key event is
// refused, saying what is wrong.
func TestKeyEventsRefused(t *testing.T) {
	for _, c := range []struct{ body, want string }{
		{`{"type":"down","code":"KeyA","key":"a"}`, ""},
		{`[{"type":"up","code":"KeyA","key":"a"},{"type":"blur","code":"","key":""}]`, ""},
		{`nonsense`, "key events are a JSON array"},
		{`{"type":"hold","code":"KeyA"}`, `type is "hold"; it is down, up or blur`},
		{`{"type":"down"}`, "needs its code"},
		{`{"type":"down","code":"KeyA","extra":1}`, "unknown field"},
		{`{"type":"down","code":"` + strings.Repeat("K", 40) + `"}`, "at most 32"},
		{`[` + strings.Repeat(`{"type":"blur"},`, 64) + `{"type":"blur"}]`, "65 key events; one request takes at most 64"},
		{`{"type":"blur"} {"type":"blur"}`, "more follows"},
		{strings.Repeat(" ", maxKeyBody+1), "at most 8192"},
	} {
		_, err := decodeKeyEvents([]byte(c.body))
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%.60s: refused: %v", c.body, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%.60s: %v, want a refusal saying %q", c.body, err, c.want)
		}
	}
}

// FuzzKeyEvents feeds the decoder of the page's key events anything, and
// what it takes to the keyboard of each machine (testdata/fuzz/FuzzKeyEvents
// holds its seeds): nothing panics, and the keys held are the machine's.
func FuzzKeyEvents(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) {
		evs, err := decodeKeyEvents(b)
		if err != nil {
			// A refusal quotes at most quote.Most characters of what was
			// sent, but %q writes a character as up to ten bytes: the
			// bound is a kilobyte, as in the project's other targets.
			if len(err.Error()) > 1024 {
				t.Errorf("a refusal %d bytes long", len(err.Error()))
			}
			return
		}
		for _, l := range []*layout{cpcLayout, spectrumLayout} {
			k := newKeyboard(l)
			k.push(evs)
			for range 20 {
				held, _ := k.step()
				for _, h := range held {
					if !slices.Contains(l.order, h) {
						t.Fatalf("held %q, which is no key of the machine", h)
					}
				}
			}
		}
	})
}

// FuzzControl feeds the decoder of the page's controls anything.
func FuzzControl(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := decodeControl(b)
		if err != nil {
			// A refusal quotes at most quote.Most characters of what was
			// sent, but %q writes a character as up to ten bytes: the
			// bound is a kilobyte, as in the project's other targets.
			if len(err.Error()) > 1024 {
				t.Errorf("a refusal %d bytes long", len(err.Error()))
			}
			return
		}
		_ = c
	})
}
