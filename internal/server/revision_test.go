package server

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestInitializeRevision holds initialize to "What it answers": answered in
// 2025-11-25 or 2025-06-18 as asked (W-2), and in 2025-11-25 for any other
// (W-3), 2026-07-28 among them.
func TestInitializeRevision(t *testing.T) {
	tests := []struct {
		asked, want string
	}{
		{"2025-11-25", "2025-11-25"},
		{"2025-06-18", "2025-06-18"},
		{"2026-07-28", "2025-11-25"},
		{"2025-03-26", "2025-11-25"},
		{"2024-11-05", "2025-11-25"},
		{"2030-01-01", "2025-11-25"},
		{"yesterday", "2025-11-25"},
	}
	for _, tt := range tests {
		t.Run(tt.asked, func(t *testing.T) {
			w := newWire(t)
			res := mustResult(t, "initialize", w.initialize(tt.asked))
			if got := res["protocolVersion"]; got != tt.want {
				t.Errorf("initialize asking for %s: answered in %v, want %s", tt.asked, got, tt.want)
			}
			if got := res["instructions"]; got != Instructions {
				t.Errorf("initialize: instructions are %q, want the package's Instructions", got)
			}
			// The connection now speaks the revision it was answered in.
			list := mustResult(t, "tools/list", w.call("tools/list", nil))
			if tools, _ := list["tools"].([]any); len(tools) == 0 {
				t.Errorf("tools/list after initialize: no tools in %v", list)
			}
		})
	}
}

// TestModernRevision holds a request naming 2026-07-28 in its _meta to W-1:
// answered in that revision without initialize, server/discover among its
// methods.
func TestModernRevision(t *testing.T) {
	w := newWire(t)
	disc := mustResult(t, "server/discover", w.call("server/discover", withMeta(modern, nil)))
	var versions []string
	for _, v := range disc["supportedVersions"].([]any) {
		versions = append(versions, v.(string))
	}
	if want := []string{"2026-07-28", "2025-11-25", "2025-06-18"}; !slices.Equal(versions, want) {
		t.Errorf("server/discover: supportedVersions %v, want %v", versions, want)
	}
	if disc["instructions"] != Instructions {
		t.Errorf("server/discover: instructions are %q, want the package's Instructions", disc["instructions"])
	}
	if _, ok := disc["capabilities"].(map[string]any)["tools"]; !ok {
		t.Errorf("server/discover: capabilities %v offer no tools", disc["capabilities"])
	}

	list := mustResult(t, "tools/list", w.call("tools/list", withMeta(modern, nil)))
	if tools, _ := list["tools"].([]any); len(tools) == 0 {
		t.Errorf("tools/list in 2026-07-28: no tools in %v", list)
	}
	if list["resultType"] != "complete" {
		t.Errorf("tools/list in 2026-07-28: resultType %v, want complete, as that revision has every result say", list["resultType"])
	}

	// 2026-07-28 has no ping and no initialize; the SDK says so.
	mustError(t, "ping in 2026-07-28", w.call("ping", withMeta(modern, nil)), -32601)
	mustError(t, "initialize in 2026-07-28", w.call("initialize", withMeta(modern, initializeParams(modern))), -32601)
}

// TestServerDiscoverNeedsModern: server/discover is a 2026-07-28 method, so
// one naming no revision is not found (the SDK's answer), on a connection
// initialize opened.
func TestServerDiscoverNeedsModern(t *testing.T) {
	w := newWire(t)
	w.initialize("2025-11-25")
	mustError(t, "server/discover in 2025-11-25", w.call("server/discover", nil), -32601)
}

// unsupportedData decodes a -32022 refusal's data.
func unsupportedData(t *testing.T, r reply) mcp.UnsupportedProtocolVersionData {
	t.Helper()
	var d mcp.UnsupportedProtocolVersionData
	if err := json.Unmarshal(r.Error.Data, &d); err != nil {
		t.Fatalf("-32022 data %s: %v", r.Error.Data, err)
	}
	return d
}

