// Command stamp works out the two parts of a program's build name from the
// git checkout it is built in, for make to hand to the linker.
//
// Usage:
//
//	go run ./internal/build/stamp [-name] PACKAGE
//
// It prints the -X flags that set colophon/internal/build's parts, or with
// -name the whole name, for the main package PACKAGE.
//
// The rules are the spec's ("The name of the build"; checklist BLD-3 to
// BLD-6, and A-18 for where .dirty goes):
//
//   - Both commits are HEAD of this repository, since the emulator lives in
//     it. Where the module root is not the top of a checkout of its own, or
//     the checkout has no commit yet, both parts are none.
//   - The mcp part is dirty when a file the program compiles differs from
//     HEAD: a Go source (tests excluded) or other source file in a package
//     the program imports, a file it embeds, go.mod, go.sum, or the Makefile
//     that drives the build (BLD-4's "build script"). Untracked files count,
//     and so do ignored ones of those kinds, since the go command compiles
//     them whatever git thinks of them.
//   - The emulator part is dirty when such a file differs in the emulator's
//     own packages: those under internal/chip, internal/machine,
//     internal/media and internal/disasm, and the few it shares between
//     machines (see emulatorRoots).
//   - Anything else (docs, tests, packages the program does not import)
//     marks nothing (BLD-5).
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"colophon/internal/build"
)

// emulatorRoots are the emulator's own packages, relative to the module
// root: the chips, the boards, the media and the disassembler, and the
// pieces the machines share (the monitor's picture, the CPC's keyboard,
// typing, the quoting of what a request sent in their errors). A new
// emulator package outside these belongs in this list, or
// better under one of them (docs/architecture.md).
var emulatorRoots = []string{
	"internal/chip", "internal/machine", "internal/media", "internal/disasm",
	"internal/picture", "internal/cpckeys", "internal/typing", "internal/quote",
}

// rootFiles pin or drive the build from the module root.
var rootFiles = []string{"go.mod", "go.sum", "go.work", "go.work.sum", "Makefile"}

// sourceExts are the kinds of file the go command compiles in a package's
// directory (Go, assembly, C for cgo, and prebuilt objects).
var sourceExts = map[string]bool{".go": true, ".s": true, ".S": true, ".c": true, ".h": true, ".syso": true}

func main() {
	name := flag.Bool("name", false, "print the whole build name instead of -X flags")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: stamp [-name] PACKAGE\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(os.Stdout, os.Stderr, ".", flag.Arg(0), *name); err != nil {
		fmt.Fprintf(os.Stderr, "stamp: %v\n", err)
		os.Exit(1)
	}
}

func run(stdout, stderr io.Writer, dir, pkg string, name bool) error {
	mod, err := moduleOf(dir)
	if err != nil {
		return err
	}
	mcp, emulator, err := compute(mod, pkg, stderr)
	if err != nil {
		return err
	}
	if name {
		_, err = fmt.Fprintln(stdout, build.Format(mcp, emulator))
		return err
	}
	b := mod.path + "/internal/build"
	_, err = fmt.Fprintf(stdout, "-X %s.mcp=%s -X %s.emulator=%s\n", b, mcp, b, emulator)
	return err
}

// module is the Go module being built.
type module struct {
	path string // module path, as imports name it
	dir  string // root directory, symlinks resolved
}

func moduleOf(dir string) (module, error) {
	out, err := command(dir, "go", "list", "-m", "-f", "{{.Path}}\t{{.Dir}}")
	if err != nil {
		return module{}, fmt.Errorf("finding the module in %s: %w", dir, err)
	}
	p, d, ok := strings.Cut(strings.TrimSpace(string(out)), "\t")
	if !ok || d == "" {
		return module{}, fmt.Errorf("finding the module in %s: go list -m gave %q", dir, out)
	}
	d, err = filepath.EvalSymlinks(d)
	if err != nil {
		return module{}, err
	}
	return module{path: p, dir: d}, nil
}

// compute returns the two parts for the main package pkg of module mod.
// Warnings (no git, not a checkout of its own) go to warn.
func compute(mod module, pkg string, warn io.Writer) (mcp, emulator build.Part, err error) {
	head, ok := headOf(mod.dir, warn)
	if !ok {
		return build.Part{}, build.Part{}, nil
	}
	pkgs, err := compiled(mod.dir, pkg)
	if err != nil {
		return build.Part{}, build.Part{}, err
	}
	changed, err := changedFiles(mod.dir, pkgs.pathspecs())
	if err != nil {
		return build.Part{}, build.Part{}, err
	}
	mcp.Commit, emulator.Commit = head, head
	for _, p := range changed {
		if !pkgs.compiles(p) {
			continue
		}
		mcp.Dirty = true
		if underAny(p, emulatorRoots) {
			emulator.Dirty = true
		}
	}
	return mcp, emulator, nil
}

