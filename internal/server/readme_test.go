package server

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestReadmeListsEveryTool holds README.md's one-line list of the tools,
// under "A first session", to the tools the server lists (issue 18, "A
// first session"): a tool served and missing from it, or named there and
// not served, fails. Each item of the list names its tools in backquotes
// before its first colon.
func TestReadmeListsEveryTool(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "\n## A first session\n")
	if !ok {
		t.Fatal(`README.md has no "## A first session" section`)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	name := regexp.MustCompile("`([a-z_0-9]+)`")
	var listed []string
	for _, line := range strings.Split(section, "\n") {
		item, ok := strings.CutPrefix(line, "- ")
		if !ok {
			continue
		}
		names, _, ok := strings.Cut(item, ":")
		if !ok {
			t.Errorf("README.md's list item %q names no tools before a colon", line)
			continue
		}
		for _, m := range name.FindAllStringSubmatch(names, -1) {
			listed = append(listed, m[1])
		}
	}

	w := newWire(t)
	mustResult(t, "initialize", w.initialize("2025-11-25"))
	var served []string
	for _, tool := range mustResult(t, "tools/list", w.call("tools/list", nil))["tools"].([]any) {
		served = append(served, tool.(map[string]any)["name"].(string))
	}
	for _, s := range served {
		if !slices.Contains(listed, s) {
			t.Errorf("the server serves %s, and README.md's list under \"A first session\" lacks it", s)
		}
	}
	for _, l := range listed {
		if !slices.Contains(served, l) {
			t.Errorf("README.md's list under \"A first session\" names %s, which the server does not serve", l)
		}
	}
	if len(served) == 0 {
		t.Error("the server lists no tools")
	}
}
