package inspect

import (
	"encoding"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"

	"colophon/internal/quote"
)

// get returns a node as Get answers it: a leaf as a number, a bool or an
// enum's name; a struct as an Object; an array as a []any; a nil pointer as
// nil.
func (t *table) get(v reflect.Value) any {
	switch t.kind {
	case kindUint:
		if t.enum != nil {
			if s := t.enumName(v); s != "" {
				return s
			}
		}
		return v.Uint()
	case kindInt:
		if t.enum != nil {
			if s := t.enumName(v); s != "" {
				return s
			}
		}
		return v.Int()
	case kindBool:
		return v.Bool()
	case kindStruct:
		o := make(Object, len(t.fields))
		for i := range t.fields {
			f := &t.fields[i]
			o[i] = Member{Name: f.name, Value: f.tab.get(v.Field(f.index))}
		}
		return o
	case kindArray, kindSlice:
		a := make([]any, v.Len())
		for i := range a {
			a[i] = t.elem.get(v.Index(i))
		}
		return a
	case kindPointer:
		if v.IsNil() {
			return nil
		}
		return t.elem.get(v.Elem())
	}
	panic("inspect: a table of no kind")
}

// enumName returns an enum value's name, or "" where it has none of its
// own and is given as a number.
func (t *table) enumName(v reflect.Value) string {
	e := t.enum
	if e.names != nil {
		return e.name(bitsOf(v, t))
	}
	// A wide enum names itself, and takes the name back through
	// UnmarshalText.
	if !v.CanAddr() {
		c := reflect.New(t.t).Elem()
		c.Set(v)
		v = c
	}
	return stringOf(v)
}

// leafBits converts a value given for a leaf to the bits to write, or
// refuses it with the path and what the leaf wants.
//
// A leaf takes what JSON gives, and what a Go caller would give: a bool for
// a bool; for an integer a number (json.Number, a float64 that is a whole
// number no bigger than 2^53, or any Go integer), and for an unsigned one
// also a string of hexadecimal after &, #, $ or 0x; for an enum its name,
// or a number.
func (t *table) leafBits(path string, value any) (uint64, error) {
	switch x := value.(type) {
	case nil:
		return 0, refuse(path, "null given; it wants %s", t.want())
	case bool:
		if t.kind != kindBool {
			return 0, t.wrongKind(path, "a bool")
		}
		if x {
			return 1, nil
		}
		return 0, nil
	case string:
		return t.stringBits(path, x)
	case json.Number:
		neg, mag, ok := parseInteger(string(x))
		if !ok {
			return 0, refuse(path, "%s is not a whole number; it wants %s", quote.Raw(string(x)), t.want())
		}
		return t.numberBits(path, neg, mag, quote.Raw(string(x)))
	case float64:
		return t.floatBits(path, x)
	case float32:
		return t.floatBits(path, float64(x))
	}
	rv := reflect.ValueOf(value)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n := rv.Int()
		if n < 0 {
			return t.numberBits(path, true, uint64(-n), strconv.FormatInt(n, 10))
		}
		return t.numberBits(path, false, uint64(n), strconv.FormatInt(n, 10))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return t.numberBits(path, false, rv.Uint(), strconv.FormatUint(rv.Uint(), 10))
	}
	return 0, t.wrongKind(path, describe(value))
}

// floatBits takes a number JSON decoded as a float64, which holds every
// integer exactly only up to 2^53.
func (t *table) floatBits(path string, x float64) (uint64, error) {
	given := strconv.FormatFloat(x, 'g', -1, 64)
	if x != math.Trunc(x) || math.IsInf(x, 0) {
		return 0, refuse(path, "%s is not a whole number; it wants %s", given, t.want())
	}
	if math.Abs(x) > 1<<53 {
		return 0, refuse(path, "%s is past 2^53, beyond which a JSON number decoded as a float64 is not exact: give it in hexadecimal, as %q", given, "&"+strconv.FormatUint(uint64(math.Abs(x)), 16))
	}
	if x < 0 {
		return t.numberBits(path, true, uint64(-x), given)
	}
	return t.numberBits(path, false, uint64(x), given)
}

// stringBits takes a string: an enum's name, or hexadecimal for an unsigned
// integer.
func (t *table) stringBits(path, s string) (uint64, error) {
	if e := t.enum; e != nil {
		if e.text {
			p := reflect.New(t.t)
			if err := p.Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(s)); err != nil {
				return 0, refuse(path, "%s: %v", quote.String(s), err)
			}
			return bitsOf(p.Elem(), t), nil
		}
		if bits, ok := e.values[s]; ok {
			return bits, nil
		}
		return 0, refuse(path, "%s is no name of %s; it wants %s", quote.String(s), t.t, t.want())
	}
	if t.kind != kindUint {
		return 0, t.wrongKind(path, "a string")
	}
	digits, ok := hexDigits(s)
	if !ok {
		return 0, refuse(path, "%s: a string for an unsigned integer is hexadecimal after &, #, $ or 0x (a decimal number is given as a number); it wants %s", quote.String(s), t.want())
	}
	if len(digits) > 16 {
		return 0, t.outOfRange(path, quote.String(s))
	}
	mag, err := strconv.ParseUint(digits, 16, 64)
	if err != nil {
		return 0, refuse(path, "%s is not hexadecimal; it wants %s", quote.String(s), t.want())
	}
	return t.numberBits(path, false, mag, quote.String(s))
}

