//go:build unix

package firmware

import (
	"syscall"
	"testing"
)

func init() {
	nonRegularOnThisSystem = append(nonRegularOnThisSystem,
		// A named pipe would hold a reader until a writer came; it is
		// refused from its Stat, unopened, or this test would hang.
		nonRegular{"named pipe", func(t *testing.T, p string) {
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Fatal(err)
			}
		}, "not a regular file (a named pipe)"},
	)
}
