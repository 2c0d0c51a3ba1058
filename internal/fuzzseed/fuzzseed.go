// Package fuzzseed writes seed corpora for go test -fuzz: each seed a file
// of testdata/fuzz/FuzzX/ in the form the go command reads, named by its
// contents' hash, so that writing the same seed twice writes one file.
// make fuzz-seeds runs ./internal/fuzzseed/gen, which writes every fuzz
// target's seeds from the real things they decode: snapshots a machine
// writes, a call of each tool, each escape.
package fuzzseed

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Marshal writes values as a corpus file, as the go command's
// internal/fuzz does, for the kinds the fuzz targets here take.
func Marshal(vals ...any) ([]byte, error) {
	b := bytes.NewBufferString("go test fuzz v1\n")
	for _, v := range vals {
		switch t := v.(type) {
		case []byte:
			fmt.Fprintf(b, "[]byte(%q)\n", t)
		case string:
			fmt.Fprintf(b, "string(%q)\n", t)
		case byte:
			fmt.Fprintf(b, "byte(%q)\n", t)
		case bool, uint16, uint32, uint64, int:
			fmt.Fprintf(b, "%T(%v)\n", t, t)
		default:
			return nil, fmt.Errorf("fuzzseed: a %T is no kind a fuzz target here takes", v)
		}
	}
	return b.Bytes(), nil
}

// Write writes one seed of target in dir/testdata/fuzz/target, where dir
// is a package's directory.
func Write(dir, target string, vals ...any) error {
	b, err := Marshal(vals...)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(b)
	at := filepath.Join(dir, "testdata", "fuzz", target)
	if err := os.MkdirAll(at, 0o755); err != nil {
		return err
	}
	// Named by its contents, a seed already there is this one: nothing is
	// written over it.
	file, err := os.OpenFile(filepath.Join(at, hex.EncodeToString(sum[:8])), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if _, err := file.Write(b); err != nil {
		file.Close()
		return err
	}
	return file.Close()
}
