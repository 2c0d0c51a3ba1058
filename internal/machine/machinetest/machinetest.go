// Package machinetest holds the checks that every machine's tests make of
// the contracts in package machine, so that each board is held to one
// statement of them.
package machinetest

import (
	"bytes"
	"testing"

	"colophon/internal/machine"
)

// Cleaned clears a machine's marks and answers a copy of each of its
// buffers as they stand, to be held to them after (HeldToMarks).
func Cleaned(d machine.Dirty) [][]byte {
	var c [][]byte
	for _, b := range d.Buffers() {
		c = append(c, bytes.Clone(b.Bytes))
	}
	d.Clean()
	return c
}

// HeldToMarks holds a machine's buffers to the copies taken when it was
// cleaned, page by page: a page that differs must be marked, as a host
// that keeps copies of the buffers trusts an unmarked page to be as it
// was (machine.Dirty). It answers the pages marked, and the pages that
// differ, in all.
func HeldToMarks(t *testing.T, what string, d machine.Dirty, before [][]byte) (marked, changed int) {
	t.Helper()
	for i, b := range d.Buffers() {
		for p := 0; p*machine.PageSize < len(b.Bytes); p++ {
			lo, hi := p*machine.PageSize, min(len(b.Bytes), (p+1)*machine.PageSize)
			m := b.Dirty[p/64]&(1<<(p%64)) != 0
			differs := !bytes.Equal(b.Bytes[lo:hi], before[i][lo:hi])
			if m {
				marked++
			}
			if differs {
				changed++
				if !m {
					t.Errorf("%s: page %d of the %s (&%05X) changed and is not marked", what, p, b.Name, lo)
				}
			}
		}
	}
	return marked, changed
}
