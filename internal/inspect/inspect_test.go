package inspect

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// The test machine has the shapes the real ones have: chips held by value,
// arrays of registers and of structs, enums, bools, signed counters, a
// followed pointer and a nil one, hidden buffers and interfaces, an
// unexported field, a fixed field, and the Validate, AfterSet and
// BeforeInspect hooks.

// mode is an enum whose String answers "unknown" past its enumerators.
type mode uint8

func (m mode) String() string {
	switch m {
	case 0:
		return "off"
	case 1:
		return "on"
	case 2:
		return "blink"
	}
	return "unknown"
}

// dir is a signed enum.
type dir int8

func (d dir) String() string {
	switch d {
	case -1:
		return "back"
	case 0:
		return "still"
	case 1:
		return "forward"
	}
	return fmt.Sprintf("dir(%d)", int8(d))
}

// phase is an enum wider than 16 bits, which names itself back.
type phase uint32

func (p phase) String() string { return fmt.Sprintf("phase-%d", uint32(p)) }

func (p *phase) UnmarshalText(b []byte) error {
	var n uint32
	if _, err := fmt.Sscanf(string(b), "phase-%d", &n); err != nil {
		return fmt.Errorf("not a phase: want phase-N")
	}
	*p = phase(n)
	return nil
}

// validated logs each Validate in the order called.
var validated []string

type unit struct {
	Head  uint8 `inspect:"head"`
	Track uint8 `inspect:"track"`
	Ready bool  `inspect:"ready"`
}

func (u *unit) Validate() error {
	validated = append(validated, "unit")
	if u.Track > 79 {
		return fmt.Errorf("track = %d: must be 0 to 79", u.Track)
	}
	return nil
}

type chip struct {
	Registers [4]byte `inspect:"registers"`
	Selected  byte    `inspect:"selected"`
	Counter   int16   `inspect:"counter"`
	Units     [2]unit `inspect:"units"`
	Phase     phase   `inspect:"phase"`

	scratch int // unexported: inspect neither sees nor writes it
}

func (c *chip) Validate() error {
	validated = append(validated, "chip")
	if c.Selected > 3 {
		return fmt.Errorf("selected = %d: must be 0 to 3", c.Selected)
	}
	return nil
}

type screen struct {
	BeamX int  `inspect:"beam_x"`
	Sync  bool `inspect:"sync"`
}

type board struct {
	Chip    chip        `inspect:"chip"`
	Mode    mode        `inspect:"mode"`
	Kind    mode        `inspect:"kind,fixed"`
	Dir     dir         `inspect:"dir"`
	Tick    uint64      `inspect:"tick"`
	Delta   int         `inspect:"delta"`
	Wide    uint16      `inspect:"wide"`
	Matrix  [2][3]uint8 `inspect:"matrix"`
	Monitor *screen     `inspect:"monitor"`
	Spare   *screen     `inspect:"spare"`
	RAM     []byte      `inspect:"-"`
	Bus     any         `inspect:"-"`
	Lines   []uint8     `inspect:"lines"`

	after  []string
	before int
}

// Validate refuses a mode of blink while chip.counter is negative: a rule
// across two chips, checked at the root.
func (b *board) Validate() error {
	validated = append(validated, "board")
	if b.Mode == 2 && b.Chip.Counter < 0 {
		return errors.New("mode = blink: chip.counter must be 0 or more to blink")
	}
	return nil
}

func (b *board) AfterSet(path string) { b.after = append(b.after, path) }
func (b *board) BeforeInspect()       { b.before++ }

func newBoard() *board {
	return &board{
		Chip: chip{
			Registers: [4]byte{1, 2, 3, 4},
			Selected:  2,
			Counter:   -5,
			Units:     [2]unit{{Head: 0, Track: 10, Ready: true}, {Head: 1, Track: 20}},
			Phase:     70000,
			scratch:   42,
		},
		Mode:    1,
		Kind:    2,
		Dir:     -1,
		Tick:    1 << 60,
		Delta:   -3,
		Wide:    0xBEEF,
		Matrix:  [2][3]uint8{{1, 2, 3}, {4, 5, 6}},
		Monitor: &screen{BeamX: 100, Sync: true},
		RAM:     make([]byte, 16),
		Lines:   []uint8{9, 8},
	}
}

