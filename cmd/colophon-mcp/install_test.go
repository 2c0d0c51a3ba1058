package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// serverEntry is a server as the JSON-configured clients take it.
type serverEntry struct {
	Type    string   `json:"type"`
	Command string   `json:"command"`
	Args    []string `json:"args"`
}

// entryIn reads the block a client is given and returns the server in it,
// under key.
func entryIn(t *testing.T, block, key string) serverEntry {
	t.Helper()
	var cfg map[string]map[string]serverEntry
	if err := json.Unmarshal([]byte(block), &cfg); err != nil {
		t.Fatalf("the block is not JSON: %v\n%s", err, block)
	}
	e, ok := cfg[key][serverName]
	if !ok || len(cfg) != 1 || len(cfg[key]) != 1 {
		t.Fatalf("want one server %q under %q, got %s", serverName, key, block)
	}
	return e
}

// TestS12_InstallGivesEachClient holds every client's configuration to the
// form that client reads (checklist S-11, S-12): the command and arguments
// come back out of each JSON block and command line as they went in, for
// npx -y colophon-mcp and for absolute paths, on Unix and on Windows.
func TestS12_InstallGivesEachClient(t *testing.T) {
	cases := []struct {
		name string
		l    launch
		goos string
	}{
		{"npx", npxLaunch("linux"), "linux"},
		{"npx windows", npxLaunch("windows"), "windows"},
		{"paths", launch{"/opt/colophon 0.0.0/colophon-mcp", []string{"--roms", "/opt/it's/roms"}}, "darwin"},
		{"paths windows", launch{`C:\Program Files\colophon\colophon-mcp.exe`, []string{"--roms", `C:\Program Files\colophon\roms`}}, "windows"},
	}
	keys := map[string]string{"claude-desktop": "mcpServers", "cursor": "mcpServers", "windsurf": "mcpServers", "zed": "context_servers"}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			want := serverEntry{Command: tc.l.command, Args: tc.l.args}
			for _, c := range clients {
				parts := c.config(tc.l, tc.goos)
				switch c.name {
				case "claude-code":
					words := splitCommandLine(t, tc.goos, parts[0].code)
					wantWords := append([]string{"claude", "mcp", "add", "colophon", "--"}, tc.l.argv()...)
					if !equal(words, wantWords) {
						t.Errorf("claude-code: %q reads as %q, want %q", parts[0].code, words, wantWords)
					}
				case "vscode":
					words := splitCommandLine(t, tc.goos, parts[0].code)
					if len(words) != 3 || words[0] != "code" || words[1] != "--add-mcp" {
						t.Fatalf("vscode: %q reads as %q", parts[0].code, words)
					}
					var one struct {
						Name    string   `json:"name"`
						Command string   `json:"command"`
						Args    []string `json:"args"`
					}
					if err := json.Unmarshal([]byte(words[2]), &one); err != nil || one.Name != "colophon" || one.Command != want.Command || !equal(one.Args, want.Args) {
						t.Errorf("vscode: --add-mcp %s (%v)", words[2], err)
					}
					e := entryIn(t, parts[1].code, "servers")
					if e.Type != "stdio" || e.Command != want.Command || !equal(e.Args, want.Args) {
						t.Errorf("vscode: .vscode/mcp.json gives %+v", e)
					}
				default:
					e := entryIn(t, parts[0].code, keys[c.name])
					if e.Command != want.Command || !equal(e.Args, want.Args) || e.Type != "" {
						t.Errorf("%s: gives %+v, want %+v", c.name, e, want)
					}
				}
			}
		})
	}
}

// splitCommandLine reads a line as the shell would: sh itself on Unix,
// where it is there to ask, and on Windows the rules a program's C runtime
// reads its command line by, for the quoting quoteWord writes.
func splitCommandLine(t *testing.T, goos, line string) []string {
	t.Helper()
	if goos != "windows" {
		sh, err := exec.LookPath("sh")
		if err != nil {
			t.Skip("no sh to read the command line with")
		}
		out, err := exec.Command(sh, "-c", `for w in `+line+`; do printf '%s\0' "$w"; done`).Output()
		if err != nil {
			t.Fatalf("sh reading %q: %v", line, err)
		}
		return strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	}
	var words []string
	var w strings.Builder
	in, started := false, false
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case c == '\\' && i+1 < len(line) && line[i+1] == '"':
			w.WriteByte('"')
			i++
			started = true
		case c == '"':
			in, started = !in, true
		case c == ' ' && !in:
			if started {
				words = append(words, w.String())
				w.Reset()
				started = false
			}
		default:
			w.WriteByte(c)
			started = true
		}
	}
	if started {
		words = append(words, w.String())
	}
	return words
}

