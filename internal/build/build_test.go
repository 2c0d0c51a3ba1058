package build

import (
	"runtime/debug"
	"testing"
)

const (
	rev  = "c8d3f64b0e1a2f3c4d5e6f708192a3b4c5d6e7f8"
	rev2 = "0123456789abcdef0123456789abcdef01234567"
)

func TestFormat(t *testing.T) {
	tests := []struct {
		mcp, emulator Part
		want          string
	}{
		{Part{rev, false}, Part{rev, false}, "0.0.0+mcp." + rev + ".emulator." + rev},
		{Part{rev, true}, Part{rev, false}, "0.0.0+mcp." + rev + ".dirty.emulator." + rev},
		{Part{rev, true}, Part{rev, true}, "0.0.0+mcp." + rev + ".dirty.emulator." + rev + ".dirty"},
		{Part{rev, false}, Part{rev2, true}, "0.0.0+mcp." + rev + ".emulator." + rev2 + ".dirty"},
		{Part{}, Part{}, "0.0.0+mcp.none.emulator.none"},
		// A part with no commit is none, whatever its flag says: there is
		// nothing for it to differ from.
		{Part{"", true}, Part{}, "0.0.0+mcp.none.emulator.none"},
	}
	for _, tt := range tests {
		if got := Format(tt.mcp, tt.emulator); got != tt.want {
			t.Errorf("Format(%+v, %+v) = %q, want %q", tt.mcp, tt.emulator, got, tt.want)
		}
	}
}

func TestParsePart(t *testing.T) {
	tests := []struct {
		in   string
		want Part
	}{
		{"", Part{}},
		{"none", Part{}},
		{rev, Part{rev, false}},
		{rev + ".dirty", Part{rev, true}},
	}
	for _, tt := range tests {
		got := ParsePart(tt.in)
		if got != tt.want {
			t.Errorf("ParsePart(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
		// What String writes, ParsePart reads back.
		if again := ParsePart(got.String()); again != got {
			t.Errorf("ParsePart(%q.String()) = %+v, want %+v", tt.in, again, got)
		}
	}
}

func info(settings ...string) *debug.BuildInfo {
	bi := &debug.BuildInfo{}
	for i := 0; i+1 < len(settings); i += 2 {
		bi.Settings = append(bi.Settings, debug.BuildSetting{Key: settings[i], Value: settings[i+1]})
	}
	return bi
}

func TestFromBuildInfo(t *testing.T) {
	tests := []struct {
		name string
		info *debug.BuildInfo
		want Part
	}{
		{"no build info", nil, Part{}},
		{"no vcs stamp", info("-trimpath", "true", "GOOS", "linux"), Part{}},
		{"clean", info("vcs", "git", "vcs.revision", rev, "vcs.time", "2026-01-01T00:00:00Z", "vcs.modified", "false"), Part{rev, false}},
		{"modified", info("vcs", "git", "vcs.revision", rev, "vcs.modified", "true"), Part{rev, true}},
		{"modified without revision", info("vcs", "git", "vcs.modified", "true"), Part{}},
	}
	for _, tt := range tests {
		if got := FromBuildInfo(tt.info); got != tt.want {
			t.Errorf("%s: FromBuildInfo = %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

func TestResolvePrefersMake(t *testing.T) {
	stamped := info("vcs", "git", "vcs.revision", rev2, "vcs.modified", "true")
	tests := []struct {
		set  string
		want Part
	}{
		{rev, Part{rev, false}},           // make's part wins over the go command's
		{rev + ".dirty", Part{rev, true}}, // and keeps its own flag
		{"none", Part{}},                  // make found no checkout
		{"", Part{rev2, true}},            // make did not run: the go command's stamp
	}
	for _, tt := range tests {
		if got := resolve(tt.set, stamped); got != tt.want {
			t.Errorf("resolve(%q) = %+v, want %+v", tt.set, got, tt.want)
		}
	}
}
