package quote

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestString(t *testing.T) {
	long := strings.Repeat("A", 10<<20)
	cases := []struct{ in, want string }{
		{"", `""`},
		{"m1", `"m1"`},
		{"a\"b\n", `"a\"b\n"`},
		{strings.Repeat("x", Most), `"` + strings.Repeat("x", Most) + `"`},
		{strings.Repeat("x", Most+1), `"` + strings.Repeat("x", Most) + `…" (81 characters)`},
		{long, `"` + strings.Repeat("A", Most) + `…" (10485760 characters)`},
		// Characters, not bytes: eighty £ are not cut.
		{strings.Repeat("£", Most), `"` + strings.Repeat("£", Most) + `"`},
		{strings.Repeat("£", Most+2), `"` + strings.Repeat("£", Most) + `…" (82 characters)`},
	}
	for _, c := range cases {
		if got := String(c.in); got != c.want {
			t.Errorf("String(%.20q…) = %.120s; want %.120s", c.in, got, c.want)
		}
	}
}

func TestRaw(t *testing.T) {
	if got := Raw("12345"); got != "12345" {
		t.Errorf("Raw(12345) = %s", got)
	}
	digits := strings.Repeat("9", 1000000)
	want := strings.Repeat("9", Most) + "… (1000000 characters)"
	if got := Raw(digits); got != want {
		t.Errorf("Raw(a million digits) = %.100s…; want %s", got, want)
	}
	if got := Bytes([]byte(digits)); got != want {
		t.Errorf("Bytes(a million digits) = %.100s…; want %s", got, want)
	}
}

func TestPath(t *testing.T) {
	short := "/home/someone/games/chuckie-egg.sna"
	if got := Path(short); got != short {
		t.Errorf("Path(%s) = %s", short, got)
	}
	long := "/" + strings.Repeat("d/", 2000) + "chuckie-egg.sna"
	got := Path(long)
	if !strings.HasPrefix(got, "/d/d/") || !strings.Contains(got, "d/chuckie-egg.sna (4016 characters)") || len(got) > 2*Most+40 {
		t.Errorf("Path(a path of 4016 characters) = %s", got)
	}
}

// TestJSONError holds encoding/json's errors to what quote writes: an
// unknown field's name of ten megabytes, a number of a million digits and
// a map key as long as a mistyped value's path, each cut short.
func TestJSONError(t *testing.T) {
	long := strings.Repeat("0", 10<<20)
	nines := strings.Repeat("9", 1000)
	type event struct {
		Type string `json:"type"`
	}
	type deep struct {
		V map[string]struct {
			A int `json:"a"`
		} `json:"v"`
	}
	decode := func(in string, v any) error {
		d := json.NewDecoder(strings.NewReader(in))
		d.DisallowUnknownFields()
		err := d.Decode(v)
		if err == nil {
			t.Fatalf("%.40s… decoded", in)
		}
		return err
	}
	cases := []struct {
		err  error
		want string
	}{
		{decode(`{"`+long+`":""}`, &event{}), `json: unknown field "` + strings.Repeat("0", Most) + `…" (10485760 characters)`},
		{decode(`{"v":{"k":{"a":`+nines+`}}}`, &deep{}), `json: cannot unmarshal number ` + nines[:Most-len("number ")] + `… (1007 characters) at "v.a" into a Go value of type int`},
		{decode(`{"type":1}`, &event{}), `json: cannot unmarshal number at "type" into a Go value of type string`},
		{decode(`{"type":"down"`, &event{}), `unexpected EOF`},
		{decode(`{"type" "down"}`, &event{}), `invalid character '"' after object key`},
		{decode(`{"type":"x"}`, &[]int{}), `json: cannot unmarshal object into a Go value of type []int`},
	}
	for _, c := range cases {
		if got := JSONError(c.err); got != c.want {
			t.Errorf("JSONError(%.120s…) = %.200s; want %.200s", c.err, got, c.want)
		}
	}
}
