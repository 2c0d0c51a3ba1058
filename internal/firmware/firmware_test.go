package firmware

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"colophon/internal/shared"
)

// The pins in the code are the digests in ../shared/roms/SHA256SUMS, image
// for image, and there is no image in one that the other lacks.
func TestPinsMatchSHA256SUMS(t *testing.T) {
	p := shared.TestPath(t, "roms", "SHA256SUMS")
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sums := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		// sha256sum's format: digest, two spaces (or space and '*'), name.
		digest, name, ok := strings.Cut(line, " ")
		if !ok {
			t.Fatalf("%s: malformed line %q", p, line)
		}
		sums[strings.TrimLeft(name, " *")] = digest
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	for _, im := range Images {
		if got, ok := sums[im.Name]; !ok {
			t.Errorf("%s is pinned in the code but not in %s", im.Name, p)
		} else if got != im.SHA256 {
			t.Errorf("%s: the code pins %s, %s pins %s", im.Name, im.SHA256, p, got)
		}
		delete(sums, im.Name)
	}
	for name := range sums {
		t.Errorf("%s is pinned in %s but not in the code", name, p)
	}
}

// The shared images, read by others from the public copies, have the sizes
// and the digests the code gives them.
func TestSharedImagesMatch(t *testing.T) {
	for _, im := range Images {
		data, err := os.ReadFile(shared.TestPath(t, "roms", im.Name))
		if err != nil {
			t.Fatal(err)
		}
		if len(data) != im.Size {
			t.Errorf("%s: the shared image is %d bytes, the code says %d", im.Name, len(data), im.Size)
		}
		if got := hexSHA(data); got != im.SHA256 {
			t.Errorf("%s: the shared image's sha256 is %s, the code pins %s", im.Name, got, im.SHA256)
		}
	}
}

// Loading the shared directory as the server would: every image at its
// exact size, named by its absolute path and its digest.
func TestLoadSharedImages(t *testing.T) {
	dir := filepath.Dir(shared.TestPath(t, "roms", "SHA256SUMS"))
	l := Loader{Dirs: []string{dir}, Fit: Exact}
	for _, im := range Images {
		f, err := l.Load(im)
		if err != nil {
			t.Fatal(err)
		}
		if f.SHA256 != im.SHA256 || len(f.Data) != im.Size || f.Path != filepath.Join(dir, im.Name) {
			t.Errorf("%s: loaded %s, %d bytes, sha256 %s", im.Name, f.Path, len(f.Data), f.SHA256)
		}
	}
}

func TestLookup(t *testing.T) {
	for _, im := range Images {
		got, err := Lookup(im.Name)
		if err != nil || got != im {
			t.Errorf("Lookup(%q) = %v, %v", im.Name, got.Name, err)
		}
	}
	_, err := Lookup("cpc6128")
	if err == nil || !strings.Contains(err.Error(), `"cpc6128"`) || !strings.Contains(err.Error(), "cpc6128.rom") {
		t.Errorf("Lookup of an unknown name: err = %v, want one naming it and the images", err)
	}
}

func hexSHA(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}
