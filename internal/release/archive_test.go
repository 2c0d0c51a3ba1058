package release

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var when = time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)

// Files given in no particular order, as a build might gather them.
func someFiles() []File {
	return []File{
		{Name: "roms/spectrum48.rom", Mode: 0o644, Data: bytes.Repeat([]byte{0xF3}, 300)},
		{Name: "colophon-mcp", Mode: 0o755, Data: []byte("program one")},
		{Name: "README.md", Mode: 0o644, Data: []byte("# readme\n")},
		{Name: "roms/COPYRIGHT.txt", Mode: 0o644, Data: []byte("notice\n")},
		{Name: "colophon", Mode: 0o755, Data: []byte("program two")},
	}
}

// The order every archive lists: the folder, then each name in byte order,
// a directory before what it holds.
var wantOrder = []string{
	"f/", "f/README.md", "f/colophon", "f/colophon-mcp", "f/roms/", "f/roms/COPYRIGHT.txt", "f/roms/spectrum48.rom",
}

func write(t *testing.T, kind string, files []File, mtime time.Time) []byte {
	t.Helper()
	var b bytes.Buffer
	var err error
	if kind == "zip" {
		err = WriteZip(&b, "f", files, mtime)
	} else {
		err = WriteTarGz(&b, "f", files, mtime)
	}
	if err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestArchiveBytesAreFixed: the same files give the same bytes, whatever
// order they come in and whatever the local time zone; the entries are in
// name order, owned by no one, at the time given, with the modes given; and
// they read back as written.
func TestArchiveBytesAreFixed(t *testing.T) {
	for _, kind := range []string{"tar.gz", "zip"} {
		t.Run(kind, func(t *testing.T) {
			a := write(t, kind, someFiles(), when)
			reversed := someFiles()
			for i, j := 0, len(reversed)-1; i < j; i, j = i+1, j-1 {
				reversed[i], reversed[j] = reversed[j], reversed[i]
			}
			b := write(t, kind, reversed, when.In(time.FixedZone("elsewhere", 5*3600+1800)))
			if !bytes.Equal(a, b) {
				t.Fatal("the same files, in another order and zone, gave other bytes")
			}
			if c := write(t, kind, someFiles(), when.Add(time.Second)); bytes.Equal(a, c) {
				t.Fatal("another time gave the same bytes: the time is not written")
			}

			var names []string
			check := func(name string, mode fs.FileMode, mtime time.Time) {
				names = append(names, name)
				wantMode := fs.FileMode(0o644)
				switch {
				case strings.HasSuffix(name, "/"):
					wantMode = fs.ModeDir | 0o755
				case strings.HasPrefix(name, "f/colophon"):
					wantMode = 0o755
				}
				if mode != wantMode {
					t.Errorf("%s: mode %v, want %v", name, mode, wantMode)
				}
				if !mtime.Equal(when) {
					t.Errorf("%s: time %v, want %v", name, mtime, when)
				}
			}
			if kind == "zip" {
				zr, err := zip.NewReader(bytes.NewReader(a), int64(len(a)))
				if err != nil {
					t.Fatal(err)
				}
				for _, f := range zr.File {
					check(f.Name, f.Mode(), f.Modified)
					// The DOS field, read in UTC, counts two seconds at a time.
					if !f.ModTime().UTC().Equal(when.Truncate(2 * time.Second)) {
						t.Errorf("%s: DOS time %v", f.Name, f.ModTime())
					}
				}
			} else {
				zr, err := gzip.NewReader(bytes.NewReader(a))
				if err != nil {
					t.Fatal(err)
				}
				if zr.Name != "" || !zr.ModTime.IsZero() || zr.Comment != "" {
					t.Errorf("the gzip header names %q at %v", zr.Name, zr.ModTime)
				}
				tr := tar.NewReader(zr)
				for {
					h, err := tr.Next()
					if errors.Is(err, io.EOF) {
						break
					}
					if err != nil {
						t.Fatal(err)
					}
					check(h.Name, h.FileInfo().Mode(), h.ModTime)
					if h.Uid != 0 || h.Gid != 0 || h.Uname != "" || h.Gname != "" || h.Format != tar.FormatUSTAR || len(h.PAXRecords) != 0 {
						t.Errorf("%s: owned by %d:%d %q:%q, format %v, PAX %v", h.Name, h.Uid, h.Gid, h.Uname, h.Gname, h.Format, h.PAXRecords)
					}
				}
			}
			if strings.Join(names, " ") != strings.Join(wantOrder, " ") {
				t.Errorf("entries %q, want %q", names, wantOrder)
			}

			folder, files, err := ReadArchive("x."+kind, a)
			if err != nil || folder != "f" {
				t.Fatalf("read back: folder %q, %v", folder, err)
			}
			byName := map[string]File{}
			for _, f := range files {
				byName[f.Name] = f
			}
			for _, f := range someFiles() {
				if g := byName[f.Name]; g.Mode != f.Mode || !bytes.Equal(g.Data, f.Data) {
					t.Errorf("%s read back as mode %v, %d bytes", f.Name, g.Mode, len(g.Data))
				}
			}
			if len(files) != len(someFiles()) {
				t.Errorf("read back %d files, wrote %d", len(files), len(someFiles()))
			}
		})
	}
}

// An archive refuses names that would land outside its folder, or twice.
func TestArchiveRefusesBadNames(t *testing.T) {
	for _, tc := range []struct {
		folder string
		files  []File
		want   string
	}{
		{"f", []File{{Name: "../x", Mode: 0o644}}, `"../x"`},
		{"f", []File{{Name: "/etc/x", Mode: 0o644}}, `"/etc/x"`},
		{"f", []File{{Name: "a/./b", Mode: 0o644}}, `"a/./b"`},
		{"f", []File{{Name: `a\b`, Mode: 0o644}}, `"a\\b"`},
		{"f", []File{{Name: "a", Mode: 0o644}, {Name: "a", Mode: 0o644}}, "given twice"},
		{"f", []File{{Name: "a", Mode: 0o644}, {Name: "a/b", Mode: 0o644}}, "also a directory"},
		{"f", []File{{Name: "a", Mode: fs.ModeSymlink | 0o777}}, "not a plain file's"},
		{"f/g", []File{{Name: "a", Mode: 0o644}}, "one plain name"},
		{"", []File{{Name: "a", Mode: 0o644}}, "one plain name"},
	} {
		for _, kind := range []string{"tar.gz", "zip"} {
			var err error
			if kind == "zip" {
				err = WriteZip(io.Discard, tc.folder, tc.files, when)
			} else {
				err = WriteTarGz(io.Discard, tc.folder, tc.files, when)
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s %q %v: error %v, want one with %s", kind, tc.folder, tc.files, err, tc.want)
			}
		}
	}
}

func TestSumsAreSha256sums(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{"b.zip": "abc", "a.tar.gz": ""} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := Sums(dir, []string{"b.zip", "a.tar.gz"})
	if err != nil {
		t.Fatal(err)
	}
	// The digests of "" and "abc" (FIPS 180-2, appendix B.1).
	want := "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  a.tar.gz\n" +
		"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  b.zip\n"
	if string(got) != want {
		t.Errorf("SHA256SUMS:\n%s\nwant\n%s", got, want)
	}
}

func TestPlatformNames(t *testing.T) {
	want := map[string][3]string{
		"linux/amd64":   {"colophon-0.0.0-linux-amd64.tar.gz", "@colophon-mcp/linux-x64", "colophon-mcp"},
		"linux/arm64":   {"colophon-0.0.0-linux-arm64.tar.gz", "@colophon-mcp/linux-arm64", "colophon-mcp"},
		"darwin/amd64":  {"colophon-0.0.0-darwin-amd64.tar.gz", "@colophon-mcp/darwin-x64", "colophon-mcp"},
		"darwin/arm64":  {"colophon-0.0.0-darwin-arm64.tar.gz", "@colophon-mcp/darwin-arm64", "colophon-mcp"},
		"windows/amd64": {"colophon-0.0.0-windows-amd64.zip", "@colophon-mcp/win32-x64", "colophon-mcp.exe"},
		"windows/arm64": {"colophon-0.0.0-windows-arm64.zip", "@colophon-mcp/win32-arm64", "colophon-mcp.exe"},
	}
	if len(Platforms) != len(want) {
		t.Fatalf("%d platforms, want the six of checklist S-3", len(Platforms))
	}
	for _, p := range Platforms {
		q, err := ParsePlatform(p.String())
		if err != nil || q != p {
			t.Fatalf("ParsePlatform(%q) = %v, %v", p, q, err)
		}
		w := want[p.String()]
		if got := [3]string{p.Archive("0.0.0"), p.NPMPackage(), p.Exe("colophon-mcp")}; got != w {
			t.Errorf("%s: %q, want %q", p, got, w)
		}
	}
	if _, err := ParsePlatform("plan9/386"); err == nil || !strings.Contains(err.Error(), "linux/amd64, linux/arm64, darwin/amd64") {
		t.Errorf("plan9/386: %v", err)
	}
}

// A release carries the project's licence, whatever file that is, and only
// the pinned firmware: without the one, or with an image of another hash,
// nothing is built and the error says which file and why.
func TestArchivesNeedLicenceAndPinnedFirmware(t *testing.T) {
	roms := t.TempDir()
	for _, name := range []string{"amsdos.rom", "cpc464.rom", "cpc6128.rom", "cpc664.rom", "spectrum48.rom"} {
		if err := os.WriteFile(filepath.Join(roms, name), []byte("not the firmware"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	licence := filepath.Join(t.TempDir(), "LICENSE")
	if err := os.WriteFile(licence, []byte("terms\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	base := Options{Root: filepath.Join("..", ".."), Out: out, ROMs: roms, Platforms: Platforms[:1], Version: "0.0.0",
		Stamps: map[string]string{"colophon-mcp": "-X a=b", "colophon": "-X a=b", "pidp10-mcp": "-X a=b"}, MTime: when}
	for _, tc := range []struct {
		licence string
		want    []string
	}{
		{filepath.Join(t.TempDir(), "LICENSE"), []string{"no licence file at ", "LICENSE=FILE"}},
		{"", []string{"no licence file given"}},
		{licence, []string{"amsdos.rom has sha256 ", "but the pin is ea65e0fb44ee93ede4b6c507509b7e5ddf497fb7155023bea91ef229469fa04d", "only the pinned images"}},
	} {
		o := base
		o.License = tc.licence
		_, err := Archives(t.Context(), o)
		for _, w := range tc.want {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("licence %q: %v; want an error with %q", tc.licence, err, w)
			}
		}
	}
	if left, _ := os.ReadDir(out); len(left) != 0 {
		t.Errorf("a refused release left %d files in its output", len(left))
	}
}
