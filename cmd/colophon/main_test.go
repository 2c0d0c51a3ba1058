package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"colophon/internal/build"
	"colophon/internal/firmware"
	"colophon/internal/shared"
)

// colophon runs the command line as main would and returns its exit status
// and what it wrote.
func colophon(args ...string) (status int, stdout, stderr string) {
	var out, errs bytes.Buffer
	status = run(context.Background(), stdio{&out, &errs}, args)
	return status, out.String(), errs.String()
}

func TestCommandsRegistered(t *testing.T) {
	var names []string
	for _, c := range sorted() {
		names = append(names, c.name)
	}
	// The foundation's commands; other files register theirs beside them.
	for _, want := range []string{"help", "roms", "version"} {
		if !slices.Contains(names, want) {
			t.Errorf("command %q is not registered; have %q", want, names)
		}
	}
	if !slices.IsSorted(names) {
		t.Errorf("sorted() = %q, not in order", names)
	}
}

func TestRegisterRefusesDuplicate(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("registering help a second time did not panic")
		}
	}()
	register(&command{name: "help", summary: "again", run: runHelp})
}

func TestHelpListsEveryCommand(t *testing.T) {
	status, out, _ := colophon("help")
	if status != 0 {
		t.Fatalf("help: status %d", status)
	}
	// Each command's line, in the order of their names.
	at := -1
	for _, c := range sorted() {
		i := strings.Index(out, "  "+c.name+" ")
		if i < 0 || !strings.Contains(out[i:], c.summary) {
			t.Errorf("help does not list %s with its summary:\n%s", c.name, out)
		}
		if i < at {
			t.Errorf("help lists %s out of order:\n%s", c.name, out)
		}
		at = i
	}
}

func TestHelpOfOneCommand(t *testing.T) {
	status, out, _ := colophon("help", "roms")
	if status != 0 || !strings.Contains(out, "usage: colophon roms fetch [--dir DIR]") || !strings.Contains(out, "--spectrum-url") {
		t.Errorf("help roms: status %d\n%s", status, out)
	}
}

func TestMistakes(t *testing.T) {
	tests := []struct {
		args   []string
		errHas string
	}{
		{nil, "usage: colophon COMMAND"},
		{[]string{"frob"}, `unknown command "frob"`},
		{[]string{"help", "frob"}, `unknown command "frob"`},
		{[]string{"version", "extra"}, "version takes no arguments"},
		{[]string{"roms"}, "roms needs a subcommand: fetch"},
		{[]string{"roms", "get"}, `unknown subcommand "get"`},
		{[]string{"roms", "fetch", "--bogus"}, "-bogus"},
		{[]string{"roms", "fetch", "--dir"}, "-dir"},
		{[]string{"roms", "fetch", "cpc6128.rom"}, "takes no arguments"},
	}
	for _, tt := range tests {
		status, out, errs := colophon(tt.args...)
		if status != 2 || !strings.Contains(errs, tt.errHas) || out != "" {
			t.Errorf("colophon %q: status %d, stdout %q, stderr %q; want 2 and stderr saying %q",
				tt.args, status, out, errs, tt.errHas)
		}
	}
}

func TestVersion(t *testing.T) {
	status, out, _ := colophon("version")
	if status != 0 || out != build.Name()+"\n" {
		t.Errorf("version: status %d, %q; want %q", status, out, build.Name())
	}
}

// roms fetch against a local server laid out as the public copies are,
// holding the shared images; --cpc-url and --spectrum-url point it there.
func TestRomsFetch(t *testing.T) {
	files := map[string][]byte{}
	for _, im := range firmware.Images {
		b, err := os.ReadFile(shared.TestPath(t, "roms", im.Name))
		if err != nil {
			t.Fatal(err)
		}
		// As PROVENANCE.md has it, the Spectrum's image is Fuse's 48.rom.
		if im.Name == "spectrum48.rom" {
			files["/fuse/roms/48.rom"] = b
		} else {
			files["/caprice32/rom/"+im.Name] = b
		}
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, ok := files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Write(b)
	}))
	defer srv.Close()

	dir := filepath.Join(t.TempDir(), "roms")
	args := []string{"roms", "fetch", "--dir", dir,
		"--cpc-url", srv.URL + "/caprice32/rom/", "--spectrum-url", srv.URL + "/fuse/roms/"}
	status, out, errs := colophon(args...)
	if status != 0 {
		t.Fatalf("roms fetch: status %d\n%s%s", status, out, errs)
	}
	for _, im := range firmware.Images {
		if !strings.Contains(out, im.Name+": fetched ") {
			t.Errorf("output does not report fetching %s:\n%s", im.Name, out)
		}
		f, err := firmware.Loader{Dirs: []string{dir}, Fit: firmware.Exact}.Load(im)
		if err != nil {
			t.Fatal(err)
		}
		if f.SHA256 != im.SHA256 {
			t.Errorf("%s: fetched sha256 %s, pin %s", im.Name, f.SHA256, im.SHA256)
		}
	}

	// A mirror without the Spectrum's image: the failure names it, and
	// the images already present are left as they are.
	args[5] = srv.URL + "/caprice32/rom/"
	args[7] = srv.URL + "/caprice32/rom/" // no 48.rom there
	if err := os.Remove(filepath.Join(dir, "spectrum48.rom")); err != nil {
		t.Fatal(err)
	}
	status, _, errs = colophon(args...)
	if status != 1 || !strings.Contains(errs, "spectrum48.rom") || !strings.Contains(errs, "404") {
		t.Errorf("roms fetch from a mirror without 48.rom: status %d, stderr %q", status, errs)
	}
}
