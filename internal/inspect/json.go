package inspect

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf8"

	"colophon/internal/quote"
)

// MarshalJSON writes the object's fields in its order.
func (o Object) MarshalJSON() ([]byte, error) {
	return appendJSON(nil, o)
}

// MarshalFields writes fields as one JSON object, path by path in the
// order given, as the first line of a state file holds them:
// {"cpu.a":255,"cpu.f":255,...}.
func MarshalFields(fs []Field) ([]byte, error) {
	b := []byte{'{'}
	var err error
	for i, f := range fs {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, f.Path)
		b = append(b, ':')
		if b, err = appendJSON(b, f.Value); err != nil {
			return nil, fmt.Errorf("inspect: %s: %w", quote.Raw(f.Path), err)
		}
	}
	return append(b, '}'), nil
}

// UnmarshalFields reads a JSON object of paths and values, as
// MarshalFields writes it, keeping its order; numbers are kept as
// json.Number so that none loses a digit on its way to Restore.
func UnmarshalFields(data []byte) ([]Field, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	if tok, err := d.Token(); err != nil || tok != json.Delim('{') {
		return nil, fmt.Errorf("inspect: the fields are not a JSON object")
	}
	var fs []Field
	for d.More() {
		tok, err := d.Token()
		if err != nil {
			return nil, fmt.Errorf("inspect: the fields: %w", err)
		}
		path := tok.(string) // an object's keys are strings, or Token fails
		var v any
		if err := d.Decode(&v); err != nil {
			return nil, fmt.Errorf("inspect: the fields: %s: %w", quote.Raw(path), err)
		}
		fs = append(fs, Field{Path: path, Value: v})
	}
	if _, err := d.Token(); err != nil {
		return nil, fmt.Errorf("inspect: the fields: %w", err)
	}
	if _, err := d.Token(); err == nil {
		return nil, fmt.Errorf("inspect: the fields: something follows the object")
	}
	return fs, nil
}

// appendJSON writes a value as Get gives it, in its own order; anything
// else a caller put in a Field goes through encoding/json.
func appendJSON(b []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case bool:
		return strconv.AppendBool(b, x), nil
	case uint64:
		return strconv.AppendUint(b, x, 10), nil
	case int64:
		return strconv.AppendInt(b, x, 10), nil
	case string:
		return appendString(b, x), nil
	case Object:
		b = append(b, '{')
		for i, m := range x {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, m.Name)
			b = append(b, ':')
			var err error
			if b, err = appendJSON(b, m.Value); err != nil {
				return nil, err
			}
		}
		return append(b, '}'), nil
	case []any:
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = appendJSON(b, e); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	}
	j, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(b, j...), nil
}

// appendString writes a JSON string: quotes, backslashes and control
// characters escaped, and any byte that is not UTF-8 as U+FFFD.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c < 0x20:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b = append(b, "\ufffd"...)
		} else {
			b = append(b, s[i:i+n]...)
		}
		i += n
	}
	return append(b, '"')
}
