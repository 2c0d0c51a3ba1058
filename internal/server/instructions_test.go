package server

import (
	"regexp"
	"strings"
	"testing"
)

// TestInstructionsNameEveryTool: the instructions say what each of the 25
// tools the spec lists is for (checklist W-12 and W-15), by name.
func TestInstructionsNameEveryTool(t *testing.T) {
	tools := []string{
		"machine_open", "machine_list", "machine_close", "run", "step", "call",
		"inspect", "set", "peek", "poke", "find", "compare", "monitor", "screen",
		"disassemble", "type", "disc_insert", "tape_insert", "disc_save",
		"snapshot_save", "state_keep", "state_restore", "state_save",
		"state_drop", "journal",
	}
	if len(tools) != 25 {
		t.Fatalf("%d tools listed, and the spec lists 25", len(tools))
	}
	for _, name := range tools {
		if !regexp.MustCompile(`(^|[^a-z_])` + name + `([^a-z_]|$)`).MatchString(Instructions) {
			t.Errorf("the instructions do not name %s", name)
		}
	}
}

// TestInstructionsSayWhatHolds: the instructions carry what holds across
// the tools, with the spec's numbers.
func TestInstructionsSayWhatHolds(t *testing.T) {
	for _, want := range []string{
		"&BB06",          // addresses in hex after &
		"&1C000",         // five digits past &FFFF
		"79872", "69888", // a standard frame's ticks
		"1500 frames", "100000 instructions", // the limits
		"250 characters", "166", // typing's limits
		"78 frames", "128 frames", // frames before the firmware takes a key
		"byte for byte", // determinism
		"journal",
		"SHA-256",
	} {
		if !strings.Contains(Instructions, want) {
			t.Errorf("the instructions do not say %q", want)
		}
	}
}
