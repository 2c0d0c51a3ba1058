package release

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// The npm packages, laid out as esbuild lays out its own: one package that
// a client starts, NPMMain, holding nothing but a launcher in plain
// JavaScript, and one package per platform holding that platform's
// programs and firmware, which the first lists as optionalDependencies.
// npm installs only the one whose "os" and "cpu" fit the machine, and the
// launcher finds it by process.platform and process.arch.
const (
	NPMMain  = "colophon-mcp"
	NPMScope = "@colophon-mcp"
)

// NPMSource is where the launcher's own files are kept, under the module's
// root: bin/, lib/ and README.md of the package NPMMain.
const NPMSource = "npm/colophon-mcp"

// NPMOptions say where the archives are and how to pack.
type NPMOptions struct {
	Root      string     // the module's root, holding NPMSource
	Out       string     // where Archives wrote; the packages go under Out/npm
	Platforms []Platform // whose archives to lay out, in order
	Version   string     // the packages' version
	NPM       string     // the npm command; "npm" if empty
	Log       io.Writer
}

// mainManifest is NPMMain's package.json. The fields are in the order npm
// writes them.
type mainManifest struct {
	Name                 string            `json:"name"`
	Version              string            `json:"version"`
	Description          string            `json:"description"`
	License              string            `json:"license"`
	Bin                  map[string]string `json:"bin"`
	Files                []string          `json:"files"`
	Engines              map[string]string `json:"engines"`
	OptionalDependencies deps              `json:"optionalDependencies"`
}

// deps are packages and their versions, kept in the order given, the
// platforms' order, which the launcher names them in.
type deps []dep

type dep struct{ name, version string }

func (d deps) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, x := range d {
		if i > 0 {
			b.WriteByte(',')
		}
		n, _ := json.Marshal(x.name)
		v, _ := json.Marshal(x.version)
		fmt.Fprintf(&b, "%s:%s", n, v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSON reads the packages back, in their order in the file.
func (d *deps) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return fmt.Errorf("optionalDependencies: want an object")
	}
	for dec.More() {
		var name, version string
		t, err := dec.Token()
		if err != nil {
			return err
		}
		name, _ = t.(string)
		if err := dec.Decode(&version); err != nil {
			return err
		}
		*d = append(*d, dep{name, version})
	}
	return nil
}

// platformManifest is a platform package's package.json.
type platformManifest struct {
	Name            string   `json:"name"`
	Version         string   `json:"version"`
	Description     string   `json:"description"`
	License         string   `json:"license"`
	OS              []string `json:"os"`
	CPU             []string `json:"cpu"`
	PreferUnplugged bool     `json:"preferUnplugged"`
}

// The licence is the file every package carries, whatever its terms: npm's
// way of naming a licence it has no SPDX name for.
const npmLicense = "SEE LICENSE IN LICENSE"

// NPM lays out the packages under o.Out/npm, each platform's from its
// archive so that the package holds the very bytes the archive does, and
// packs each with npm pack. It returns the packed files' paths, NPMMain's
// first. Whatever was under o.Out/npm before is removed first: it is this
// step's own output.
func NPM(ctx context.Context, o NPMOptions) ([]string, error) {
	dir := filepath.Join(o.Out, "npm")
	if err := os.RemoveAll(dir); err != nil {
		return nil, err
	}
	var pkgDirs []string
	var ds deps
	for _, p := range o.Platforms {
		pkgDir, err := writePlatformPackage(o, dir, p)
		if err != nil {
			return nil, err
		}
		pkgDirs = append(pkgDirs, pkgDir)
		ds = append(ds, dep{p.NPMPackage(), o.Version})
	}
	mainDir, err := writeMainPackage(o, dir, ds)
	if err != nil {
		return nil, err
	}
	pkgDirs = append([]string{mainDir}, pkgDirs...)

	var packed []string
	for _, d := range pkgDirs {
		name, err := pack(ctx, o, d, dir)
		if err != nil {
			return nil, err
		}
		packed = append(packed, filepath.Join(dir, name))
		logf(o.Log, "%s\n", filepath.Join(dir, name))
	}
	return packed, nil
}

