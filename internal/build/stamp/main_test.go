package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"colophon/internal/build"
)

// A small module laid out like ours: a server that imports one emulator
// package and one other package, which embeds a file; an emulator package it
// does not import; docs and tests beside them.
var layout = map[string]string{
	"go.mod":                       "module example\n\ngo 1.26\n",
	"go.sum":                       "",
	"Makefile":                     "all:\n",
	"README.md":                    "an example\n",
	"cmd/srv/main.go":              "package main\n\nimport (\n\t_ \"example/internal/chip/a\"\n\t_ \"example/internal/host\"\n)\n\nfunc main() {}\n",
	"internal/chip/a/a.go":         "package a\n",
	"internal/chip/a/a_test.go":    "package a\n",
	"internal/chip/a/NOTES.md":     "notes\n",
	"internal/chip/b/b.go":         "package b\n", // not imported by srv
	"internal/host/host.go":        "package host\n\nimport _ \"embed\"\n\n//go:embed data/help.txt\nvar help string\n",
	"internal/host/extra.go":       "package host\n",
	"internal/host/data/help.txt":  "help\n",
	"internal/host/data/other.txt": "not embedded\n",
}

// newRepo writes the layout into a fresh directory, commits it, and returns
// the module and its commit.
func newRepo(t *testing.T) (module, string) {
	t.Helper()
	dir := writeLayout(t, t.TempDir())
	git(t, dir, "init", "-q")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "start")
	mod, err := moduleOf(dir)
	if err != nil {
		t.Fatal(err)
	}
	return mod, strings.TrimSpace(git(t, dir, "rev-parse", "HEAD"))
}

func writeLayout(t *testing.T, dir string) string {
	t.Helper()
	for name, text := range layout {
		write(t, filepath.Join(dir, name), text)
	}
	return dir
}

func write(t *testing.T, p, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// git runs git for the test's own set-up, with an identity and without the
// user's configuration.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=stamp test", "-c", "user.email=stamp@test", "-c", "init.defaultBranch=main"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func needTools(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("git is not installed, and CI=true promises it")
		}
		t.Skip("git is not installed")
	}
}

func TestCompute(t *testing.T) {
	needTools(t)
	tests := []struct {
		name             string
		change           func(t *testing.T, dir string)
		mcpDirty, emuDrt bool
	}{
		{"clean", func(*testing.T, string) {}, false, false},
		{"readme edited", func(t *testing.T, d string) { write(t, filepath.Join(d, "README.md"), "changed\n") }, false, false},
		{"notes beside an emulator package", func(t *testing.T, d string) { write(t, filepath.Join(d, "internal/chip/a/NOTES.md"), "x\n") }, false, false},
		{"test file edited", func(t *testing.T, d string) {
			write(t, filepath.Join(d, "internal/chip/a/a_test.go"), "package a\n\n// x\n")
		}, false, false},
		{"untracked test file", func(t *testing.T, d string) {
			write(t, filepath.Join(d, "internal/host/new_test.go"), "package host\n")
		}, false, false},
		{"package not imported", func(t *testing.T, d string) {
			write(t, filepath.Join(d, "internal/chip/b/b.go"), "package b\n\n// x\n")
		}, false, false},
		{"file not embedded", func(t *testing.T, d string) { write(t, filepath.Join(d, "internal/host/data/other.txt"), "x\n") }, false, false},
		{"server source edited", func(t *testing.T, d string) {
			write(t, filepath.Join(d, "cmd/srv/main.go"), layout["cmd/srv/main.go"]+"// x\n")
		}, true, false},
		{"untracked source", func(t *testing.T, d string) { write(t, filepath.Join(d, "internal/host/new.go"), "package host\n") }, true, false},
		{"source deleted", func(t *testing.T, d string) { remove(t, filepath.Join(d, "internal/host/extra.go")) }, true, false},
		{"embedded file edited", func(t *testing.T, d string) { write(t, filepath.Join(d, "internal/host/data/help.txt"), "more help\n") }, true, false},
		{"go.mod edited", func(t *testing.T, d string) { write(t, filepath.Join(d, "go.mod"), layout["go.mod"]+"\n") }, true, false},
		{"go.sum edited", func(t *testing.T, d string) { write(t, filepath.Join(d, "go.sum"), "x\n") }, true, false},
		{"Makefile edited", func(t *testing.T, d string) { write(t, filepath.Join(d, "Makefile"), "all:\n\ttrue\n") }, true, false},
		{"ignored source", func(t *testing.T, d string) {
			write(t, filepath.Join(d, ".gitignore"), "gen.go\n")
			write(t, filepath.Join(d, "internal/host/gen.go"), "package host\n")
		}, true, false},
		{"emulator source edited", func(t *testing.T, d string) {
			write(t, filepath.Join(d, "internal/chip/a/a.go"), "package a\n\n// x\n")
		}, true, true},
		{"emulator source staged", func(t *testing.T, d string) {
			write(t, filepath.Join(d, "internal/chip/a/a.go"), "package a\n\n// x\n")
			git(t, d, "add", "internal/chip/a/a.go")
		}, true, true},
		{"emulator source renamed", func(t *testing.T, d string) {
			git(t, d, "mv", "internal/chip/a/a.go", "internal/chip/a/cpu.go")
		}, true, true},
		{"untracked emulator source", func(t *testing.T, d string) { write(t, filepath.Join(d, "internal/chip/a/new.go"), "package a\n") }, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			mod, head := newRepo(t)
			tt.change(t, mod.dir)
			var warn bytes.Buffer
			mcp, emu, err := compute(mod, "./cmd/srv", &warn)
			if err != nil {
				t.Fatal(err)
			}
			want := build.Part{Commit: head, Dirty: tt.mcpDirty}
			if mcp != want {
				t.Errorf("mcp part = %v, want %v", mcp, want)
			}
			want = build.Part{Commit: head, Dirty: tt.emuDrt}
			if emu != want {
				t.Errorf("emulator part = %v, want %v", emu, want)
			}
			if warn.Len() != 0 {
				t.Errorf("unexpected warning: %s", warn.String())
			}
		})
	}
}

