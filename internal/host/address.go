package host

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"colophon/internal/quote"
)

// Address is an address as a request gives it: a JSON number, or a string
// in one of the forms the schema lists, &BB06, $BB06, #BB06, 0xBB06 or
// decimal digits (spec, "What it answers"; W-20). It is kept as given until
// the machine it is for says how far addresses go.
type Address string

// ReadAddress is an address where a request reads memory, as peek does:
// any form an Address takes, or cpu.sp or cpu.pc for the address the
// register holds (W-21).
type ReadAddress string

// The registers a ReadAddress may name.
const (
	regSP = "cpu.sp"
	regPC = "cpu.pc"
)

// UnmarshalJSON takes a number or a string, and keeps its text.
func (a *Address) UnmarshalJSON(b []byte) error {
	s, err := addressText(b)
	*a = Address(s)
	return err
}

// UnmarshalJSON takes a number or a string, and keeps its text.
func (a *ReadAddress) UnmarshalJSON(b []byte) error {
	s, err := addressText(b)
	*a = ReadAddress(s)
	return err
}

// addressText is the text of an address given in JSON: a string's
// contents, or a number as written.
func addressText(b []byte) (string, error) {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var s string
		err := json.Unmarshal(b, &s)
		return s, err
	}
	// A number is kept as written, a fraction or a sign and all, for
	// parseAddress to refuse by the argument's name.
	return string(b), nil
}

// hexPrefixes are the ways an address or a byte is written in hexadecimal:
// & as the CPC's manuals and every answer write it, $ and # as assemblers
// do, and 0x as C does.
var hexPrefixes = []string{"&", "$", "#", "0x", "0X"}

// parseAddress reads an address's text, in any of the forms an Address
// takes, and holds it to at most last. arg names the argument in errors.
func parseAddress(arg, text string, last uint32) (uint32, error) {
	v, err := parseNumber(arg, text, "address")
	if err != nil {
		return 0, err
	}
	if v > uint64(last) {
		return 0, fmt.Errorf("argument %q is %s, past %s, the last address here", arg, formatLarge(v), formatAddress(last))
	}
	return uint32(v), nil
}

// parseNumber reads an address's or a byte's text: hexadecimal after one
// of hexPrefixes, or decimal digits. what names what it is, in errors.
func parseNumber(arg, text, what string) (uint64, error) {
	t := strings.TrimSpace(text)
	digits, base := t, 10
	for _, p := range hexPrefixes {
		if strings.HasPrefix(t, p) {
			digits, base = t[len(p):], 16
			break
		}
	}
	no := func() error {
		return fmt.Errorf("argument %q is %s, which is no %s: write &BB06, $BB06, #BB06, 0xBB06 or decimal digits", arg, quote.String(text), what)
	}
	if digits == "" {
		return 0, no()
	}
	for _, c := range digits {
		if !('0' <= c && c <= '9' || base == 16 && ('a' <= c && c <= 'f' || 'A' <= c && c <= 'F')) {
			return 0, no()
		}
	}
	v, err := strconv.ParseUint(digits, base, 64)
	if err != nil {
		// Digits alone, too many for 64 bits.
		return 0, fmt.Errorf("argument %q is %s, which no %s reaches", arg, quote.String(text), what)
	}
	return v, nil
}

// formatLarge writes a number past the last address as an address is
// written, however large.
func formatLarge(v uint64) string {
	if v > 0xFFFFF {
		return fmt.Sprintf("&%X", v)
	}
	return formatAddress(uint32(v))
}

// optionalAddress is parseAddress for an argument that may be left out,
// which stands for def.
func optionalAddress(arg string, a Address, def, last uint32) (uint32, error) {
	if a == "" {
		return def, nil
	}
	return parseAddress(arg, string(a), last)
}

// given is what an optional number argument holds, or def where it is
// left out.
func given(n *int, def int) int {
	if n == nil {
		return def
	}
	return *n
}

// formatAddress writes an address as the answers and the journal write
// it: hexadecimal after &, four digits, and five past &FFFF, in a 6128's
// second 64K (spec, "What it answers"; W-16, W-17).
func formatAddress(a uint32) string {
	if a > 0xFFFF {
		return fmt.Sprintf("&%05X", a)
	}
	return fmt.Sprintf("&%04X", a)
}

// parseBytes reads bytes written as pairs of hexadecimal digits, as poke
// takes them: "3E 01 C9", with spaces between pairs or none (W-19).
func parseBytes(arg, text string) ([]byte, error) {
	compact := strings.Join(strings.Fields(text), "")
	if compact == "" {
		return nil, fmt.Errorf("argument %q holds no bytes: write them as pairs of hex digits, such as \"3E 01 C9\"", arg)
	}
	if len(compact)%2 != 0 {
		return nil, fmt.Errorf("argument %q has an odd number of hex digits; each byte is a pair, such as \"3E 01 C9\"", arg)
	}
	// Pairs must not be split by a space: "3 E01" is no pair.
	for _, f := range strings.Fields(text) {
		if len(f)%2 != 0 {
			return nil, fmt.Errorf("argument %q splits a pair of hex digits at %s; each byte is a pair, such as \"3E 01 C9\"", arg, quote.String(f))
		}
	}
	out := make([]byte, len(compact)/2)
	for i := range out {
		v, err := strconv.ParseUint(compact[2*i:2*i+2], 16, 8)
		if err != nil {
			return nil, fmt.Errorf("argument %q: %q is not a pair of hex digits", arg, compact[2*i:2*i+2])
		}
		out[i] = byte(v)
	}
	return out, nil
}

// formatBytes writes bytes as pairs of capital hex digits, a space
// between each: the form peek answers and the journal keeps (W-19).
func formatBytes(b []byte) string { return listedBytes(b) }
