package inspect

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"colophon/internal/quote"
)

// write is one leaf to be written, and what it held before.
type write struct {
	v         reflect.Value
	t         *table
	bits, old uint64
}

// check is a struct whose Validate is called once the writes are made.
type check struct {
	v     reflect.Value
	path  string
	depth int
}

type checkKey struct {
	addr uintptr
	t    reflect.Type // a struct and its first field share an address
}

// setter gathers the writes of one set, SetMany or Restore, so that every
// value is converted and range-checked before anything is written, and
// every write can be taken back if a Validate refuses.
type setter struct {
	// restoring is set for a state's restore, which writes a read-only
	// field as the state kept it.
	restoring bool
	writes    []write
	written   map[uintptr]string // each leaf's address → the path that wrote it
	checks    []check
	checked   map[checkKey]bool
	depth     int // of the last struct resolve passed through
}

func newSetter() *setter {
	return &setter{written: map[uintptr]string{}, checked: map[checkKey]bool{}}
}

// onStruct is resolve's callback: it notes the structs with a Validate.
func (s *setter) onStruct(v reflect.Value, t *table, path string, depth int) {
	s.depth = depth
	s.addCheck(v, t, path, depth)
}

func (s *setter) addCheck(v reflect.Value, t *table, path string, depth int) {
	if !t.validate {
		return
	}
	k := checkKey{v.UnsafeAddr(), t.t}
	if s.checked[k] {
		return
	}
	s.checked[k] = true
	s.checks = append(s.checks, check{v: v, path: path, depth: depth})
}

// assign gathers the writes of one path and the value given for it.
func (s *setter) assign(root reflect.Value, tab *table, path string, value any) error {
	v, t, o, err := resolve(root, tab, path, s.onStruct)
	if err != nil {
		return err
	}
	depth := s.depth // a struct at the end of the path was counted already
	if t.kind != kindStruct {
		depth++
	}
	return s.expand(v, t, o, path, value, depth)
}

// expand gathers the writes a value makes of a node: a leaf's one, or one
// for each leaf of a struct or an array given whole. depth is the node's
// as a struct, for the order of the checks.
func (s *setter) expand(v reflect.Value, t *table, o opts, path string, value any, depth int) error {
	if raw, ok := value.(json.RawMessage); ok {
		d := json.NewDecoder(bytes.NewReader(raw))
		d.UseNumber()
		value = nil
		if err := d.Decode(&value); err != nil {
			return refuse(path, "the value is not JSON: %v", err)
		}
	}
	switch t.kind {
	case kindPointer:
		if value == nil && v.IsNil() {
			return s.mark(v, path) // a state file's null for a pointer that is nil here too
		}
		if v.IsNil() {
			return refuse(path, "it is nil here: there is nothing inside it to set")
		}
		return s.expand(v.Elem(), t.elem, opts{}, path, value, depth)
	case kindStruct:
		s.addCheck(v, t, path, depth)
		return s.expandStruct(v, t, path, value, depth)
	case kindArray, kindSlice:
		elems, ok := list(value)
		if !ok {
			return t.wrongKind(path, describe(value))
		}
		if len(elems) != v.Len() {
			return refuse(path, "%d elements given; it holds %d", len(elems), v.Len())
		}
		for i, e := range elems {
			if err := s.expand(v.Index(i), t.elem, o, path+"["+strconv.Itoa(i)+"]", e, depth); err != nil {
				return err
			}
		}
		return nil
	}
	bits, err := t.leafBits(path, value)
	if err != nil {
		return err
	}
	if o.fixed && bits != bitsOf(v, t) {
		return refuse(path, "it is fixed at %s here, and set cannot change it", show(t.get(v)))
	}
	if o.readOnly && !s.restoring && bits != bitsOf(v, t) {
		return refuse(path, "it is %s, and set cannot change it: it moves only as the machine runs", show(t.get(v)))
	}
	if o.hasMax && past(t, bits, o.max) {
		return refuse(path, "%s is out of range: it holds %s", show(t.getBits(bits)), t.rangeTo(o.max))
	}
	if err := s.mark(v, path); err != nil {
		return err
	}
	s.writes = append(s.writes, write{v: v, t: t, bits: bits})
	return nil
}

