package proxy

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Mirrorable keeps of the tools a window lists those the proxy can list as
// its own: each named, with an input schema that is a JSON object of type
// "object", and an output schema, if any, that is a JSON object. The SDK
// refuses any other, by panicking; a window is another process, and what
// it sends is held to this before the proxy takes it. A tool left out is
// logged.
func Mirrorable(tools []*mcp.Tool, log *slog.Logger) []*mcp.Tool {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	var out []*mcp.Tool
	seen := map[string]bool{}
	// The SDK holds a tool to more than this says (the x-mcp-header of
	// its properties, say): each is tried on a server of its own first.
	scratch := mcp.NewServer(&mcp.Implementation{Name: "scratch", Version: "0"}, nil)
	for _, t := range tools {
		if t == nil {
			continue
		}
		why := ""
		switch {
		case t.Name == "":
			why = "it has no name"
		case seen[t.Name]:
			why = "its name is listed twice"
		case !objectSchema(t.InputSchema, true):
			why = `its input schema is not a JSON object of type "object"`
		case t.OutputSchema != nil && !objectSchema(t.OutputSchema, false):
			why = "its output schema is not a JSON object"
		default:
			why = tryAdding(scratch, t)
		}
		if why != "" {
			log.Warn("a tool the window lists is left out", "tool", t.Name, "why", why)
			continue
		}
		seen[t.Name] = true
		c := *t
		out = append(out, &c)
	}
	return out
}

// objectSchema reports whether a schema, as the SDK's client decodes it,
// is a JSON object, of type "object" where typed says so.
func objectSchema(s any, typed bool) bool {
	b, err := json.Marshal(s)
	if err != nil {
		return false
	}
	var m map[string]any
	if json.Unmarshal(b, &m) != nil || m == nil {
		return false
	}
	return !typed || m["type"] == "object"
}

// tryAdding adds a copy of t to scratch, and says why the SDK would not
// take it, or "".
func tryAdding(scratch *mcp.Server, t *mcp.Tool) (why string) {
	defer func() {
		if r := recover(); r != nil {
			why = fmt.Sprint(r)
		}
	}()
	c := *t
	scratch.AddTool(&c, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return nil, nil })
	return ""
}
