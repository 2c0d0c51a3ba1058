package window

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"colophon/internal/cpckeys"
	"colophon/internal/machine/cpc"
	"colophon/internal/machine/spectrum"
	"colophon/internal/quote"
)

// The person's keyboard, as the page sends it: each key going down or up,
// named by the browser's KeyboardEvent.code (where the key sits: KeyA,
// Digit2, ShiftLeft) and .key (what it types with the modifiers held: a,
// @, Enter). It is mapped onto the machine's own keys in two ways, as an
// emulator's keyboard is:
//
//   - by place: letters, digits typed as digits, the space bar, Enter,
//     the modifiers and the keys a PC has where the machine has the like
//     (arrows, Escape, Tab, Backspace, the function keys onto a CPC's
//     keypad) go to the machine's key of that name or place, with the
//     person's Shift or Control held as the machine's;
//   - by character: any other character, punctuation and the shifted
//     digits, goes to the keys that type it on the machine, with the shift
//     that needs (a CPC's + is SHIFT and ;, a Spectrum's is SYM and K),
//     as type types it; while such a key is down the person's own
//     modifiers are let go, since the PC's shift made the character and
//     the machine's may not want it.
//
// The keys go down and up between frames, in the order the person pressed
// them, each held for as long as typing holds a key (3 standard frames),
// and none goes down until the last key to go up has been up as long as
// typing lets a key go (3 frames on a CPC, 6 on a Spectrum, whose ROM
// takes the same key again only after five of its scans): so that keys
// pressed faster than the firmware scans them, as a test's are, still
// reach it, and a key that follows a shifted one is not read with the
// shift (a CPC reads the 2 after SHIFT and ; let go together as ").

// A keyEvent is one key going down or up, or every key let go ("blur":
// the page lost the keyboard).
type keyEvent struct {
	Type string `json:"type"`
	Code string `json:"code"`
	Key  string `json:"key"`
}

// The limits of what the page sends: a request's body, its events, and
// the length of a code or a key's name (the longest the browser gives is
// "AudioVolumeMute"-like, well under these).
const (
	maxKeyBody   = 8192
	maxKeyEvents = 64
	maxCodeLen   = 32
	maxKeyLen    = 32
)

// decodeKeyEvents reads the events of one POST /keys: a JSON array of
// events, or one event alone. Anything else is refused, saying what.
func decodeKeyEvents(b []byte) ([]keyEvent, error) {
	if len(b) > maxKeyBody {
		return nil, fmt.Errorf("the body is %d bytes; key events take at most %d", len(b), maxKeyBody)
	}
	t := bytes.TrimSpace(b)
	var evs []keyEvent
	dec := func(v any) error {
		d := json.NewDecoder(bytes.NewReader(t))
		d.DisallowUnknownFields()
		if err := d.Decode(v); err != nil {
			return fmt.Errorf("key events are a JSON array of {\"type\", \"code\", \"key\"}: %s, in %s", quote.JSONError(err), quote.Bytes(b))
		}
		if d.More() {
			return fmt.Errorf("key events are one JSON value; more follows in %s", quote.Bytes(b))
		}
		return nil
	}
	if len(t) > 0 && t[0] == '[' {
		if err := dec(&evs); err != nil {
			return nil, err
		}
	} else {
		var e keyEvent
		if err := dec(&e); err != nil {
			return nil, err
		}
		evs = []keyEvent{e}
	}
	if len(evs) > maxKeyEvents {
		return nil, fmt.Errorf("%d key events; one request takes at most %d", len(evs), maxKeyEvents)
	}
	for i, e := range evs {
		switch e.Type {
		case "down", "up":
			if e.Code == "" {
				return nil, fmt.Errorf("event %d: a key going %s needs its code", i, e.Type)
			}
		case "blur":
		default:
			return nil, fmt.Errorf("event %d: type is %s; it is down, up or blur", i, quote.String(e.Type))
		}
		if len(e.Code) > maxCodeLen || len(e.Key) > maxKeyLen {
			return nil, fmt.Errorf("event %d: a code or key is at most %d and %d bytes", i, maxCodeLen, maxKeyLen)
		}
		if !utf8.ValidString(e.Code) || !utf8.ValidString(e.Key) {
			return nil, fmt.Errorf("event %d: a code or key that is not UTF-8", i)
		}
	}
	return evs, nil
}

