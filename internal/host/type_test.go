package host

import (
	"context"
	"strings"
	"testing"
)

// TestTypeRefusedLeavesTheMachine holds issue 19's item 9 with KEY-9 and
// KEY-10: type with no text, or with text no key types, is refused with an
// error that names the argument and says what would do, before a key goes
// down; the machine stands as it stood, every field, its memory, its
// picture, and its journal, which enters nothing of the refused request.
func TestTypeRefusedLeavesTheMachine(t *testing.T) {
	ctx := context.Background()
	for _, c := range branchCases {
		t.Run(c.machine, func(t *testing.T) {
			h := stateHost(t)
			handle := booted(t, h, c.machine)
			// Part way through a frame, where a typing would begin at once.
			must(h.Run(ctx, RunArgs{Handle: handle, Ticks: ptr(uint64(1234))}))
			for _, tt := range []struct{ text, want string }{
				{"", `argument "text" is empty; give the text to type`},
				{strings.Repeat("a", 251), `argument "text"`},
				{"PRINT \u00e9", "not ASCII"},
				{"a\x01", "no key on a"},
			} {
				before := lookAt(t, h, handle)
				_, err := h.Type(ctx, TypeArgs{Handle: handle, Text: tt.text})
				if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), `argument "text"`) {
					t.Errorf("type %.20q refused as %v; want an error naming the argument, with %q", tt.text, err, tt.want)
				}
				if d := before.differ(lookAt(t, h, handle)); d != "" {
					t.Errorf("type %.20q, refused, changed the machine or its journal:\n%s", tt.text, d)
				}
			}
		})
	}
}
