// Package inspect reads and writes a machine's struct by the paths a C
// expression gives a field of the emulator's own: cpu.pc,
// crtc.registers[12], fdc.units[0].head. It is the one mechanism behind the
// server's inspect and set and the state file's fields (spec, "What a
// machine holds" and "Keeping a machine"; ARCHITECTURE.md, principle 3), so
// that no list of fields is ever written out by hand.
//
// # Names
//
// A field's name is its struct tag, inspect:"name", and inspect:"-" hides
// it. Every exported field of every struct inspect reaches must carry one
// or the other, and a type that leaves one out is refused whole, by
// [Check] and by every other function here, with each such field named.
// Names are the emulator's headers' and the datasheets' (iff1, r52, c4,
// a_), which no rule could derive from Go's (IFF1, R52, C4, A_) without
// special cases; a name a rule made up would still be a name the state file
// keeps, and a field added without thought would silently get one. So each
// name is chosen by whoever adds the field, where the field is declared.
//
// Unexported fields are invisible: inspect neither reads nor writes them,
// and so neither does the state file. State that a machine needs to go on
// exactly from where it stood must be exported and named, or worked out
// again by the AfterSet hook.
//
// What inspect gives is numbers: integers (unsigned as uint64, signed as
// int64), bools, and arrays and structs of them. A pointer is not followed
// (peek reads memory); it must be hidden, unless it points to a struct and
// is named, in which case it is followed as if the struct were held by
// value, and a nil one reads as null. Interfaces, functions, maps, strings
// and floats must be hidden. Hidden too are the big buffers, the RAM and
// the picture, which peek and the monitor read and the state file keeps
// byte for byte after its first line.
//
// A named integer type with a String method is an enum, and is given by
// its enumerator's name. For a type of 16 bits or fewer, the names are
// found once by asking String of every value; a name belongs to the lowest
// value that gives it, and a value whose String gives a name already taken
// (an "unknown", say) is given as a number. A wider enum type must
// implement encoding.TextUnmarshaler, which set then uses to take a name
// back; a narrower one may, and set then uses it too.
//
// The tag option fixed, inspect:"type,fixed", marks a field set may not
// change: a value other than the one held is refused, and the one held is
// taken, so a state file restores only into a machine built alike (a CPC's
// 6845 type, IS-8). The option readonly, inspect:"tick,readonly", marks one
// that set may not change but a state's restore writes: the processor's
// tick, which only running the machine moves (T-1).
//
// The option max=N, inspect:"border,max=7", gives the most a field of
// integers holds where its hardware holds fewer bits than its Go type: the
// ULA's border colour is three bits of a byte. N is decimal, or hexadecimal
// after & or 0x; an array's elements take their field's. A value past it is
// refused with the range, before anything is written. A range that depends
// on another field, or on how the machine was built, is a Validate's.
//
// # Setting
//
// [Set], [SetMany] and [Restore] take values as JSON decodes them, or as
// a Go caller would give them: a number for an integer (json.Number, a
// float64 that is a whole number up to 2^53, or any Go integer), a bool,
// an enum's name, and for an unsigned integer that is no enum also a
// string of hexadecimal after &, #, $ or 0x (spec: "set takes hexadecimal
// for a field of unsigned integers too"). A string without one of those
// prefixes is refused rather than read as decimal, since a reader of the
// CPC's manuals may mean "10" as &10. A whole struct takes an object of
// some of its fields, and a whole array a list of all its elements. Every
// value must fit the type of its field (a uint8 holds 0 to 255), or the set
// is refused with the path and the range.
//
// Range checks beyond the type's live beside the fields they guard: after
// the writes, every struct they passed through that has a Validate method,
// the root among them, is asked, the innermost first. If any refuses, every
// write is taken back and the error is returned with the struct's path, so
// a refused set leaves the machine exactly as it was. Once every check
// passes, the root's AfterSet hook is told of each path written, in order:
// a CPC works its memory map out again there, and a Spectrum stands its ULA
// at its frame_tick (IS-10).
//
// Before it reads or writes anything, each function here calls the root's
// BeforeInspect hook, if it has one, so that a machine that runs its chips
// lazily catches them up to its tick, and what is read is what the silicon
// holds at that tick.
//
// # Errors
//
// A path that names nothing is refused with the path and the names nearest
// to the wrong one at that level; an index past the end with the length;
// a value of the wrong kind with what the field wants. Each is an [*Error];
// a type that cannot be inspected is a [*TypeError] listing every problem.
//
// A root is used by one goroutine at a time, as the host serialises the
// requests to each machine; the tables inspect keeps of each type are
// shared safely.
package inspect

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// Validator is a struct that knows which values its fields may hold beyond
// what their types allow. Its error names the field as inspect does, and
// the range that would do.
type Validator interface {
	Validate() error
}