// jsonOf marshals what Get gives, for comparison.
func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := appendJSON(nil, v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestGet(t *testing.T) {
	tests := []struct {
		path string
		want string // as JSON
	}{
		{"chip.selected", `2`},
		{"chip.registers[3]", `4`},
		{"chip.registers", `[1,2,3,4]`},
		{"chip.counter", `-5`},
		{"chip.units[1].track", `20`},
		{"chip.units[0]", `{"head":0,"track":10,"ready":true}`},
		{"chip.phase", `"phase-70000"`},
		{"mode", `"on"`},
		{"kind", `"blink"`},
		{"dir", `"back"`},
		{"tick", `1152921504606846976`},
		{"delta", `-3`},
		{"matrix[1][2]", `6`},
		{"matrix", `[[1,2,3],[4,5,6]]`},
		{"monitor", `{"beam_x":100,"sync":true}`},
		{"monitor.beam_x", `100`},
		{"spare", `null`},
		{"lines[1]", `8`},
		{"", `{"chip":{"registers":[1,2,3,4],"selected":2,"counter":-5,` +
			`"units":[{"head":0,"track":10,"ready":true},{"head":1,"track":20,"ready":false}],"phase":"phase-70000"},` +
			`"mode":"on","kind":"blink","dir":"back","tick":1152921504606846976,"delta":-3,"wide":48879,` +
			`"matrix":[[1,2,3],[4,5,6]],"monitor":{"beam_x":100,"sync":true},"spare":null,"lines":[9,8]}`},
	}
	for _, tt := range tests {
		b := newBoard()
		got, err := Get(b, tt.path)
		if err != nil {
			t.Errorf("Get(%q): %v", tt.path, err)
			continue
		}
		if s := jsonOf(t, got); s != tt.want {
			t.Errorf("Get(%q) = %s; want %s", tt.path, s, tt.want)
		}
		if b.before != 1 {
			t.Errorf("Get(%q) called BeforeInspect %d times; want once", tt.path, b.before)
		}
	}
}

// TestGetTypes checks the Go types Get gives, which the server encodes.
func TestGetTypes(t *testing.T) {
	b := newBoard()
	for path, want := range map[string]any{
		"chip.selected":       uint64(2),
		"chip.counter":        int64(-5),
		"chip.units[0].ready": true,
		"mode":                "on",
	} {
		got, err := Get(b, path)
		if err != nil || got != want {
			t.Errorf("Get(%q) = %#v, %v; want %#v", path, got, err, want)
		}
	}
}

func TestGetRefused(t *testing.T) {
	tests := []struct {
		path string
		want []string // each in the error
	}{
		{"chip.selectd", []string{`chip.selectd: no field "selectd" in chip; nearest: selected`}},
		{"cihp", []string{`cihp: no field "cihp" in the machine; nearest: chip`}},
		{"chip.registers[4]", []string{"chip.registers[4]", "index 4 is out of range", "chip.registers has 4 elements, [0] to [3]"}},
		{"lines[2]", []string{"lines[2]", "lines has 2 elements"}},
		{"chip.registers[x]", []string{`index "x"`, "decimal"}},
		{"chip.registers[-1]", []string{`index "-1"`}},
		{"chip.registers[1", []string{"has no ]"}},
		{"chip.registers.x", []string{"chip.registers is an array", "chip.registers[0]"}},
		{"chip[0]", []string{"chip is a struct", "chip.registers"}},
		{"[0]", []string{"the machine is a struct", "as chip"}},
		{"chip.selected.x", []string{"chip.selected is a uint8, which has no a field inside it"}},
		{"chip..selected", []string{"a name is missing after chip"}},
		{"chip.", []string{"a name is missing after chip"}},
		{".chip", []string{"a name is missing after the machine"}},
		{"chip.registers[0]x", []string{`"x" after chip.registers[0]`}},
		{"spare.beam_x", []string{"spare is nil"}},
		{"ram", []string{`no field "ram"`}}, // hidden
		{"scratch", []string{`no field "scratch"`}},
	}
	for _, tt := range tests {
		_, err := Get(newBoard(), tt.path)
		if err == nil {
			t.Errorf("Get(%q) took it", tt.path)
			continue
		}
		var ie *Error
		if !errors.As(err, &ie) || ie.Path != tt.path {
			t.Errorf("Get(%q): %v is not an *Error with the path", tt.path, err)
		}
		for _, w := range tt.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("Get(%q) = %q; want it to say %q", tt.path, err, w)
			}
		}
	}
}