func equal(a, b []string) bool {
	return strings.Join(a, "\x00") == strings.Join(b, "\x00") && len(a) == len(b)
}

// TestS12_READMEShowsTheLines holds the README to what install prints for
// npx -y colophon-mcp: every client's line or block is there as it is
// printed.
func TestS12_READMEShowsTheLines(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range clients {
		for _, p := range c.config(npxLaunch("linux"), "linux") {
			if !bytes.Contains(readme, []byte("\n"+p.code+"\n")) {
				t.Errorf("README.md does not show %s's configuration as install prints it:\n%s", c.title, p.code)
			}
		}
	}
	if !bytes.Contains(readme, []byte("./colophon-mcp --roms roms")) {
		t.Error("README.md does not show an archive's folder starting the server (checklist S-6)")
	}
}

// TestS12_InstallCommand runs colophon-mcp install as a person would: this
// program's own path and the firmware directory given, absolute, or npx
// where asked; one client or all; a client it does not know refused with
// the ones it does.
func TestS12_InstallCommand(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	exe, _ = filepath.EvalSymlinks(exe)
	roms := t.TempDir()
	runIt := func(args ...string) (int, string, string) {
		var out, errs bytes.Buffer
		status := run(context.Background(), args, strings.NewReader(""), &out, &errs)
		return status, out.String(), errs.String()
	}

	status, out, errs := runIt("install", "--client", "cursor", "--roms", roms)
	if status != 0 {
		t.Fatalf("install --client cursor: status %d, stderr %q", status, errs)
	}
	block := out[strings.Index(out, "{"):]
	if e := entryIn(t, block, "mcpServers"); e.Command != exe || !equal(e.Args, []string{"--roms", roms}) {
		t.Errorf("install --client cursor gives %+v, want %s --roms %s", e, exe, roms)
	}

	status, out, errs = runIt("install", "--npx")
	if status != 0 || errs != "" {
		t.Fatalf("install --npx: status %d, stderr %q", status, errs)
	}
	for _, c := range clients {
		if !strings.Contains(out, "== "+c.title+" (--client "+c.name+")") {
			t.Errorf("install --npx names no %s", c.title)
		}
	}
	if !strings.Contains(out, "claude mcp add colophon -- npx -y colophon-mcp\n") {
		t.Errorf("install --npx gives Claude Code no npx line:\n%s", out)
	}

	for _, bad := range [][]string{{"install", "--client", "emacs"}, {"install", "extra"}, {"install", "--nope"}} {
		status, out, errs = runIt(bad...)
		if status != 2 || out != "" || errs == "" {
			t.Errorf("%q: status %d, stdout %q, stderr %q; want 2 and a complaint", bad, status, out, errs)
		}
	}
	if _, _, errs = runIt("install", "--client", "emacs"); !strings.Contains(errs, `"emacs"`) || !strings.Contains(errs, "claude-code, claude-desktop, cursor, vscode, windsurf, zed") {
		t.Errorf("an unknown client is refused with %q", errs)
	}
}

// A program npm installed gives npx, since npx may put the package
// somewhere else next time.
func TestS11_InstallFromNPMGivesNPX(t *testing.T) {
	for exe, want := range map[string]bool{
		"/home/you/.npm/_npx/1a2b/node_modules/@colophon-mcp/linux-x64/colophon-mcp":     true,
		`C:\Users\you\AppData\npm\node_modules\@colophon-mcp\win32-x64\colophon-mcp.exe`: true,
		"/home/you/colophon-0.0.0-linux-amd64/colophon-mcp":                              false,
		"/home/you/colophon/bin/colophon-mcp":                                            false,
	} {
		if got := fromNPM(exe); got != want {
			t.Errorf("fromNPM(%q) = %v, want %v", exe, got, want)
		}
	}
}
