package server

import (
	"context"
	"reflect"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"colophon/internal/host"
)

// The schema of screen's layout: one of the three names the player's screen
// panel gives.
func init() {
	typeSchemas[reflect.TypeFor[host.ScreenLayout]()] = &jsonschema.Schema{
		Type: "string", Enum: []any{"video", "linear", "columns"},
		Description: "how the screen's bytes lie in memory: video as the CPC's video hardware reads them, linear a flat buffer, columns down before across",
	}
}

// addReadingTools adds the tools that read a machine as code, as bytes to
// search, as a RAM beside another, and as a picture: disassemble, find,
// compare and screen. None moves a machine or enters its journal.
func (s *Server) addReadingTools() {
	h := s.host
	addTool(s.mcp, &mcp.Tool{Name: "disassemble", Title: "List a machine's memory as instructions", Description: disassembleDescription, Annotations: reads}, h.Disassemble)
	addTool(s.mcp, &mcp.Tool{Name: "find", Title: "Search a machine's memory", Description: findDescription, Annotations: reads}, h.Find)
	addTool(s.mcp, &mcp.Tool{Name: "compare", Title: "Compare a CPC's RAM with a state or another CPC", Description: compareDescription, Annotations: reads}, h.Compare)
	addContentTool(s.mcp, &mcp.Tool{Name: "screen", Title: "Read a CPC's memory as a picture", Description: screenDescription, Annotations: reads}, s.screen)
}

// screen answers the picture as PNG image content beside the JSON, as
// monitor does.
func (s *Server) screen(ctx context.Context, a host.ScreenArgs) (host.Screened, []mcp.Content, error) {
	sc, png, err := s.host.Screen(ctx, a)
	if err != nil {
		return host.Screened{}, nil, err
	}
	return sc, []mcp.Content{&mcp.ImageContent{Data: png, MIMEType: "image/png"}}, nil
}
