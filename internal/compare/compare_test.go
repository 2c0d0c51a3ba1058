package compare

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// run is a Run written short for the tables: its address and its two
// sides.
func run(addr uint32, a, b string) Run {
	return Run{Addr: addr, A: []byte(a), B: []byte(b)}
}

func TestDiff(t *testing.T) {
	tests := []struct {
		name  string
		a, b  string
		from  uint32
		runs  []Run
		total int
	}{
		{"alike", "abcdefgh", "abcdefgh", 0, nil, 0},
		{"empty", "", "", 0, nil, 0},
		{"one byte", "abcdefgh", "abcXefgh", 0, []Run{run(3, "d", "X")}, 1},
		{"first and last", "abcdefgh", "XbcdefgY", 0, []Run{run(0, "a", "X"), run(7, "h", "Y")}, 2},
		{"neighbours make one run", "abcdefgh", "aXYZefgh", 0, []Run{run(1, "bcd", "XYZ")}, 3},
		{"one alike byte parts runs", "abcdefgh", "aXcZefgh", 0, []Run{run(1, "b", "X"), run(3, "d", "Z")}, 2},
		{"all", "abcd", "WXYZ", 0, []Run{run(0, "abcd", "WXYZ")}, 4},
		// Past the eight bytes compared at once, and across them.
		{"long alike then one", strings.Repeat("a", 37) + "b", strings.Repeat("a", 37) + "c", 0, []Run{run(37, "b", "c")}, 1},
		{"run across words", strings.Repeat("a", 20), strings.Repeat("a", 6) + "XXXXX" + strings.Repeat("a", 9), 0, []Run{run(6, "aaaaa", "XXXXX")}, 5},
		// From partway.
		{"from skips before", "abcdefgh", "XbcdefgY", 1, []Run{run(7, "h", "Y")}, 1},
		{"from inside a run", "abcdefgh", "aXYZefgh", 2, []Run{run(2, "cd", "YZ")}, 2},
		{"from at the end", "abcd", "WXYZ", 4, nil, 0},
		// Different sizes: as far as the smaller reaches.
		{"a smaller", "abc", "abXdefgh", 0, []Run{run(2, "c", "X")}, 1},
		{"b smaller", "abXdefgh", "abc", 0, []Run{run(2, "X", "c")}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Diff([]byte(tt.a), []byte(tt.b), tt.from)
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(r.Runs) != fmt.Sprint(tt.runs) || r.Total != tt.total || r.More {
				t.Errorf("got %+v, want runs %+v total %d", r, tt.runs, tt.total)
			}
			if want := uint32(min(len(tt.a), len(tt.b))); r.Size != want {
				t.Errorf("size &%X, want &%X", r.Size, want)
			}
		})
	}
}

func TestFromPastTheEnd(t *testing.T) {
	_, err := Diff(make([]byte, 0x10000), make([]byte, 0x20000), 0x10001)
	if err == nil || !strings.Contains(err.Error(), "from &10001") || !strings.Contains(err.Error(), "&10000") {
		t.Errorf("from past the smaller RAM: %v", err)
	}
}

// TestRunsAreCopies: the bytes answered are the RAMs' as they stood, not
// windows into them that a machine running on would change.
func TestRunsAreCopies(t *testing.T) {
	a, b := []byte("abcd"), []byte("aXcd")
	r, _ := Diff(a, b, 0)
	a[1], b[1] = 'q', 'Q'
	if string(r.Runs[0].A) != "b" || string(r.Runs[0].B) != "X" {
		t.Errorf("the runs changed with the RAMs: %+v", r.Runs)
	}
}

// twoRAMs returns two 128K RAMs alike but where set says, with every
// differing byte's address.
func twoRAMs(set func(a, b []byte)) (a, b []byte, differ []uint32) {
	a, b = make([]byte, 0x20000), make([]byte, 0x20000)
	for i := range a {
		a[i] = byte(i * 7)
		b[i] = a[i]
	}
	set(a, b)
	for i := range a {
		if a[i] != b[i] {
			differ = append(differ, uint32(i))
		}
	}
	return a, b, differ
}

