package inspect

import (
	"encoding"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync"
)

// kind is what a node of a machine's struct is to inspect.
type kind uint8

const (
	kindUint    kind = iota + 1 // an unsigned integer, perhaps an enum
	kindInt                     // a signed integer, perhaps an enum
	kindBool                    //
	kindStruct                  // an object of named fields
	kindArray                   // a fixed number of elements
	kindSlice                   // elements whose number the machine fixed when it was built
	kindPointer                 // a pointer to a struct, followed because its field is named
)

// table is what inspect knows of one Go type: built once per reflect.Type
// by build and kept in the cache, so that a Get does no reflection over
// struct tags and iterates no map.
type table struct {
	t    reflect.Type
	kind kind

	// Integers: the range the type holds, and its names if it is an enum.
	min  int64  // kindInt
	max  uint64 // kindUint; for kindInt, the largest as a positive number
	enum *enumTable

	// Structs.
	fields   []field
	byName   map[string]int // name → index into fields; looked up, never ranged over
	validate bool           // *T has Validate() error

	// Arrays, slices and pointers.
	elem *table
	n    int // kindArray's length
}

// field is one named field of a struct.
type field struct {
	name  string
	index int // the Go field's index
	opts  opts
	tab   *table
}

// opts are what a field's tag says of the values set may give it beyond
// its type: fixed, read-only, and the most it holds. The elements of an
// array take its field's.
type opts struct {
	fixed    bool   // set may write only the value held, and so may a restore
	readOnly bool   // set may write only the value held; a restore may write any
	max      uint64 // the most it holds, where hasMax; for a signed field, as a positive number
	hasMax   bool
}

func (t *table) isLeaf() bool { return t.kind <= kindBool }

// enumTable holds an enum's names: a named integer type with a String
// method. For a type of 16 bits or fewer the names are found by asking
// String of every value the type holds, once; a name belongs to the lowest
// value (as bits) that gives it, so that a String that answers "unknown"
// for every value past its enumerators names only the first of them, and
// the others are given as numbers. A wider type must take its names back
// itself, through encoding.TextUnmarshaler.
type enumTable struct {
	names  []string          // by value's low bits, for the narrow types: "" where the value has no name of its own
	mask   uint64            // the low bits that index names
	values map[string]uint64 // name → bits as bitsOf reads them, for the narrow types
	order  []string          // the names in value order, for messages
	text   bool              // *T implements encoding.TextUnmarshaler, which set then uses
}

