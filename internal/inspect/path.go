package inspect

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"colophon/internal/quote"
)

// Error is a path, or a value given for one, that inspect refuses, or the
// refusal of a struct's Validate after a set. Path is the path the error
// is about: the one given, a field inside it where a value was given for a
// whole struct or array, or the struct whose Validate refused.
type Error struct {
	Path string
	Err  error
}

// Error writes the path as given, cut short if long (internal/quote).
func (e *Error) Error() string {
	if e.Path == "" {
		return e.Err.Error()
	}
	return quote.Raw(e.Path) + ": " + e.Err.Error()
}

// MaxPath is the longest path inspect reads: more than any field's path,
// and short enough that a message quoting it stays short.
const MaxPath = 128

func (e *Error) Unwrap() error { return e.Err }

func refuse(path, format string, args ...any) error {
	return &Error{Path: path, Err: fmt.Errorf(format, args...)}
}

// onStruct is told of each struct a path passes through, the root among
// them, with the struct's own path and its depth (the root's is 0).
type onStruct func(v reflect.Value, t *table, path string, depth int)

// resolve follows path from the root to the node it names. It returns the
// node, its table, and what its field's tag says of it: an array's element
// takes its array's.
//
// A path is what a C expression gives a field of the emulator's struct:
// names joined by dots, each perhaps followed by indexes in brackets, as
// cpu.pc, crtc.registers[12], fdc.units[0].head. An index is decimal. The
// empty path is the root.
func resolve(root reflect.Value, tab *table, path string, on onStruct) (reflect.Value, *table, opts, error) {
	if len(path) > MaxPath {
		return root, tab, opts{}, refuse(path, "the path is %d characters long; a path is at most %d", len(path), MaxPath)
	}
	v, t, o := root, tab, opts{}
	depth := 0
	if on != nil {
		on(v, t, "", 0)
	}
	for i := 0; i < len(path); {
		switch c := path[i]; {
		case c == '[':
			end := strings.IndexByte(path[i:], ']')
			if end < 0 {
				return v, t, opts{}, refuse(path, "the [ at %d has no ]", i)
			}
			end += i
			if t.kind != kindArray && t.kind != kindSlice {
				return v, t, opts{}, notThere(path, path[:i], t, "an index")
			}
			n := t.n
			if t.kind == kindSlice {
				n = v.Len()
			}
			idx, ok := parseIndex(path[i+1 : end])
			if !ok {
				return v, t, opts{}, refuse(path, "index %s: an index is a decimal number, 0 to %d", quote.String(path[i+1:end]), n-1)
			}
			if idx >= n {
				return v, t, opts{}, refuse(path, "index %d is out of range: %s has %d elements, [0] to [%d]", idx, label(path[:i]), n, n-1)
			}
			v, t = v.Index(idx), t.elem
			i = end + 1
		default:
			if i > 0 {
				if c != '.' {
					return v, t, opts{}, refuse(path, "%s after %s: a field is named after a dot, an element indexed in brackets", quote.String(path[i:]), path[:i])
				}
				i++
			}
			j := i
			for j < len(path) && path[j] != '.' && path[j] != '[' {
				j++
			}
			name := path[i:j]
			at := path[:max(i-1, 0)]
			if name == "" {
				return v, t, opts{}, refuse(path, "a name is missing after %s", label(at))
			}
			if t.kind != kindStruct {
				return v, t, opts{}, notThere(path, at, t, "a field")
			}
			fi, ok := t.byName[name]
			if !ok {
				return v, t, opts{}, refuse(path, "no field %s in %s; nearest: %s", quote.String(name), label(at), strings.Join(nearest(name, t), ", "))
			}
			f := &t.fields[fi]
			v, t, o = v.Field(f.index), f.tab, f.opts
			i = j
		}
		if t.kind == kindPointer && i < len(path) {
			if v.IsNil() {
				return v, t, opts{}, refuse(path, "%s is nil: there is nothing inside it", path[:i])
			}
			v, t = v.Elem(), t.elem
		}
		if on != nil && t.kind == kindStruct {
			depth++
			on(v, t, path[:i], depth)
		}
	}
	return v, t, o, nil
}

// child is the path of a struct's field.
func child(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// label names a node in a message: the root is "the machine".
func label(path string) string {
	if path == "" {
		return "the machine"
	}
	return path
}

// notThere refuses an index into something that is not an array, or a
// field of something that is not a struct.
func notThere(path, at string, t *table, what string) error {
	switch t.kind {
	case kindStruct:
		if len(t.fields) == 0 {
			return refuse(path, "%s is a struct with no fields to inspect", label(at))
		}
		return refuse(path, "%s is a struct: name one of its fields after a dot, as %s", label(at), child(at, t.fields[0].name))
	case kindArray, kindSlice:
		return refuse(path, "%s is an array: index one of its elements, as %s[0]", at, at)
	case kindPointer:
		return refuse(path, "%s is nil: there is nothing inside it", at)
	}
	return refuse(path, "%s is %s, which has no %s inside it", at, t.typeName(), what)
}

// parseIndex reads a decimal index; nine digits is more than any array a
// machine holds, and keeps the sum from overflowing.
func parseIndex(s string) (int, bool) {
	if s == "" || len(s) > 9 {
		return 0, false
	}
	n := 0
	for i := range len(s) {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// nearest returns the three names of a struct's fields closest to name by
// edit distance, the nearer first and, between equals, in struct order.
func nearest(name string, t *table) []string {
	// A name longer than any field's is as far from each as its length
	// says; its first bytes are enough to rank them, and keep the cost of
	// a long one bounded.
	if len(name) > 64 {
		name = name[:64]
	}
	type cand struct {
		name string
		d    int
	}
	cs := make([]cand, len(t.fields))
	for i, f := range t.fields {
		cs[i] = cand{f.name, distance(name, f.name)}
	}
	slices.SortStableFunc(cs, func(a, b cand) int { return a.d - b.d })
	var out []string
	for _, c := range cs[:min(3, len(cs))] {
		out = append(out, c.name)
	}
	return out
}

// distance is the Levenshtein distance between two names, in bytes.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
