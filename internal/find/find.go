// Package find searches memory for bytes or for text: the engine of the
// find tool (spec, "What a machine holds"; checklist FD-1 to FD-5).
//
// It knows no machine. A caller hands it the memory to search either as a
// Memory, a function from an address to the byte there, so that a search
// reads memory as the processor would through a machine's banking and ROMs
// (its Peek), or as one flat []byte, so that a CPC's RAM is searched by
// its own addresses, &00000 to &1FFFF on a 6128, without a call per byte.
//
// A Pattern is bytes, written as the spec writes them, pairs of hex digits
// with ?? for a byte that may be anything ("CD 18 BB", "3E ?? C9"), or
// text, each character of which matches a byte on the byte's low seven
// bits alone. Both the 48K ROM and the CPC firmware end many of their words
// by setting the last character's eighth bit (The Complete Spectrum ROM
// Disassembly writes the keyword RND as DEFM "RN","D"+$80), so text
// written plainly finds them.
//
// An answer lists the addresses where the pattern begins, lowest first, at
// most Limit of them, with how many there are in all and, when there are
// more than it lists, where to search again for the rest.
package find

import (
	"bytes"
	"fmt"
	"strings"

	"colophon/internal/quote"
)

// Limit is the most addresses an answer lists (spec: "256 at most").
const Limit = 256

// MaxLen is the longest pattern, in bytes or characters. No search needs
// more, and it bounds the work a single match can cost.
const MaxLen = 256

// Pattern is what a search looks for. Byte i of memory from where a match
// begins must satisfy b&mask[i] == want[i]: a mask of &FF for a byte
// given, &00 for ??, and &7F for a character of text.
type Pattern struct {
	want, mask []byte
	text       bool
}

// Bytes parses bytes written as the spec writes them: pairs of hex digits,
// upper or lower case, with ?? for any byte, separated by spaces or run
// together ("CD 18 BB", "3e??c9"). The error names the argument, bytes,
// and the pair it could not read.
func Bytes(s string) (Pattern, error) {
	digits := strings.Join(strings.Fields(s), "")
	if digits == "" {
		return Pattern{}, fmt.Errorf("find: bytes: empty; give pairs of hex digits such as \"CD 18 BB\", with ?? for any byte")
	}
	// Pairs are read over the text with the separators taken out, but an
	// error is better reported against what was written; fields keeps
	// the two in step where each field is whole pairs, as it should be.
	for _, f := range strings.Fields(s) {
		if len(f)%2 != 0 {
			return Pattern{}, fmt.Errorf("find: bytes %s: %s is not whole pairs of hex digits", quote.String(s), quote.String(f))
		}
	}
	n := len(digits) / 2
	if n > MaxLen {
		return Pattern{}, fmt.Errorf("find: bytes: %d bytes, the most is %d", n, MaxLen)
	}
	p := Pattern{want: make([]byte, n), mask: make([]byte, n)}
	for i := range n {
		pair := digits[2*i : 2*i+2]
		if pair == "??" {
			continue // mask and want stay 0: anything matches
		}
		hi, ok1 := hexDigit(pair[0])
		lo, ok2 := hexDigit(pair[1])
		if !ok1 || !ok2 {
			return Pattern{}, fmt.Errorf("find: bytes %s: byte %d, %q, is neither two hex digits nor ??", quote.String(s), i+1, pair)
		}
		p.want[i] = hi<<4 | lo
		p.mask[i] = 0xFF
	}
	return p, nil
}

