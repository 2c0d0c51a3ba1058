// Package build names the build a program was compiled from, in the form the
// spec gives in "The name of the build":
//
//	0.0.0+mcp.<commit>[.dirty].emulator.<commit>[.dirty]
//
// The first commit is this repository's, marked dirty when anything the
// program compiles differs from it; the second is the emulator's, which lives
// in this same repository, marked dirty when the emulator's own packages
// differ. A part whose repository is no checkout of its own is "none".
//
// make computes both parts with git (see the stamp command beside this
// package) and sets them with
//
//	-ldflags "-X colophon/internal/build.mcp=<part> -X colophon/internal/build.emulator=<part>"
//
// A plain go build leaves them empty, and the name falls back to the VCS
// stamp the go command records (vcs.revision and vcs.modified), which cannot
// tell the two parts apart: both get the revision, and both are dirty if
// anything in the checkout is modified.
package build

import (
	"runtime/debug"
	"strings"
	"sync"
)

// Version is the package's own version, the first element of the name.
const Version = "0.0.0"

// None is the commit of a part built from no checkout of its own.
const None = "none"

// Set by make through -ldflags -X, each "<commit>" or "<commit>.dirty" or
// "none". Empty means make did not set it.
var (
	mcp      string
	emulator string
)

// Part is one repository's part of the name: a commit, and whether the
// compiled files differ from it. The zero Part is "none".
type Part struct {
	Commit string // full hexadecimal commit; empty for none
	Dirty  bool
}

// String gives the part as the name writes it: the commit, ".dirty" after
// it when marked, or "none".
func (p Part) String() string {
	if p.Commit == "" {
		return None
	}
	if p.Dirty {
		return p.Commit + ".dirty"
	}
	return p.Commit
}

// ParsePart reads a part written by String. "none" and "" are the zero Part.
func ParsePart(s string) Part {
	if s == "" || s == None {
		return Part{}
	}
	if c, ok := strings.CutSuffix(s, ".dirty"); ok {
		return Part{Commit: c, Dirty: true}
	}
	return Part{Commit: s}
}

// Format writes the whole name from its two parts.
func Format(mcp, emulator Part) string {
	return Version + "+mcp." + mcp.String() + ".emulator." + emulator.String()
}

// FromBuildInfo reads the part the go command's VCS stamp gives: the
// revision, dirty when vcs.modified is "true". Without a revision (no
// checkout, or -buildvcs=false) it is none.
func FromBuildInfo(info *debug.BuildInfo) Part {
	if info == nil {
		return Part{}
	}
	var p Part
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			p.Commit = s.Value
		case "vcs.modified":
			p.Dirty = s.Value == "true"
		}
	}
	if p.Commit == "" {
		return Part{}
	}
	return p
}

// resolve picks a part: what make set, or else the go command's stamp.
func resolve(set string, info *debug.BuildInfo) Part {
	if set != "" {
		return ParsePart(set)
	}
	return FromBuildInfo(info)
}

var parts = sync.OnceValues(func() (Part, Part) {
	info, _ := debug.ReadBuildInfo()
	return resolve(mcp, info), resolve(emulator, info)
})

// Parts returns the two parts of this program's build.
func Parts() (mcp, emulator Part) { return parts() }

// Name returns this program's build name.
func Name() string {
	m, e := parts()
	return Format(m, e)
}
