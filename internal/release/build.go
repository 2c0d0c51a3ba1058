package release

import (
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"colophon/internal/firmware"
)

// FirmwareCopyright is the notice every release carries beside the
// firmware, as roms/COPYRIGHT.txt: whose the images are, and the terms on
// which they may be passed on (../shared/PROVENANCE.md, roms/).
//
//go:embed firmware-copyright.txt
var FirmwareCopyright []byte

// Options say what the archives are made of and where they go.
type Options struct {
	Root      string            // the module's root: cmd/, README.md
	Out       string            // where the archives and SHA256SUMS are written
	ROMs      string            // the firmware directory; each image must have its pinned SHA-256
	License   string            // the project's licence file, carried as LICENSE
	Platforms []Platform        // which to build, in order
	Version   string            // the package version in the archives' names
	Stamps    map[string]string // each program's -X flags from internal/build/stamp
	MTime     time.Time         // every entry's time: the commit's
	Go        string            // the go command; "go" if empty
	Log       io.Writer         // a line per step; nil for silence
}

// BuildEnv is the environment a program is built in besides GOOS and
// GOARCH, fixed so that nothing in the builder's own environment changes the
// bytes: no cgo, so that every platform cross-compiles from any other; each
// processor's baseline instruction set; and no GOFLAGS, since every flag
// that matters is given.
var BuildEnv = []string{"CGO_ENABLED=0", "GOAMD64=v1", "GOARM64=v8.0", "GOFLAGS="}

// buildFlags are the go build flags of a release besides each program's
// stamp: paths inside the module rather than on the builder's disc, no VCS
// stamp (the name is make's, through -X), and no build ID, symbol table or
// DWARF, which only make the programs bigger and differ between builders.
var buildFlags = []string{"-trimpath", "-buildvcs=false"}

const ldflagsFixed = "-s -w -buildid="

// Archives builds the programs for each platform and writes an archive of
// each, then SHA256SUMS over them, into o.Out. It returns the archives'
// names. An archive is written beside its place and renamed into it, so a
// failed build leaves no half-written archive under an archive's name.
func Archives(ctx context.Context, o Options) ([]string, error) {
	common, err := commonFiles(o)
	if err != nil {
		return nil, err
	}
	for _, p := range Programs {
		if o.Stamps[p] == "" {
			return nil, fmt.Errorf("no build stamp for %s: make release gives each program's from internal/build/stamp", p)
		}
	}
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return nil, fmt.Errorf("making the output directory: %w", err)
	}
	var names []string
	for _, p := range o.Platforms {
		name := p.Archive(o.Version)
		start := time.Now()
		programs, err := buildPrograms(ctx, o, p)
		if err != nil {
			return nil, err
		}
		files := append(programs, common...)
		var b bytes.Buffer
		if p.Windows() {
			err = WriteZip(&b, p.Folder(o.Version), files, o.MTime)
		} else {
			err = WriteTarGz(&b, p.Folder(o.Version), files, o.MTime)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if err := writeAtomic(filepath.Join(o.Out, name), b.Bytes()); err != nil {
			return nil, err
		}
		logf(o.Log, "%s: %d bytes, built and packed in %.1fs\n", filepath.Join(o.Out, name), b.Len(), time.Since(start).Seconds())
		names = append(names, name)
	}
	sums, err := Sums(o.Out, names)
	if err != nil {
		return nil, err
	}
	if err := writeAtomic(filepath.Join(o.Out, "SHA256SUMS"), sums); err != nil {
		return nil, err
	}
	logf(o.Log, "%s: %d archives\n", filepath.Join(o.Out, "SHA256SUMS"), len(names))
	return names, nil
}

