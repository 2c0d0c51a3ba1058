package firmware

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestSearchDirs(t *testing.T) {
	tests := []struct {
		name                 string
		flagDir, envDir, exe string
		wd                   string
		want                 []string
	}{
		{"flag wins", "/fw", "/env", "/opt/c/colophon-mcp", "/home/u", []string{"/fw"}},
		{"relative flag", "roms", "/env", "/opt/c/colophon-mcp", "/home/u", []string{"/home/u/roms"}},
		{"env without flag", "", "../fw", "/opt/c/colophon-mcp", "/home/u/src", []string{"/home/u/fw"}},
		{"beside the executable, then here", "", "", "/opt/c/colophon-mcp", "/home/u", []string{"/opt/c/roms", "/home/u/roms"}},
		{"executable here", "", "", "/home/u/colophon-mcp", "/home/u", []string{"/home/u/roms"}},
		{"no executable", "", "", "", "/home/u", []string{"/home/u/roms"}},
	}
	for _, tt := range tests {
		got := searchDirs(tt.flagDir, tt.envDir, tt.exe, tt.wd)
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: searchDirs = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// A package manager's bin/ entry is a link to the executable in its archive
// folder; roms/ is beside the executable, not beside the link.
func TestSearchDirsFollowsLinkToExecutable(t *testing.T) {
	root := t.TempDir()
	exe := filepath.Join(root, "pkg", "colophon-mcp")
	mustWrite(t, exe, []byte("#!"))
	link := filepath.Join(root, "bin", "colophon-mcp")
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(exe, link); err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(filepath.Join(root, "pkg"))
	got := searchDirs("", "", link, "/work")
	want := []string{filepath.Join(real, "roms"), "/work/roms"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("searchDirs = %q, want %q", got, want)
	}
}

func TestDirsReadsEnvironment(t *testing.T) {
	t.Setenv(EnvDir, "/from/env")
	if got := Dirs(""); !reflect.DeepEqual(got, []string{"/from/env"}) {
		t.Errorf("Dirs(\"\") with %s set = %q", EnvDir, got)
	}
	if got := Dirs("/from/flag"); !reflect.DeepEqual(got, []string{"/from/flag"}) {
		t.Errorf("Dirs(flag) = %q", got)
	}
	t.Setenv(EnvDir, "")
	got := Dirs("")
	wd, _ := os.Getwd()
	if last := got[len(got)-1]; last != filepath.Join(wd, "roms") {
		t.Errorf("Dirs(\"\") = %q, want it to end with ./roms", got)
	}
}

// testImage is a small image for the loader and the fetcher, so their rules
// can be tried without the real firmware.
func testImage(name string, content []byte) Image {
	return Image{Name: name, Size: len(content), SHA256: hexSHA(content), origin: caprice32, remote: name}
}

func mustWrite(t *testing.T, p string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestLoadSearchOrder(t *testing.T) {
	content := []byte("ROMIMAGE")
	im := testImage("t.rom", content)
	first, second := t.TempDir(), t.TempDir()
	l := Loader{Dirs: []string{first, second}}

	mustWrite(t, filepath.Join(second, "t.rom"), content)
	f, err := l.Load(im)
	if err != nil {
		t.Fatal(err)
	}
	if f.Path != filepath.Join(second, "t.rom") || !bytes.Equal(f.Data, content) || f.SHA256 != im.SHA256 {
		t.Errorf("loaded %s %q %s", f.Path, f.Data, f.SHA256)
	}

	other := []byte("FIRSTONE")
	mustWrite(t, filepath.Join(first, "t.rom"), other)
	f, err = l.Load(im)
	if err != nil {
		t.Fatal(err)
	}
	if f.Path != filepath.Join(first, "t.rom") || !bytes.Equal(f.Data, other) || f.SHA256 != hexSHA(other) {
		t.Errorf("the first directory should win: loaded %s %q", f.Path, f.Data)
	}
}

func TestLoadMissing(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	notDir := filepath.Join(a, "file")
	mustWrite(t, notDir, []byte("x"))
	dirs := []string{a, notDir, b, filepath.Join(b, "nonexistent")}
	_, err := Loader{Dirs: dirs}.Load(testImage("cpc6128.rom", []byte("12345678")))
	var nf *NotFoundError
	if !errors.As(err, &nf) {
		t.Fatalf("err = %v, want a NotFoundError", err)
	}
	if nf.Name != "cpc6128.rom" || !reflect.DeepEqual(nf.Dirs, dirs) {
		t.Errorf("NotFoundError = %+v", nf)
	}
	msg := err.Error()
	for _, want := range append([]string{"cpc6128.rom"}, dirs...) {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q does not name %s", msg, want)
		}
	}
}

func TestLoadWithoutDirectories(t *testing.T) {
	_, err := Loader{}.Load(Spectrum48)
	if err == nil || err.Error() != "firmware spectrum48.rom not found: no firmware directory was given" {
		t.Errorf("err = %v", err)
	}
}

func TestLoadSizes(t *testing.T) {
	im := testImage("t.rom", []byte("ABCDEFGH"))
	tests := []struct {
		name    string
		content string
		fit     Fit
		data    string // what is loaded, or "" for a refusal
		errHas  []string
	}{
		{"exact size, exact rule", "ABCDEFGH", Exact, "ABCDEFGH", nil},
		{"exact size, prefix rule", "ABCDEFGH", Prefix, "ABCDEFGH", nil},
		{"longer, exact rule", "ABCDEFGHIJ", Exact, "", []string{"t.rom", "10 bytes", "exactly 8"}},
		{"longer, prefix rule", "ABCDEFGHIJ", Prefix, "ABCDEFGH", nil},
		{"shorter, exact rule", "ABC", Exact, "", []string{"t.rom", "3 bytes", "exactly 8"}},
		{"shorter, prefix rule", "ABC", Prefix, "", []string{"t.rom", "3 bytes", "at least 8"}},
		{"empty", "", Prefix, "", []string{"0 bytes"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "t.rom")
			mustWrite(t, p, []byte(tt.content))
			f, err := Loader{Dirs: []string{dir}, Fit: tt.fit}.Load(im)
			if tt.data == "" {
				var se *SizeError
				if !errors.As(err, &se) {
					t.Fatalf("err = %v, want a SizeError", err)
				}
				for _, s := range append(tt.errHas, p) {
					if !strings.Contains(err.Error(), s) {
						t.Errorf("error %q does not say %q", err, s)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(f.Data) != tt.data {
				t.Errorf("Data = %q, want %q", f.Data, tt.data)
			}
			// The digest is of the whole file, as it was held.
			if want := hexSHA([]byte(tt.content)); f.SHA256 != want {
				t.Errorf("SHA256 = %s, want the whole file's %s", f.SHA256, want)
			}
		})
	}
}

// nonRegular makes something at p that is not a regular file.
type nonRegular struct {
	name   string
	make   func(t *testing.T, p string)
	errHas string
}

// nonRegularOnThisSystem adds the kinds of file only some systems have.
var nonRegularOnThisSystem []nonRegular

func TestLoadRefusesNonRegular(t *testing.T) {
	im := testImage("t.rom", []byte("ABCDEFGH"))
	tests := []nonRegular{
		{"directory", func(t *testing.T, p string) {
			if err := os.Mkdir(p, 0o755); err != nil {
				t.Fatal(err)
			}
		}, "not a regular file (a directory)"},
		{"link to nothing", func(t *testing.T, p string) {
			if err := os.Symlink(filepath.Join(filepath.Dir(p), "gone"), p); err != nil {
				t.Fatal(err)
			}
		}, "no such file"},
	}
	tests = append(tests, nonRegularOnThisSystem...)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "t.rom")
			tt.make(t, p)
			// A good file further down the list is not taken instead.
			later := t.TempDir()
			mustWrite(t, filepath.Join(later, "t.rom"), []byte("ABCDEFGH"))
			_, err := Loader{Dirs: []string{dir, later}}.Load(im)
			if err == nil || !strings.Contains(err.Error(), tt.errHas) || !strings.Contains(err.Error(), p) {
				t.Errorf("err = %v, want one naming %s and saying %q", err, p, tt.errHas)
			}
		})
	}
}

func TestLoadFollowsLinkToFile(t *testing.T) {
	content := []byte("ABCDEFGH")
	dir := t.TempDir()
	target := filepath.Join(dir, "real.bin")
	mustWrite(t, target, content)
	if err := os.Symlink(target, filepath.Join(dir, "t.rom")); err != nil {
		t.Fatal(err)
	}
	f, err := Loader{Dirs: []string{dir}}.Load(testImage("t.rom", content))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(f.Data, content) {
		t.Errorf("Data = %q", f.Data)
	}
}
