package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"

	"colophon/internal/quote"
)

// checkArguments holds a tool's raw arguments to its input schema and says
// what is wrong with them in words an agent can act on: an argument of the
// wrong kind by its name, and, where arguments are missing, every argument
// the tool requires ("What it answers"; checklist W-26, W-27 and A-9).
//
// The SDK's validator says the same things less plainly, stops at the first,
// and visits properties in map order, so two wrong arguments could be
// reported either way round; here every fault is reported, in the schema's
// order, so the same request is always refused in the same words.
//
// It covers the keywords inferred schemas carry (type, properties, required,
// additionalProperties, items, minimum and maximum) and those a tool's own
// type schema is likely to add (enum, anyOf, oneOf, lengths, item counts).
// Anything else is left to the SDK's validator, which runs after.
//
// It returns the arguments decoded, numbers as json.Number, with the names
// of which an enum's string was given in another case: a machine's name,
// say, which is matched without regard to case and decoded as the schema
// spells it (canonical).
func checkArguments(tool string, schema *jsonschema.Schema, raw json.RawMessage) (map[string]any, []string, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber() // keep 3 apart from 3.0, and large numbers whole
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, nil, fmt.Errorf("arguments are not JSON: %w", err)
	}
	args, ok := v.(map[string]any)
	if !ok {
		return nil, nil, fmt.Errorf("arguments must be a JSON object of named arguments, not %s", kindOf(v))
	}
	c := checker{tool: tool}
	c.object("", args, schema)
	if len(c.faults) == 0 {
		return args, c.respelled, nil
	}
	faults := c.faults
	if c.more > 0 {
		faults = append(faults, fmt.Sprintf("and %d faults more", c.more))
	}
	return nil, nil, errors.New(strings.Join(faults, "; "))
}

// maxFaults is how many faults one refusal lists: enough to put a request
// right in one go, and no more, however many arguments are wrong.
const maxFaults = 8

type checker struct {
	tool   string
	faults []string // the first maxFaults
	more   int      // and how many more there were
	// listed marks the objects whose arguments a fault has named.
	listed map[string]bool
	// respelled lists the top-level arguments holding an enum's string
	// given in another case, which the checker put as the schema spells it.
	respelled []string
}

func (c *checker) fault(format string, a ...any) {
	if len(c.faults) == maxFaults {
		c.more++
		return
	}
	c.faults = append(c.faults, fmt.Sprintf(format, a...))
}

