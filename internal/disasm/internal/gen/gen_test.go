package gen

import (
	"strings"
	"testing"
)

const namesHeader = "name\taddress\n"
const detailHeader = "block\tindex\tname\taddress\tmodels\trom_target_464\trom_target_664\trom_target_6128\tnote\n"

func TestParse(t *testing.T) {
	names := namesHeader + "KM WAIT KEY\tBB18\nKL U ROM ENABLE\tB900\nRESET ENTRY\t0000\n"
	detail := detailHeader +
		"low_kernel\t\tRESET ENTRY\t0000\t464,664,6128\t\t\t\t\n" +
		"high_kernel\t\tKL U ROM ENABLE\tB900\t464,664,6128\t\t\t\t\n" +
		"main\t8\tKM WAIT KEY\tBB18\t664,6128\t1B56\t1CDB\t1CDB\t\n"
	es, err := Parse(strings.NewReader(names), strings.NewReader(detail))
	if err != nil {
		t.Fatal(err)
	}
	// The low kernel's restarts are not among the blocks named.
	if len(es) != 2 || es[0].Name != "KL U ROM ENABLE" || es[0].Index != -1 ||
		es[1].Addr != 0xbb18 || es[1].Index != 8 || strings.Join(es[1].Models, ",") != "664,6128" {
		t.Fatalf("Parse = %+v", es)
	}
	src, err := Source(es)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), `{mainBlock, 8, 0xBB18, "KM WAIT KEY", in664 | in6128},`) {
		t.Errorf("Source:\n%s", src)
	}
}

func TestParseRefuses(t *testing.T) {
	names := namesHeader + "KM WAIT KEY\tBB18\n"
	tests := []struct{ names, detail, want string }{
		{"nom\taddress\n", detailHeader, "jumpblocks.tsv: header"},
		{names + "KM WAIT KEY\tBB18\n", detailHeader, `line 3: "KM WAIT KEY" twice`},
		{namesHeader + "KM WAIT KEY\tBB1\n", detailHeader, "jumpblocks.tsv line 2: address"},
		{names, detailHeader + "main\t8\tKM WAIT KEY\tBB18\t472\t\t\t\t\n", `line 2: model "472"`},
		{names, detailHeader + "main\tx\tKM WAIT KEY\tBB18\t464\t\t\t\t\n", `line 2: index "x"`},
		{names, detailHeader + "main\t8\tKM WAIT KEY\tBB1B\t464\t\t\t\t\n", "not in jumpblocks.tsv"},
		{names, detailHeader + "main\t8\n", "line 2: 2 fields"},
	}
	for _, tt := range tests {
		_, err := Parse(strings.NewReader(tt.names), strings.NewReader(tt.detail))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Parse: %v, want an error containing %q", err, tt.want)
		}
	}
}
