package line

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// refusal calls a tool that must refuse, without writing its arguments
// into a failure, and returns the refusal's text.
func (c *client) refusal(name string, args map[string]any) string {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*patience)
	defer cancel()
	res, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		c.t.Fatalf("%s: protocol error: %.300v", name, err)
	}
	if !res.IsError || len(res.Content) != 1 {
		c.t.Fatalf("%s: not refused, or not in one block: %d blocks", name, len(res.Content))
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		c.t.Fatalf("%s: content %T, want text", name, res.Content[0])
	}
	return tc.Text
}

// TestHugeArgumentsAnsweredShort holds issue 19, item 2, for pidp10-mcp
// as colophon-mcp's test of the same name holds it there: whatever a call
// sends, ten megabytes (hugeArgument) of every argument, of an argument's
// name, a number of as many digits, its refusal names the argument and the
// limit in under a kilobyte, where a 1 MiB host was once answered with 2 MiB and a
// 1 MiB expect that was no pattern with 1 MiB. Nothing reaches the line.
func TestHugeArgumentsAnsweredShort(t *testing.T) {
	_, p, c, _ := openLine(t)
	huge := strings.Repeat("A", hugeArgument)
	digits := json.Number(strings.Repeat("9", hugeArgument))
	long := func(arg string, most int) string {
		return fmt.Sprintf(`argument %q is %d characters long; it may be at most %d`, arg, hugeArgument, most)
	}
	numberOf := func(arg string) string {
		return fmt.Sprintf(`argument %q is a number of %d digits`, arg, hugeArgument)
	}
	many := map[string]any{}
	for i := range 100000 {
		many[fmt.Sprintf("a%d", i)] = i
	}
	for _, tt := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"open", map[string]any{"host": huge}, long("host", 255)},
		{"open", map[string]any{"host": 1}, `argument "host" is the number 1; it must be a string`},
		{"open", map[string]any{"port": digits}, numberOf("port") + `; it must be 1 to 65535`},
		{"open", map[string]any{"port": huge}, `argument "port" is the string "AAAA`},
		{"open", map[string]any{huge: 1}, `unknown argument "AAAA`},
		{"send", map[string]any{"input": huge}, long("input", 65536)},
		{"send", map[string]any{"input": "x", "expect": huge}, long("expect", 1024)},
		{"send", map[string]any{"input": "x", "expect": "(" + huge[1:]}, long("expect", 1024)},
		{"send", map[string]any{"input": "x", "timeout_ms": digits}, numberOf("timeout_ms") + `; it must be 0 to 600000`},
		{"send", map[string]any{"input": "x", "quiet_ms": digits}, numberOf("quiet_ms") + `; it must be 0 to 600000`},
		{"send", map[string]any{"input": "x", "auto_more": huge}, `argument "auto_more" is the string "AAAA`},
		{"send", map[string]any{"input": "x", "raw": huge}, `argument "raw" is the string "AAAA`},
		{"send", map[string]any{"input": "x", huge: true}, `unknown argument "AAAA`},
		{"read", map[string]any{"expect": huge}, long("expect", 1024)},
		{"read", map[string]any{"timeout_ms": digits}, numberOf("timeout_ms")},
		{"read", map[string]any{"quiet_ms": huge}, `argument "quiet_ms" is the string "AAAA`},
		{"read", map[string]any{"auto_more": digits}, `argument "auto_more" is the number 9999`},
		{"peek", map[string]any{"last_n_chars": digits}, numberOf("last_n_chars") + `; it must be 1 to 2147483647`},
		{"peek", map[string]any{"last_n_chars": huge}, `argument "last_n_chars" is the string "AAAA`},
		{"status", map[string]any{huge: 1}, `unknown argument "AAAA`},
		{"close", map[string]any{huge: true}, `unknown argument "AAAA`},
		{"status", many, `unknown argument "a0": status takes no arguments`},
	} {
		got := c.refusal(tt.tool, tt.args)
		if !strings.HasPrefix(got, tt.want) {
			t.Errorf("%s refused as %.300q; want it to begin %q", tt.tool, got, tt.want)
		}
		if len(got) > 1000 {
			t.Errorf("%s refused in %d bytes: %.300q…", tt.tool, len(got), got)
		}
	}
	if got := c.refusal("status", many); !strings.HasSuffix(got, "and 99992 faults more") {
		t.Errorf("100000 unknown arguments refused as %.300q…; want eight listed and the rest counted", got)
	}
	// The longest pattern taken that is no pattern is quoted short.
	got := c.refusal("read", map[string]any{"expect": "(" + strings.Repeat("A", maxExpectLength-1)})
	if want := `expect: not a regular expression (Go RE2 syntax): missing closing ): "(AAAA`; !strings.HasPrefix(got, want) || len(got) > 300 {
		t.Errorf("a pattern of %d characters with no ) refused as %q; want it to begin %q, in 300 bytes at most", maxExpectLength, got, want)
	}
	// A tool's or a prompt's name is quoted short where it is unknown.
	for _, call := range []func() error{
		func() error {
			_, err := c.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: huge})
			return err
		},
		func() error {
			_, err := c.cs.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: huge})
			return err
		},
	} {
		if err := call(); err == nil || !strings.Contains(err.Error(), `unknown`) || len(err.Error()) > 300 {
			t.Errorf("a call of an unknown name of 10 MiB: %.300v…, want a short refusal", err)
		}
	}
	// The lengths are in the schemas a client reads.
	res, err := c.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range res.Tools {
		props, _ := tool.InputSchema.(map[string]any)["properties"].(map[string]any)
		for name, p := range props {
			p := p.(map[string]any)
			if p["type"] == "string" && p["maxLength"] == nil {
				t.Errorf("%s's %s has no maxLength in its schema", tool.Name, name)
			}
		}
	}
	if err := p.quietFor(patience / 50); err != nil {
		t.Errorf("after refused calls: %v", err)
	}
}
