package server

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// Every schema a client is given takes one type per property, and every
// string a client sends has a length its meaning allows (issue 19, items 2
// and 11).
//
// A client whose model speaks a single-type dialect of JSON Schema, as
// Gemini's function declarations and OpenAI's strict mode do, refuses a
// tool whose schema writes "type": ["null", "string"], and that is what
// the SDK infers for every pointer and slice. Here an optional argument is
// one left out, never null, so the null goes; a value of several kinds is
// written as anyOf branches of one type each, which both dialects take;
// and a schema that says nothing of what its value is, as the SDK infers
// for an interface, is refused when the server is built, so that a tool
// added with one fails at once rather than in a client.
//
// Strings are bounded where they are taken, so that no argument's length
// costs more than its meaning needs: a field says its own bound with a
// maxLength tag, `maxLength:"64"` beside its json tag, and any string that
// says none takes defaultMaxLength, the longest path a POSIX system need
// take (PATH_MAX, 4096). A string given is never empty unless its field
// says so with `minLength:"0"`, as inspect's path does, where "" is the
// path of the whole machine: an optional argument is left out instead, so
// that "" is refused wherever it is sent, rather than standing for the
// first address in one tool and refused in another. An array may say its
// most items with a maxItems tag, and a number its range with minimum and
// maximum tags, so that the schema a client reads says 1 to 1500 where
// that is what the tool takes.

// defaultMaxLength bounds a string argument whose field names no bound.
const defaultMaxLength = 4096

// portable rewrites an inferred schema so that each property takes one
// type, as the comment above says. what names the schema in its error.
func portable(s *jsonschema.Schema, what string) error {
	var untyped []string
	eachSchema(s, "#", func(path string, n *jsonschema.Schema, under string) {
		if len(n.Types) > 0 {
			types := slices.DeleteFunc(slices.Clone(n.Types), func(t string) bool { return t == "null" })
			n.Types = nil
			switch len(types) {
			case 0:
			case 1:
				n.Type = types[0]
			default:
				for _, t := range types {
					n.AnyOf = append(n.AnyOf, &jsonschema.Schema{Type: t})
				}
			}
		}
		if under != "not" && !constrains(n) {
			untyped = append(untyped, path)
		}
	})
	if len(untyped) > 0 {
		return fmt.Errorf("%s says nothing of what the value at %s is; give its Go type a schema in typeSchemas", what, strings.Join(untyped, ", "))
	}
	return nil
}

// constrains reports whether a schema says anything of its value.
func constrains(s *jsonschema.Schema) bool {
	return s.Type != "" || len(s.Types) > 0 || len(s.Enum) > 0 || s.Const != nil ||
		len(s.AnyOf) > 0 || len(s.OneOf) > 0 || len(s.AllOf) > 0 || s.Not != nil || s.Ref != ""
}

// eachSchema calls visit for s and every schema inside it, with a path for
// messages and the keyword it sits under.
func eachSchema(s *jsonschema.Schema, path string, visit func(path string, s *jsonschema.Schema, under string)) {
	var walk func(s *jsonschema.Schema, path, under string)
	walk = func(s *jsonschema.Schema, path, under string) {
		if s == nil {
			return
		}
		visit(path, s, under)
		names := make([]string, 0, len(s.Properties))
		for n := range s.Properties {
			names = append(names, n)
		}
		slices.Sort(names)
		for _, n := range names {
			walk(s.Properties[n], path+"."+n, "properties")
		}
		walk(s.Items, path+"[]", "items")
		walk(s.AdditionalProperties, path+"{}", "additionalProperties")
		walk(s.Not, path+"!", "not")
		for i, b := range s.AnyOf {
			walk(b, fmt.Sprintf("%s|%d", path, i), "anyOf")
		}
		for i, b := range s.OneOf {
			walk(b, fmt.Sprintf("%s|%d", path, i), "oneOf")
		}
		for i, b := range s.AllOf {
			walk(b, fmt.Sprintf("%s&%d", path, i), "allOf")
		}
	}
	walk(s, path, "")
}

// bound gives an input schema's strings and arrays the bounds their
// fields' tags name, and every string without one the default bounds: at
// least one character, and at most defaultMaxLength. t is the Go type the
// schema was inferred from.
func bound(t reflect.Type, s *jsonschema.Schema) error {
	if err := boundFields(t, s); err != nil {
		return err
	}
	eachSchema(s, "", func(_ string, n *jsonschema.Schema, _ string) {
		if n.Type != "string" || len(n.Enum) > 0 {
			return
		}
		if n.MinLength == nil {
			n.MinLength = jsonschema.Ptr(1)
		}
		if n.MaxLength == nil {
			n.MaxLength = jsonschema.Ptr(defaultMaxLength)
		}
	})
	return nil
}

// boundFields applies the maxLength and maxItems tags of t's fields to
// their properties in s, and those of the structs inside them.
func boundFields(t reflect.Type, s *jsonschema.Schema) error {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
		t = t.Elem()
		if s.Items != nil {
			s = s.Items
		}
	}
	if t.Kind() != reflect.Struct || s == nil {
		return nil
	}
	for _, f := range reflect.VisibleFields(t) {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" {
			name = f.Name
		}
		p := s.Properties[name]
		if p == nil || f.Anonymous {
			continue
		}
		for _, tag := range []string{"minimum", "maximum"} {
			v, ok := f.Tag.Lookup(tag)
			if !ok {
				continue
			}
			x, err := strconv.ParseFloat(v, 64)
			if err != nil || p.Type != "integer" && p.Type != "number" {
				return fmt.Errorf("field %s of %v: %s:%q on a property that is no number, or no bound", f.Name, t, tag, v)
			}
			if tag == "minimum" {
				p.Minimum = jsonschema.Ptr(x)
			} else {
				p.Maximum = jsonschema.Ptr(x)
			}
		}
		for _, tag := range []string{"minLength", "maxLength", "maxItems"} {
			v, ok := f.Tag.Lookup(tag)
			if !ok {
				continue
			}
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 || n == 0 && tag != "minLength" {
				return fmt.Errorf("field %s of %v: %s:%q is no count", f.Name, t, tag, v)
			}
			if tag == "maxItems" {
				p.MaxItems = jsonschema.Ptr(n)
				continue
			}
			// A bound on a string that may also be a number, as an
			// address is, is the string branch's.
			str := stringBranch(p)
			if str == nil {
				return fmt.Errorf("field %s of %v: %s on a property that takes no string", f.Name, t, tag)
			}
			if tag == "minLength" {
				str.MinLength = jsonschema.Ptr(n)
			} else {
				str.MaxLength = jsonschema.Ptr(n)
			}
		}
		if err := boundFields(f.Type, p); err != nil {
			return err
		}
	}
	return nil
}

// stringBranch is the schema of the string a property takes: itself, or
// its anyOf branch of type string.
func stringBranch(s *jsonschema.Schema) *jsonschema.Schema {
	if s.Type == "string" || slices.Contains(s.Types, "string") {
		return s
	}
	for _, b := range s.AnyOf {
		if b.Type == "string" {
			return b
		}
	}
	return nil
}
