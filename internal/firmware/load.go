package firmware

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// EnvDir is the environment variable that names the firmware directory when
// no --roms is given.
const EnvDir = "COLOPHON_ROMS"

// Dirs returns the directories a program searches for firmware, absolute and
// in order: flagDir when it is given; else $COLOPHON_ROMS when it is set;
// else roms/ beside the executable, as a release archive lays it out, and
// then ./roms, where make roms fetches it in a checkout.
func Dirs(flagDir string) []string {
	exe, err := os.Executable()
	if err != nil {
		exe = "" // no executable to stand beside; ./roms remains
	}
	wd, err := os.Getwd()
	if err != nil {
		wd = "" // relative directories stay relative
	}
	return searchDirs(flagDir, os.Getenv(EnvDir), exe, wd)
}

func searchDirs(flagDir, envDir, exe, wd string) []string {
	abs := func(d string) string {
		if !filepath.IsAbs(d) && wd != "" {
			d = filepath.Join(wd, d)
		}
		return filepath.Clean(d)
	}
	switch {
	case flagDir != "":
		return []string{abs(flagDir)}
	case envDir != "":
		return []string{abs(envDir)}
	}
	var dirs []string
	if exe != "" {
		// Beside the executable itself, not beside a link to it: a
		// package manager links its bin/ entry to the archive's folder.
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
		dirs = append(dirs, abs(filepath.Join(filepath.Dir(exe), "roms")))
	}
	if here := abs("roms"); len(dirs) == 0 || dirs[0] != here {
		dirs = append(dirs, here)
	}
	return dirs
}

// Fit says what a loader makes of a file longer than its image.
type Fit int

const (
	// Exact takes only a file of the image's size. The server's rule
	// (checklist S-10, ambiguity A-1's decision).
	Exact Fit = iota
	// Prefix takes the first bytes of a longer file. The emulator's
	// command line's rule (spec, "Starting it").
	Prefix
)

// File is an image as it was read.
type File struct {
	Image  Image
	Path   string // absolute
	SHA256 string // hex digest of the whole file as it was read
	Data   []byte // the image: its first Image.Size bytes
}

// Loader reads images from a list of directories.
type Loader struct {
	Dirs []string // searched in order; see Dirs
	Fit  Fit
}

// NotFoundError reports an image found in none of the directories.
type NotFoundError struct {
	Name string
	Dirs []string
}

func (e *NotFoundError) Error() string {
	if len(e.Dirs) == 0 {
		return fmt.Sprintf("firmware %s not found: no firmware directory was given", e.Name)
	}
	return fmt.Sprintf("firmware %s not found; searched %s (colophon roms fetch, or make roms, fetches it)",
		e.Name, strings.Join(e.Dirs, ", "))
}

// SizeError reports a file that is not the size of its image.
type SizeError struct {
	Image   string // the image's name
	Path    string
	Size    int64 // bytes found
	Want    int   // bytes the image has
	AtLeast bool  // whether a longer file would have done
}

func (e *SizeError) Error() string {
	rule := "exactly"
	if e.AtLeast {
		rule = "at least"
	}
	return fmt.Sprintf("firmware %s: %s is %d bytes; it must be %s %d", e.Image, e.Path, e.Size, rule, e.Want)
}

// Load finds the image in the first directory that holds a file of its name
// and reads it. Anything there but a regular file (or a link to one) is
// refused unread, and so is a file of the wrong size.
func (l Loader) Load(im Image) (*File, error) {
	path, fi, err := l.find(im.Name)
	if err != nil {
		return nil, err
	}
	if err := l.check(im, path, fi); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("firmware %s: %w", im.Name, err)
	}
	defer f.Close()
	// Check again what was opened, in case the name now points elsewhere.
	if fi, err = f.Stat(); err != nil {
		return nil, fmt.Errorf("firmware %s: %w", im.Name, err)
	}
	if err := l.check(im, path, fi); err != nil {
		return nil, err
	}
	h := sha256.New()
	data := make([]byte, im.Size)
	if _, err := io.ReadFull(io.TeeReader(f, h), data); err != nil {
		return nil, fmt.Errorf("firmware %s: reading %s: %w", im.Name, path, err)
	}
	// The digest is of what the file held, the part past the image too.
	rest, err := io.Copy(h, f)
	if err != nil {
		return nil, fmt.Errorf("firmware %s: reading %s: %w", im.Name, path, err)
	}
	if rest > 0 && l.Fit == Exact {
		return nil, &SizeError{Image: im.Name, Path: path, Size: int64(im.Size) + rest, Want: im.Size}
	}
	return &File{Image: im, Path: path, SHA256: hex.EncodeToString(h.Sum(nil)), Data: data}, nil
}

// find returns the path of the image's file in the first directory holding
// one, and what Stat says of it.
func (l Loader) find(name string) (string, fs.FileInfo, error) {
	for _, d := range l.Dirs {
		p := filepath.Join(d, name)
		if _, err := os.Lstat(p); err != nil {
			if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
				continue // nothing by that name here
			}
			return "", nil, fmt.Errorf("firmware %s: %w", name, err)
		}
		// Something is there: a link that leads nowhere is reported, not
		// passed over for a file further down the list.
		fi, err := os.Stat(p)
		if err != nil {
			return "", nil, fmt.Errorf("firmware %s: %w", name, err)
		}
		return p, fi, nil
	}
	return "", nil, &NotFoundError{Name: name, Dirs: l.Dirs}
}

func (l Loader) check(im Image, path string, fi fs.FileInfo) error {
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("firmware %s: %s is not a regular file (%s)", im.Name, path, FileKind(fi.Mode()))
	}
	switch size := fi.Size(); {
	case size < int64(im.Size):
		return &SizeError{Image: im.Name, Path: path, Size: size, Want: im.Size, AtLeast: l.Fit == Prefix}
	case size > int64(im.Size) && l.Fit == Exact:
		return &SizeError{Image: im.Name, Path: path, Size: size, Want: im.Size}
	}
	return nil
}

// FileKind names what a path holds that is not a regular file, for an
// error that refuses it: a directory, a named pipe and so on. Every reader
// of a file a user names refuses such things unread, by this name.
func FileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return m.Type().String()
}