// A layout maps the person's keys onto a machine's.
type layout struct {
	place     map[string][]string // by KeyboardEvent.code
	modifiers map[string]bool     // codes whose keys are the person's modifiers
	char      func(c byte) []string
	pound     []string // the keys of £, which is no ASCII character
	order     []string // the machine's key names, in the order Held gives them
	hold      uint64   // frames a key stays down at least
	release   uint64   // frames a key stays up before it goes down again
}

// cpcLayout is a CPC's keyboard (cpckeys; SOFT 968, Appendix I): the
// PC's keys where the CPC has them, Alt and Insert as COPY, Delete as
// CLR, the function keys and the number pad as the keypad's f0 to f9.
var cpcLayout = func() *layout {
	l := &layout{
		place: map[string][]string{
			"Space": {"SPACE"}, "Enter": {"RETURN"}, "NumpadEnter": {"ENTER"},
			"Backspace": {"DEL"}, "Delete": {"CLR"}, "Escape": {"ESC"}, "Tab": {"TAB"},
			"CapsLock": {"CAPS"}, "ShiftLeft": {"SHIFT"}, "ShiftRight": {"SHIFT"},
			"ControlLeft": {"CTRL"}, "ControlRight": {"CTRL"},
			"AltLeft": {"COPY"}, "AltRight": {"COPY"}, "Insert": {"COPY"}, "End": {"COPY"},
			"ArrowUp": {"↑"}, "ArrowDown": {"↓"}, "ArrowLeft": {"←"}, "ArrowRight": {"→"},
			"F10": {"f0"}, "NumpadDecimal": {"f."},
		},
		modifiers: map[string]bool{"ShiftLeft": true, "ShiftRight": true, "ControlLeft": true, "ControlRight": true},
		char:      cpc.Typing.Keys,
		pound:     []string{"SHIFT", "^"}, // SOFT 968, Appendix II: SHIFT with ^ types £
		order:     cpckeys.Names(),
		hold:      cpc.Typing.HoldFrames, release: cpc.Typing.ReleaseFrames,
	}
	for i := 1; i <= 9; i++ {
		l.place[fmt.Sprintf("F%d", i)] = []string{fmt.Sprintf("f%d", i)}
	}
	for i := 0; i <= 9; i++ {
		l.place[fmt.Sprintf("Numpad%d", i)] = []string{fmt.Sprintf("f%d", i)}
	}
	addLettersAndDigits(l)
	return l
}()

// spectrumLayout is a 48K Spectrum's (the Spectrum manual, chapter 1, and
// spectrum.Layout): Shift is CAPS SHIFT, Control and Alt SYMBOL SHIFT; the
// keys a PC has on their own are the Spectrum's CAPS SHIFT combinations:
// Backspace DELETE (0), Escape BREAK (SPACE), the arrows 5 to 8, Caps Lock
// CAPS LOCK (2), Tab the extended mode (SYMBOL SHIFT).
var spectrumLayout = func() *layout {
	l := &layout{
		place: map[string][]string{
			"Space": {"SPACE"}, "Enter": {"ENTER"}, "NumpadEnter": {"ENTER"},
			"ShiftLeft": {"CAPS"}, "ShiftRight": {"CAPS"},
			"ControlLeft": {"SYM"}, "ControlRight": {"SYM"}, "AltLeft": {"SYM"}, "AltRight": {"SYM"},
			"Backspace": {"CAPS", "0"}, "Escape": {"CAPS", "SPACE"},
			"ArrowLeft": {"CAPS", "5"}, "ArrowDown": {"CAPS", "6"}, "ArrowUp": {"CAPS", "7"}, "ArrowRight": {"CAPS", "8"},
			"CapsLock": {"CAPS", "2"}, "Tab": {"CAPS", "SYM"},
		},
		modifiers: map[string]bool{"ShiftLeft": true, "ShiftRight": true, "ControlLeft": true, "ControlRight": true, "AltLeft": true, "AltRight": true},
		char:      spectrum.Layout.Keys,
		pound:     []string{"SYM", "X"}, // the red £ on X
		order:     spectrum.KeyNames(),
		hold:      spectrum.Layout.HoldFrames, release: spectrum.Layout.ReleaseFrames,
	}
	for i := 0; i <= 9; i++ {
		l.place[fmt.Sprintf("Numpad%d", i)] = []string{fmt.Sprintf("%d", i)}
	}
	addLettersAndDigits(l)
	return l
}()