func TestSet(t *testing.T) {
	tests := []struct {
		path  string
		value any
		want  string // Get of the path afterwards, as JSON
	}{
		{"chip.selected", json.Number("3"), `3`},
		{"chip.selected", float64(0), `0`},
		{"chip.selected", 1, `1`},
		{"chip.selected", "&03", `3`},
		{"wide", "&1234", `4660`},
		{"wide", "#abcd", `43981`},
		{"wide", "$FFFF", `65535`},
		{"wide", "0x8000", `32768`},
		{"wide", "0X8001", `32769`},
		{"wide", json.Number("2.55e2"), `255`},
		{"tick", "&FFFFFFFFFFFFFFFF", `18446744073709551615`},
		{"tick", json.Number("18446744073709551615"), `18446744073709551615`},
		{"tick", uint64(1 << 63), `9223372036854775808`},
		{"tick", float64(1 << 53), `9007199254740992`},
		{"chip.counter", json.Number("-32768"), `-32768`},
		{"chip.counter", -1.0, `-1`},
		{"delta", int64(-1 << 63), `-9223372036854775808`},
		{"chip.units[0].ready", false, `false`},
		{"monitor.sync", false, `false`},
		{"mode", "on", `"on"`},
		{"mode", "unknown", `"unknown"`}, // the lowest value that gives it: 3
		{"mode", 4, `4`},                 // a value with no name of its own
		{"mode", json.Number("0"), `"off"`},
		{"dir", "forward", `"forward"`},
		{"dir", -128, `"dir(-128)"`},
		{"dir", "dir(-2)", `"dir(-2)"`},
		{"chip.phase", "phase-5", `"phase-5"`},
		{"kind", "blink", `"blink"`}, // fixed, and given the value it holds
		{"chip.registers", []any{json.Number("9"), "&0A", 11, 12.0}, `[9,10,11,12]`},
		{"chip.registers", []byte{5, 6, 7, 8}, `[5,6,7,8]`},
		{"matrix", []any{[]any{0, 0, 0}, []any{7, 8, 9}}, `[[0,0,0],[7,8,9]]`},
		{"chip.units[1]", map[string]any{"track": json.Number("79"), "ready": true}, `{"head":1,"track":79,"ready":true}`},
		{"chip.units[1]", Object{{"head", 0}}, `{"head":0,"track":20,"ready":false}`},
		{"monitor", map[string]any{"beam_x": -7}, `{"beam_x":-7,"sync":true}`},
		{"lines", []any{1, 2}, `[1,2]`},
		{"chip.units[0].track", json.RawMessage(`"&4F"`), `79`},
		{"chip.units[0]", json.RawMessage(`{"head": 3}`), `{"head":3,"track":10,"ready":true}`},
		{"spare", nil, `null`},
	}
	for _, tt := range tests {
		b := newBoard()
		if err := Set(b, tt.path, tt.value); err != nil {
			t.Errorf("Set(%q, %#v): %v", tt.path, tt.value, err)
			continue
		}
		got, err := Get(b, tt.path)
		if err != nil {
			t.Fatal(err)
		}
		if s := jsonOf(t, got); s != tt.want {
			t.Errorf("Set(%q, %#v) then Get = %s; want %s", tt.path, tt.value, s, tt.want)
		}
		if !slices.Equal(b.after, []string{tt.path}) {
			t.Errorf("Set(%q): AfterSet told of %q; want just the path", tt.path, b.after)
		}
		if b.Chip.scratch != 42 {
			t.Errorf("Set(%q) changed an unexported field", tt.path)
		}
	}
}

