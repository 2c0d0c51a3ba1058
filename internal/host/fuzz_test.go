package host

import (
	"encoding/json"
	"testing"
)

// FuzzArgumentText feeds the host's readers of an argument's text anything:
// an address in each form, bytes as pairs of hex digits, a SHA-256, and a
// key by name or number on each machine, as requests give them (issue 19's
// standing guards; seeds in testdata/fuzz/FuzzArgumentText). Nothing
// panics; a refusal names its argument and quotes what was sent short; and
// what is taken is in range and written back as it reads.
func FuzzArgumentText(f *testing.F) {
	f.Fuzz(func(t *testing.T, text string, last uint32) {
		short := func(what string, err error) {
			t.Helper()
			if n := len(err.Error()); n > 1000 {
				t.Fatalf("%s(%.40q…): an error of %d bytes: %.200s", what, text, n, err)
			}
		}
		if a, err := parseAddress("address", text, last); err != nil {
			short("parseAddress", err)
		} else if a > last {
			t.Fatalf("parseAddress(%q, &%X) = &%X, past the last", text, last, a)
		}
		if b, err := parseBytes("bytes", text); err != nil {
			short("parseBytes", err)
		} else if again, err := parseBytes("bytes", formatBytes(b)); err != nil || string(again) != string(b) {
			t.Fatalf("parseBytes(%q) = % X, which does not read back: % X, %v", text, b, again, err)
		}
		if s, err := sha256Given("sha256", text); err != nil {
			short("sha256Given", err)
		} else if text != "" && len(s) != 64 {
			t.Fatalf("sha256Given(%q) = %q", text, s)
		}
		name, _ := json.Marshal(text)
		for _, k := range kinds {
			if _, err := keyNames(k, []Key{{raw: name}, {raw: json.RawMessage(text)}}); err != nil {
				short("keyNames", err)
			}
		}
	})
}
