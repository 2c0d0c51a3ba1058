package server

import (
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// serverInfoIn reads the server's name and the build's from a result's
// _meta, failing if they are not there.
func serverInfoIn(t *testing.T, what string, res map[string]any) {
	t.Helper()
	meta, _ := res["_meta"].(map[string]any)
	info, _ := meta[mcp.MetaKeyServerInfo].(map[string]any)
	if info == nil {
		t.Errorf("%s: no %s in the _meta of %v", what, mcp.MetaKeyServerInfo, res)
		return
	}
	if info["name"] != Name || info["version"] != testBuild {
		t.Errorf("%s: _meta names %v %v, want %s %s", what, info["name"], info["version"], Name, testBuild)
	}
}

// TestBuildNamed holds "The name of the build": the server and the build
// are named in serverInfo, and in the _meta of the answers to
// server/discover, tools/list and tools/call, in every revision.
func TestBuildNamed(t *testing.T) {
	for _, rev := range []string{"2025-11-25", "2025-06-18"} {
		t.Run(rev, func(t *testing.T) {
			w := newWire(t)
			init := mustResult(t, "initialize", w.initialize(rev))
			info, _ := init["serverInfo"].(map[string]any)
			if info["name"] != Name || info["version"] != testBuild {
				t.Errorf("initialize: serverInfo %v, want name %s and version %s", info, Name, testBuild)
			}
			serverInfoIn(t, "tools/list", mustResult(t, "tools/list", w.call("tools/list", nil)))
			serverInfoIn(t, "tools/call", mustResult(t, "tools/call", w.call("tools/call", map[string]any{"name": "machine_list"})))
			// A tool's refusal is an answer to tools/call too.
			refused := mustResult(t, "tools/call refused", w.call("tools/call", map[string]any{"name": "machine_list", "arguments": map[string]any{"x": 1}}))
			if refused["isError"] != true {
				t.Fatalf("machine_list with an unknown argument: want a refusal, got %v", refused)
			}
			serverInfoIn(t, "tools/call refused", refused)
		})
	}
	t.Run(modern, func(t *testing.T) {
		w := newWire(t)
		serverInfoIn(t, "server/discover", mustResult(t, "server/discover", w.call("server/discover", withMeta(modern, nil))))
		serverInfoIn(t, "tools/list", mustResult(t, "tools/list", w.call("tools/list", withMeta(modern, nil))))
		serverInfoIn(t, "tools/call", mustResult(t, "tools/call", w.call("tools/call", withMeta(modern, map[string]any{"name": "machine_list"}))))
	})
}

// TestBuildNotNamed: a ping's answer, an error and the SDK's empty answers
// for what the server does not offer name neither the server nor the build.
// The SDK puts the server's name on every 2026-07-28 answer; the connection
// takes it off these.
func TestBuildNotNamed(t *testing.T) {
	type request struct {
		method string
		params map[string]any
		error  bool
	}
	empty := []request{
		{method: "resources/list"},
		{method: "resources/templates/list"},
		{method: "prompts/list"},
	}
	errors := []request{
		{method: "tools/call", params: map[string]any{"name": "no_such_tool"}, error: true},
		{method: "resources/read", params: map[string]any{"uri": "file:///nothing"}, error: true},
		{method: "prompts/get", params: map[string]any{"name": "nothing"}, error: true},
		{method: "no/such/method", error: true},
	}
	check := func(t *testing.T, w *wire, rev string, req request) {
		t.Helper()
		params := req.params
		if rev == modern {
			params = withMeta(modern, params)
		}
		r := w.call(req.method, params)
		if req.error && r.Error == nil {
			t.Errorf("%s in %s: want an error, got %s", req.method, rev, r.Raw)
		}
		if !req.error && r.Error != nil {
			t.Errorf("%s in %s: want an empty answer, got %s", req.method, rev, r.Raw)
		}
		for _, name := range []string{mcp.MetaKeyServerInfo, testBuild} {
			if strings.Contains(r.Raw, name) {
				t.Errorf("%s in %s: the answer %s names %s", req.method, rev, r.Raw, name)
			}
		}
	}
	for _, rev := range []string{"2025-11-25", "2025-06-18"} {
		t.Run(rev, func(t *testing.T) {
			w := newWire(t)
			mustResult(t, "initialize", w.initialize(rev))
			for _, req := range append(append([]request{{method: "ping"}}, empty...), errors...) {
				check(t, w, rev, req)
			}
			if r := w.call("ping", nil); r.Raw != `{"jsonrpc":"2.0","id":`+strconv.Itoa(w.nextID)+`,"result":{}}` {
				t.Errorf("ping: answered %s, want an empty result", r.Raw)
			}
		})
	}
	t.Run(modern, func(t *testing.T) {
		w := newWire(t)
		for _, req := range append(empty, errors...) {
			check(t, w, modern, req)
		}
		// A 2026-07-28 answer keeps the rest of its _meta, and says it is
		// complete.
		r := w.call("resources/list", withMeta(modern, nil))
		if r.Result["resultType"] != "complete" {
			t.Errorf("resources/list in 2026-07-28: %s lost its resultType", r.Raw)
		}
	})
	t.Run("refused revisions", func(t *testing.T) {
		w := newWire(t)
		for _, r := range []reply{
			w.call("tools/list", withMeta("2024-11-05", nil)),
			w.call("tools/list", nil),
		} {
			if r.Error == nil || strings.Contains(r.Raw, testBuild) || strings.Contains(r.Raw, mcp.MetaKeyServerInfo) {
				t.Errorf("refusal %s: want an error naming no build", r.Raw)
			}
		}
	})
}