// addLettersAndDigits maps the letters and digits by place: both machines
// name those keys by what they print.
func addLettersAndDigits(l *layout) {
	for c := 'A'; c <= 'Z'; c++ {
		l.place["Key"+string(c)] = []string{string(c)}
	}
	for c := '0'; c <= '9'; c++ {
		l.place["Digit"+string(c)] = []string{string(c)}
	}
}

// A mapped key is what one of the person's keys holds down on the
// machine.
type mapped struct {
	keys     []string
	byChar   bool // mapped by the character it types: the modifiers it holds are its own
	modifier bool // one of the person's modifiers
}

// lookup maps one of the person's keys, by its code and the character it
// types, or reports that the machine has no key for it.
func (l *layout) lookup(code, key string) (mapped, bool) {
	// A digit that types itself is the digit's key; a shifted one types
	// something else, and is mapped by that.
	if strings.HasPrefix(code, "Digit") && key != strings.TrimPrefix(code, "Digit") && key != "" {
		return l.byCharacter(key)
	}
	if keys, ok := l.place[code]; ok {
		return mapped{keys: keys, modifier: l.modifiers[code]}, true
	}
	return l.byCharacter(key)
}

func (l *layout) byCharacter(key string) (mapped, bool) {
	if key == "£" {
		return mapped{keys: l.pound, byChar: true}, true
	}
	if len(key) != 1 || key[0] < ' ' || key[0] >= 0x7F {
		return mapped{}, false
	}
	keys := l.char(key[0])
	if len(keys) == 0 {
		return mapped{}, false
	}
	return mapped{keys: keys, byChar: true}, true
}

// A keyboard is the person's keys on their way to the machine: the events
// the page sent, not yet applied, and the keys down. push is called from
// the page's requests; step only from the loop.
type keyboard struct {
	l *layout

	mu    sync.Mutex
	queue []keyEvent

	down   map[string]downKey // by code
	up     uint64             // the frame the last key went up, plus one; 0 for none yet
	frame  uint64             // frames run in real time
	queued int                // events pushed, ever
}

type downKey struct {
	mapped
	at uint64 // the frame it went down
}

// maxQueued bounds the events waiting: a page that sends faster than the
// keys can go down has its oldest dropped.
const maxQueued = 256

func newKeyboard(l *layout) *keyboard {
	return &keyboard{l: l, down: map[string]downKey{}}
}

// push adds the page's events to the queue.
func (k *keyboard) push(evs []keyEvent) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.queue = append(k.queue, evs...)
	k.queued += len(evs)
	if n := len(k.queue) - maxQueued; n > 0 {
		k.queue = slices.Delete(k.queue, 0, n)
	}
}

// step applies the events whose time has come at the frame boundary the
// loop stands at, and answers the machine's keys to hold from it, and
// whether they changed. It counts a frame.
func (k *keyboard) step() (held []string, changed bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	now := k.frame
	k.frame++
	for len(k.queue) > 0 {
		e := k.queue[0]
		switch e.Type {
		case "blur":
			for code, d := range k.down {
				k.lift(code, d, now)
			}
			changed = true
		case "down":
			if _, ok := k.down[e.Code]; ok {
				break // the browser repeats a key held; it is down
			}
			m, ok := k.l.lookup(e.Code, e.Key)
			if !ok {
				break
			}
			if k.up > 0 && now < k.up-1+k.l.release {
				return k.held(), changed
			}
			k.down[e.Code] = downKey{m, now}
			changed = true
		case "up":
			d, ok := k.down[e.Code]
			if !ok {
				break
			}
			if now < d.at+k.l.hold {
				return k.held(), changed
			}
			k.lift(e.Code, d, now)
			changed = true
		}
		k.queue = k.queue[1:]
	}
	return k.held(), changed
}

func (k *keyboard) lift(code string, d downKey, now uint64) {
	delete(k.down, code)
	k.up = now + 1
}

// held is the machine's keys the keys down hold, in the machine's order.
// While a key mapped by its character is down, the person's modifiers
// hold nothing of their own.
func (k *keyboard) held() []string {
	set := map[string]bool{}
	byChar := false
	for _, d := range k.down {
		byChar = byChar || d.byChar
	}
	for _, d := range k.down {
		if byChar && d.modifier {
			continue
		}
		for _, key := range d.keys {
			set[key] = true
		}
	}
	var out []string
	for _, name := range k.l.order {
		if set[name] {
			out = append(out, name)
		}
	}
	return out
}