// snapshot is everything a board holds, exported and not, for holding a
// refused set to "the machine stands as it was".
// The hooks' own records are left out.
func snapshot(b *board) string {
	c := *b
	c.after, c.before = nil, 0
	return fmt.Sprintf("%+v %+v %d %v", c, *b.Monitor, b.Chip.scratch, b.Lines)
}

func TestSetRefused(t *testing.T) {
	tests := []struct {
		path  string
		value any
		want  []string
	}{
		// Out of the type's range.
		{"chip.selected", 256, []string{"chip.selected: 256 is out of range: a uint8 holds 0 to 255 (&00 to &FF)"}},
		{"chip.selected", -1, []string{"-1 is out of range"}},
		{"chip.selected", "&100", []string{`"&100" is out of range`, "0 to 255"}},
		{"tick", "&10000000000000000", []string{"out of range", "0 to 18446744073709551615"}},
		{"tick", json.Number("18446744073709551616"), []string{"not a whole number"}},
		{"chip.counter", 32768, []string{"32768 is out of range: an int16 holds -32768 to 32767"}},
		{"chip.counter", json.Number("-32769"), []string{"out of range"}},
		{"dir", 128, []string{"out of range", "-128 to 127"}},
		{"mode", 256, []string{"out of range"}},
		// The wrong kind.
		{"chip.selected", true, []string{"chip.selected: a bool given; it wants a number from 0 to 255 (&00 to &FF), or hexadecimal as &FF or 0xFF"}},
		{"chip.selected", "12", []string{`"12": a string for an unsigned integer is hexadecimal after &, #, $ or 0x`}},
		{"chip.selected", "&", []string{"hexadecimal after"}},
		{"chip.selected", "&G1", []string{"hexadecimal after"}},
		{"chip.selected", 1.5, []string{"1.5 is not a whole number"}},
		{"tick", float64(1 << 54), []string{"past 2^53", `"&40000000000000"`}},
		{"chip.counter", "&10", []string{"a string given; it wants a number from -32768 to 32767"}},
		{"chip.units[0].ready", 1, []string{"a number given; it wants true or false"}},
		{"chip.units[0].ready", "true", []string{"a string given; it wants true or false"}},
		{"chip.units[0].ready", nil, []string{"null given; it wants true or false"}},
		{"mode", "flash", []string{`"flash" is no name of inspect.mode`, "off, on, blink, unknown"}},
		{"mode", "&01", []string{"is no name of"}},
		{"chip.phase", "phase", []string{"chip.phase", "not a phase"}},
		{"chip.registers", []any{1, 2}, []string{"chip.registers: 2 elements given; it holds 4"}},
		{"chip.registers", 5, []string{"an int given; it wants an array of its 4 elements"}},
		{"chip.units[0]", 5, []string{"it wants an object of its fields"}},
		{"chip.units[0]", map[string]any{"trak": 1, "head": 2}, []string{`chip.units[0].trak: no field "trak" in chip.units[0]; nearest: track`}},
		{"chip.units[0]", Object{{"hed", 1}}, []string{`no field "hed"`, "nearest: head"}},
		{"chip.registers", []any{1, 2, 300, 4}, []string{"chip.registers[2]: 300 is out of range"}},
		{"chip.units[0]", json.RawMessage(`{"head": `), []string{"not JSON"}},
		{"spare", map[string]any{"sync": true}, []string{"spare: it is nil here"}},
		{"monitor", nil, []string{"monitor: null given"}},
		// A fixed field.
		{"kind", "on", []string{`kind: it is fixed at "blink" here, and set cannot change it`}},
		// Refused by a Validate beside the field, innermost first.
		{"chip.selected", 4, []string{"chip: selected = 4: must be 0 to 3"}},
		{"chip.units[1].track", 80, []string{"chip.units[1]: track = 80: must be 0 to 79"}},
		{"chip.units[1]", map[string]any{"head": 5, "track": 99}, []string{"chip.units[1]: track = 99"}},
		{"mode", "blink", []string{"mode = blink: chip.counter must be 0 or more"}},
		// Paths.
		{"chip.nope", 1, []string{`no field "nope" in chip`}},
		{"chip.registers[9]", 1, []string{"index 9 is out of range"}},
	}
	for _, tt := range tests {
		b := newBoard()
		before := snapshot(b)
		err := Set(b, tt.path, tt.value)
		if err == nil {
			t.Errorf("Set(%q, %#v) took it", tt.path, tt.value)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("Set(%q, %#v) = %q; want it to say %q", tt.path, tt.value, err, w)
			}
		}
		if after := snapshot(b); after != before {
			t.Errorf("Set(%q, %#v) refused, but the machine changed:\n%s\n%s", tt.path, tt.value, before, after)
		}
		if len(b.after) != 0 {
			t.Errorf("Set(%q) refused, yet AfterSet was told of %q", tt.path, b.after)
		}
	}
}

