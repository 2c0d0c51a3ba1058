package find

import (
	"strings"
	"testing"
)

// FuzzPattern feeds find's two ways of writing a pattern anything, as an
// agent's bytes and text arguments give them (issue 19's standing guards;
// seeds in testdata/fuzz/FuzzPattern), and searches a memory with what
// they take: nothing panics, an error quotes what was sent short, and
// every match listed matches.
func FuzzPattern(f *testing.F) {
	f.Fuzz(func(t *testing.T, bytes, text string, mem []byte, from uint16) {
		// No memory searched is larger than a 6128's RAM.
		if len(mem) > 0x20000 {
			mem = mem[:0x20000]
		}
		for _, make := range []struct {
			name string
			of   func(string) (Pattern, error)
			arg  string
		}{{"Bytes", Bytes, bytes}, {"Text", Text, text}} {
			p, err := make.of(make.arg)
			if err != nil {
				if len(err.Error()) > 1000 {
					t.Fatalf("%s(%.40q…): an error of %d bytes: %.200s", make.name, make.arg, len(err.Error()), err)
				}
				continue
			}
			if p.Len() < 1 || p.Len() > MaxLen {
				t.Fatalf("%s(%q) took a pattern of %d bytes", make.name, make.arg, p.Len())
			}
			if s := p.String(); strings.TrimSpace(s) == "" {
				t.Fatalf("%s(%q) is written back as nothing", make.name, make.arg)
			}
			start := uint32(from) % uint32(len(mem)+1)
			r, err := InBytes(p, mem, 0, start)
			if err != nil {
				t.Fatalf("%s(%q) over %d bytes from %d: %v", make.name, make.arg, len(mem), start, err)
			}
			for _, at := range r.Addrs {
				if at < start || int(at)+p.Len() > len(mem) || !p.matches(mem[at:int(at)+p.Len()]) {
					t.Fatalf("%s(%q): a match at %d that does not match", make.name, make.arg, at)
				}
			}
			if r.Total < len(r.Addrs) {
				t.Fatalf("%s(%q): %d listed of %d in all", make.name, make.arg, len(r.Addrs), r.Total)
			}
		}
	})
}
