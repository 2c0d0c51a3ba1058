package release

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// File is one file of an archive, named by its path inside the archive's
// folder.
type File struct {
	Name string      // slash-separated, relative to the folder: "roms/cpc6128.rom"
	Mode fs.FileMode // permission bits only: 0o755 for a program, 0o644 for the rest
	Data []byte
}

// entry is a directory or a file as an archive lists it.
type entry struct {
	name string // slash-separated from the archive's root; a directory's ends in "/"
	file *File  // nil for a directory
}

// entries lays files out under folder: the folder itself and every
// directory a file is in, each before what it holds, and everything in the
// order of its name's bytes, so that the order depends on nothing but the
// names. Names must be clean, relative and distinct.
func entries(folder string, files []File) ([]entry, error) {
	if folder == "" || strings.ContainsAny(folder, `/\`) {
		return nil, fmt.Errorf("archive folder %q: want one plain name", folder)
	}
	dirs := map[string]bool{folder + "/": true}
	var es []entry
	seen := map[string]bool{}
	for i := range files {
		f := &files[i]
		if f.Name == "" || path.Clean(f.Name) != f.Name || path.IsAbs(f.Name) || strings.HasPrefix(f.Name, "../") || f.Name == ".." || strings.Contains(f.Name, `\`) {
			return nil, fmt.Errorf("archive file %q: want a clean relative slash-separated name", f.Name)
		}
		if seen[f.Name] {
			return nil, fmt.Errorf("archive file %q given twice", f.Name)
		}
		seen[f.Name] = true
		if f.Mode&^fs.ModePerm != 0 {
			return nil, fmt.Errorf("archive file %q: mode %v is not a plain file's", f.Name, f.Mode)
		}
		for d := path.Dir(f.Name); d != "."; d = path.Dir(d) {
			dirs[folder+"/"+d+"/"] = true
		}
		es = append(es, entry{name: folder + "/" + f.Name, file: f})
	}
	for d := range dirs {
		if seen[strings.TrimPrefix(strings.TrimSuffix(d, "/"), folder+"/")] {
			return nil, fmt.Errorf("archive file %q is also a directory", strings.TrimSuffix(d, "/"))
		}
		es = append(es, entry{name: d})
	}
	slices.SortFunc(es, func(a, b entry) int { return strings.Compare(a.name, b.name) })
	return es, nil
}

// WriteTarGz writes files under folder/ as a gzipped tar. Every entry is
// owned by uid and gid 0 with no user or group name, has mtime as its time,
// and is a USTAR header with nothing in it that the machine or the moment
// chose; the gzip header names no file and no time. Directories are 0755.
func WriteTarGz(w io.Writer, folder string, files []File, mtime time.Time) error {
	es, err := entries(folder, files)
	if err != nil {
		return err
	}
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	tw := tar.NewWriter(zw)
	for _, e := range es {
		h := &tar.Header{
			Name:    e.name,
			ModTime: mtime.UTC(),
			Format:  tar.FormatUSTAR,
		}
		if e.file == nil {
			h.Typeflag, h.Mode = tar.TypeDir, 0o755
		} else {
			h.Typeflag, h.Mode, h.Size = tar.TypeReg, int64(e.file.Mode), int64(len(e.file.Data))
		}
		if err := tw.WriteHeader(h); err != nil {
			return fmt.Errorf("writing %s into the tar: %w", e.name, err)
		}
		if e.file != nil {
			if _, err := tw.Write(e.file.Data); err != nil {
				return fmt.Errorf("writing %s into the tar: %w", e.name, err)
			}
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return zw.Close()
}

// WriteZip writes files under folder/ as a zip, each file deflated at the
// best compression, each entry with mtime as its time (in UTC, in the DOS
// field and the extended timestamp alike) and its Unix mode.
func WriteZip(w io.Writer, folder string, files []File, mtime time.Time) error {
	es, err := entries(folder, files)
	if err != nil {
		return err
	}
	zw := zip.NewWriter(w)
	zw.RegisterCompressor(zip.Deflate, func(out io.Writer) (io.WriteCloser, error) {
		return flate.NewWriter(out, flate.BestCompression)
	})
	for _, e := range es {
		h := &zip.FileHeader{Name: e.name, Modified: mtime.UTC()}
		if e.file == nil {
			h.Method = zip.Store
			h.SetMode(fs.ModeDir | 0o755)
		} else {
			h.Method = zip.Deflate
			h.SetMode(e.file.Mode)
		}
		fw, err := zw.CreateHeader(h)
		if err != nil {
			return fmt.Errorf("writing %s into the zip: %w", e.name, err)
		}
		if e.file != nil {
			if _, err := fw.Write(e.file.Data); err != nil {
				return fmt.Errorf("writing %s into the zip: %w", e.name, err)
			}
		}
	}
	return zw.Close()
}

// ReadArchive reads back an archive WriteTarGz or WriteZip wrote, by its
// name's extension: the one folder everything is under, and its files in
// the archive's order.
func ReadArchive(name string, data []byte) (folder string, files []File, err error) {
	var names []string
	var modes []fs.FileMode
	var datas [][]byte
	add := func(n string, mode fs.FileMode, isDir bool, d []byte) error {
		top, rest, _ := strings.Cut(n, "/")
		if folder == "" {
			folder = top
		}
		if top != folder || top == "" {
			return fmt.Errorf("%s: %q is outside the folder %q", name, n, folder)
		}
		if !isDir {
			names, modes, datas = append(names, rest), append(modes, mode.Perm()), append(datas, d)
		}
		return nil
	}
	switch {
	case strings.HasSuffix(name, ".tar.gz"):
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			return "", nil, fmt.Errorf("%s: %w", name, err)
		}
		tr := tar.NewReader(zr)
		for {
			h, err := tr.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return "", nil, fmt.Errorf("%s: %w", name, err)
			}
			d, err := io.ReadAll(tr)
			if err != nil {
				return "", nil, fmt.Errorf("%s: %s: %w", name, h.Name, err)
			}
			if err := add(h.Name, h.FileInfo().Mode(), h.Typeflag == tar.TypeDir, d); err != nil {
				return "", nil, err
			}
		}
	case strings.HasSuffix(name, ".zip"):
		zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return "", nil, fmt.Errorf("%s: %w", name, err)
		}
		for _, f := range zr.File {
			rc, err := f.Open()
			if err != nil {
				return "", nil, fmt.Errorf("%s: %s: %w", name, f.Name, err)
			}
			d, err := io.ReadAll(rc)
			rc.Close()
			if err != nil {
				return "", nil, fmt.Errorf("%s: %s: %w", name, f.Name, err)
			}
			if err := add(f.Name, f.Mode(), f.Mode().IsDir(), d); err != nil {
				return "", nil, err
			}
		}
	default:
		return "", nil, fmt.Errorf("%s: not a .tar.gz or a .zip", name)
	}
	for i := range names {
		files = append(files, File{Name: names[i], Mode: modes[i], Data: datas[i]})
	}
	return folder, files, nil
}

// Sums writes the SHA256SUMS file over the named files of dir, in the form
// sha256sum -c reads, "<hex>  <name>", sorted by name.
func Sums(dir string, names []string) ([]byte, error) {
	var b bytes.Buffer
	for _, name := range slices.Sorted(slices.Values(names)) {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		h := sha256.New()
		_, err = io.Copy(h, f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", name, err)
		}
		fmt.Fprintf(&b, "%s  %s\n", hex.EncodeToString(h.Sum(nil)), name)
	}
	return b.Bytes(), nil
}