// headOf returns the commit checked out at dir, or false when dir is not the
// top of a git checkout with a commit.
func headOf(dir string, warn io.Writer) (string, bool) {
	out, err := command(dir, "git", "rev-parse", "--show-toplevel")
	if err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			fmt.Fprintf(warn, "stamp: git is not installed; the build is named none\n")
		}
		return "", false
	}
	top, err := filepath.EvalSymlinks(strings.TrimSpace(string(out)))
	if err != nil || top != dir {
		// The module sits inside some other checkout: that checkout's
		// commit is not this repository's (BLD-6).
		fmt.Fprintf(warn, "stamp: %s is inside the checkout at %s, not one of its own; the build is named none\n", dir, strings.TrimSpace(string(out)))
		return "", false
	}
	out, err = command(dir, "git", "rev-parse", "--verify", "--quiet", "HEAD^{commit}")
	if err != nil {
		return "", false // a repository with no commit yet
	}
	return strings.TrimSpace(string(out)), true
}

// packages is what a program compiles from its own module: the directories
// of its packages and the files they embed, relative to the module root with
// forward slashes, as git names them.
type packages struct {
	dirs   map[string]bool
	embeds map[string]bool
}

func compiled(root, pkg string) (packages, error) {
	out, err := command(root, "go", "list", "-e", "-deps", "-json=Dir,Module,EmbedFiles", pkg)
	if err != nil {
		return packages{}, fmt.Errorf("listing the packages %s compiles: %w", pkg, err)
	}
	ps := packages{dirs: map[string]bool{}, embeds: map[string]bool{}}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p struct {
			Dir        string
			Module     *struct{ Main bool }
			EmbedFiles []string
		}
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			return packages{}, fmt.Errorf("reading go list's answer for %s: %w", pkg, err)
		}
		if p.Module == nil || !p.Module.Main {
			continue // the standard library, or a pinned dependency
		}
		dir, err := filepath.EvalSymlinks(p.Dir)
		if err != nil {
			return packages{}, err
		}
		rel, err := filepath.Rel(root, dir)
		if err != nil {
			return packages{}, err
		}
		rel = filepath.ToSlash(rel)
		ps.dirs[rel] = true
		for _, e := range p.EmbedFiles {
			ps.embeds[path.Join(rel, filepath.ToSlash(e))] = true
		}
	}
	if len(ps.dirs) == 0 {
		return packages{}, fmt.Errorf("%s compiles no package of this module", pkg)
	}
	return ps, nil
}

// pathspecs limits git to the files that could matter: those directly in
// each package's directory, each embedded file, and the root's build files.
func (ps packages) pathspecs() []string {
	var specs []string
	for _, f := range rootFiles {
		specs = append(specs, ":(literal)"+f)
	}
	for _, d := range slices.Sorted(maps.Keys(ps.dirs)) {
		if d == "." {
			specs = append(specs, ":(glob)*")
		} else {
			specs = append(specs, ":(glob)"+globEscape(d)+"/*")
		}
	}
	for _, e := range slices.Sorted(maps.Keys(ps.embeds)) {
		specs = append(specs, ":(literal)"+e)
	}
	return specs
}

// compiles reports whether a changed file p is one the program compiles.
func (ps packages) compiles(p string) bool {
	for _, f := range rootFiles {
		if p == f {
			return true
		}
	}
	if ps.embeds[p] {
		return true
	}
	if !ps.dirs[path.Dir(p)] || strings.HasSuffix(p, "_test.go") {
		return false
	}
	return sourceExts[path.Ext(p)]
}

// changedFiles lists the files under the pathspecs that differ from HEAD,
// in the index or the working tree, untracked and ignored ones included.
func changedFiles(root string, specs []string) ([]string, error) {
	args := []string{
		// No optional locks: naming a build must not write to the checkout.
		"--no-optional-locks", "status", "--porcelain=v1", "-z",
		"--untracked-files=all", "--ignored=traditional", "--",
	}
	out, err := command(root, "git", append(args, specs...)...)
	if err != nil {
		return nil, fmt.Errorf("asking git what changed in %s: %w", root, err)
	}
	var files []string
	fields := strings.Split(string(out), "\x00")
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		if len(f) < 4 {
			continue // the empty field after the last NUL
		}
		xy, name := f[:2], f[3:]
		files = append(files, name)
		// A rename or copy is followed by the path it came from, which
		// differs from HEAD too: it is gone.
		if xy[0] == 'R' || xy[0] == 'C' {
			i++
			if i < len(fields) {
				files = append(files, fields[i])
			}
		}
	}
	return files, nil
}

func underAny(p string, roots []string) bool {
	for _, r := range roots {
		if p == r || strings.HasPrefix(p, r+"/") {
			return true
		}
	}
	return false
}

// globEscape quotes the characters git's glob pathspecs treat specially.
func globEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[]\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// command runs name in dir and returns its standard output. A failure
// carries the command's own complaint.
func command(dir, name string, args ...string) ([]byte, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return nil, fmt.Errorf("%s %s: %w: %s", name, strings.Join(args, " "), err, msg)
		}
		return nil, fmt.Errorf("%s %s: %w", name, strings.Join(args, " "), err)
	}
	return out, nil
}