// AfterSetter is a machine that works something out again after a set:
// it is told of each path written, in the order given, once every value is
// written and every Validate has passed.
type AfterSetter interface {
	AfterSet(path string)
}

// BeforeInspecter is a machine that runs some of its chips lazily, and
// catches them up to its tick before inspect reads or writes it.
type BeforeInspecter interface {
	BeforeInspect()
}

// Field is a path and a value: a leaf as Fields reads it, or a value given
// to SetMany or Restore.
type Field struct {
	Path  string
	Value any
}

// Object is a struct as Get gives it: its fields in the struct's order.
// It marshals to a JSON object in that order.
type Object []Member

// Member is one field of an Object.
type Member struct {
	Name  string
	Value any
}

// rootOf returns the struct a root is, and its table. A writer must give a
// pointer, so that what it writes is the caller's machine.
func rootOf(root any, write bool) (reflect.Value, *table, error) {
	rv := reflect.ValueOf(root)
	switch {
	case rv.Kind() == reflect.Pointer && !rv.IsNil() && rv.Elem().Kind() == reflect.Struct:
		rv = rv.Elem()
	case rv.Kind() == reflect.Struct && !write:
	default:
		return rv, nil, fmt.Errorf("inspect: the root is a %T; it must be a pointer to a machine's struct", root)
	}
	tab, err := tableOf(rv.Type())
	if err != nil {
		return rv, nil, err
	}
	if b, ok := root.(BeforeInspecter); ok {
		b.BeforeInspect()
	}
	return rv, tab, nil
}

// Check reports whether root's type can be inspected: every exported field
// named or hidden, every name a name, each used once at its level, and
// every named field a number, a bool, an enum, or a struct, array or
// followed pointer of those. Its error lists every problem. A machine's
// tests call it so that a field added without a tag is caught there.
func Check(root any) error {
	rv := reflect.ValueOf(root)
	if rv.Kind() == reflect.Pointer && rv.Type().Elem().Kind() == reflect.Struct {
		_, err := tableOf(rv.Type().Elem())
		return err
	}
	if rv.Kind() != reflect.Struct {
		return fmt.Errorf("inspect: the root is a %T; it must be a machine's struct", root)
	}
	_, err := tableOf(rv.Type())
	return err
}

// Get returns the value at path: a number (uint64 or int64), a bool, an
// enum's name, an Object for a struct, a []any for an array, or nil for a
// nil pointer. The empty path is the whole machine.
func Get(root any, path string) (any, error) {
	rv, tab, err := rootOf(root, false)
	if err != nil {
		return nil, err
	}
	v, t, _, err := resolve(rv, tab, path, nil)
	if err != nil {
		return nil, err
	}
	return t.get(v), nil
}

// Walk calls fn with every leaf of the machine, in struct order, with its
// path and its value as Get gives it; a nil pointer is one leaf whose value
// is nil. An error from fn stops the walk and is returned.
func Walk(root any, fn func(path string, value any) error) error {
	rv, tab, err := rootOf(root, false)
	if err != nil {
		return err
	}
	return visit(rv, tab, make([]byte, 0, 64), func(path []byte, v reflect.Value, t *table) error {
		return fn(string(path), t.get(v))
	})
}

