package host

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"colophon/internal/firmware"

	"colophon/internal/quote"
)

// File is a file a machine was built from, as the answers and the journal
// name it: by what it is to the machine, its absolute path, and the
// SHA-256 of what it held when it was read (spec, "The files a machine is
// built from"; FILE-1, FILE-4).
type File struct {
	Kind   string `json:"kind" jsonschema:"what the file is to the machine: firmware, snapshot, state, disc or tape"`
	Path   string `json:"path" jsonschema:"the file's absolute path on the server's file system"`
	SHA256 string `json:"sha256" jsonschema:"the SHA-256 of the file as it was read, in lower-case hex"`
}

// named names a file by what it is to the machine, its absolute path and
// the SHA-256 of b, what it holds.
func named(kind, abs string, b []byte) File {
	sum := sha256.Sum256(b)
	return File{Kind: kind, Path: abs, SHA256: hex.EncodeToString(sum[:])}
}

// MaxPath is the longest path a request may name, in bytes: PATH_MAX, the
// longest a POSIX system need take (the brief: a path is capped at 4096).
const MaxPath = 4096

// sizeRule is how long a file a request names may be.
type sizeRule struct {
	most  int64 // the longest it may be
	exact bool  // it must be exactly most bytes long
	why   string
}

// absolute makes a path absolute from the server's working directory, as
// every answer and the journal name files (FILE-4).
func absolute(path string) (abs, wd string, err error) {
	wd, err = os.Getwd()
	if err != nil {
		return "", "", fmt.Errorf("finding the working directory to read %s from: %w", quote.Path(path), err)
	}
	if filepath.IsAbs(path) {
		return filepath.Clean(path), wd, nil
	}
	return filepath.Join(wd, path), wd, nil
}

// readInput reads a whole file a request names, such as a snapshot. A file
// that cannot be reached is refused with its path and the working
// directory; anything there but a regular file, or a file past its size
// rule, is refused unread (FILE-5, FILE-6, FILE-7).
func readInput(kind, path string, rule sizeRule) (File, []byte, error) {
	in, err := openInput(kind, path, rule)
	if err != nil {
		return File{}, nil, err
	}
	defer in.f.Close()
	// Read no more than the rule allows, in case the file grows.
	b, err := io.ReadAll(io.LimitReader(in.f, rule.most+1))
	if err != nil {
		return File{}, nil, fmt.Errorf("reading %s %s: %w", kind, quote.Path(in.abs), err)
	}
	if err := rule.check(kind, in.abs, int64(len(b))); err != nil {
		return File{}, nil, err
	}
	return named(kind, in.abs, b), b, nil
}

// An input is a file a request names, opened to be read once it is known
// to be reachable, a regular file, and within its size rule.
type input struct {
	f    *os.File
	abs  string
	size int64
}

// openInput opens a file a request names, refusing it as readInput says.
func openInput(kind, path string, rule sizeRule) (input, error) {
	if path == "" {
		return input{}, fmt.Errorf("%s: no path given", kind)
	}
	if len(path) > MaxPath {
		return input{}, fmt.Errorf("%s path is %d bytes long; a path is at most %d", kind, len(path), MaxPath)
	}
	abs, wd, err := absolute(path)
	if err != nil {
		return input{}, err
	}
	unreachable := func(err error) error {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("%s %s cannot be reached (the server's working directory is %s): %v", kind, quote.Path(abs), wd, err)
	}
	// Look before opening: opening a named pipe would wait for a writer.
	fi, err := os.Stat(abs)
	if err != nil {
		return input{}, unreachable(err)
	}
	if err := rule.regular(kind, abs, fi); err != nil {
		return input{}, err
	}
	f, err := os.Open(abs)
	if err != nil {
		return input{}, unreachable(err)
	}
	// And look again at what was opened, in case the name moved.
	if fi, err = f.Stat(); err != nil {
		f.Close()
		return input{}, fmt.Errorf("%s %s: %w", kind, quote.Path(abs), err)
	}
	if err := rule.regular(kind, abs, fi); err != nil {
		f.Close()
		return input{}, err
	}
	return input{f: f, abs: abs, size: fi.Size()}, nil
}

// regular refuses anything but a regular file, and a file past the rule.
func (r sizeRule) regular(kind, path string, fi fs.FileInfo) error {
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s %s is not a regular file (%s); it was not read", kind, quote.Path(path), firmware.FileKind(fi.Mode()))
	}
	return r.check(kind, path, fi.Size())
}

func (r sizeRule) check(kind, path string, size int64) error {
	switch {
	case r.exact && size != r.most:
		return fmt.Errorf("%s %s is %d bytes; %s", kind, quote.Path(path), size, r.why)
	case size > r.most:
		return fmt.Errorf("%s %s is %d bytes; %s", kind, quote.Path(path), size, r.why)
	}
	return nil
}

// writeNew writes a file only where no file is, and names it by its
// absolute path and the SHA-256 of what it holds (spec, "The files a
// machine is built from"; A-10: no tool writes over a file). A file that
// cannot be written whole is taken away again.
func writeNew(kind, path string, b []byte) (File, error) {
	if len(path) > MaxPath {
		return File{}, fmt.Errorf("%s path is %d bytes long; a path is at most %d", kind, len(path), MaxPath)
	}
	abs, wd, err := absolute(path)
	if err != nil {
		return File{}, err
	}
	f, err := os.OpenFile(abs, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return File{}, fmt.Errorf("%s %s: a file is already there, and no tool writes over one", kind, quote.Path(abs))
	}
	if err != nil {
		// The path is named once, cut short if long, not again in the
		// error of the open.
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return File{}, fmt.Errorf("%s %s cannot be made (the server's working directory is %s): %w", kind, quote.Path(abs), wd, err)
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		os.Remove(abs)
		return File{}, fmt.Errorf("writing %s %s: %w", kind, quote.Path(abs), err)
	}
	if err := f.Close(); err != nil {
		os.Remove(abs)
		return File{}, fmt.Errorf("writing %s %s: %w", kind, quote.Path(abs), err)
	}
	return named(kind, abs, b), nil
}