// writePlatformPackage lays p's archive out as the package p.NPMPackage():
// the programs, roms/, README.md and LICENSE as the archive holds them, with
// a package.json beside them.
func writePlatformPackage(o NPMOptions, dir string, p Platform) (string, error) {
	archive := filepath.Join(o.Out, p.Archive(o.Version))
	data, err := os.ReadFile(archive)
	if err != nil {
		return "", fmt.Errorf("reading %s for the npm package %s (make release writes it): %w", archive, p.NPMPackage(), err)
	}
	_, files, err := ReadArchive(archive, data)
	if err != nil {
		return "", err
	}
	pkgDir := filepath.Join(dir, filepath.FromSlash(p.NPMPackage()))
	for _, f := range files {
		if f.Name == "package.json" {
			return "", fmt.Errorf("%s holds a package.json of its own", archive)
		}
		if err := writeFile(filepath.Join(pkgDir, filepath.FromSlash(f.Name)), f.Data, f.Mode); err != nil {
			return "", err
		}
	}
	m := platformManifest{
		Name:            p.NPMPackage(),
		Version:         o.Version,
		Description:     fmt.Sprintf("colophon-mcp, colophon and pidp10-mcp for %s, with the firmware in roms/; installed by the package colophon-mcp", p),
		License:         npmLicense,
		OS:              []string{p.NodeOS()},
		CPU:             []string{p.NodeCPU()},
		PreferUnplugged: true,
	}
	return pkgDir, writeJSON(filepath.Join(pkgDir, "package.json"), m)
}

// writeMainPackage lays out NPMMain from NPMSource, with the licence taken
// from a platform package (every archive carries the same) and a
// package.json that lists the platform packages.
func writeMainPackage(o NPMOptions, dir string, ds deps) (string, error) {
	pkgDir := filepath.Join(dir, NPMMain)
	src := filepath.Join(o.Root, filepath.FromSlash(NPMSource))
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if rel == "package.json" {
			return fmt.Errorf("%s: the package.json is written by the release, not kept", p)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		mode := os.FileMode(0o644)
		if strings.HasPrefix(filepath.ToSlash(rel), "bin/") {
			mode = 0o755
		}
		return writeFile(filepath.Join(pkgDir, rel), data, mode)
	})
	if err != nil {
		return "", fmt.Errorf("laying out %s from %s: %w", NPMMain, src, err)
	}
	if len(ds) == 0 {
		return "", fmt.Errorf("no platform packages for %s to depend on", NPMMain)
	}
	license, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(ds[0].name), "LICENSE"))
	if err != nil {
		return "", err
	}
	if err := writeFile(filepath.Join(pkgDir, "LICENSE"), license, 0o644); err != nil {
		return "", err
	}
	m := mainManifest{
		Name:                 NPMMain,
		Version:              o.Version,
		Description:          "An MCP server giving AI agents exact emulated Amstrad CPC 464/664/6128 and ZX Spectrum 48K machines; run it as npx -y colophon-mcp",
		License:              npmLicense,
		Bin:                  map[string]string{"colophon-mcp": "bin/colophon-mcp.js", "pidp10-mcp": "bin/pidp10-mcp.js"},
		Files:                []string{"bin", "lib"},
		Engines:              map[string]string{"node": ">=18"},
		OptionalDependencies: ds,
	}
	return pkgDir, writeJSON(filepath.Join(pkgDir, "package.json"), m)
}

// pack runs npm pack in pkgDir, writing the tarball into dest, and returns
// its file name.
func pack(ctx context.Context, o NPMOptions, pkgDir, dest string) (string, error) {
	npm := o.NPM
	if npm == "" {
		npm = "npm"
	}
	cmd := exec.CommandContext(ctx, npm, "pack", "--json", "--pack-destination", dest)
	cmd.Dir = pkgDir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("npm pack in %s: %w\n%s", pkgDir, err, stderr.Bytes())
	}
	var result []struct {
		Filename string `json:"filename"`
	}
	if err := json.Unmarshal(out, &result); err != nil || len(result) != 1 || result[0].Filename == "" {
		return "", fmt.Errorf("npm pack in %s answered %q", pkgDir, out)
	}
	return result[0].Filename, nil
}

func writeJSON(name string, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // ">=18" as npm writes it
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	return writeFile(name, b.Bytes(), 0o644)
}

func writeFile(name string, data []byte, mode os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(name, data, mode); err != nil {
		return err
	}
	return os.Chmod(name, mode) // the umask does not choose a program's mode
}
