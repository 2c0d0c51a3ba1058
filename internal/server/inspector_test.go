package server

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// inspectorDir holds the MCP Inspector, pinned by its package-lock.json.
var inspectorDir = filepath.Join("..", "..", "test", "inspector")

// TestSchemasPortable runs the MCP Inspector's command line, from npm, with
// --strict over the built server's tools/list, and expects no finding at
// all (issue 19, item 11). Its lint is written for the clients whose models
// take a single-type dialect of JSON Schema, Gemini's function declarations
// and OpenAI's strict mode: a "type" that is an array, a schema that says
// nothing of its value, a bare true or false where a schema belongs, a
// $ref to another document. Before the schemas were made single-typed it
// found 31 warnings.
//
// It needs node and the Inspector installed by npm ci in test/inspector;
// under CI=true it fails without them, and anywhere else it is skipped.
func TestSchemasPortable(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		unavailable(t, "node is not on PATH")
	}
	launcher := filepath.Join(inspectorDir, "node_modules", "@modelcontextprotocol", "inspector", "clients", "launcher", "build", "index.js")
	if _, err := os.Stat(launcher); err != nil {
		unavailable(t, "@modelcontextprotocol/inspector is not installed: run npm ci in test/inspector")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("go is not on PATH to build the server: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "colophon-mcp")
	if out, err := exec.Command(goTool, "build", "-o", bin, serverCommand).CombinedOutput(); err != nil {
		t.Fatalf("building %s: %v\n%s", serverCommand, err, out)
	}

	var stdout, stderr bytes.Buffer
	cmd := exec.Command(node, launcher, "--cli", bin, "--method", "tools/list", "--strict")
	cmd.Dir = inspectorDir
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("the Inspector --strict over tools/list: %v\n%s", err, stderr.String())
	}
	// The server's own line on standard error, naming its firmware
	// directories, passes through; the Inspector's findings begin
	// "Warning:" or "Error:", and a summary names "Schema portability".
	for _, line := range strings.Split(stderr.String(), "\n") {
		if strings.HasPrefix(line, "Warning") || strings.HasPrefix(line, "Error") || strings.Contains(line, "portability") {
			t.Errorf("the Inspector --strict found:\n%s", stderr.String())
			break
		}
	}
	var list struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &list); err != nil {
		t.Fatalf("the Inspector's tools/list: %v\n%.2000s", err, stdout.String())
	}
	if len(list.Tools) == 0 {
		t.Fatalf("the Inspector listed no tools:\n%.2000s", stdout.String())
	}
	t.Logf("the Inspector --strict found nothing to warn of in %d tools", len(list.Tools))
}