// commonFiles are what every archive carries besides the programs: the
// README, the licence, and the firmware with its copyright notice, each
// image checked against its pin as make roms checks it.
func commonFiles(o Options) ([]File, error) {
	readme, err := os.ReadFile(filepath.Join(o.Root, "README.md"))
	if err != nil {
		return nil, fmt.Errorf("reading the README: %w", err)
	}
	if o.License == "" {
		return nil, errors.New("no licence file given: the archives carry the project's licence as LICENSE")
	}
	license, err := os.ReadFile(o.License)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("no licence file at %s: the archives carry the project's licence as LICENSE; add the file, or give LICENSE=FILE to make", o.License)
		}
		return nil, fmt.Errorf("reading the licence: %w", err)
	}
	files := []File{
		{Name: "README.md", Mode: 0o644, Data: readme},
		{Name: "LICENSE", Mode: 0o644, Data: license},
		{Name: "roms/COPYRIGHT.txt", Mode: 0o644, Data: FirmwareCopyright},
	}
	for _, im := range firmware.Images {
		p := filepath.Join(o.ROMs, im.Name)
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("reading the firmware: %w (make roms fetches it; ROMS=DIR names another directory)", err)
		}
		sum := sha256.Sum256(data)
		if got := hex.EncodeToString(sum[:]); got != im.SHA256 {
			return nil, fmt.Errorf("firmware %s has sha256 %s, but the pin is %s: a release carries only the pinned images", p, got, im.SHA256)
		}
		files = append(files, File{Name: "roms/" + im.Name, Mode: 0o644, Data: data})
	}
	return files, nil
}

// buildPrograms builds every program for p in one go build, each with its
// own stamp, and returns them as archive files.
func buildPrograms(ctx context.Context, o Options, p Platform) ([]File, error) {
	dir, err := os.MkdirTemp("", "colophon-release-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	args := append([]string{"build"}, buildFlags...)
	mod, err := modulePath(o.Root)
	if err != nil {
		return nil, err
	}
	var pkgs []string
	for _, prog := range Programs {
		pkg := mod + "/cmd/" + prog
		args = append(args, "-ldflags="+pkg+"="+o.Stamps[prog]+" "+ldflagsFixed)
		pkgs = append(pkgs, "./cmd/"+prog)
	}
	args = append(args, "-o", dir+string(filepath.Separator))
	args = append(args, pkgs...)
	cmd := exec.CommandContext(ctx, goCommand(o), args...)
	cmd.Dir = o.Root
	cmd.Env = append(os.Environ(), BuildEnv...)
	cmd.Env = append(cmd.Env, "GOOS="+p.GOOS, "GOARCH="+p.GOARCH)
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("building for %s: go %s: %w\n%s", p, strings.Join(args, " "), err, out)
	}
	var files []File
	for _, prog := range Programs {
		data, err := os.ReadFile(filepath.Join(dir, p.Exe(prog)))
		if err != nil {
			return nil, fmt.Errorf("building for %s: %w", p, err)
		}
		files = append(files, File{Name: p.Exe(prog), Mode: 0o755, Data: data})
	}
	return files, nil
}

func goCommand(o Options) string {
	if o.Go == "" {
		return "go"
	}
	return o.Go
}

// modulePath reads the module's path from its go.mod.
func modulePath(root string) (string, error) {
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return "", err
	}
	for line := range strings.Lines(string(data)) {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
			return strings.Trim(strings.TrimSpace(rest), `"`), nil
		}
	}
	return "", fmt.Errorf("%s/go.mod names no module", root)
}

// CommitTime is the time the archives give every entry: $SOURCE_DATE_EPOCH
// where it is set, as the reproducible-builds convention has it, or else
// the committer's time of HEAD, so that one commit gives one time.
func CommitTime(root string) (time.Time, error) {
	if s := os.Getenv("SOURCE_DATE_EPOCH"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return time.Time{}, fmt.Errorf("SOURCE_DATE_EPOCH=%q is not a number of seconds", s)
		}
		return time.Unix(n, 0).UTC(), nil
	}
	out, err := exec.Command("git", "-C", root, "log", "-1", "--format=%ct").Output()
	if err != nil {
		return time.Time{}, fmt.Errorf("reading HEAD's time with git for the archives' times: %w (or set SOURCE_DATE_EPOCH)", err)
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(out)), 10, 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("git gave HEAD's time as %q", out)
	}
	return time.Unix(n, 0).UTC(), nil
}

// writeAtomic writes data beside name and renames it into place, so that
// name holds either what it held or all of data.
func writeAtomic(name string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.Name(), name)
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("writing %s: %w", name, err)
	}
	return nil
}

func logf(w io.Writer, format string, args ...any) {
	if w != nil {
		fmt.Fprintf(w, format, args...)
	}
}
