// Package shared locates the team's read-only shared data: the firmware,
// the external test evidence and the specification.
//
// The data lives outside the repository, at $COLOPHON_SHARED, or else at
// ../shared beside the module root, which is where CI lays it. Tests reach it
// only through this package, so that a missing directory is reported the same
// way everywhere: as a failure under CI=true, where the data is promised, and
// as a skip that says exactly what is missing anywhere else.
package shared

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// Dir returns the shared directory, or an error naming every place looked.
func Dir() (string, error) {
	if d := os.Getenv("COLOPHON_SHARED"); d != "" {
		if isDir(d) {
			return filepath.Abs(d)
		}
		return "", fmt.Errorf("COLOPHON_SHARED=%s is not a directory", d)
	}
	root, err := moduleRoot()
	if err != nil {
		return "", err
	}
	d := filepath.Join(root, "..", "shared")
	if !isDir(d) {
		return "", fmt.Errorf("shared data not found: COLOPHON_SHARED is unset and %s is not a directory", d)
	}
	return filepath.Clean(d), nil
}

// Path joins elements onto the shared directory.
func Path(elem ...string) (string, error) {
	d, err := Dir()
	if err != nil {
		return "", err
	}
	return filepath.Join(append([]string{d}, elem...)...), nil
}

// TestPath returns the path of a file or directory in the shared data for a
// test. When it is missing the test fails under CI=true, since CI always
// provides the data, and is skipped with the reason anywhere else.
func TestPath(tb testing.TB, elem ...string) string {
	tb.Helper()
	p, err := Path(elem...)
	if err == nil {
		if _, statErr := os.Stat(p); statErr != nil {
			err = fmt.Errorf("shared data missing: %w", statErr)
		}
	}
	if err != nil {
		if os.Getenv("CI") == "true" {
			tb.Fatalf("%v (CI=true, so the shared data must be present)", err)
		}
		tb.Skipf("%v (set COLOPHON_SHARED to the shared directory)", err)
	}
	return p
}

// moduleRoot walks up from the working directory to the directory holding
// go.mod. Tests run in their package's directory, so this finds the module.
func moduleRoot() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := wd; ; {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", fmt.Errorf("no go.mod above %s, and COLOPHON_SHARED is unset", wd)
		}
		d = parent
	}
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