// TestValidateOrder checks that every struct on the path with a Validate
// is asked, innermost first, once each, and only those.
func TestValidateOrder(t *testing.T) {
	tests := []struct {
		set  []Field
		want []string
	}{
		{[]Field{{"chip.units[1].track", 3}}, []string{"unit", "chip", "board"}},
		{[]Field{{"chip.selected", 3}}, []string{"chip", "board"}},
		{[]Field{{"tick", 3}}, []string{"board"}},
		{[]Field{{"chip", map[string]any{"units": []any{map[string]any{}, map[string]any{"head": 2}}}}},
			[]string{"unit", "unit", "chip", "board"}},
		{[]Field{{"tick", 3}, {"chip.units[0].head", 1}, {"chip.selected", 1}, {"chip.units[0].track", 2}},
			[]string{"unit", "chip", "board"}},
	}
	for _, tt := range tests {
		validated = nil
		if err := SetMany(newBoard(), tt.set); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(validated, tt.want) {
			t.Errorf("SetMany(%v) validated %q; want %q", tt.set, validated, tt.want)
		}
	}
}

// TestSetMany checks "every value given or none" (IS-5): values that are
// valid together are taken in any order, and one refusal takes every write
// back.
func TestSetMany(t *testing.T) {
	b := newBoard()
	// Blinking needs the counter non-negative; given together, either order
	// does, since the checks run once everything is written.
	set := []Field{{"mode", "blink"}, {"chip.counter", 0}, {"wide", "&0102"}}
	if err := SetMany(b, set); err != nil {
		t.Fatal(err)
	}
	if b.Mode != 2 || b.Chip.Counter != 0 || b.Wide != 0x0102 {
		t.Errorf("SetMany left mode %d, counter %d, wide %#x", b.Mode, b.Chip.Counter, b.Wide)
	}
	if !slices.Equal(b.after, []string{"mode", "chip.counter", "wide"}) {
		t.Errorf("AfterSet told of %q; want each path in order", b.after)
	}

	refused := []struct {
		set  []Field
		want string
	}{
		{[]Field{{"wide", 1}, {"chip.counter", 3}, {"chip.units[0].track", 200}}, "chip.units[0]: track = 200"},
		{[]Field{{"wide", 1}, {"chip.selected", 300}}, "chip.selected: 300 is out of range"},
		{[]Field{{"wide", 1}, {"chip.counter", -1}}, "mode = blink"},
		{[]Field{{"wide", 1}, {"nope", 1}}, `no field "nope"`},
		{[]Field{{"wide", 1}, {"wide", 2}}, "wide: given twice"},
		{[]Field{{"chip.registers[1]", 1}, {"chip.registers", []any{1, 2, 3, 4}}}, "chip.registers[1]: given twice"},
		{[]Field{{"chip.units[0].head", 1}, {"chip.units[0]", map[string]any{"head": 2}}}, "chip.units[0].head: given twice"},
		{[]Field{{"chip.units[0]", map[string]any{"head": 1}}, {"chip.units[0].head", 2}}, "given twice"},
	}
	for _, tt := range refused {
		b.after = nil
		before := snapshot(b)
		err := SetMany(b, tt.set)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("SetMany(%v) = %v; want it refused with %q", tt.set, err, tt.want)
		}
		if after := snapshot(b); after != before {
			t.Errorf("SetMany(%v) refused, but the machine changed:\n%s\n%s", tt.set, before, after)
		}
		if len(b.after) != 0 {
			t.Errorf("SetMany(%v) refused, yet AfterSet was told of %q", tt.set, b.after)
		}
	}
}

