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

// TestNotYetBuiltIsExactlyWhatIsMissing: the instructions' list of what this
// build lacks is exactly the spec's 25 tools less those tools/list serves,
// and the arguments it names are absent from run's and call's schemas, so the
// instructions can neither promise a tool that is not here nor hide one that
// is (W-12, W-15).
func TestNotYetBuiltIsExactlyWhatIsMissing(t *testing.T) {
	w := newWire(t)
	mustResult(t, "initialize", w.initialize("2025-11-25"))
	list := mustResult(t, "tools/list", w.call("tools/list", nil))
	served := map[string]map[string]any{}
	for _, tool := range list["tools"].([]any) {
		tool := tool.(map[string]any)
		served[tool["name"].(string)] = tool
	}
	missing := map[string]bool{}
	for _, m := range notYetBuilt {
		if served[m.name] != nil {
			t.Errorf("%s is listed as not built, and tools/list serves it", m.name)
		}
		missing[m.name] = true
	}
	spec := []string{
		"machine_open", "machine_list", "machine_close", "run", "step", "call",
		"inspect", "set", "peek", "poke", "find", "compare", "monitor", "screen",
		"disassemble", "type", "disc_insert", "tape_insert", "disc_save",
		"snapshot_save", "state_keep", "state_restore", "state_save",
		"state_drop", "journal",
	}
	for _, name := range spec {
		if served[name] == nil && !missing[name] {
			t.Errorf("%s is neither served nor listed as not built", name)
		}
	}
	if len(served)+len(missing) != len(spec) {
		t.Errorf("%d tools served and %d listed as not built; the spec has %d", len(served), len(missing), len(spec))
	}
	for _, tool := range []string{"run", "call"} {
		props := served[tool]["inputSchema"].(map[string]any)["properties"].(map[string]any)
		for _, a := range notYetBuiltArguments {
			if _, ok := props[a.name]; ok {
				t.Errorf("%s takes %s, which the instructions say is not built", tool, a.name)
			}
		}
		// Stopping and watching is built: run and call take its arguments.
		for _, arg := range []string{"until", "gather", "gather_last", "count", "count_by", "path", "path_sha256"} {
			if _, ok := props[arg]; !ok {
				t.Errorf("%s does not take %s", tool, arg)
			}
		}
	}
	// Every tool and argument is built: the instructions list nothing as
	// missing.
	if len(notYetBuilt)+len(notYetBuiltArguments) != 0 || strings.Contains(Instructions, "NOT IN THIS BUILD YET") || Instructions != instructionsSpec {
		t.Errorf("the instructions say this build lacks something: %v %v", notYetBuilt, notYetBuiltArguments)
	}
}
