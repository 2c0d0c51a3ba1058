package host

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestParseAddress holds W-20: an address in any form the schema lists,
// held to the last address there is.
func TestParseAddress(t *testing.T) {
	tests := []struct {
		text string
		last uint32
		want uint32
		err  string
	}{
		{"&BB06", 0xFFFF, 0xBB06, ""},
		{"#bb06", 0xFFFF, 0xBB06, ""},
		{"0xBB06", 0xFFFF, 0xBB06, ""},
		{"0XBB06", 0xFFFF, 0xBB06, ""},
		{"47878", 0xFFFF, 47878, ""},
		{" &0 ", 0xFFFF, 0, ""},
		{"&1C000", 0x1FFFF, 0x1C000, ""},
		{"&1C000", 0xFFFF, 0, "is &1C000, past &FFFF, the last address here"},
		{"65536", 0xFFFF, 0, "is &10000, past &FFFF"},
		{"&", 0xFFFF, 0, "which is no address"},
		{"-1", 0xFFFF, 0, "which is no address"},
		{"1.5", 0xFFFF, 0, "which is no address"},
		{"1e3", 0xFFFF, 0, "which is no address"},
		{"&+12", 0xFFFF, 0, "which is no address"},
		{"$C000", 0xFFFF, 0xC000, ""},
		{"$", 0xFFFF, 0, "which is no address"},
		{"99999999999999999999", 0xFFFF, 0, "which no address reaches"},
		{"&" + strings.Repeat("G", 1000), 0xFFFF, 0, "…\" (1001 characters), which is no address"},
		{"&" + strings.Repeat("F", 1000), 0xFFFF, 0, "…\" (1001 characters), which no address reaches"},
		{"C000", 0xFFFF, 0, "which is no address"},
		{"&1_000", 0xFFFF, 0, "which is no address"},
		{"&FFFFFFFFFF", 0xFFFF, 0, "is &FFFFFFFFFF, past &FFFF"},
	}
	for _, tt := range tests {
		got, err := parseAddress("address", tt.text, tt.last)
		switch {
		case tt.err == "" && (err != nil || got != tt.want):
			t.Errorf("parseAddress(%q) = &%X, %v; want &%X", tt.text, got, err, tt.want)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err) || !strings.HasPrefix(err.Error(), `argument "address"`)):
			t.Errorf("parseAddress(%q) = &%X, %v; want an error naming the argument, with %q", tt.text, got, err, tt.err)
		}
	}
}

// TestAddressJSON: an address comes as a number or a string and is kept as
// written, so that parseAddress refuses what is no address by name.
func TestAddressJSON(t *testing.T) {
	for in, want := range map[string]string{`49152`: "49152", `"&C000"`: "&C000", `-3`: "-3", `2.5`: "2.5"} {
		var a Address
		if err := json.Unmarshal([]byte(in), &a); err != nil || string(a) != want {
			t.Errorf("Address from %s = %q, %v; want %q", in, a, err, want)
		}
		var r ReadAddress
		if err := json.Unmarshal([]byte(in), &r); err != nil || string(r) != want {
			t.Errorf("ReadAddress from %s = %q, %v; want %q", in, r, err, want)
		}
	}
}

// TestFormatAddress holds W-16 and W-17: after &, four digits, and five
// past &FFFF.
func TestFormatAddress(t *testing.T) {
	for a, want := range map[uint32]string{0: "&0000", 0xBB06: "&BB06", 0xFFFF: "&FFFF", 0x10000: "&10000", 0x1FFFF: "&1FFFF"} {
		if got := formatAddress(a); got != want {
			t.Errorf("formatAddress(%#x) = %s, want %s", a, got, want)
		}
	}
}

// TestBytes holds W-19: bytes go in and out as pairs of hex digits.
func TestBytes(t *testing.T) {
	for in, want := range map[string]string{"3E 01 C9": "3E 01 C9", "3e01c9": "3E 01 C9", " 3E\t01  c9 ": "3E 01 C9", "00": "00"} {
		b, err := parseBytes("bytes", in)
		if err != nil || formatBytes(b) != want {
			t.Errorf("parseBytes(%q) = % X, %v; want %s", in, b, err, want)
		}
	}
	for in, want := range map[string]string{
		"":      "holds no bytes",
		"3":     "odd number of hex digits",
		"3E0":   "odd number of hex digits",
		"3 E01": `splits a pair of hex digits at "3"`,
		"GG":    `"GG" is not a pair of hex digits`,
		"0x3E":  `"0x" is not a pair of hex digits`,
	} {
		if _, err := parseBytes("bytes", in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("parseBytes(%q): %v, want %q", in, err, want)
		}
	}
}
