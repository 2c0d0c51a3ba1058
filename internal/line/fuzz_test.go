package line

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The fuzz targets of pidp10-mcp's decoders of outside bytes (issue 19's
// standing guards): what an agent sends, through Expand, and what the line
// sends back, through the filter. Their seeds are in testdata/fuzz; plain
// go test runs them, and make fuzz runs each for FUZZTIME.

// FuzzExpand holds Expand over any input: it never panics; what it puts on
// the wire is seven-bit, but for a byte asked for with ~xNN; and outside
// raw, a line it sends ends with CR unless the input ends in ~-.
func FuzzExpand(f *testing.F) {
	for _, s := range []string{"", "print 1+2", "~z~e~c~g~d~s~o~r~n~t", "~x41~~", "a\r\nb\nc~-", "~", "~q", "~x4", "~xZZ", "é", "~-x"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, input string, raw bool) {
		out, err := Expand(input, raw)
		if err != nil {
			if out != nil {
				t.Fatalf("Expand(%q, %v) refused with bytes %q", input, raw, out)
			}
			return
		}
		if !strings.Contains(input, "~x") {
			for _, c := range out {
				if c >= 0x80 {
					t.Fatalf("Expand(%q, %v) = %q: byte &%02X past seven bits, asked for by no ~x", input, raw, out, c)
				}
			}
		}
		if !raw && !strings.HasSuffix(input, "~-") && (len(out) == 0 || out[len(out)-1] != '\r') {
			t.Fatalf("Expand(%q) = %q: a line sent ends with CR", input, out)
		}
		if len(out) > len(input)+1 {
			t.Fatalf("Expand(%q, %v) = %d bytes from %d", input, raw, len(out), len(input))
		}
	})
}

// FuzzFilter holds the filter over any bytes from the line: it never
// panics; it lets through only printable ASCII, tabs and newlines; and the
// text is the same however the bytes are split between reads, since each
// layer keeps its state from one read to the next.
func FuzzFilter(f *testing.F) {
	for _, s := range [][]byte{
		[]byte("LOGIN\r\n*"),
		{iac, will, 1, iac, do, 3, 'o', 'k', iac, iac, '\r', 0, '\n'},
		{iac, sb, 24, 1, iac, se, 'x'},
		{iac, sb, 24, 'n', 'e', 'v', 'e', 'r', ' ', 'e', 'n', 'd', 's'},
		{esc, 'H', esc, 'J', esc, 'Y', 40, 40, 'a', esc, '1'},
		[]byte("--More--(Space=yes, Rubout=no)"),
		{0x80, 0xFF, 0x7F, 0x07, '\t', 'z'},
	} {
		f.Add(s, uint16(len(s)/2))
	}
	f.Fuzz(func(t *testing.T, raw []byte, split uint16) {
		var whole filter
		once := whole.write(nil, raw)
		at := int(split) % (len(raw) + 1)
		var parts filter
		twice := parts.write(parts.write(nil, raw[:at]), raw[at:])
		if !bytes.Equal(once, twice) {
			t.Fatalf("% X read whole gives %q, split at %d %q", raw, once, at, twice)
		}
		for _, c := range once {
			if c != '\n' && c != '\t' && (c < 0x20 || c >= 0x7F) {
				t.Fatalf("% X gives %q, with byte &%02X, which is no text", raw, once, c)
			}
		}
		_ = collapse(string(once))
	})
}

// FuzzToolArguments feeds every tool any arguments through the server as
// a client sends them (issue 19's standing guards; seeds in
// testdata/fuzz/FuzzToolArguments, written by internal/fuzzseed/gen: a call
// of each tool, and arguments of each wrong kind): nothing panics, every
// call is answered, a refusal names what is wrong in a kilobyte at most,
// and the server answers the next call. The line's default is a port no
// one listens on, so that open fails at once rather than waiting out a
// greeting, and an open that names another host or port is not sent: a
// fuzzer's host could be anywhere on the network, and a port of this
// machine another program's.
func FuzzToolArguments(f *testing.F) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		f.Fatal(err)
	}
	closedPort := ln.Addr().(*net.TCPAddr).Port
	ln.Close()

	f.Fuzz(func(t *testing.T, tool string, args []byte) {
		raw := json.RawMessage(args)
		if !json.Valid(args) {
			raw, _ = json.Marshal(string(args)) // arguments that are no JSON object, as a string
		}
		if tool == "open" {
			var a map[string]any
			if json.Unmarshal(raw, &a) == nil {
				if h, ok := a["host"].(string); ok && h != "" && h != "127.0.0.1" {
					return
				}
				if p, ok := a["port"].(float64); ok && p >= 1 && p <= 65535 && p != float64(closedPort) {
					return // a port of this machine, which another program may serve
				}
			}
		}
		s := NewSession("127.0.0.1", closedPort)
		c := newClient(t, s)
		ctx, cancel := context.WithTimeout(context.Background(), patience)
		defer cancel()
		res, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: raw})
		if err != nil {
			if ctx.Err() != nil {
				t.Fatalf("%.80s %.200s: no answer in %v", tool, args, patience)
			}
			return // an unknown tool: the protocol's error
		}
		if res.IsError {
			text := res.Content[0].(*mcp.TextContent).Text
			if len(text) > 1000 {
				t.Fatalf("%s %.200s: refused in %d bytes: %.300s", tool, args, len(text), text)
			}
		}
		if _, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: "status"}); err != nil {
			t.Fatalf("%s %.200s: status after it: %v", tool, args, err)
		}
	})
}
