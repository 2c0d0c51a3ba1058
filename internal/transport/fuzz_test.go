package transport

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// FuzzDecodeLine feeds the stdio transport's judge of a line anything, as
// a client's input gives it (issue 19's standing guards; seeds in
// testdata/fuzz/FuzzDecodeLine: a request, an answer, a notification and
// each kind of line JSON-RPC 2.0 refuses). Nothing panics; a line is a
// message, a request or an answer to one, which writes out again, or an
// answer of -32700 or -32600 with id null that quotes it short, or blank.
func FuzzDecodeLine(f *testing.F) {
	f.Fuzz(func(t *testing.T, line []byte) {
		msg, answer := DecodeLine(line)
		switch {
		case msg != nil && answer != nil:
			t.Fatalf("%q: both a message and an answer", line)
		case msg == nil && answer == nil:
			if len(bytes.TrimSpace(line)) != 0 {
				t.Fatalf("%q: neither a message nor an answer, and not blank", line)
			}
		case answer != nil:
			var a struct {
				JSONRPC string          `json:"jsonrpc"`
				ID      json.RawMessage `json:"id"`
				Error   struct {
					Code    int64  `json:"code"`
					Message string `json:"message"`
				} `json:"error"`
			}
			if err := json.Unmarshal(answer, &a); err != nil {
				t.Fatalf("%q answered %q, no JSON: %v", line, answer, err)
			}
			if a.JSONRPC != "2.0" || string(a.ID) != "null" || (a.Error.Code != jsonrpc.CodeParseError && a.Error.Code != jsonrpc.CodeInvalidRequest) {
				t.Fatalf("%q answered %s", line, answer)
			}
			if len(answer) > 2000 {
				t.Fatalf("%.80q… answered in %d bytes", line, len(answer))
			}
		default:
			switch m := msg.(type) {
			case *jsonrpc.Request:
			case *jsonrpc.Response:
				if !m.ID.IsValid() {
					t.Fatalf("%q read as an answer to no request", line)
				}
			default:
				t.Fatalf("%q read as %T", line, msg)
			}
			if _, err := jsonrpc.EncodeMessage(msg); err != nil {
				t.Fatalf("%q read as %#v, which does not write: %v", line, msg, err)
			}
		}
	})
}