// collect compares again and again from each answer's Next until the
// answers are done, holds each to the limits, and returns every byte
// listed with the first answer's total.
func collect(t *testing.T, a, b []byte) (listed []uint32, total, answers int) {
	t.Helper()
	from := uint32(0)
	for {
		r, err := Diff(a, b, from)
		if err != nil {
			t.Fatal(err)
		}
		if answers == 0 {
			total = r.Total
		}
		answers++
		if len(r.Runs) > MaxRuns {
			t.Fatalf("answer %d: %d runs", answers, len(r.Runs))
		}
		n := 0
		for i, run := range r.Runs {
			if len(run.A) == 0 || len(run.A) != len(run.B) {
				t.Fatalf("answer %d run %d: sides of %d and %d bytes", answers, i, len(run.A), len(run.B))
			}
			if i > 0 && run.Addr <= r.Runs[i-1].End() {
				t.Fatalf("answer %d: run at &%X does not lie past the one before, ending &%X", answers, run.Addr, r.Runs[i-1].End())
			}
			for k := range run.A {
				at := run.Addr + uint32(k)
				if run.A[k] != a[at] || run.B[k] != b[at] || a[at] == b[at] {
					t.Fatalf("answer %d: &%X listed as %02X/%02X; the RAMs hold %02X/%02X", answers, at, run.A[k], run.B[k], a[at], b[at])
				}
				listed = append(listed, at)
			}
			n += len(run.A)
		}
		if n > MaxBytes {
			t.Fatalf("answer %d: %d bytes", answers, n)
		}
		if !r.More {
			return listed, total, answers
		}
		if r.Next <= from || (len(listed) > 0 && r.Next <= listed[len(listed)-1]) {
			t.Fatalf("answer %d: next &%X goes nowhere", answers, r.Next)
		}
		from = r.Next
	}
}

// TestLimits holds answers to 256 runs and 2048 bytes, each with the total
// and where to go on, and the answers together to every differing byte
// once (checklist CMP-3).
func TestLimits(t *testing.T) {
	tests := []struct {
		name    string
		set     func(a, b []byte)
		answers int
	}{
		{"255 runs", func(a, b []byte) {
			for i := range 255 {
				b[i*300] ^= 0xFF
			}
		}, 1},
		{"256 runs", func(a, b []byte) {
			for i := range 256 {
				b[i*300] ^= 0xFF
			}
		}, 1},
		{"257 runs", func(a, b []byte) {
			for i := range 257 {
				b[i*300] ^= 0xFF
			}
		}, 2},
		{"1000 runs of 3", func(a, b []byte) {
			for i := range 1000 {
				for k := range 3 {
					b[0x800+i*100+k]++
				}
			}
		}, 4},
		{"one run of 2048", func(a, b []byte) {
			for i := range 2048 {
				b[0x5000+i]++
			}
		}, 1},
		{"one run of 2048 and one more", func(a, b []byte) {
			for i := range 2048 {
				b[0x5000+i]++
			}
			b[0x6000]++
		}, 2},
		{"one run of 5000 across the two 64Ks", func(a, b []byte) {
			for i := range 5000 {
				b[0xF000+i]++
			}
		}, 3},
		{"every byte", func(a, b []byte) {
			for i := range b {
				b[i]++
			}
		}, 64},
		{"every other byte", func(a, b []byte) {
			for i := 0; i < len(b); i += 2 {
				b[i]++
			}
		}, 256},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b, differ := twoRAMs(tt.set)
			listed, total, answers := collect(t, a, b)
			if total != len(differ) {
				t.Errorf("total %d, want %d", total, len(differ))
			}
			if !slices.Equal(listed, differ) {
				t.Errorf("the answers listed %d bytes, want %d", len(listed), len(differ))
			}
			if answers != tt.answers {
				t.Errorf("%d answers, want %d", answers, tt.answers)
			}
		})
	}
}

// TestCount holds the word-at-a-time count to a byte-at-a-time one over
// differences of every bit pattern and at every alignment.
func TestCount(t *testing.T) {
	a := make([]byte, 4096)
	b := make([]byte, 4096)
	x := uint32(0x9E3779B9)
	for i := range b {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		if x%3 == 0 {
			b[i] = byte(x >> 8) // any bit pattern, sometimes 0 (alike)
		}
	}
	for start := range 9 {
		for _, end := range []int{start, start + 1, start + 7, start + 8, start + 9, len(a)} {
			want := 0
			for i := start; i < end; i++ {
				if a[i] != b[i] {
					want++
				}
			}
			if got := count(a[start:end], b[start:end]); got != want {
				t.Errorf("count [%d:%d] = %d, want %d", start, end, got, want)
			}
		}
	}
}