// Fields returns every leaf of the machine, in struct order, as Walk
// visits them: what the state file keeps of its fields.
func Fields(root any) ([]Field, error) {
	var fs []Field
	err := Walk(root, func(path string, value any) error {
		fs = append(fs, Field{Path: path, Value: value})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return fs, nil
}

// Leaf is what set may write at a leaf: its kind, the most it holds, by
// its type and its tag's max, and whether it is fixed or read-only.
type Leaf struct {
	Integer  bool   // an integer, perhaps an enum; else a bool
	Signed   bool   // a signed integer
	Max      uint64 // for an integer, the most it holds; for a signed one, as a positive number
	Fixed    bool   // set writes only the value held, and so does a restore
	ReadOnly bool   // set writes only the value held; a restore writes any
}

// LeafOf says what set may write at the leaf path names. A Validate may
// narrow the range further as the machine stands.
func LeafOf(root any, path string) (Leaf, error) {
	rv, tab, err := rootOf(root, false)
	if err != nil {
		return Leaf{}, err
	}
	_, t, o, err := resolve(rv, tab, path, nil)
	if err != nil {
		return Leaf{}, err
	}
	if !t.isLeaf() {
		return Leaf{}, refuse(path, "%s is no leaf", t.typeName())
	}
	l := Leaf{Integer: t.kind != kindBool, Signed: t.kind == kindInt, Max: t.max, Fixed: o.fixed, ReadOnly: o.readOnly}
	if t.kind == kindBool {
		l.Max = 1
	}
	if o.hasMax {
		l.Max = o.max
	}
	return l, nil
}

// Set writes value at path, as the package comment describes, or refuses
// and leaves the machine as it was.
func Set(root any, path string, value any) error {
	return SetMany(root, []Field{{Path: path, Value: value}})
}

// SetMany writes every value given or none (IS-5): each is converted and
// range-checked before any is written, the checks run once all are
// written, and a refusal takes every write back. A leaf given twice is
// refused. AfterSet is told of each path in the order given.
func SetMany(root any, fs []Field) error {
	rv, tab, err := rootOf(root, true)
	if err != nil {
		return err
	}
	s := newSetter()
	for _, f := range fs {
		if err := s.assign(rv, tab, f.Path, f.Value); err != nil {
			return err
		}
	}
	if err := s.apply(); err != nil {
		return err
	}
	after(root, fs)
	return nil
}

// Restore writes a state's fields back, each through the checks set makes
// (spec, "Keeping a machine"): all of them or none. A path the machine has
// no field by is refused by name, and so is a state that lacks any of the
// machine's fields, since a machine restored in part is no machine kept.
// A read-only field, which set may not change, is written as the state
// kept it.
func Restore(root any, fs []Field) error {
	rv, tab, err := rootOf(root, true)
	if err != nil {
		return err
	}
	s := newSetter()
	s.restoring = true
	for _, f := range fs {
		if err := s.assign(rv, tab, f.Path, f.Value); err != nil {
			return err
		}
	}
	var missing []string
	err = visit(rv, tab, make([]byte, 0, 64), func(path []byte, v reflect.Value, t *table) error {
		if _, ok := s.written[v.UnsafeAddr()]; !ok {
			missing = append(missing, string(path))
		}
		return nil
	})
	if err != nil {
		return err
	}
	if len(missing) > 0 {
		return &Error{Err: fmt.Errorf("the state lacks %d of the machine's fields: %s", len(missing), sample(missing))}
	}
	if err := s.apply(); err != nil {
		return err
	}
	after(root, fs)
	return nil
}

// after calls the root's AfterSet hook for each path written.
func after(root any, fs []Field) {
	if a, ok := root.(AfterSetter); ok {
		for _, f := range fs {
			a.AfterSet(f.Path)
		}
	}
}

// sample lists the first few of many paths.
func sample(paths []string) string {
	const n = 5
	if len(paths) <= n {
		return strings.Join(paths, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(paths[:n], ", "), len(paths)-n)
}

// visit calls fn with each leaf under v, and each nil pointer, in struct
// order, with its path appended to buf.
func visit(v reflect.Value, t *table, buf []byte, fn func(path []byte, v reflect.Value, t *table) error) error {
	switch t.kind {
	case kindStruct:
		for i := range t.fields {
			f := &t.fields[i]
			b := buf
			if len(b) > 0 {
				b = append(b, '.')
			}
			b = append(b, f.name...)
			if err := visit(v.Field(f.index), f.tab, b, fn); err != nil {
				return err
			}
		}
		return nil
	case kindArray, kindSlice:
		for i := range v.Len() {
			b := append(buf, '[')
			b = strconv.AppendInt(b, int64(i), 10)
			b = append(b, ']')
			if err := visit(v.Index(i), t.elem, b, fn); err != nil {
				return err
			}
		}
		return nil
	case kindPointer:
		if !v.IsNil() {
			return visit(v.Elem(), t.elem, buf, fn)
		}
	}
	return fn(buf, v, t)
}