// mark notes a leaf as written, refusing one written twice.
func (s *setter) mark(v reflect.Value, path string) error {
	a := v.UnsafeAddr()
	if prev, ok := s.written[a]; ok {
		if prev == path {
			return refuse(path, "given twice")
		}
		return refuse(path, "given twice: %s wrote it already", prev)
	}
	s.written[a] = path
	return nil
}

// expandStruct gathers the writes of an object given for a struct: an
// Object, or a map as JSON decodes one, taken in the struct's order so that
// the first refusal is the same whatever order the map holds.
func (s *setter) expandStruct(v reflect.Value, t *table, path string, value any, depth int) error {
	switch o := value.(type) {
	case Object:
		for _, m := range o {
			fi, ok := t.byName[m.Name]
			if !ok {
				return refuse(child(path, m.Name), "no field %s in %s; nearest: %s", quote.String(m.Name), label(path), strings.Join(nearest(m.Name, t), ", "))
			}
			f := &t.fields[fi]
			if err := s.expand(v.Field(f.index), f.tab, f.opts, child(path, f.name), m.Value, depth+1); err != nil {
				return err
			}
		}
		return nil
	case map[string]any:
		found := 0
		for i := range t.fields {
			f := &t.fields[i]
			x, ok := o[f.name]
			if !ok {
				continue
			}
			found++
			if err := s.expand(v.Field(f.index), f.tab, f.opts, child(path, f.name), x, depth+1); err != nil {
				return err
			}
		}
		if found < len(o) {
			var unknown []string
			for k := range o {
				if _, ok := t.byName[k]; !ok {
					unknown = append(unknown, k)
				}
			}
			slices.Sort(unknown)
			return refuse(child(path, unknown[0]), "no field %s in %s; nearest: %s", quote.String(unknown[0]), label(path), strings.Join(nearest(unknown[0], t), ", "))
		}
		return nil
	}
	return t.wrongKind(path, describe(value))
}

// apply makes the writes gathered, calls the Validate of every struct they
// passed through, innermost first, and takes every write back if one
// refuses.
func (s *setter) apply() error {
	for i := range s.writes {
		w := &s.writes[i]
		w.old = bitsOf(w.v, w.t)
		setBits(w.v, w.t, w.bits)
	}
	slices.SortStableFunc(s.checks, func(a, b check) int { return b.depth - a.depth })
	for _, c := range s.checks {
		if err := c.v.Addr().Interface().(Validator).Validate(); err != nil {
			for i := len(s.writes) - 1; i >= 0; i-- {
				w := &s.writes[i]
				setBits(w.v, w.t, w.old)
			}
			return &Error{Path: c.path, Err: err}
		}
	}
	return nil
}

// past reports whether bits, as bitsOf reads a leaf of t, are past max.
func past(t *table, bits, max uint64) bool {
	if t.kind == kindInt {
		return int64(bits) < 0 || int64(bits) > int64(max)
	}
	return bits > max
}

// describe names the kind of a value given, for messages.
func describe(value any) string {
	switch value.(type) {
	case nil:
		return "null"
	case bool:
		return "a bool"
	case string:
		return "a string"
	case json.Number, float64, float32:
		return "a number"
	case Object, map[string]any:
		return "an object"
	case []any:
		return "an array"
	}
	return article(fmt.Sprintf("%T", value))
}

// show writes a leaf's value as Get gives it, for messages.
func show(v any) string {
	if s, ok := v.(string); ok {
		return strconv.Quote(s)
	}
	return fmt.Sprint(v)
}
