package find

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestBytesParses(t *testing.T) {
	tests := []struct {
		in   string
		want string // as String writes it back
	}{
		{"CD 18 BB", "CD 18 BB"},
		{"3E ?? C9", "3E ?? C9"},
		{"cd18bb", "CD 18 BB"},
		{"3e??c9", "3E ?? C9"},
		{"  CD\t18  BB ", "CD 18 BB"},
		{"??", "??"},
		{"00 FF 7f", "00 FF 7F"},
		{strings.Repeat("AA", MaxLen), strings.TrimSpace(strings.Repeat("AA ", MaxLen))},
	}
	for _, tt := range tests {
		p, err := Bytes(tt.in)
		if err != nil {
			t.Errorf("Bytes(%q): %v", tt.in, err)
			continue
		}
		if got := p.String(); got != tt.want {
			t.Errorf("Bytes(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestBadInputIsNamed holds every refusal to an error that names the
// argument and what is wrong with it.
func TestBadInputIsNamed(t *testing.T) {
	tests := []struct {
		name string
		make func() (Pattern, error)
		want []string // each must appear in the error
	}{
		{"empty bytes", func() (Pattern, error) { return Bytes("") }, []string{"bytes", "empty"}},
		{"blank bytes", func() (Pattern, error) { return Bytes("   ") }, []string{"bytes", "empty"}},
		{"odd digits", func() (Pattern, error) { return Bytes("CD 1") }, []string{"bytes", `"1"`, "pairs"}},
		{"split pair", func() (Pattern, error) { return Bytes("C D") }, []string{"bytes", "pairs"}},
		{"not hex", func() (Pattern, error) { return Bytes("CD GG BB") }, []string{"bytes", "byte 2", `"GG"`}},
		{"half wild", func() (Pattern, error) { return Bytes("3E ?0") }, []string{"bytes", "byte 2", `"?0"`}},
		{"too long", func() (Pattern, error) { return Bytes(strings.Repeat("00", MaxLen+1)) }, []string{"bytes", "257", "256"}},
		{"empty text", func() (Pattern, error) { return Text("") }, []string{"text", "empty"}},
		{"not ASCII", func() (Pattern, error) { return Text("café") }, []string{"text", "character 4", "ASCII"}},
		{"long text", func() (Pattern, error) { return Text(strings.Repeat("a", MaxLen+1)) }, []string{"text", "257", "256"}},
	}
	for _, tt := range tests {
		_, err := tt.make()
		if err == nil {
			t.Errorf("%s: no error", tt.name)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not say %q", tt.name, err, w)
			}
		}
	}
}

func mustBytes(t testing.TB, s string) Pattern {
	t.Helper()
	p, err := Bytes(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func mustText(t testing.TB, s string) Pattern {
	t.Helper()
	p, err := Text(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// both searches mem from from by each way of asking, the Memory and the
// []byte, and fails unless they agree.
func both(t *testing.T, p Pattern, mem []byte, from uint32) Result {
	t.Helper()
	a, err := InBytes(p, mem, 0, from)
	if err != nil {
		t.Fatal(err)
	}
	b, err := In(p, func(addr uint32) byte { return mem[addr] }, from, uint32(len(mem)))
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Fatalf("%v from &%X: InBytes %+v, In %+v", p, from, a, b)
	}
	return a
}

func TestSearchSmall(t *testing.T) {
	tests := []struct {
		name    string
		mem     []byte
		pattern Pattern
		from    uint32
		want    []uint32
	}{
		{"exact", []byte{0, 0xCD, 0x18, 0xBB, 0, 0xCD, 0x18, 0xBB}, mustBytes(t, "CD 18 BB"), 0, []uint32{1, 5}},
		{"wildcard", []byte{0x3E, 1, 0xC9, 0x3E, 0xC9, 0xC9, 0x3E, 0xFF, 0xC9}, mustBytes(t, "3E ?? C9"), 0, []uint32{0, 3, 6}},
		{"wildcard first", []byte{1, 0x18, 0xBB, 2, 0x18, 0xBB}, mustBytes(t, "?? 18 BB"), 0, []uint32{0, 3}},
		{"wildcard last", []byte{0xCD, 0x18, 0xCD, 0x18}, mustBytes(t, "CD 18 ??"), 0, []uint32{0}},
		{"all wild", []byte{1, 2, 3, 4}, mustBytes(t, "?? ??"), 0, []uint32{0, 1, 2}},
		{"overlapping", []byte{0xAA, 0xAA, 0xAA, 0xAA}, mustBytes(t, "AA AA"), 0, []uint32{0, 1, 2}},
		{"at the very end", []byte{0, 0, 0, 0x12, 0x34}, mustBytes(t, "12 34"), 0, []uint32{3}},
		{"not past the end", []byte{0x34, 0, 0, 0, 0x12}, mustBytes(t, "12 34"), 0, nil},
		{"longer than memory", []byte{0x12}, mustBytes(t, "12 34"), 0, nil},
		{"from skips earlier", []byte{0xC9, 0, 0xC9, 0, 0xC9}, mustBytes(t, "C9"), 1, []uint32{2, 4}},
		{"from at a match", []byte{0xC9, 0, 0xC9, 0, 0xC9}, mustBytes(t, "C9"), 2, []uint32{2, 4}},
		{"from at the end", []byte{0xC9, 0xC9}, mustBytes(t, "C9"), 2, nil},
		// Text matches on the low seven bits: a word ended with bit 7
		// set, as both ROMs end theirs, and the same word in plain
		// ASCII, are found alike; case still matters.
		{"text plain", []byte("xx RUN yy"), mustText(t, "RUN"), 0, []uint32{3}},
		{"text bit 7 last", []byte{'R', 'U', 'N' | 0x80, 'R', 'U', 'N'}, mustText(t, "RUN"), 0, []uint32{0, 3}},
		{"text bit 7 anywhere", []byte{'R' | 0x80, 'U' | 0x80, 'N' | 0x80}, mustText(t, "RUN"), 0, []uint32{0}},
		{"text case matters", []byte("run RUN"), mustText(t, "RUN"), 0, []uint32{4}},
		{"text first char both ways", []byte{'A' | 0x80, 'B', 'A', 'B', 'A' | 0x80, 'B'}, mustText(t, "AB"), 0, []uint32{0, 2, 4}},
		// Bytes are exact: the plain word does not find its bit-7 form.
		{"bytes are exact", []byte{'R', 'U', 'N' | 0x80}, mustBytes(t, "52 55 4E"), 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := both(t, tt.pattern, tt.mem, tt.from)
			if !slices.Equal(r.Addrs, tt.want) || r.Total != len(tt.want) || r.More {
				t.Errorf("got %+v, want %v alone", r, tt.want)
			}
		})
	}
}

// TestLimitAndNext: an answer lists 256 addresses at most, counts them
// all, and says where to search again; searching again from there lists
// the rest, and the two answers together are every match once.
func TestLimitAndNext(t *testing.T) {
	for _, n := range []int{Limit - 1, Limit, Limit + 1, 3*Limit + 7} {
		mem := make([]byte, 0x20000)
		var want []uint32
		// Spread the matches unevenly, from &00000 to past &10000 and
		// across the chunk boundaries In reads by.
		for i := range n {
			a := uint32(i*150 + i*i%11)
			want = append(want, a)
			copy(mem[a:], []byte{0xCD, 0x5A, 0xBB})
		}
		p := mustBytes(t, "CD 5A BB")
		var got []uint32
		from := uint32(0)
		for round := 0; ; round++ {
			r := both(t, p, mem, from)
			if r.Total != n-len(got) {
				t.Fatalf("n=%d round %d: total %d, want %d", n, round, r.Total, n-len(got))
			}
			if len(r.Addrs) > Limit {
				t.Fatalf("n=%d round %d: %d addresses listed", n, round, len(r.Addrs))
			}
			got = append(got, r.Addrs...)
			if !r.More {
				break
			}
			if len(r.Addrs) != Limit || r.Next != r.Addrs[Limit-1]+1 {
				t.Fatalf("n=%d round %d: %d listed, next &%X after &%X", n, round, len(r.Addrs), r.Next, r.Addrs[len(r.Addrs)-1])
			}
			from = r.Next
		}
		if !slices.Equal(got, want) {
			t.Errorf("n=%d: the rounds found %d addresses, want %d", n, len(got), len(want))
		}
	}
}

// TestChunkBoundaries puts a match across each place In's buffer is
// refilled, where a match must be neither lost nor counted twice.
func TestChunkBoundaries(t *testing.T) {
	mem := make([]byte, 3*chunk+5)
	var want []uint32
	for _, a := range []uint32{chunk - 2, chunk - 1, 2*chunk - 3, 2*chunk - 1, 3*chunk + 1} {
		copy(mem[a:], "ABCD")
	}
	// Written in order, later copies may overwrite earlier ones; take
	// the truth from the memory as it stands.
	for a := 0; a+4 <= len(mem); a++ {
		if string(mem[a:a+4]) == "ABCD" {
			want = append(want, uint32(a))
		}
	}
	r := both(t, mustText(t, "ABCD"), mem, 0)
	if !slices.Equal(r.Addrs, want) {
		t.Errorf("found %X, want %X", r.Addrs, want)
	}
}

func TestRangeErrors(t *testing.T) {
	p := mustBytes(t, "00")
	mem := make([]byte, 16)
	if _, err := InBytes(p, mem, 0, 17); err == nil || !strings.Contains(err.Error(), "from") {
		t.Errorf("InBytes from past the end: %v", err)
	}
	if _, err := InBytes(p, mem, 0x100, 0xFF); err == nil || !strings.Contains(err.Error(), "from") {
		t.Errorf("InBytes from before the base: %v", err)
	}
	if _, err := In(p, func(uint32) byte { return 0 }, 0x10001, 0x10000); err == nil || !strings.Contains(err.Error(), "from") {
		t.Errorf("In from past the end: %v", err)
	}
	if _, err := In(Pattern{}, func(uint32) byte { return 0 }, 0, 1); err == nil {
		t.Error("In with the zero Pattern: no error")
	}
	// A base other than 0 names addresses by it.
	r, err := InBytes(mustBytes(t, "01"), []byte{0, 1, 0, 1}, 0x10000, 0x10002)
	if err != nil || !slices.Equal(r.Addrs, []uint32{0x10003}) {
		t.Errorf("InBytes with base &10000: %+v %v", r, err)
	}
}

// TestEverywhere: a pattern of nothing but ?? matches wherever it fits,
// and is counted past the listing, across In's chunks too.
func TestEverywhere(t *testing.T) {
	mem := make([]byte, 2*chunk+10)
	p := mustBytes(t, "?? ?? ??")
	for _, from := range []uint32{0, 300, chunk - 1, uint32(len(mem)) - 300, uint32(len(mem)) - 2} {
		r := both(t, p, mem, from)
		total := max(len(mem)-2-int(from), 0)
		if r.Total != total {
			t.Errorf("from &%X: total %d, want %d", from, r.Total, total)
		}
		if want := min(total, Limit); len(r.Addrs) != want || (want > 0 && r.Addrs[0] != from) {
			t.Errorf("from &%X: %d listed from &%X, want %d from &%X", from, len(r.Addrs), r.Addrs, want, from)
		}
		if r.More != (total > Limit) || (r.More && r.Next != from+Limit) {
			t.Errorf("from &%X: more %v next &%X", from, r.More, r.Next)
		}
	}
}