func TestWalk(t *testing.T) {
	want := []string{
		"chip.registers[0]", "chip.registers[1]", "chip.registers[2]", "chip.registers[3]",
		"chip.selected", "chip.counter",
		"chip.units[0].head", "chip.units[0].track", "chip.units[0].ready",
		"chip.units[1].head", "chip.units[1].track", "chip.units[1].ready",
		"chip.phase", "mode", "kind", "dir", "tick", "delta", "wide",
		"matrix[0][0]", "matrix[0][1]", "matrix[0][2]", "matrix[1][0]", "matrix[1][1]", "matrix[1][2]",
		"monitor.beam_x", "monitor.sync", "spare", "lines[0]", "lines[1]",
	}
	b := newBoard()
	fs, err := Fields(b)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range fs {
		paths = append(paths, f.Path)
		got, err := Get(b, f.Path)
		if err != nil || jsonOf(t, got) != jsonOf(t, f.Value) {
			t.Errorf("Fields gives %s = %v; Get gives %v, %v", f.Path, f.Value, got, err)
		}
	}
	if !slices.Equal(paths, want) {
		t.Errorf("Fields visits\n%q\nwant\n%q", paths, want)
	}

	// An error from fn stops the walk.
	stop := errors.New("stop")
	n := 0
	err = Walk(b, func(string, any) error {
		n++
		if n == 3 {
			return stop
		}
		return nil
	})
	if err != stop || n != 3 {
		t.Errorf("Walk ran %d leaves and returned %v; want 3 and the error", n, err)
	}
}

// TestRestore checks that a state's fields, through their JSON, put a
// second machine where the first stood, and that a state naming an unknown
// field, or lacking one, is refused with the machine as it was.
func TestRestore(t *testing.T) {
	a := newBoard()
	set := []Field{
		{"chip.registers", []any{7, 7, 7, 7}}, {"chip.units[1].track", 77}, {"mode", "off"},
		{"dir", "forward"}, {"tick", "&123456789ABCDEF0"}, {"delta", -99}, {"monitor.beam_x", 321},
		{"chip.phase", "phase-9"}, {"lines", []any{5, 6}},
	}
	if err := SetMany(a, set); err != nil {
		t.Fatal(err)
	}
	fs, err := Fields(a)
	if err != nil {
		t.Fatal(err)
	}
	line, err := MarshalFields(fs)
	if err != nil {
		t.Fatal(err)
	}
	read, err := UnmarshalFields(line)
	if err != nil {
		t.Fatal(err)
	}
	b := newBoard()
	validated = nil
	if err := Restore(b, read); err != nil {
		t.Fatal(err)
	}
	got, _ := Fields(b)
	if again, _ := MarshalFields(got); string(again) != string(line) {
		t.Errorf("restored:\n%s\nkept:\n%s", again, line)
	}
	if len(b.after) != len(fs) {
		t.Errorf("AfterSet told of %d paths; want the %d fields", len(b.after), len(fs))
	}
	if !slices.Equal(validated, []string{"unit", "unit", "chip", "board"}) {
		t.Errorf("Restore validated %q", validated)
	}

	refused := []struct {
		fs   []Field
		want string
	}{
		{append(slices.Clone(read), Field{"chip.bogus", 1}), `chip.bogus: no field "bogus" in chip`},
		{read[1:], "the state lacks 1 of the machine's fields: chip.registers[0]"},
		{read[:3], "the state lacks 27 of the machine's fields: chip.registers[3], chip.selected, chip.counter, chip.units[0].head, chip.units[0].track and 22 more"},
		{append(slices.Clone(read), Field{"mode", "on"}), "mode: given twice"},
		{replace(read, "kind", "on"), "kind: it is fixed"},
		{replace(read, "chip.units[0].track", 200), "chip.units[0]: track = 200"},
	}
	for _, tt := range refused {
		c := newBoard()
		before := snapshot(c)
		err := Restore(c, tt.fs)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Restore = %v; want it refused with %q", err, tt.want)
		}
		if snapshot(c) != before {
			t.Errorf("Restore refused with %v, but the machine changed", err)
		}
	}
}