// hexDigits returns the digits after a hexadecimal prefix: & as the CPC's
// own manuals and every answer of the server write it, # and $ as
// assemblers do, and 0x as C does.
func hexDigits(s string) (string, bool) {
	var digits string
	switch {
	case strings.HasPrefix(s, "0x"), strings.HasPrefix(s, "0X"):
		digits = s[2:]
	case strings.HasPrefix(s, "&"), strings.HasPrefix(s, "#"), strings.HasPrefix(s, "$"):
		digits = s[1:]
	default:
		return "", false
	}
	if digits == "" {
		return "", false
	}
	for i := range len(digits) {
		c := digits[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') && (c < 'A' || c > 'F') {
			return "", false
		}
	}
	return digits, true
}

// parseInteger reads a JSON number that is a whole number, as its sign and
// magnitude. An exponent or a fraction is taken where the number is whole
// all the same (2.55e2).
func parseInteger(s string) (neg bool, mag uint64, ok bool) {
	if strings.HasPrefix(s, "-") {
		neg, s = true, s[1:]
	}
	if mag, err := strconv.ParseUint(s, 10, 64); err == nil {
		return neg, mag, true
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f != math.Trunc(f) || f >= 1<<64 || math.IsInf(f, 0) {
		return false, 0, false
	}
	return neg, uint64(f), true
}

// numberBits range-checks a number given as sign and magnitude; given is
// how the caller wrote it, for the message, quoted short already.
func (t *table) numberBits(path string, neg bool, mag uint64, given string) (uint64, error) {
	switch t.kind {
	case kindUint:
		if neg && mag != 0 || mag > t.max {
			return 0, t.outOfRange(path, given)
		}
		return mag, nil
	case kindInt:
		if neg {
			if mag > t.max+1 {
				return 0, t.outOfRange(path, given)
			}
			return -mag, nil // two's complement, as bitsOf reads it
		}
		if mag > t.max {
			return 0, t.outOfRange(path, given)
		}
		return mag, nil
	}
	return 0, t.wrongKind(path, "a number")
}

func (t *table) outOfRange(path, given string) error {
	return refuse(path, "%s is out of range: %s holds %s", given, t.typeName(), t.rangeText())
}

func (t *table) wrongKind(path, got string) error {
	return refuse(path, "%s given; it wants %s", got, t.want())
}

// rangeText is the range an integer holds, as messages give it.
func (t *table) rangeText() string {
	if t.kind == kindInt {
		return fmt.Sprintf("%d to %d", t.min, t.max)
	}
	return t.rangeTo(t.max)
}

// rangeTo is the range of a field that holds at most max, as messages
// give it.
func (t *table) rangeTo(max uint64) string {
	if t.kind == kindInt {
		return fmt.Sprintf("0 to %d", max)
	}
	digits := (t.t.Bits() + 3) / 4
	return fmt.Sprintf("0 to %d (&%0*X to &%0*X)", max, digits, 0, digits, max)
}

// getBits is the value bits stand for at a leaf of t, as get gives it.
func (t *table) getBits(bits uint64) any {
	v := reflect.New(t.t).Elem()
	setBits(v, t, bits)
	return t.get(v)
}

// want says what a node takes, for messages.
func (t *table) want() string {
	switch t.kind {
	case kindBool:
		return "true or false"
	case kindUint, kindInt:
		var b strings.Builder
		if t.enum != nil && len(t.enum.order) > 0 {
			names := t.enum.order
			more := ""
			if len(names) > 8 {
				names, more = names[:8], fmt.Sprintf(" and %d more", len(t.enum.order)-8)
			}
			fmt.Fprintf(&b, "a name of %s (%s%s), or ", t.t, strings.Join(names, ", "), more)
		} else if t.enum != nil {
			fmt.Fprintf(&b, "a name of %s, or ", t.t)
		}
		fmt.Fprintf(&b, "a number from %s", t.rangeText())
		if t.kind == kindUint && t.enum == nil {
			b.WriteString(", or hexadecimal as &FF or 0xFF")
		}
		return b.String()
	case kindStruct, kindPointer:
		return "an object of its fields"
	case kindArray:
		return fmt.Sprintf("an array of its %d elements", t.n)
	case kindSlice:
		return "an array of as many elements as it holds"
	}
	return "nothing"
}

// list returns a value given for an array as its elements: a JSON array,
// or any Go slice or array.
func list(value any) ([]any, bool) {
	if a, ok := value.([]any); ok {
		return a, true
	}
	rv := reflect.ValueOf(value)
	if rv.Kind() != reflect.Slice && rv.Kind() != reflect.Array {
		return nil, false
	}
	a := make([]any, rv.Len())
	for i := range a {
		a[i] = rv.Index(i).Interface()
	}
	return a, true
}
