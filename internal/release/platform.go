// Package release makes what a person without Go installs: for each of six
// platforms an archive holding colophon-mcp, colophon and pidp10-mcp with
// the firmware in roms/ beside them, a SHA256SUMS file over the archives,
// and the npm packages laid out as esbuild lays out its own, a launcher that
// depends on one package per platform (spec, "Starting it"; checklist S-3,
// S-5, S-6, S-11; issue 17).
//
// Everything it writes is reproducible: the same commit gives the same
// bytes. The programs are built with -trimpath and no build ID, and the
// archives are written here, with the standard library's tar, gzip and zip,
// so that every byte of them is ours to fix: the entries in one order, owned
// by no one, each with the commit's time.
package release

import (
	"fmt"
	"slices"
	"strings"
)

// Programs are the programs every archive carries, in the order they are
// built. Each is the main package under cmd/ of its name.
var Programs = []string{"colophon-mcp", "colophon", "pidp10-mcp"}

// Platform is one operating system and processor a release is built for,
// named as Go names them.
type Platform struct {
	GOOS, GOARCH string
}

// Platforms are the six a release carries (checklist S-3).
var Platforms = []Platform{
	{"linux", "amd64"}, {"linux", "arm64"},
	{"darwin", "amd64"}, {"darwin", "arm64"},
	{"windows", "amd64"}, {"windows", "arm64"},
}

// ParsePlatform reads "GOOS/GOARCH", which must be one of Platforms.
func ParsePlatform(s string) (Platform, error) {
	goos, goarch, _ := strings.Cut(s, "/")
	p := Platform{goos, goarch}
	if !slices.Contains(Platforms, p) {
		names := make([]string, len(Platforms))
		for i, q := range Platforms {
			names[i] = q.String()
		}
		return Platform{}, fmt.Errorf("platform %q is not one a release is built for: %s", s, strings.Join(names, ", "))
	}
	return p, nil
}

// String is the platform as Go's tools write it, "linux/amd64".
func (p Platform) String() string { return p.GOOS + "/" + p.GOARCH }

// Windows says whether the platform's programs end in .exe and its archive
// is a zip.
func (p Platform) Windows() bool { return p.GOOS == "windows" }

// Exe is the file name of a program on this platform.
func (p Platform) Exe(program string) string {
	if p.Windows() {
		return program + ".exe"
	}
	return program
}

// Folder is the name of the folder an archive unpacks into, which is also
// the archive's name without its extension: colophon-0.0.0-linux-amd64.
func (p Platform) Folder(version string) string {
	return "colophon-" + version + "-" + p.GOOS + "-" + p.GOARCH
}

// Archive is the archive's file name: a .zip for Windows, whose own tools
// open one, and a .tar.gz elsewhere, which keeps the programs' modes.
func (p Platform) Archive(version string) string {
	if p.Windows() {
		return p.Folder(version) + ".zip"
	}
	return p.Folder(version) + ".tar.gz"
}

// NodeOS and NodeCPU are the platform as Node names it in process.platform
// and process.arch, and as npm's "os" and "cpu" fields take it.
func (p Platform) NodeOS() string {
	if p.Windows() {
		return "win32"
	}
	return p.GOOS
}

// NodeCPU: see NodeOS.
func (p Platform) NodeCPU() string {
	if p.GOARCH == "amd64" {
		return "x64"
	}
	return p.GOARCH
}

// NPMPackage is the name of the npm package holding this platform's
// programs, as esbuild names its own: @colophon-mcp/linux-x64.
func (p Platform) NPMPackage() string {
	return NPMScope + "/" + p.NodeOS() + "-" + p.NodeCPU()
}