func replace(fs []Field, path string, v any) []Field {
	out := slices.Clone(fs)
	for i := range out {
		if out[i].Path == path {
			out[i].Value = v
		}
	}
	return out
}

func TestFieldsJSON(t *testing.T) {
	fs := []Field{{"b", uint64(1)}, {"a", "x\"\\\n\x01é\xff"}, {"c", nil}, {"d", true}, {"e", int64(-2)}, {"f", json.Number("3")}}
	got, err := MarshalFields(fs)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"b":1,"a":"x\"\\\u000a\u0001é` + "\ufffd" + `","c":null,"d":true,"e":-2,"f":3}`
	if string(got) != want {
		t.Errorf("MarshalFields = %s; want %s", got, want)
	}
	if !json.Valid(got) {
		t.Errorf("MarshalFields wrote invalid JSON: %s", got)
	}
	back, err := UnmarshalFields(got)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range back {
		paths = append(paths, f.Path)
	}
	if !slices.Equal(paths, []string{"b", "a", "c", "d", "e", "f"}) {
		t.Errorf("UnmarshalFields lost the order: %q", paths)
	}
	if back[0].Value != json.Number("1") {
		t.Errorf("UnmarshalFields gave %#v for 1; want a json.Number", back[0].Value)
	}
	for _, bad := range []string{`[1]`, `{"a":1`, `{"a":1} {}`, `{"a":}`, ``} {
		if _, err := UnmarshalFields([]byte(bad)); err == nil {
			t.Errorf("UnmarshalFields(%q) took it", bad)
		}
	}
	// Object keeps struct order through encoding/json too.
	o := Object{{"z", uint64(1)}, {"a", []any{Object{{"y", false}}}}}
	j, err := json.Marshal(o)
	if err != nil || string(j) != `{"z":1,"a":[{"y":false}]}` {
		t.Errorf("json.Marshal(Object) = %s, %v", j, err)
	}
}

// Types that cannot be inspected, each for its own reason.
type (
	untagged struct {
		A byte `inspect:"a"`
		B byte
	}
	taggedUnexported struct {
		a byte `inspect:"a"`
	}
	namedInterface struct {
		Bus any `inspect:"bus"`
	}
	badName struct {
		A byte `inspect:"Acc"`
	}
	dupName struct {
		A byte `inspect:"a"`
		B byte `inspect:"a"`
	}
	namedString struct {
		S string `inspect:"s"`
	}
	namedFloat struct {
		F float64 `inspect:"f"`
	}
	pointerToBytes struct {
		P *[16]byte `inspect:"p"`
	}
	loop struct {
		Next *loop `inspect:"next"`
	}
	fixedStruct struct {
		S screen `inspect:"s,fixed"`
	}
	badOption struct {
		A byte `inspect:"a,writeonce"`
	}
	wideEnum struct {
		W wide `inspect:"w"`
	}
	namedMap struct {
		M map[string]int `inspect:"m"`
	}
	deep struct {
		Inner struct {
			X byte
		} `inspect:"inner"`
	}
	emptyName struct {
		A byte `inspect:""`
	}
)

type wide uint32

func (w wide) String() string { return "w" }

func TestCheck(t *testing.T) {
	tests := []struct {
		root any
		want string
	}{
		{&untagged{}, "inspect.untagged.B: an exported field needs an inspect tag"},
		{&taggedUnexported{}, "inspect.taggedUnexported.a: an unexported field cannot be inspected"},
		{&namedInterface{}, "namedInterface.Bus: an interface is nothing inspect gives as numbers: hide it with inspect:\"-\""},
		{&badName{}, `badName.A: inspect name "Acc"`},
		{&emptyName{}, `emptyName.A: inspect name ""`},
		{&dupName{}, `dupName.B: inspect name "a" is already A's`},
		{&namedString{}, "namedString.S: a string is nothing"},
		{&namedFloat{}, "namedFloat.F: a float64 is nothing"},
		{&pointerToBytes{}, "a pointer to [16]uint8 is followed only to a struct"},
		{&loop{}, "inspect.loop reaches itself through this pointer"},
		{&fixedStruct{}, "only a number or a bool can be fixed"},
		{&badOption{}, `unknown inspect option "writeonce"`},
		{&wideEnum{}, "implement encoding.TextUnmarshaler on *wide"},
		{&namedMap{}, "a map is nothing"},
		{&deep{}, "deep.Inner.X: an exported field needs an inspect tag"},
		{42, "the root is a int"},
	}
	for _, tt := range tests {
		err := Check(tt.root)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Check(%T) = %v; want %q", tt.root, err, tt.want)
		}
		// Every other entry point refuses the type alike.
		if _, ok := tt.root.(int); ok {
			continue
		}
		if _, err2 := Get(tt.root, ""); err2 == nil || err2.Error() != err.Error() {
			t.Errorf("Get(%T) = %v; want %v", tt.root, err2, err)
		}
		if err2 := Set(tt.root, "a", 1); err2 == nil || err2.Error() != err.Error() {
			t.Errorf("Set(%T) = %v; want %v", tt.root, err2, err)
		}
	}
	// All the problems of a type are listed, not just the first.
	type two struct {
		A byte
		B byte
	}
	if err := Check(two{}); err == nil || !strings.Contains(err.Error(), "two.A") || !strings.Contains(err.Error(), "two.B") {
		t.Errorf("Check(two) = %v; want both fields named", err)
	}
	if err := Check(&board{}); err != nil {
		t.Errorf("Check(board): %v", err)
	}
	// A writer needs the machine itself, not a copy.
	if err := Set(*newBoard(), "tick", 1); err == nil || !strings.Contains(err.Error(), "must be a pointer") {
		t.Errorf("Set on a struct value = %v; want it refused", err)
	}
	if err := Set((*board)(nil), "tick", 1); err == nil {
		t.Errorf("Set on a nil pointer took it")
	}
}

// TestEnumTable checks the names found by asking String of every value.
func TestEnumTable(t *testing.T) {
	tab, err := tableOf(reflect.TypeFor[board]())
	if err != nil {
		t.Fatal(err)
	}
	m := tab.fields[tab.byName["mode"]].tab.enum
	if !slices.Equal(m.order, []string{"off", "on", "blink", "unknown"}) {
		t.Errorf("mode's names: %q", m.order)
	}
	if m.values["unknown"] != 3 {
		t.Errorf("unknown names %d; want the lowest value that gives it, 3", m.values["unknown"])
	}
	d := tab.fields[tab.byName["dir"]].tab.enum
	if len(d.order) != 256 || d.values["back"] != ^uint64(0) {
		t.Errorf("dir has %d names, back = %#x; want 256 and -1", len(d.order), d.values["back"])
	}
}
