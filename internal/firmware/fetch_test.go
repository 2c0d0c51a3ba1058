package firmware

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"colophon/internal/shared"
)

// server serves files by path and counts the requests it is sent.
type server struct {
	*httptest.Server
	mu       sync.Mutex
	files    map[string][]byte
	requests []string
}

func newServer(t *testing.T, files map[string][]byte) *server {
	s := &server{files: files}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.requests = append(s.requests, r.URL.Path)
		b, ok := s.files[r.URL.Path]
		s.mu.Unlock()
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Write(b)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *server) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.requests)
}

func (s *server) fetcher(dir string) *Fetcher {
	return &Fetcher{Dir: dir, CPCBase: s.URL + "/cpc/", SpectrumBase: s.URL + "/zx/", Client: s.Client()}
}

// listDir names what is in dir, so a test can see no staging file is left.
func listDir(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func readFile(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

var good = []byte("the real image, 32 bytes of it..")

func TestFetchWritesVerifiedImage(t *testing.T) {
	im := testImage("t.rom", good)
	s := newServer(t, map[string][]byte{"/cpc/t.rom": good})
	dir := filepath.Join(t.TempDir(), "roms") // made by the fetch
	var log bytes.Buffer
	f := s.fetcher(dir)
	f.Log = &log
	if err := f.Fetch(context.Background(), []Image{im}); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "t.rom")
	if got := readFile(t, p); !bytes.Equal(got, good) {
		t.Errorf("wrote %q, want %q", got, good)
	}
	if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("stat %s: %v, %v; want mode 0644", p, fi.Mode(), err)
	}
	if names := listDir(t, dir); len(names) != 1 {
		t.Errorf("the directory holds %q, want only t.rom", names)
	}
	if !strings.Contains(log.String(), "t.rom: fetched "+s.URL+"/cpc/t.rom, sha256 "+im.SHA256) {
		t.Errorf("log = %q", log.String())
	}
}

func TestFetchRefusesWrongHash(t *testing.T) {
	im := testImage("t.rom", good)
	bad := []byte("an image of the right size, but.")
	s := newServer(t, map[string][]byte{"/cpc/t.rom": bad})

	t.Run("nothing there", func(t *testing.T) {
		dir := t.TempDir()
		err := s.fetcher(dir).Fetch(context.Background(), []Image{im})
		if err == nil {
			t.Fatal("a wrong image was accepted")
		}
		for _, want := range []string{"t.rom", hexSHA(bad), im.SHA256, "nothing written"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not say %s", err, want)
			}
		}
		if names := listDir(t, dir); len(names) != 0 {
			t.Errorf("the directory holds %q, want nothing", names)
		}
	})
	t.Run("another file there", func(t *testing.T) {
		dir := t.TempDir()
		mine := []byte("mine")
		mustWrite(t, filepath.Join(dir, "t.rom"), mine)
		if err := s.fetcher(dir).Fetch(context.Background(), []Image{im}); err == nil {
			t.Fatal("a wrong image was accepted")
		}
		if got := readFile(t, filepath.Join(dir, "t.rom")); !bytes.Equal(got, mine) {
			t.Errorf("the file there was overwritten with %q", got)
		}
		if names := listDir(t, dir); len(names) != 1 {
			t.Errorf("the directory holds %q, want only t.rom", names)
		}
	})
}

func TestFetchLeavesCorrectFileAlone(t *testing.T) {
	im := testImage("t.rom", good)
	s := newServer(t, map[string][]byte{"/cpc/t.rom": good})
	dir := t.TempDir()
	p := filepath.Join(dir, "t.rom")
	mustWrite(t, p, good)
	old := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	f := s.fetcher(dir)
	f.Log = &log
	if err := f.Fetch(context.Background(), []Image{im}); err != nil {
		t.Fatal(err)
	}
	if n := s.count(); n != 0 {
		t.Errorf("%d requests for an image already present", n)
	}
	if fi, _ := os.Stat(p); !fi.ModTime().Equal(old) {
		t.Errorf("the file was touched: modified %v", fi.ModTime())
	}
	if !strings.Contains(log.String(), "t.rom: present, sha256 "+im.SHA256) {
		t.Errorf("log = %q", log.String())
	}
}

func TestFetchReplacesWrongFile(t *testing.T) {
	im := testImage("t.rom", good)
	s := newServer(t, map[string][]byte{"/cpc/t.rom": good})
	dir := t.TempDir()
	p := filepath.Join(dir, "t.rom")
	stale := []byte("a stale image")
	mustWrite(t, p, stale)
	var log bytes.Buffer
	f := s.fetcher(dir)
	f.Log = &log
	if err := f.Fetch(context.Background(), []Image{im}); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, p); !bytes.Equal(got, good) {
		t.Errorf("t.rom holds %q, want the verified image", got)
	}
	if !strings.Contains(log.String(), "replaced a file with sha256 "+hexSHA(stale)) {
		t.Errorf("log = %q", log.String())
	}
}