// TestUnspokenRevisionRefused holds W-4: a request in a revision the server
// does not speak is refused with -32022 and {supported, requested}, however
// the connection stands. The SDK would answer the first few as though they
// named no revision.
func TestUnspokenRevisionRefused(t *testing.T) {
	all := []string{"2026-07-28", "2025-11-25", "2025-06-18"}
	tests := []struct {
		name      string
		open      string // revision initialize opens the connection in; "" for none
		modern    bool   // a 2026-07-28 request goes first
		method    string
		requested string
		supported []string
	}{
		{"older, unopened", "", false, "tools/list", "2024-11-05", all},
		{"older, opened", "2025-11-25", false, "tools/list", "2025-03-26", all},
		{"older ping", "", false, "ping", "2024-11-05", all},
		{"older initialize", "", false, "initialize", "2025-03-26", all},
		{"older after modern", "", true, "tools/call", "2024-11-05", all},
		{"newer", "", false, "tools/list", "2027-01-01", all},
		{"newer, opened", "2025-06-18", false, "tools/list", "2099-12-31", all},
		{"not a date", "", false, "tools/list", "latest", all},
		{"empty", "", false, "tools/list", "", all},
		// A revision only initialize opens, named with none opened...
		{"2025-11-25 unopened", "", false, "tools/list", "2025-11-25", []string{"2026-07-28"}},
		{"2025-06-18 after modern", "", true, "tools/list", "2025-06-18", []string{"2026-07-28"}},
		// ...or with the other one opened.
		{"2025-06-18 in 2025-11-25", "2025-11-25", false, "tools/list", "2025-06-18", []string{"2026-07-28", "2025-11-25"}},
		{"2025-11-25 in 2025-06-18", "2025-06-18", false, "ping", "2025-11-25", []string{"2026-07-28", "2025-06-18"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWire(t)
			if tt.open != "" {
				mustResult(t, "initialize", w.initialize(tt.open))
			}
			if tt.modern {
				mustResult(t, "tools/list in 2026-07-28", w.call("tools/list", withMeta(modern, nil)))
			}
			params := map[string]any{}
			switch tt.method {
			case "initialize":
				params = initializeParams(tt.requested)
			case "tools/call":
				params = map[string]any{"name": "machine_list"}
			}
			r := w.call(tt.method, withMeta(tt.requested, params))
			mustError(t, tt.method, r, mcp.CodeUnsupportedProtocolVersion)
			d := unsupportedData(t, r)
			if d.Requested != tt.requested || !slices.Equal(d.Supported, tt.supported) {
				t.Errorf("data %s, want requested %q and supported %v", r.Error.Data, tt.requested, tt.supported)
			}
			// The refusal changes nothing: the connection answers on.
			if tt.open != "" {
				mustResult(t, "ping after the refusal", w.call("ping", nil))
			}
		})
	}
}

// TestLegacyRevisionNamed: a request naming the revision initialize opened
// the connection in is answered in it.
func TestLegacyRevisionNamed(t *testing.T) {
	for _, rev := range []string{"2025-11-25", "2025-06-18"} {
		t.Run(rev, func(t *testing.T) {
			w := newWire(t)
			mustResult(t, "initialize", w.initialize(rev))
			mustResult(t, "tools/list naming "+rev, w.call("tools/list", withMeta(rev, nil)))
		})
	}
	t.Run("initialize naming its revision", func(t *testing.T) {
		w := newWire(t)
		res := mustResult(t, "initialize", w.call("initialize", withMeta("2025-06-18", initializeParams("2025-06-18"))))
		if res["protocolVersion"] != "2025-06-18" {
			t.Errorf("answered in %v, want 2025-06-18", res["protocolVersion"])
		}
	})
	t.Run("initialize naming two revisions", func(t *testing.T) {
		w := newWire(t)
		r := w.call("initialize", withMeta("2025-06-18", initializeParams("2025-11-25")))
		mustError(t, "initialize", r, -32602)
		if !strings.Contains(r.Error.Message, "2025-06-18") || !strings.Contains(r.Error.Message, "2025-11-25") {
			t.Errorf("the refusal %q names neither revision", r.Error.Message)
		}
	})
}

// TestNoRevisionRefused: a request that names no revision, on a connection
// no initialize opened, is in no revision the server speaks. The SDK
// answers one once a 2026-07-28 request has come; the connection refuses
// it, and says how to name a revision.
func TestNoRevisionRefused(t *testing.T) {
	for _, modernFirst := range []bool{false, true} {
		name := "fresh"
		if modernFirst {
			name = "after 2026-07-28"
		}
		t.Run(name, func(t *testing.T) {
			w := newWire(t)
			if modernFirst {
				mustResult(t, "server/discover", w.call("server/discover", withMeta(modern, nil)))
			}
			for _, method := range []string{"tools/list", "tools/call", "resources/list"} {
				r := w.call(method, map[string]any{"name": "machine_list"})
				mustError(t, method, r, -32600)
				for _, want := range []string{method, modern, mcp.MetaKeyProtocolVersion, "initialize"} {
					if !strings.Contains(r.Error.Message, want) {
						t.Errorf("%s: the refusal %q does not say %q", method, r.Error.Message, want)
					}
				}
			}
		})
	}
}

// TestPingBeforeInitialize: the revisions that open with initialize let a
// ping come first, and so does the server.
func TestPingBeforeInitialize(t *testing.T) {
	w := newWire(t)
	if res := mustResult(t, "ping", w.call("ping", nil)); len(res) != 0 {
		t.Errorf("ping: answered %v, want {}", res)
	}
}