func hexDigit(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// Text makes a pattern of ASCII text, each character matching a byte whose
// low seven bits are that character, whatever its eighth bit. The error
// names the argument, text, and the first character that is not ASCII.
func Text(s string) (Pattern, error) {
	if s == "" {
		return Pattern{}, fmt.Errorf("find: text: empty")
	}
	if len(s) > MaxLen {
		return Pattern{}, fmt.Errorf("find: text: %d characters, the most is %d", len(s), MaxLen)
	}
	p := Pattern{want: make([]byte, len(s)), mask: make([]byte, len(s)), text: true}
	for i, r := range s {
		if r >= 0x80 {
			return Pattern{}, fmt.Errorf("find: text %s: character %d, %q, is not ASCII; a byte's low seven bits hold only ASCII", quote.String(s), i+1, r)
		}
		p.want[i] = byte(r)
		p.mask[i] = 0x7F
	}
	return p, nil
}

// Len is the pattern's length in bytes: the memory a match covers.
func (p Pattern) Len() int { return len(p.want) }

// At is byte i of a pattern of bytes: the byte it must be, or any, for ??.
func (p Pattern) At(i int) (b byte, any bool) { return p.want[i], p.mask[i] == 0 }

// String writes the pattern back as it would be given: bytes as spaced
// pairs with ?? ("3E ?? C9"), text quoted.
func (p Pattern) String() string {
	if p.text {
		return fmt.Sprintf("text %q", string(p.want))
	}
	var b strings.Builder
	for i, v := range p.want {
		if i > 0 {
			b.WriteByte(' ')
		}
		if p.mask[i] == 0 {
			b.WriteString("??")
		} else {
			fmt.Fprintf(&b, "%02X", v)
		}
	}
	return b.String()
}

// Memory reads the byte at an address of the memory searched. It must not
// change the memory.
type Memory func(addr uint32) byte

// Result is one answer.
type Result struct {
	// Addrs are where the pattern begins, lowest first, Limit at most.
	Addrs []uint32
	// Total counts every match from where the search began to the end
	// of the memory, listed or not.
	Total int
	// More says that matches lie past the last one listed, and Next is
	// where to search again for them: the address after that last one.
	More bool
	Next uint32
}

// add counts a match at a, listing it while there is room.
func (r *Result) add(a uint32) {
	r.Total++
	if len(r.Addrs) < Limit {
		r.Addrs = append(r.Addrs, a)
		return
	}
	if !r.More {
		r.More = true
		r.Next = r.Addrs[Limit-1] + 1
	}
}

// chunk is how much of a Memory In reads into a buffer at a time: the
// search then runs over the buffer as InBytes does.
const chunk = 16 << 10

// In searches the memory mem holds from address from up to, not including,
// end, for matches lying wholly within it. A Memory that reads a 64K
// through a machine's banking is searched with end &10000, and never runs
// on past &FFFF to &0000, as peek from an address does not.
func In(p Pattern, mem Memory, from, end uint32) (Result, error) {
	if err := p.check(); err != nil {
		return Result{}, err
	}
	if from > end {
		return Result{}, fmt.Errorf("find: from &%X is past the end of the memory searched, &%X", from, end)
	}
	var r Result
	n := uint32(len(p.want))
	if end-from < n {
		return r, nil
	}
	// Each round reads the bytes of the matches that may begin in the
	// next chunk, and the n-1 after them that the last of those reach.
	buf := make([]byte, 0, chunk+n-1)
	for at := uint64(from); at+uint64(n) <= uint64(end); at += chunk {
		stop := min(at+chunk+uint64(n)-1, uint64(end))
		buf = buf[:0]
		for a := at; a < stop; a++ {
			buf = append(buf, mem(uint32(a)))
		}
		p.scan(buf, uint32(at), &r)
	}
	return r, nil
}

// InBytes searches b, whose first byte lies at address base, from address
// from to its end, for matches lying wholly within it. A CPC's RAM is
// searched by its own addresses with base 0.
func InBytes(p Pattern, b []byte, base, from uint32) (Result, error) {
	if err := p.check(); err != nil {
		return Result{}, err
	}
	end := uint64(base) + uint64(len(b))
	if from < base || uint64(from) > end {
		return Result{}, fmt.Errorf("find: from &%X is outside the memory searched, &%X to &%X", from, base, end)
	}
	var r Result
	p.scan(b[from-base:], from, &r)
	return r, nil
}

func (p Pattern) check() error {
	if len(p.want) == 0 {
		return fmt.Errorf("find: an empty pattern; make one with Bytes or Text")
	}
	return nil
}

// scan adds to r every match lying wholly within b, whose first byte is at
// address base, in order of address.
//
// Only where the pattern's anchor, its first byte that is not ??, matches
// is the rest compared. Where the byte at hand is no candidate, the next
// is sought with bytes.IndexByte, which reads many bytes to an instruction,
// so that memory where the anchor is rare is crossed at the speed of
// memory; where candidates lie close together, as in memory of one byte
// over and over, the loop walks them one by one without calling it. A
// character of text has two bytes that match it, with and without bit 7,
// so for text the next place of each is kept and the nearer taken.
func (p Pattern) scan(b []byte, base uint32, r *Result) {
	n := len(p.want)
	last := len(b) - n // the last place a match may begin
	if last < 0 {
		return
	}
	k := p.anchor()
	if k < 0 {
		// Nothing but ??: a match begins everywhere it fits.
		listed := 0
		for ; listed <= last && len(r.Addrs) < Limit; listed++ {
			r.add(base + uint32(listed))
		}
		if rest := last + 1 - listed; rest > 0 {
			r.Total += rest
			if !r.More {
				r.More = true
				r.Next = r.Addrs[Limit-1] + 1
			}
		}
		return
	}
	mask, want := p.mask[k], p.want[k]
	alt := want // the other byte that matches the anchor, for text
	if mask == 0x7F {
		alt |= 0x80
	}
	// next[j] is the index of b, at or past the one last sought, where
	// want (j=0) or alt (j=1) next stands; len(b) where neither does.
	next := [2]int{-1, -1}
	seek := func(j int, v byte, from int) int {
		if next[j] < from {
			if i := bytes.IndexByte(b[from:], v); i >= 0 {
				next[j] = from + i
			} else {
				next[j] = len(b)
			}
		}
		return next[j]
	}
	for i := 0; i <= last; i++ {
		if b[i+k]&mask != want {
			c := seek(0, want, i+k+1)
			if alt != want {
				c = min(c, seek(1, alt, i+k+1))
			}
			i = c - k
			if i > last {
				return
			}
		}
		if p.matches(b[i : i+n]) {
			r.add(base + uint32(i))
		}
	}
}

// anchor is the index of the pattern's first byte that is not ??, or -1.
func (p Pattern) anchor() int {
	for i, m := range p.mask {
		if m != 0 {
			return i
		}
	}
	return -1
}

// matches reports whether the pattern matches b, which is as long.
func (p Pattern) matches(b []byte) bool {
	for i, v := range b {
		if v&p.mask[i] != p.want[i] {
			return false
		}
	}
	return true
}