func TestFetchLeavesNonRegularAlone(t *testing.T) {
	im := testImage("t.rom", good)
	s := newServer(t, map[string][]byte{"/cpc/t.rom": good})
	dir := t.TempDir()
	p := filepath.Join(dir, "t.rom")
	if err := os.Mkdir(p, 0o755); err != nil {
		t.Fatal(err)
	}
	err := s.fetcher(dir).Fetch(context.Background(), []Image{im})
	if err == nil || !strings.Contains(err.Error(), p+" is not a regular file") {
		t.Errorf("err = %v, want one naming %s", err, p)
	}
	if fi, err := os.Stat(p); err != nil || !fi.IsDir() {
		t.Errorf("the directory at %s was disturbed", p)
	}
	if n := s.count(); n != 0 {
		t.Errorf("%d requests for an image that cannot be put in place", n)
	}
}

func TestFetchBadAnswers(t *testing.T) {
	im := testImage("t.rom", good)
	tests := []struct {
		name   string
		files  map[string][]byte
		errHas []string
	}{
		{"missing", map[string][]byte{}, []string{"/cpc/t.rom", "404 Not Found", "nothing written"}},
		{"too long", map[string][]byte{"/cpc/t.rom": append(append([]byte{}, good...), good...)}, []string{"longer than the image's 32 bytes", "nothing written"}},
		{"too short", map[string][]byte{"/cpc/t.rom": good[:10]}, []string{"(10 bytes)", im.SHA256, "nothing written"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newServer(t, tt.files)
			dir := t.TempDir()
			err := s.fetcher(dir).Fetch(context.Background(), []Image{im})
			if err == nil {
				t.Fatal("fetch succeeded")
			}
			for _, want := range tt.errHas {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not say %q", err, want)
				}
			}
			if names := listDir(t, dir); len(names) != 0 {
				t.Errorf("the directory holds %q, want nothing", names)
			}
		})
	}
}

// One failure does not stop the rest, and every failure is reported.
func TestFetchGoesOnPastFailure(t *testing.T) {
	a := testImage("a.rom", []byte("image a"))
	b := testImage("b.rom", []byte("image b"))
	c := testImage("c.rom", []byte("image c"))
	s := newServer(t, map[string][]byte{"/cpc/b.rom": []byte("image b")})
	dir := t.TempDir()
	err := s.fetcher(dir).Fetch(context.Background(), []Image{a, b, c})
	if err == nil || !strings.Contains(err.Error(), "a.rom:") || !strings.Contains(err.Error(), "c.rom:") {
		t.Fatalf("err = %v, want failures for a.rom and c.rom", err)
	}
	if names := listDir(t, dir); len(names) != 1 || names[0] != "b.rom" {
		t.Errorf("the directory holds %q, want b.rom", names)
	}
}

// The five real images, served as their public copies lay them out, pass
// their real pins and land under the names the firmware directory uses.
func TestFetchRealImages(t *testing.T) {
	files := map[string][]byte{}
	for _, im := range Images {
		b := readFile(t, shared.TestPath(t, "roms", im.Name))
		if im.origin == fuse {
			files["/zx/"+im.remote] = b
		} else {
			files["/cpc/"+im.remote] = b
		}
	}
	if _, ok := files["/zx/48.rom"]; !ok {
		t.Fatalf("spectrum48.rom is not fetched as Fuse's 48.rom")
	}
	s := newServer(t, files)
	dir := t.TempDir()
	if err := s.fetcher(dir).Fetch(context.Background(), Images); err != nil {
		t.Fatal(err)
	}
	for _, im := range Images {
		got := readFile(t, filepath.Join(dir, im.Name))
		if hexSHA(got) != im.SHA256 {
			t.Errorf("%s was written with sha256 %s", im.Name, hexSHA(got))
		}
	}
	// A second fetch finds them all and asks for nothing.
	n := s.count()
	if err := s.fetcher(dir).Fetch(context.Background(), Images); err != nil {
		t.Fatal(err)
	}
	if s.count() != n {
		t.Errorf("a second fetch sent %d requests, want none", s.count()-n)
	}
}

func TestDefaultURLs(t *testing.T) {
	f := &Fetcher{}
	tests := []struct {
		im   Image
		want string
	}{
		{CPC464, Caprice32Base + "cpc464.rom"},
		{CPC664, Caprice32Base + "cpc664.rom"},
		{CPC6128, Caprice32Base + "cpc6128.rom"},
		{AMSDOS, Caprice32Base + "amsdos.rom"},
		// ../shared/PROVENANCE.md: the Spectrum's image is Fuse's roms/48.rom.
		{Spectrum48, FuseBase + "48.rom"},
	}
	for _, tt := range tests {
		if got := f.URL(tt.im); got != tt.want {
			t.Errorf("URL(%s) = %s, want %s", tt.im.Name, got, tt.want)
		}
	}
}
