package host

import (
	"context"
	"strings"
	"testing"

	"colophon/internal/firmware"
	"colophon/internal/shared"
)

// newHost is a host that reads the shared firmware.
func newHost(t *testing.T) *Host {
	t.Helper()
	return New(Options{Firmware: firmware.Loader{Dirs: []string{shared.TestPath(t, "roms")}}, Build: "test"})
}

func ptr[T any](v T) *T { return &v }

// cpcText reads a CPC's screen as the firmware's text.
func cpcText(t *testing.T, h *Host, handle string) []string {
	t.Helper()
	h.mu.Lock()
	defer h.mu.Unlock()
	m, err := h.find(handle)
	if err != nil {
		t.Fatal(err)
	}
	lines, err := m.screenText()
	if err != nil {
		t.Fatal(err)
	}
	return lines
}

// TestKEY15PrintOnEachCPC is the spec's test of typing at each CPC: PRINT
// 2+2 typed after the command line's 78 frames, and the firmware's answer,
// read in its own font, is 4.
func TestKEY15PrintOnEachCPC(t *testing.T) {
	h := newHost(t)
	ctx := context.Background()
	for _, name := range []string{"cpc464", "cpc664", "cpc6128"} {
		o, err := h.Open(ctx, OpenArgs{Machine: MachineName(name)})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := h.Run(ctx, RunArgs{Handle: o.Handle, Ticks: ptr(uint64(78 * 79872))}); err != nil {
			t.Fatal(err)
		}
		if _, err := h.Type(ctx, TypeArgs{Handle: o.Handle, Text: "PRINT 2+2\n"}); err != nil {
			t.Fatal(err)
		}
		var lines []string
		for _, l := range cpcText(t, h, o.Handle) {
			lines = append(lines, strings.TrimSpace(l))
		}
		text := strings.Join(lines, "|")
		if !strings.Contains(text, "|PRINT 2+2|4|Ready|") {
			t.Errorf("%s's screen reads %s, want PRINT 2+2, then 4, then Ready", name, text)
		}
	}
}

// TestKEY16Inkey is the spec's test of keys held through a run on a CPC:
// BASIC's INKEY reads them as the CPC 6128's manual says it does, -1 for
// a key that is up, 0 for one held alone, 32 with SHIFT and 128 with
// CTRL (User Instructions, chapter 8, INKEY).
func TestKEY16Inkey(t *testing.T) {
	h := newHost(t)
	ctx := context.Background()
	o, err := h.Open(ctx, OpenArgs{Machine: "cpc6128"})
	if err != nil {
		t.Fatal(err)
	}
	h.Run(ctx, RunArgs{Handle: o.Handle, Ticks: ptr(uint64(78 * 79872))})
	// The program prints at the top-left corner, over and over, so the
	// screen never scrolls.
	if _, err := h.Type(ctx, TypeArgs{Handle: o.Handle, Text: "10 LOCATE 1,1:PRINT INKEY(69);\"   \"\n20 GOTO 10\nRUN\n"}); err != nil {
		t.Fatal(err)
	}
	last := func(keys ...Key) string {
		t.Helper()
		if _, err := h.Run(ctx, RunArgs{Handle: o.Handle, Frames: ptr(uint64(25)), Keys: keys}); err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(cpcText(t, h, o.Handle)[0])
	}
	for _, tt := range []struct {
		keys []Key
		want string
	}{
		{nil, "-1"},
		{[]Key{KeyNamed("A")}, "0"},
		{[]Key{KeyNumbered(69), KeyNamed("SHIFT")}, "32"},
		{[]Key{KeyNamed("a"), KeyNamed("CTRL")}, "128"},
		{nil, "-1"},
	} {
		if got := last(tt.keys...); got != tt.want {
			t.Errorf("with %v held INKEY(69) printed %q, want %q", tt.keys, got, tt.want)
		}
	}
}