// object checks an object's properties: missing ones first, then each
// present in the schema's order, then any the schema does not know.
func (c *checker) object(path string, obj map[string]any, s *jsonschema.Schema) {
	var missing []string
	for _, name := range s.Required {
		if _, ok := obj[name]; !ok {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		c.missing(path, missing, s.Required)
	}

	for _, name := range propertyNames(s) {
		if v, ok := obj[name]; ok {
			if nv, changed := c.value(join(path, name), v, s.Properties[name]); changed {
				obj[name] = nv
				if path == "" {
					c.respelled = append(c.respelled, name)
				}
			}
		}
	}

	var unknown []string
	for name := range obj {
		if _, ok := s.Properties[name]; !ok {
			unknown = append(unknown, name)
		}
	}
	sort.Strings(unknown)
	for _, name := range unknown {
		switch {
		case s.AdditionalProperties == nil:
			// Anything goes.
		case isFalse(s.AdditionalProperties):
			c.unknown(path, name, s)
		default:
			if nv, changed := c.value(join(path, name), obj[name], s.AdditionalProperties); changed {
				obj[name] = nv
			}
		}
	}
}

// missing reports missing arguments. Where more than one is required, it
// lists them all, so that a request can be put right in one go.
func (c *checker) missing(path string, missing, required []string) {
	noun := "argument"
	if len(missing) > 1 {
		noun = "arguments"
	}
	if path == "" {
		if len(required) == 1 {
			c.fault("missing argument %q", missing[0])
			return
		}
		c.fault("missing %s %s: %s requires %s", noun, list(missing), c.tool, list(required))
		return
	}
	if len(required) == 1 {
		c.fault("argument %q lacks %q", path, missing[0])
		return
	}
	c.fault("argument %q lacks %s: it requires %s", path, list(missing), list(required))
}

func (c *checker) unknown(path, name string, s *jsonschema.Schema) {
	takes := propertyNames(s)
	switch {
	case c.listed[path]:
		// What the object takes is said once a refusal.
		c.fault("unknown argument %s", quote.String(join(path, name)))
		return
	case path == "" && len(takes) == 0:
		c.fault("unknown argument %s: %s takes no arguments", quote.String(name), c.tool)
	case path == "":
		c.fault("unknown argument %s: %s takes %s", quote.String(name), c.tool, list(takes))
	default:
		c.fault("unknown argument %s: %q takes %s", quote.String(join(path, name)), path, list(takes))
	}
	if c.listed == nil {
		c.listed = map[string]bool{}
	}
	c.listed[path] = true
}

// value checks one argument, or one part of one, against its schema. It
// returns the value to decode in its place, and whether that differs from
// v: an enum's string given in another case, spelled as the schema spells
// it.
func (c *checker) value(path string, v any, s *jsonschema.Schema) (any, bool) {
	if s == nil {
		return v, false
	}
	if isFalse(s) {
		c.fault("argument %q is not taken", path)
		return v, false
	}
	// A number is held to the digits its type can hold before it is
	// read, so that a million digits cost no more than a few.
	if n, ok := v.(json.Number); ok && len(s.AnyOf)+len(s.OneOf) == 0 && !c.digits(path, n, s) {
		return v, false
	}
	if alts := append(slices.Clone(s.AnyOf), s.OneOf...); len(alts) > 0 {
		if !slices.ContainsFunc(alts, func(alt *jsonschema.Schema) bool { return passes(path, v, alt) }) {
			// Where the value is of a kind a branch takes, that branch
			// says what is wrong with it; else its kind is.
			for _, alt := range alts {
				if len(kindsOf(alt)) > 0 && kindAllowed(v, alt) {
					return c.value(path, v, alt)
				}
			}
			var kinds []string
			for _, alt := range alts {
				kinds = append(kinds, kindsOf(alt)...)
			}
			c.fault("argument %q is %s; it must be %s", path, kindOf(v), orList(dedupe(kinds)))
			return v, false
		}
		if n, ok := v.(json.Number); ok && !c.digits(path, n, s) {
			return v, false
		}
	}

	if kinds := kindsOf(s); len(kinds) > 0 && !kindAllowed(v, s) {
		c.fault("argument %q is %s; it must be %s", path, kindOf(v), orList(kinds))
		return v, false
	}

	if len(s.Enum) > 0 && !slices.ContainsFunc(s.Enum, func(e any) bool { return sameJSON(v, e) }) {
		// A name is matched without regard to case: CPC6128 is cpc6128.
		if str, ok := v.(string); ok {
			for _, e := range s.Enum {
				if es, ok := e.(string); ok && strings.EqualFold(es, str) {
					return es, true
				}
			}
		}
		var choices []string
		for _, e := range s.Enum {
			choices = append(choices, shortJSON(e))
		}
		c.fault("argument %q is %s; it must be one of %s", path, shortJSON(v), strings.Join(choices, ", "))
		return v, false
	}

	switch v := v.(type) {
	case json.Number:
		c.number(path, v, s)
	case string:
		n := utf8.RuneCountInString(v)
		if n == 0 && s.MinLength != nil && *s.MinLength > 0 {
			c.fault("argument %q is empty: an argument given is never \"\"; leave out one not meant", path)
			break
		}
		if s.MinLength != nil && n < *s.MinLength {
			c.fault("argument %q is %d characters long; it must be at least %d", path, n, *s.MinLength)
		}
		if s.MaxLength != nil && n > *s.MaxLength {
			c.fault("argument %q is %d characters long; it may be at most %d", path, n, *s.MaxLength)
		}
	case []any:
		if s.MinItems != nil && len(v) < *s.MinItems {
			c.fault("argument %q has %d items; it must have at least %d", path, len(v), *s.MinItems)
		}
		if s.MaxItems != nil && len(v) > *s.MaxItems {
			c.fault("argument %q has %d items; it may have at most %d", path, len(v), *s.MaxItems)
			break
		}
		changed := false
		for i, item := range v {
			if nv, ch := c.value(fmt.Sprintf("%s[%d]", path, i), item, s.Items); ch {
				v[i], changed = nv, true
			}
		}
		return v, changed
	case map[string]any:
		c.object(path, v, s)
	}
	return v, false
}

// mostDigits is the most digits a number may have before it is read: those
// of the largest Go integer, 2^64-1, and a few more for a fraction or an
// exponent that a schema of numbers would take.
const mostDigits = 24

// digits refuses a number with more digits than its schema's bounds, or
// any integer, can hold, before anything reads it. It reports whether the
// number may be read.
func (c *checker) digits(path string, n json.Number, s *jsonschema.Schema) bool {
	text := strings.TrimPrefix(n.String(), "-")
	most := mostDigits
	if s.Minimum != nil && s.Maximum != nil && !strings.ContainsAny(text, ".eE") {
		most = max(len(strconv.FormatFloat(math.Abs(*s.Minimum), 'f', -1, 64)),
			len(strconv.FormatFloat(math.Abs(*s.Maximum), 'f', -1, 64)))
	}
	if len(text) <= most {
		return true
	}
	if s.Minimum != nil && s.Maximum != nil {
		c.fault("argument %q is a number of %d digits, %s; it must be from %v to %v", path, len(text), quote.Raw(n.String()), *s.Minimum, *s.Maximum)
	} else {
		c.fault("argument %q is a number of %d digits, %s; no number here has more than %d", path, len(text), quote.Raw(n.String()), most)
	}
	return false
}

// number checks a number against the bounds its schema gives, which for an
// inferred schema are those of its Go type: 0 to 255 for a byte.
func (c *checker) number(path string, n json.Number, s *jsonschema.Schema) {
	r, ok := new(big.Rat).SetString(n.String())
	if !ok {
		c.fault("argument %q is %s, which is no number", path, quote.Raw(n.String()))
		return
	}
	low := s.Minimum != nil && r.Cmp(new(big.Rat).SetFloat64(*s.Minimum)) < 0
	high := s.Maximum != nil && r.Cmp(new(big.Rat).SetFloat64(*s.Maximum)) > 0
	if !low && !high {
		return
	}
	switch {
	case s.Minimum != nil && s.Maximum != nil:
		c.fault("argument %q is %s; it must be from %v to %v", path, quote.Raw(n.String()), *s.Minimum, *s.Maximum)
	case low:
		c.fault("argument %q is %s; it must be at least %v", path, quote.Raw(n.String()), *s.Minimum)
	default:
		c.fault("argument %q is %s; it may be at most %v", path, quote.Raw(n.String()), *s.Maximum)
	}
}

// passes reports whether v fits s, without reporting why not. An enum's
// string in another case fits.
func passes(path string, v any, s *jsonschema.Schema) bool {
	c := checker{}
	c.value(path, v, s)
	return len(c.faults)+c.more == 0
}

// propertyNames gives an object schema's properties in the order the
// schema gives them (a struct's field order, for an inferred one), then any
// it leaves out of that order, sorted.
func propertyNames(s *jsonschema.Schema) []string {
	var names []string
	seen := map[string]bool{}
	for _, n := range s.PropertyOrder {
		if _, ok := s.Properties[n]; ok && !seen[n] {
			names = append(names, n)
			seen[n] = true
		}
	}
	var rest []string
	for n := range s.Properties {
		if !seen[n] {
			rest = append(rest, n)
		}
	}
	sort.Strings(rest)
	return append(names, rest...)
}

// isFalse reports whether s is the schema false, which nothing fits; that is
// how an inferred schema refuses properties its struct does not have.
func isFalse(s *jsonschema.Schema) bool {
	return s.Not != nil && reflect.ValueOf(*s.Not).IsZero()
}

// kindsOf lists the JSON kinds s allows, in words, leaving out null, which
// only an optional argument's pointer allows and nobody means to send.
func kindsOf(s *jsonschema.Schema) []string {
	types := s.Types
	if s.Type != "" {
		types = []string{s.Type}
	}
	var kinds []string
	for _, t := range types {
		if t != "null" {
			kinds = append(kinds, article(t))
		}
	}
	return kinds
}

func kindAllowed(v any, s *jsonschema.Schema) bool {
	types := s.Types
	if s.Type != "" {
		types = []string{s.Type}
	}
	k := jsonKind(v)
	return slices.Contains(types, k) || k == "integer" && slices.Contains(types, "number")
}

// jsonKind names the JSON kind of a decoded value as JSON Schema names its
// types. A number is an integer only as written without a fraction or an
// exponent, which is what a Go integer field takes.
func jsonKind(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number:
		if strings.ContainsAny(v.String(), ".eE") {
			return "number"
		}
		return "integer"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

// kindOf says what a value is, in words: "a string", "null".
func kindOf(v any) string {
	k := jsonKind(v)
	if k == "null" {
		return "null"
	}
	switch v := v.(type) {
	case json.Number:
		return article(k) + " (" + quote.Raw(v.String()) + ")"
	case string:
		return article(k) + " (" + shortJSON(v) + ")"
	}
	return article(k)
}

func article(kind string) string {
	switch kind {
	case "integer", "object", "array":
		return "an " + kind
	}
	return "a " + kind
}

// shortJSON writes v as JSON, cut short if long (internal/quote), for an
// error to quote.
func shortJSON(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // &BB06 stays &BB06
	if err := enc.Encode(v); err != nil {
		return quote.Raw(fmt.Sprint(v))
	}
	return quote.Bytes(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
}

// sameJSON reports whether a decoded argument equals an enum's value.
func sameJSON(v, e any) bool {
	if n, ok := v.(json.Number); ok {
		r, ok := new(big.Rat).SetString(n.String())
		if !ok {
			return false
		}
		b, err := json.Marshal(e)
		if err != nil {
			return false
		}
		er, ok := new(big.Rat).SetString(string(b))
		return ok && r.Cmp(er) == 0
	}
	return reflect.DeepEqual(v, e)
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// list writes names quoted, "a", "b" and "c".
func list(names []string) string {
	return series(quoted(names), "and")
}

func orList(words []string) string {
	return series(words, "or")
}

func quoted(names []string) []string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return q
}

func series(words []string, conj string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " " + conj + " " + words[len(words)-1]
}

func dedupe(words []string) []string {
	var out []string
	for _, w := range words {
		if !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}
