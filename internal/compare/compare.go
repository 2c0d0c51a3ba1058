// Package compare sets two RAMs side by side, byte by byte, and answers
// where they differ: the engine of the compare tool (spec, "What a machine
// holds"; checklist CMP-1 to CMP-5).
//
// It knows no machine. It is handed the two RAMs as []byte, each indexed
// by the RAM's own addresses, so that what either machine has paged in
// for its processor plays no part: a CPC's RAM beneath its ROMs is at
// &0000-&3FFF and &C000-&FFFF, and a 6128's second 64K at &10000-&1FFFF,
// whatever its RAM configuration. A state kept from a machine is compared
// by handing over the RAM the state holds.
//
// The answer is the runs of neighbouring bytes that differ, lowest first,
// each with the bytes on both sides: at most MaxRuns runs and MaxBytes
// bytes, with how many bytes differ in all and, when it lists fewer, where
// to compare again for the rest: the first byte that differs and is not
// listed, which may be partway into a run. A byte that holds the same value on both
// sides is no difference, however it came to hold it. RAMs of different
// sizes are compared as far as the smaller reaches.
package compare

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/bits"
)

// The most an answer lists (spec: "256 runs and 2048 bytes at most").
const (
	MaxRuns  = 256
	MaxBytes = 2048
)

// Run is a run of neighbouring bytes that differ.
type Run struct {
	// Addr is the RAM address of the run's first byte.
	Addr uint32
	// A and B are the run's bytes on each side, as long as each other.
	A, B []byte
}

// End is the address after the run's last byte.
func (r Run) End() uint32 { return r.Addr + uint32(len(r.A)) }

// String writes the run as an address and its two sides in hex, as the
// spec writes bytes: "&0C382 00 00 / C0 60".
func (r Run) String() string {
	return fmt.Sprintf("&%05X % X / % X", r.Addr, r.A, r.B)
}

// Result is one answer.
type Result struct {
	// Runs are the differences listed, lowest first. A run cut short by
	// MaxBytes goes on at Next.
	Runs []Run
	// Total counts every byte that differs from where the comparison
	// began to where it ended, listed or not.
	Total int
	// Size is where the comparison ended: the smaller RAM's size.
	Size uint32
	// More says that bytes differ that are not listed, and Next is
	// where to compare again for them: the first of them.
	More bool
	Next uint32
}

// Diff compares a and b, each indexed by the RAM's own address, from
// address from to the end of the smaller.
func Diff(a, b []byte, from uint32) (Result, error) {
	size := min(len(a), len(b))
	if uint64(from) > uint64(size) {
		return Result{}, fmt.Errorf("compare: from &%X is past the end of the RAM compared, &%X (the smaller of &%X and &%X)", from, size, len(a), len(b))
	}
	r := Result{Size: uint32(size)}
	a, b = a[:size], b[:size]
	// The bytes listed, both sides, in two buffers the runs share; each
	// is made once, as large as an answer may list, so that it never
	// moves while runs point into it.
	var sideA, sideB []byte
	for i := int(from); i < size; {
		// Skip what is alike, a word at a time.
		i = alike(a, b, i)
		if i >= size {
			break
		}
		if len(r.Runs) == MaxRuns || len(sideA) == MaxBytes {
			// The answer is full: what is left is only counted.
			r.More, r.Next = true, uint32(i)
			r.Total += count(a[i:], b[i:])
			break
		}
		// The run, as far as the answer has room for it; a run cut
		// short is taken up where it was cut when the loop comes round.
		limit := min(size, i+MaxBytes-len(sideA))
		j := i + 1
		for j < limit && a[j] != b[j] {
			j++
		}
		if sideA == nil {
			sideA, sideB = make([]byte, 0, MaxBytes), make([]byte, 0, MaxBytes)
		}
		n := len(sideA)
		sideA, sideB = append(sideA, a[i:j]...), append(sideB, b[i:j]...)
		r.Runs = append(r.Runs, Run{
			Addr: uint32(i),
			A:    sideA[n:len(sideA):len(sideA)],
			B:    sideB[n:len(sideB):len(sideB)],
		})
		r.Total += j - i
		i = j
	}
	return r, nil
}

// block is how much alike and count ask bytes.Equal about at once: long
// enough for its vector loop to pay, short enough that a difference found
// in one costs little to find again a word at a time.
const block = 256

// alike returns the first index at or after i where a and b differ, or
// len(a) where none does. Eight bytes are compared at once where both
// sides are alike through them, which they are in most of a RAM compared
// after a run.
func alike(a, b []byte, i int) int {
	// Long stretches alike go by at the speed of memory.
	for i+block <= len(a) && bytes.Equal(a[i:i+block], b[i:i+block]) {
		i += block
	}
	for i+8 <= len(a) && binary.LittleEndian.Uint64(a[i:]) == binary.LittleEndian.Uint64(b[i:]) {
		i += 8
	}
	for i < len(a) && a[i] == b[i] {
		i++
	}
	return i
}

// count returns how many bytes of a and b differ, eight at a time. In the
// two words' difference x, a byte is not zero just where adding &7F to its
// low seven bits carries into its top bit or its top bit is already set;
// those top bits are counted.
func count(a, b []byte) int {
	const low7, top = 0x7F7F7F7F7F7F7F7F, 0x8080808080808080
	n, i := 0, 0
	for ; i+8 <= len(a); i += 8 {
		if i%block == 0 && i+block <= len(a) && bytes.Equal(a[i:i+block], b[i:i+block]) {
			i += block - 8
			continue
		}
		x := binary.LittleEndian.Uint64(a[i:]) ^ binary.LittleEndian.Uint64(b[i:])
		if x == 0 {
			continue
		}
		n += bits.OnesCount64(((x & low7) + low7 | x) & top)
	}
	for ; i < len(a); i++ {
		if a[i] != b[i] {
			n++
		}
	}
	return n
}
