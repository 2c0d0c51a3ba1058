package host

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestReadInput holds FILE-4 to FILE-6: a file is named by its absolute
// path, from a relative one, and the SHA-256 of what it held; one that
// cannot be reached is refused with the path and the working directory;
// anything but a regular file is refused unread, a named pipe among them,
// which opening would wait on for good.
func TestReadInput(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.sna")
	data := []byte("snapshot")
	os.WriteFile(path, data, 0o644)
	wd, _ := os.Getwd()
	rel, _ := filepath.Rel(wd, path)
	rule := sizeRule{most: 100, why: "at most 100"}

	f, b, err := readInput("snapshot", rel, rule)
	sum := sha256.Sum256(data)
	if err != nil || string(b) != "snapshot" || f != (File{Kind: "snapshot", Path: path, SHA256: hex.EncodeToString(sum[:])}) {
		t.Errorf("readInput(%s) = %+v, %q, %v", rel, f, b, err)
	}

	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		path string
		rule sizeRule
		want string
	}{
		{"missing.sna", rule, filepath.Join(wd, "missing.sna") + " cannot be reached (the server's working directory is " + wd + ")"},
		{dir, rule, dir + " is not a regular file (a directory); it was not read"},
		{fifo, rule, fifo + " is not a regular file (a named pipe); it was not read"},
		{path, sizeRule{most: 7, why: "at most 7"}, path + " is 8 bytes; at most 7"},
		{path, sizeRule{most: 9, exact: true, why: "exactly 9"}, path + " is 8 bytes; exactly 9"},
		{"", rule, "no path given"},
	} {
		if _, _, err := readInput("snapshot", tt.path, tt.rule); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("readInput(%q): %v, want %q", tt.path, err, tt.want)
		}
	}
}

// TestWriteNew holds A-10: a file is written only where no file is, and
// named by its absolute path and the SHA-256 of what it holds.
func TestWriteNew(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.png")
	f, err := writeNew("picture", path, []byte("png"))
	sum := sha256.Sum256([]byte("png"))
	if err != nil || f != (File{Kind: "picture", Path: path, SHA256: hex.EncodeToString(sum[:])}) {
		t.Fatalf("writeNew = %+v, %v", f, err)
	}
	if _, err := writeNew("picture", path, []byte("other")); err == nil || !strings.Contains(err.Error(), "a file is already there, and no tool writes over one") {
		t.Errorf("writing over a file: %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "png" {
		t.Errorf("the file holds %q after a refused write", b)
	}
	if _, err := writeNew("picture", filepath.Join(dir, "no", "such", "dir.png"), nil); err == nil || !strings.Contains(err.Error(), "cannot be made") {
		t.Errorf("writing into a missing directory: %v", err)
	}
}