var (
	validatorType = reflect.TypeFor[Validator]()
	stringerType  = reflect.TypeFor[fmt.Stringer]()
	unmarshalType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// cached is a root type's table, or the problems that kept it from being
// built.
type cached struct {
	tab *table
	err error
}

var cache sync.Map // reflect.Type → *cached

// tableOf returns the table for a root type, building it on first use.
func tableOf(t reflect.Type) (*table, error) {
	if c, ok := cache.Load(t); ok {
		c := c.(*cached)
		return c.tab, c.err
	}
	b := builder{done: map[reflect.Type]*table{}, busy: map[reflect.Type]bool{}}
	tab := b.build(t, t.String())
	c := &cached{tab: tab}
	if len(b.problems) > 0 {
		c = &cached{err: &TypeError{Type: t.String(), Problems: b.problems}}
	}
	got, _ := cache.LoadOrStore(t, c)
	c = got.(*cached)
	return c.tab, c.err
}

// TypeError lists what is wrong with a machine's type: each exported field
// that is neither named nor hidden, each named field inspect cannot give as
// numbers, and each name used twice.
type TypeError struct {
	Type     string
	Problems []string // each "where: what", in struct order
}

func (e *TypeError) Error() string {
	return fmt.Sprintf("inspect: type %s: %s", e.Type, strings.Join(e.Problems, "; "))
}

// builder builds the tables of one root type.
type builder struct {
	done     map[reflect.Type]*table
	busy     map[reflect.Type]bool // types being built, to find recursion through a pointer
	problems []string
}

func (b *builder) fail(where, format string, args ...any) {
	b.problems = append(b.problems, where+": "+fmt.Sprintf(format, args...))
}

// build returns the table for t, reached at where (for messages), or nil
// after recording why t cannot be inspected.
func (b *builder) build(t reflect.Type, where string) *table {
	if tab, ok := b.done[t]; ok {
		return tab
	}
	tab := &table{t: t}
	switch t.Kind() {
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		tab.kind = kindUint
		tab.max = math.MaxUint64 >> (64 - t.Bits())
		b.enum(tab, where)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		tab.kind = kindInt
		tab.min = math.MinInt64 >> (64 - t.Bits())
		tab.max = math.MaxInt64 >> (64 - t.Bits())
		b.enum(tab, where)
	case reflect.Bool:
		tab.kind = kindBool
	case reflect.Array:
		tab.kind = kindArray
		tab.n = t.Len()
		if tab.elem = b.build(t.Elem(), where+"[]"); tab.elem == nil {
			return nil
		}
	case reflect.Slice:
		tab.kind = kindSlice
		if tab.elem = b.build(t.Elem(), where+"[]"); tab.elem == nil {
			return nil
		}
	case reflect.Pointer:
		if t.Elem().Kind() != reflect.Struct {
			b.fail(where, "a pointer to %s is followed only to a struct: hide it with inspect:\"-\"", t.Elem())
			return nil
		}
		tab.kind = kindPointer
		if b.busy[t.Elem()] {
			b.fail(where, "%s reaches itself through this pointer, which inspect would follow for ever: hide it with inspect:\"-\"", t.Elem())
			return nil
		}
		if tab.elem = b.build(t.Elem(), where); tab.elem == nil {
			return nil
		}
	case reflect.Struct:
		tab.kind = kindStruct
		b.busy[t] = true
		ok := b.structFields(tab, where)
		delete(b.busy, t)
		if !ok {
			return nil
		}
	default:
		// Interfaces, functions, channels, maps, strings, floats and
		// unsafe pointers: none is a number a chip holds.
		b.fail(where, "%s is nothing inspect gives as numbers: hide it with inspect:\"-\"", article(t.Kind().String()))
		return nil
	}
	b.done[t] = tab
	return tab
}

// structFields fills a struct's table from its fields' tags.
func (b *builder) structFields(tab *table, where string) bool {
	t := tab.t
	tab.byName = map[string]int{}
	tab.validate = reflect.PointerTo(t).Implements(validatorType)
	ok := true
	for i := range t.NumField() {
		sf := t.Field(i)
		at := where + "." + sf.Name
		tag, tagged := sf.Tag.Lookup("inspect")
		if !sf.IsExported() {
			// What a struct keeps unexported is its own business, and
			// reflection cannot write it; a tag there promises what
			// inspect cannot keep.
			if tagged && tag != "-" {
				b.fail(at, "an unexported field cannot be inspected or set: export it, or drop its tag")
				ok = false
			}
			continue
		}
		if !tagged {
			b.fail(at, "an exported field needs an inspect tag: its name, or \"-\" to hide it")
			ok = false
			continue
		}
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if !validName(name) {
			b.fail(at, "inspect name %q: a name is a lower-case letter, then lower-case letters, digits and underscores", name)
			ok = false
			continue
		}
		f := field{name: name, index: i}
		for opt := range strings.SplitSeq(opts, ",") {
			switch {
			case opt == "":
			case opt == "fixed":
				f.opts.fixed = true
			case opt == "readonly":
				f.opts.readOnly = true
			case strings.HasPrefix(opt, "max="):
				m, err := parseMax(opt[len("max="):])
				if err != nil {
					b.fail(at, "inspect option %q: %v", opt, err)
					ok = false
				}
				f.opts.max, f.opts.hasMax = m, true
			default:
				b.fail(at, "unknown inspect option %q (the options are \"fixed\", \"readonly\" and \"max=N\")", opt)
				ok = false
			}
		}
		if j, dup := tab.byName[name]; dup {
			b.fail(at, "inspect name %q is already %s's", name, t.Field(tab.fields[j].index).Name)
			ok = false
			continue
		}
		if f.tab = b.build(sf.Type, at); f.tab == nil {
			ok = false
			continue
		}
		if (f.opts.fixed || f.opts.readOnly) && !f.tab.isLeaf() {
			b.fail(at, "only a number or a bool can be fixed or read-only")
			ok = false
		}
		if f.opts.hasMax {
			leaf := f.tab
			for leaf.kind == kindArray || leaf.kind == kindSlice {
				leaf = leaf.elem
			}
			switch {
			case leaf.kind != kindUint && leaf.kind != kindInt:
				b.fail(at, "only an integer, or an array of them, has a max")
				ok = false
			case f.opts.max > leaf.max:
				b.fail(at, "max=%d is past what %s holds", f.opts.max, leaf.typeName())
				ok = false
			}
		}
		tab.byName[name] = len(tab.fields)
		tab.fields = append(tab.fields, f)
	}
	return ok
}

// parseMax reads a max option's number: decimal, or hexadecimal after &
// or 0x, as a register's width is easiest to read.
func parseMax(s string) (uint64, error) {
	switch {
	case strings.HasPrefix(s, "&"):
		return strconv.ParseUint(s[1:], 16, 64)
	case strings.HasPrefix(s, "0x"):
		return strconv.ParseUint(s[2:], 16, 64)
	}
	return strconv.ParseUint(s, 10, 64)
}

// validName reports whether s is a name as paths spell them.
func validName(s string) bool {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '_' {
			return false
		}
	}
	return true
}

