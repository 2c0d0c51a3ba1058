package server_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"colophon/internal/server/internal/toolsdoc"
	"colophon/internal/shared"
)

// TestToolsDocUpToDate holds docs/tools.md to what go generate
// ./internal/server writes from the server as it stands: every tool it
// registers, with its description and schemas, and the first session run
// on a real cpc6128 (issue 18). After changing a tool's description or
// schema, or adding a tool, run go generate ./internal/server.
func TestToolsDocUpToDate(t *testing.T) {
	var want bytes.Buffer
	if err := toolsdoc.Write(&want, shared.TestPath(t, "roms")); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join("..", "..", "docs", "tools.md")
	got, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v: run go generate ./internal/server", err)
	}
	if !bytes.Equal(got, want.Bytes()) {
		gl, wl := bytes.Split(got, []byte("\n")), bytes.Split(want.Bytes(), []byte("\n"))
		for i := 0; i < len(gl) || i < len(wl); i++ {
			var g, w []byte
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if !bytes.Equal(g, w) {
				t.Fatalf("docs/tools.md has drifted from the server at line %d:\n have %q\n want %q\nrun go generate ./internal/server", i+1, g, w)
			}
		}
	}
}
