package server

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"colophon/internal/shared"
)

// serverCommand is the command the real clients drive: the product itself.
const serverCommand = "colophon/cmd/colophon-mcp"

// cliCommand is the emulator's command line, whose screenshots the clients
// hold monitor's pictures to.
const cliCommand = "colophon/cmd/colophon"

// clientsDir holds the Node test and the npm packages it pins.
var clientsDir = filepath.Join("..", "..", "test", "clients")

// TestRealClients builds the server and has the MCP TypeScript SDK, from
// npm, drive it over stdio in both eras, running every *.test.mjs in
// test/clients. stdio.test.mjs has @modelcontextprotocol/sdk opening
// with initialize in 2025-11-25 and in 2025-06-18, and
// @modelcontextprotocol/client pinned to 2026-07-28 (test/clients). In each
// it opens a spectrum48 and a cpc6128, types p2+2 and PRINT 2+2, holds
// monitor's PNG to the colophon command line's screenshot of the same
// typing, byte for byte, and replays each machine's journal to the same
// machine.
//
// It needs node, and the packages installed by npm ci in test/clients.
// Under CI=true, where they are promised, it fails without them; anywhere
// else it is skipped, saying what is missing.
func TestRealClients(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		unavailable(t, "node is not on PATH")
	}
	for _, pkg := range []string{"sdk", "client"} {
		p := filepath.Join(clientsDir, "node_modules", "@modelcontextprotocol", pkg, "package.json")
		if _, err := os.Stat(p); err != nil {
			unavailable(t, "@modelcontextprotocol/"+pkg+" is not installed: run npm ci in test/clients")
		}
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("go is not on PATH to build the server: %v", err)
	}

	// The build's name, set as make sets it, so that the clients can be
	// held to it exactly.
	const commit = "0123456789abcdef0123456789abcdef01234567"
	bin := filepath.Join(t.TempDir(), "colophon-mcp")
	build := exec.Command(goTool, "build", "-o", bin,
		"-ldflags", "-X colophon/internal/build.mcp="+commit+".dirty -X colophon/internal/build.emulator="+commit,
		serverCommand)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building %s: %v\n%s", serverCommand, err, out)
	}
	version, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatalf("%s --version: %v", bin, err)
	}
	if got := strings.TrimSpace(string(version)); got != testBuild {
		t.Fatalf("the server built names itself %s, want %s", got, testBuild)
	}

	// The emulator's command line, whose screenshots monitor's pictures
	// must equal, and the firmware both read.
	roms := shared.TestPath(t, "roms")
	cli := filepath.Join(t.TempDir(), "colophon")
	if out, err := exec.Command(goTool, "build", "-o", cli, cliCommand).CombinedOutput(); err != nil {
		t.Fatalf("building %s: %v\n%s", cliCommand, err, out)
	}

	// Every *.test.mjs, one file at a time: each starts servers of its
	// own, and the machine running them has few cores.
	files, err := filepath.Glob(filepath.Join(clientsDir, "*.test.mjs"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no *.test.mjs in %s (%v)", clientsDir, err)
	}
	args := []string{"--test", "--test-concurrency=1", "--test-reporter=spec"}
	for _, f := range files {
		args = append(args, filepath.Base(f))
	}
	cmd := exec.Command(node, args...)
	cmd.Dir = clientsDir
	cmd.Env = append(os.Environ(), "COLOPHON_MCP="+bin, "COLOPHON_MCP_BUILD="+testBuild,
		"COLOPHON="+cli, "COLOPHON_ROMS="+roms)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node %s in test/clients: %v\n%s", strings.Join(args, " "), err, out)
	}
	t.Logf("node %s:\n%s", strings.Join(args, " "), out)
}

// unavailable fails the test under CI=true, where everything it needs is
// promised, and skips it with the reason anywhere else.
func unavailable(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s (CI=true, so the real clients must run)", why)
	}
	t.Skipf("%s; the real-client test needs it", why)
}