// enum makes an integer's table an enum's when its type is named and has a
// String method.
func (b *builder) enum(tab *table, where string) {
	t := tab.t
	if t.PkgPath() == "" || !(t.Implements(stringerType) || reflect.PointerTo(t).Implements(stringerType)) {
		return
	}
	e := &enumTable{text: reflect.PointerTo(t).Implements(unmarshalType)}
	tab.enum = e
	if t.Bits() > 16 {
		if !e.text {
			b.fail(where, "%s has a String method, and is too wide to find its names by asking every value: implement encoding.TextUnmarshaler on *%s", t, t.Name())
		}
		return
	}
	n := uint64(1) << t.Bits()
	e.names = make([]string, n)
	e.mask = n - 1
	e.values = map[string]uint64{}
	v := reflect.New(t).Elem()
	for low := range n {
		setBits(v, tab, low) // a signed type takes the low bits in two's complement
		name := stringOf(v)
		if _, taken := e.values[name]; taken || name == "" {
			continue
		}
		e.values[name] = bitsOf(v, tab)
		e.names[low] = name
		e.order = append(e.order, name)
	}
}

// name returns the name of the value bits, or "" where it has none of its
// own (or where the type is too wide to have a table of names).
func (e *enumTable) name(bits uint64) string {
	if e.names == nil {
		return ""
	}
	return e.names[bits&e.mask]
}

// stringOf calls an addressable enum value's String method.
func stringOf(v reflect.Value) string {
	if s, ok := v.Interface().(fmt.Stringer); ok {
		return s.String()
	}
	return v.Addr().Interface().(fmt.Stringer).String()
}

// bitsOf reads a leaf as 64 bits: an unsigned integer as itself, a signed
// one in two's complement, a bool as 0 or 1.
func bitsOf(v reflect.Value, t *table) uint64 {
	switch t.kind {
	case kindUint:
		return v.Uint()
	case kindInt:
		return uint64(v.Int())
	}
	if v.Bool() {
		return 1
	}
	return 0
}

// setBits writes a leaf from bits as bitsOf reads them.
func setBits(v reflect.Value, t *table, bits uint64) {
	switch t.kind {
	case kindUint:
		v.SetUint(bits)
	case kindInt:
		v.SetInt(int64(bits))
	default:
		v.SetBool(bits != 0)
	}
}

// typeName is how messages name a node's type: a uint8, a crtc.Type.
func (t *table) typeName() string {
	s := t.t.String()
	if t.kind == kindArray || t.kind == kindSlice || t.kind == kindStruct || t.kind == kindPointer {
		return s
	}
	return article(s)
}

// article puts "a" or "an" before a Go type's name or kind, as it is
// said: an int8, a uint8, an interface.
func article(s string) string {
	if strings.HasPrefix(s, "int") || strings.HasPrefix(s, "array") {
		return "an " + s
	}
	return "a " + s
}