// TestInitializeOpensOnce: initialize opens a connection, once, and not one
// that already speaks 2026-07-28.
func TestInitializeOpensOnce(t *testing.T) {
	t.Run("twice", func(t *testing.T) {
		w := newWire(t)
		mustResult(t, "initialize", w.initialize("2025-11-25"))
		r := w.call("initialize", initializeParams("2025-06-18"))
		mustError(t, "second initialize", r, -32600)
		if !strings.Contains(r.Error.Message, "2025-11-25") {
			t.Errorf("the refusal %q does not say the revision the connection speaks", r.Error.Message)
		}
		// Still in 2025-11-25.
		mustResult(t, "tools/list naming 2025-11-25", w.call("tools/list", withMeta("2025-11-25", nil)))
	})
	t.Run("after 2026-07-28", func(t *testing.T) {
		w := newWire(t)
		mustResult(t, "tools/list", w.call("tools/list", withMeta(modern, nil)))
		mustError(t, "initialize", w.call("initialize", initializeParams("2025-11-25")), -32600)
		mustResult(t, "tools/list in 2026-07-28", w.call("tools/list", withMeta(modern, nil)))
	})
	t.Run("modern after initialize", func(t *testing.T) {
		// A 2026-07-28 request names its revision, so it is answered in it
		// on any connection.
		w := newWire(t)
		mustResult(t, "initialize", w.initialize("2025-06-18"))
		mustResult(t, "server/discover", w.call("server/discover", withMeta(modern, nil)))
	})
}

// TestPipelinedAfterInitialize: a client may send its next request before
// initialize is answered; the connection holds it to the revision the
// initialize asked for, not to none.
func TestPipelinedAfterInitialize(t *testing.T) {
	w := newWire(t)
	w.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"wire-test","version":"1"}}}`)
	w.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	w.send(`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-06-18"}}}`)
	w.send(`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`)
	got := map[float64]reply{}
	for range 3 {
		r := decodeReply(t, w.recv())
		got[r.ID.(float64)] = r
	}
	if v := mustResult(t, "initialize", got[1])["protocolVersion"]; v != "2025-06-18" {
		t.Errorf("initialize answered in %v", v)
	}
	mustResult(t, "tools/list naming 2025-06-18", got[2])
	mustResult(t, "tools/list naming none", got[3])
}

// TestMalformedRevision: a revision that is not a string is refused as
// invalid params, naming the key.
func TestMalformedRevision(t *testing.T) {
	w := newWire(t)
	r := w.call("tools/list", map[string]any{"_meta": map[string]any{mcp.MetaKeyProtocolVersion: 20260728}})
	mustError(t, "tools/list", r, -32602)
	if !strings.Contains(r.Error.Message, mcp.MetaKeyProtocolVersion) {
		t.Errorf("the refusal %q does not name the key", r.Error.Message)
	}
}

// TestAnswersOutliveInput: a client that writes its requests and closes its
// input, as a shell pipe does, gets every answer, even one still being
// worked out when its input ends (go-sdk issue #1061 drops them): here a
// run of 1500 frames.
func TestAnswersOutliveInput(t *testing.T) {
	// Serve writes every answer, the cancelled run's too, however long a
	// loaded machine takes to reach them (issue 19, item 12).
	w := dial(t, New(Options{Build: testBuild, Host: romsHost(t), StopGrace: time.Minute}))
	// Read as the answers come, as a pipe's buffer would take them, so
	// that the server is never held up writing.
	lines := make(chan []string)
	go func() { lines <- w.recvAll() }()
	w.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"wire-test","version":"1"}}}`)
	w.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	w.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"machine_open","arguments":{"machine":"spectrum48"}}}`)
	w.send(`{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2024-11-05"}}}`)
	w.send(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"run","arguments":{"handle":"m1","frames":1500}}}`)
	w.send(`{"jsonrpc":"2.0","id":5,"method":"ping"}`)
	w.closeInput()

	answered := map[float64]reply{}
	for _, line := range <-lines {
		r := decodeReply(t, line)
		answered[r.ID.(float64)] = r
	}
	mustResult(t, "initialize", answered[1])
	if open := mustResult(t, "machine_open", answered[2]); open["isError"] == true {
		t.Errorf("machine_open refused: %v", open)
	}
	mustError(t, "tools/list in 2024-11-05", answered[3], mcp.CodeUnsupportedProtocolVersion)
	// With a minute's grace, the run is not cancelled, however long a
	// loaded machine takes to come to it (TestStdioEndsWithinASecond, in
	// cmd/colophon-mcp, holds the default grace).
	run := mustResult(t, "run", answered[4])
	if run["isError"] == true {
		t.Errorf("run refused: %v", run)
	} else if got, stop := run["structuredContent"].(map[string]any)["frames"], run["structuredContent"].(map[string]any)["stop"]; got != 1500.0 || stop != "done" {
		t.Errorf("the run retraced %v frames and stopped %v; want 1500, done", got, stop)
	}
	mustResult(t, "ping", answered[5])
	if len(answered) != 5 {
		t.Errorf("%d answers, want 5", len(answered))
	}
}
