package firmware

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"time"
)

// origin is a public copy of some of the images.
type origin int

const (
	caprice32 origin = iota
	fuse
)

// The public copies the pins were read from (../shared/PROVENANCE.md,
// roms/), at those very commits, so that a URL names one file for good.
const (
	// Caprice32Base is Caprice32's rom/ folder: the CPC images and AMSDOS.
	Caprice32Base = "https://raw.githubusercontent.com/ColinPitrat/caprice32/f56fa5e4db1489eb7ba032675bfd9ed2d3e0df88/rom/"
	// FuseBase is the Fuse emulator's roms/ folder, in the mirror of its
	// Subversion repository: the 48K Spectrum's ROM, as 48.rom.
	FuseBase = "https://raw.githubusercontent.com/vamposdecampos/fuse-emulator-svn/57aa2436f80ab972ee269b23824e8a9543cf0411/fuse/roms/"
)

// Fetcher downloads images into a directory, each checked against its pin.
//
// An image is written to a staging file beside its place, its SHA-256
// checked, and only then renamed into place, so the directory never holds a
// partial or unverified image under an image's name. A file already there
// with the pinned digest is left alone, and nothing is fetched for it; one
// with another digest is replaced by the verified image; anything there but
// a regular file is left alone and reported.
type Fetcher struct {
	Dir          string       // where the images go, created if missing
	CPCBase      string       // base URL of the CPC images and AMSDOS; Caprice32Base if empty
	SpectrumBase string       // base URL of spectrum48.rom, as 48.rom; FuseBase if empty
	Client       *http.Client // nil for one with a two-minute timeout
	Log          io.Writer    // a line per image; nil for silence
}

// URL returns where the fetcher finds an image.
func (f *Fetcher) URL(im Image) string {
	switch im.origin {
	case fuse:
		return orDefault(f.SpectrumBase, FuseBase) + im.remote
	default:
		return orDefault(f.CPCBase, Caprice32Base) + im.remote
	}
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// Fetch makes each image present and verified in f.Dir. It goes on past an
// image that fails and returns every failure joined.
func (f *Fetcher) Fetch(ctx context.Context, images []Image) error {
	if err := os.MkdirAll(f.Dir, 0o755); err != nil {
		return fmt.Errorf("making the firmware directory: %w", err)
	}
	var errs []error
	for _, im := range images {
		msg, err := f.fetch(ctx, im)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", im.Name, err))
			f.logf("%s: FAILED: %v\n", im.Name, err)
			continue
		}
		f.logf("%s: %s\n", im.Name, msg)
	}
	return errors.Join(errs...)
}

func (f *Fetcher) logf(format string, args ...any) {
	if f.Log != nil {
		fmt.Fprintf(f.Log, format, args...)
	}
}

// fetch makes one image present and says what it did.
func (f *Fetcher) fetch(ctx context.Context, im Image) (string, error) {
	dest := filepath.Join(f.Dir, im.Name)
	had, err := digestOf(dest)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		had = ""
	case err != nil:
		return "", fmt.Errorf("%w; left alone", err)
	case had == im.SHA256:
		return "present, sha256 " + had, nil
	}

	url := f.URL(im)
	if err := f.download(ctx, im, url, dest); err != nil {
		return "", err
	}
	if had != "" {
		return fmt.Sprintf("replaced a file with sha256 %s by %s, sha256 %s", had, url, im.SHA256), nil
	}
	return fmt.Sprintf("fetched %s, sha256 %s", url, im.SHA256), nil
}

// digestOf returns the hex SHA-256 of the regular file at p, an error that
// is fs.ErrNotExist when nothing is there, or another when something other
// than a regular file is.
func digestOf(p string) (string, error) {
	if _, err := os.Lstat(p); err != nil {
		return "", err
	}
	fi, err := os.Stat(p)
	if err != nil {
		return "", fmt.Errorf("%s: %w", p, err) // a link to nothing
	}
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("%s is not a regular file (%s)", p, FileKind(fi.Mode()))
	}
	file, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer file.Close()
	h := sha256.New()
	if _, err := io.Copy(h, file); err != nil {
		return "", fmt.Errorf("reading %s: %w", p, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// download fetches url into a staging file beside dest, checks it against
// the image's pin and renames it into place.
func (f *Fetcher) download(ctx context.Context, im Image, url, dest string) (err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	client := f.Client
	if client == nil {
		client = &http.Client{Timeout: 2 * time.Minute}
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s; nothing written", url, resp.Status)
	}

	stage, err := os.CreateTemp(f.Dir, "."+im.Name+".*.part")
	if err != nil {
		return fmt.Errorf("making a staging file: %w", err)
	}
	defer func() {
		if err != nil {
			stage.Close()
			os.Remove(stage.Name())
		}
	}()
	h := sha256.New()
	// One byte past the image is enough to know the body is too long.
	n, err := io.Copy(io.MultiWriter(stage, h), io.LimitReader(resp.Body, int64(im.Size)+1))
	if err != nil {
		return fmt.Errorf("GET %s: %w; nothing written", url, err)
	}
	if n > int64(im.Size) {
		return fmt.Errorf("GET %s: longer than the image's %d bytes; nothing written", url, im.Size)
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != im.SHA256 {
		return fmt.Errorf("GET %s: sha256 %s (%d bytes), but the pin is %s; nothing written", url, got, n, im.SHA256)
	}
	if err := stage.Chmod(0o644); err != nil {
		return err
	}
	if err := stage.Sync(); err != nil {
		return err
	}
	if err := stage.Close(); err != nil {
		return err
	}
	if err := os.Rename(stage.Name(), dest); err != nil {
		return fmt.Errorf("putting the verified image in place: %w", err)
	}
	return nil
}