func remove(t *testing.T, p string) {
	t.Helper()
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
}

// Where there is no checkout of the module's own, both parts are none
// (BLD-6), however much differs.
func TestComputeNone(t *testing.T) {
	needTools(t)
	tests := []struct {
		name  string
		setup func(t *testing.T) string // returns the module's directory
		warns bool
	}{
		{"no checkout", func(t *testing.T) string { return writeLayout(t, t.TempDir()) }, false},
		{"no commit yet", func(t *testing.T) string {
			d := writeLayout(t, t.TempDir())
			git(t, d, "init", "-q")
			return d
		}, false},
		{"inside another checkout", func(t *testing.T) string {
			outer := t.TempDir()
			write(t, filepath.Join(outer, "README"), "outer\n")
			d := writeLayout(t, filepath.Join(outer, "vendored"))
			git(t, outer, "init", "-q")
			git(t, outer, "add", "-A")
			git(t, outer, "commit", "-q", "-m", "outer")
			return d
		}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			mod, err := moduleOf(tt.setup(t))
			if err != nil {
				t.Fatal(err)
			}
			var warn bytes.Buffer
			mcp, emu, err := compute(mod, "./cmd/srv", &warn)
			if err != nil {
				t.Fatal(err)
			}
			if mcp != (build.Part{}) || emu != (build.Part{}) {
				t.Errorf("parts = %v, %v, want none, none", mcp, emu)
			}
			if got := warn.Len() != 0; got != tt.warns {
				t.Errorf("warned = %v (%q), want %v", got, warn.String(), tt.warns)
			}
		})
	}
}

// What make is given: -X flags naming this package's variables, and with
// -name the whole name.
func TestRunOutput(t *testing.T) {
	needTools(t)
	mod, head := newRepo(t)
	write(t, filepath.Join(mod.dir, "internal/chip/a/a.go"), "package a\n\n// x\n")
	tests := []struct {
		name bool
		want string
	}{
		{false, "-X example/internal/build.mcp=" + head + ".dirty -X example/internal/build.emulator=" + head + ".dirty\n"},
		{true, "0.0.0+mcp." + head + ".dirty.emulator." + head + ".dirty\n"},
	}
	for _, tt := range tests {
		var out, warn bytes.Buffer
		if err := run(&out, &warn, mod.dir, "./cmd/srv", tt.name); err != nil {
			t.Fatal(err)
		}
		if out.String() != tt.want {
			t.Errorf("run(name=%v) printed %q, want %q", tt.name, out.String(), tt.want)
		}
	}
}

func TestUnknownPackage(t *testing.T) {
	needTools(t)
	mod, _ := newRepo(t)
	_, _, err := compute(mod, "./cmd/nosuch", new(bytes.Buffer))
	if err == nil || !strings.Contains(err.Error(), "./cmd/nosuch") {
		t.Errorf("compute of a missing package: err = %v, want one naming ./cmd/nosuch", err)
	}
}
