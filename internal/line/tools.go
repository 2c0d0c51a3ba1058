package line

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// OpenInput is open's arguments.
type OpenInput struct {
	Host string `json:"host,omitempty" jsonschema:"Emulator host: a name or an address, at most 255 characters. Default: PIDP10_HOST or --host, else pidp10.local."`
	Port int    `json:"port,omitempty" jsonschema:"Emulator TCP port: one terminal line. Default: PIDP10_PORT or --port, else 10018."`
}

// SendInput is send's arguments.
type SendInput struct {
	Input    string `json:"input" jsonschema:"Text to type, with ~ escapes: ~z Ctrl-Z (calls ITS), ~e ESC/altmode (DDT's $), ~c Ctrl-C, ~g Ctrl-G, ~d Rubout, ~s Ctrl-S, ~o Ctrl-O, ~r CR, ~n LF (a DDT command, not a newline), ~t Tab, ~xNN any byte, ~~ a tilde, ~- at the very end: no automatic CR. An unknown escape is an error. A CR is appended, and a literal LF or CRLF becomes CR. At most 65536 characters."`
	Expect   string `json:"expect,omitempty" jsonschema:"Regular expression (Go RE2 syntax), at most 1024 characters. Return as soon as it matches the new output (reason matched)."`
	Timeout  int    `json:"timeout_ms,omitempty" jsonschema:"Return after this many milliseconds at the latest (reason timeout)."`
	Quiet    int    `json:"quiet_ms,omitempty" jsonschema:"Return once the line has been silent this long (reason quiet). The quiet timer starts only after the first byte arrives."`
	AutoMore bool   `json:"auto_more,omitempty" jsonschema:"Answer --More-- prompts with a space, up to 20 pages, removing them from the text; past that the reason is more_limit."`
	Raw      bool   `json:"raw,omitempty" jsonschema:"Send the expanded bytes verbatim: no CR appended, no line-ending normalisation."`
}

// ReadInput is read's arguments.
type ReadInput struct {
	Timeout  int    `json:"timeout_ms,omitempty" jsonschema:"Return after this many milliseconds at the latest (reason timeout)."`
	Expect   string `json:"expect,omitempty" jsonschema:"Regular expression (Go RE2 syntax), at most 1024 characters. Return as soon as it matches the new output (reason matched)."`
	Quiet    int    `json:"quiet_ms,omitempty" jsonschema:"Return once the line has been silent this long (reason quiet). Output already waiting counts as arrived."`
	AutoMore bool   `json:"auto_more,omitempty" jsonschema:"Answer --More-- prompts with a space, up to 20 pages, including one left waiting by the previous call."`
}

// PeekInput is peek's arguments.
type PeekInput struct {
	LastNChars int `json:"last_n_chars,omitempty" jsonschema:"How many characters of the end of the scrollback to show."`
}

// NoInput is the arguments of status and close, which take none.
type NoInput struct{}

// maxWaitMS bounds timeout_ms and quiet_ms. Ten minutes is longer than any
// MCP client waits for one call.
const maxWaitMS = 600000

const openDescription = `Connect to the emulator's terminal line (one TCP port is one ITS terminal). Idempotent: if the line is already open it only reports so. Returns any greeting the line sends in its first moments (simh's "Connected to ..." banner; ITS itself says nothing until ~z). The connection then belongs to the server: it stays up between calls however long you think, and it is never reopened behind your back. If it dies, every response says so, and calling open again is how you decide to reconnect.`

const sendDescription = `Type input on the line and return the output it produced, filtered to plain text, followed by one trailer line in [brackets] giving the reason the call returned and the line's state.

Returns on whichever comes first: expect matches the new output (matched); the line has been quiet for quiet_ms after the first byte arrived (quiet); timeout_ms elapsed (timeout); a --More-- prompt after 20 answered pages (more_limit: read continues, send ~d flushes). If the line dies during the call the reason is dead (closed if close() ended it), and the trailer says why.

Escapes: ~z Ctrl-Z calls ITS (a fresh line ignores everything else), ~e ESC (DDT's $), ~c ~g ~s ~o Ctrl-C/G/S/O, ~d Rubout (flushes a --More-- pager), ~r CR, ~n LF (DDT: examine next location, not a newline), ~t Tab, ~xNN any byte, ~~ tilde, ~- at the very end suppresses the automatic CR. Example: "foo~ej" sends f o o ESC j CR, DDT's foo$j.

Only output since the previous send or read is returned; see peek for older text.`

const readDescription = `Collect more output without sending anything: for a slow program, or to go on after more_limit. Output that arrived since the last call is returned, filtered, then one trailer line. Returns on expect matching (matched), quiet_ms of silence (quiet; output already waiting counts as arrived, so a quiet line returns at once), timeout_ms (timeout), or a --More-- after 20 answered pages (more_limit). A line that died still gives up the output that arrived before the end.`

const peekDescription = `Show the last last_n_chars characters of the scrollback (the last 256 KB of filtered output) without moving the point from which send and read return output; a last_n_chars larger than the scrollback shows all of it. For looking back, not for waiting.`

const statusDescription = `Report the line: connected or not, host:port, uptime, bytes received and sent, output waiting to be read, a waiting --More-- prompt, and why the line died if it did.`

const closeDescription = `Hard-close the line: the socket is reset (SO_LINGER 0) so the emulator frees the terminal line at once instead of holding it half-closed. Unread output stays available to read and peek. Call open to connect again.`

// NewServer returns an MCP server whose six tools drive the session.
func NewServer(s *Session, version string) *mcp.Server {
	server := mcp.NewServer(&mcp.Implementation{Name: "pidp10-mcp", Version: version}, &mcp.ServerOptions{
		Instructions: "One ITS terminal line on a PiDP-10 (simh). open() first; ~z calls ITS. " +
			"The connection persists between calls and is never reopened automatically.",
		// What the SDK offers by default, and prompts: the SDK answers
		// prompts/list, with none, whatever is declared, and a 2026-07-28
		// client's server/discover must say what the server answers.
		Capabilities: &mcp.ServerCapabilities{
			Logging: &mcp.LoggingCapabilities{},
			Tools:   &mcp.ToolCapabilities{ListChanged: true},
			Prompts: &mcp.PromptCapabilities{},
		},
	})

	schemas := map[string]*jsonschema.Schema{}
	// add adds a tool whose arguments checkArguments holds to its schema.
	add := func(t *mcp.Tool) *mcp.Tool {
		schemas[t.Name] = t.InputSchema.(*jsonschema.Schema)
		return t
	}
	server.AddReceivingMiddleware(nullArguments, checkArguments(schemas), quotePrompt)

	mcp.AddTool(server, add(&mcp.Tool{
		Name: "open", Description: openDescription,
		InputSchema: schema[OpenInput](map[string]bounds{
			"host": {maxLength: maxHostLength},
			"port": {min: 1, max: 65535},
		}),
	}), func(ctx context.Context, _ *mcp.CallToolRequest, in OpenInput) (*mcp.CallToolResult, any, error) {
		r, err := s.Open(ctx, in.Host, in.Port)
		return result(r, err)
	})

	mcp.AddTool(server, add(&mcp.Tool{
		Name: "send", Description: sendDescription,
		InputSchema: schema[SendInput](map[string]bounds{
			"input":      {maxLength: maxInputLength},
			"expect":     {maxLength: maxExpectLength},
			"timeout_ms": {min: 0, max: maxWaitMS, def: int(DefaultSendTimeout / time.Millisecond)},
			"quiet_ms":   {min: 0, max: maxWaitMS, def: int(DefaultQuiet / time.Millisecond)},
			"auto_more":  {def: true},
			"raw":        {def: false},
		}),
	}), func(ctx context.Context, _ *mcp.CallToolRequest, in SendInput) (*mcp.CallToolResult, any, error) {
		c, err := collectFor(in.Expect, in.Timeout, in.Quiet, in.AutoMore)
		if err != nil {
			return nil, nil, err
		}
		r, err := s.Send(ctx, in.Input, in.Raw, c)
		return result(r, err)
	})

	mcp.AddTool(server, add(&mcp.Tool{
		Name: "read", Description: readDescription,
		InputSchema: schema[ReadInput](map[string]bounds{
			"expect":     {maxLength: maxExpectLength},
			"timeout_ms": {min: 0, max: maxWaitMS, def: int(DefaultReadTimeout / time.Millisecond)},
			"quiet_ms":   {min: 0, max: maxWaitMS, def: int(DefaultQuiet / time.Millisecond)},
			"auto_more":  {def: true},
		}),
	}), func(ctx context.Context, _ *mcp.CallToolRequest, in ReadInput) (*mcp.CallToolResult, any, error) {
		c, err := collectFor(in.Expect, in.Timeout, in.Quiet, in.AutoMore)
		if err != nil {
			return nil, nil, err
		}
		r, err := s.Read(ctx, c)
		return result(r, err)
	})

	mcp.AddTool(server, add(&mcp.Tool{
		Name: "peek", Description: peekDescription,
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
		InputSchema: schema[PeekInput](map[string]bounds{
			// More than the scrollback holds shows all of it.
			"last_n_chars": {min: 1, max: math.MaxInt32, def: DefaultPeekChars},
		}),
	}), func(_ context.Context, _ *mcp.CallToolRequest, in PeekInput) (*mcp.CallToolResult, any, error) {
		r, err := s.Peek(in.LastNChars)
		return result(r, err)
	})

	mcp.AddTool(server, add(&mcp.Tool{
		Name: "status", Description: statusDescription,
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
		InputSchema: schema[NoInput](nil),
	}), func(context.Context, *mcp.CallToolRequest, NoInput) (*mcp.CallToolResult, any, error) {
		return text(strings.TrimRight(s.Status(), "\n")), nil, nil
	})

	mcp.AddTool(server, add(&mcp.Tool{
		Name: "close", Description: closeDescription,
		InputSchema: schema[NoInput](nil),
	}), func(context.Context, *mcp.CallToolRequest, NoInput) (*mcp.CallToolResult, any, error) {
		return result(s.Close(), nil)
	})
	return server
}

// nullArguments turns a tools/call whose arguments are JSON null into one
// with no arguments. The SDK (v1.8.0) would otherwise try to apply the
// schema's defaults to a nil map and panic, taking the process, and with it
// the line, down.
func nullArguments(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if call, ok := req.(*mcp.CallToolRequest); ok && call.Params != nil &&
			string(bytes.TrimSpace(call.Params.Arguments)) == "null" {
			call.Params.Arguments = nil
		}
		return next(ctx, method, req)
	}
}

// collectFor turns the tool arguments into limits, naming a bad argument.
func collectFor(expect string, timeoutMS, quietMS int, autoMore bool) (Collect, error) {
	c := Collect{
		Timeout:  time.Duration(timeoutMS) * time.Millisecond,
		Quiet:    time.Duration(quietMS) * time.Millisecond,
		AutoMore: autoMore,
	}
	if expect != "" {
		re, err := compileExpect(expect)
		if err != nil {
			return Collect{}, err
		}
		c.Expect = re
	}
	return c, c.check()
}

// String is the response an agent reads: the text, then one trailer line.
func (r Reply) String() string {
	parts := []string{}
	if r.Reason != "" {
		parts = append(parts, r.Reason)
	}
	if r.Pages > 0 {
		parts = append(parts, fmt.Sprintf("%d --More-- answered", r.Pages))
	}
	if r.Lost > 0 {
		parts = append(parts, fmt.Sprintf("%d chars lost: scrollback overflow", r.Lost))
	}
	if r.Note != "" {
		parts = append(parts, r.Note)
	}
	parts = append(parts, r.Line)
	trailer := "[" + strings.Join(parts, " | ") + "]"
	if r.Text == "" {
		return trailer
	}
	return r.Text + "\n" + trailer
}

func result(r Reply, err error) (*mcp.CallToolResult, any, error) {
	if err != nil {
		return nil, nil, err
	}
	return text(r.String()), nil, nil
}

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

// bounds are what a schema says about one property beyond its type.
type bounds struct {
	min, max  int // an integer's range
	maxLength int // a string's most characters
	def       any // nil for no default
}

// schema derives the input schema from the Go type, so the SDK validates
// arguments and names a wrong one, and adds the spec's defaults and ranges.
// The SDK fills in the defaults before the handler sees the arguments.
func schema[T any](props map[string]bounds) *jsonschema.Schema {
	sch, err := jsonschema.For[T](nil)
	if err != nil {
		panic(fmt.Sprintf("input schema for %T: %v", *new(T), err))
	}
	for name, b := range props {
		p, ok := sch.Properties[name]
		if !ok {
			panic(fmt.Sprintf("input schema for %T has no property %q", *new(T), name))
		}
		if p.Type == "string" && b.maxLength > 0 {
			p.MaxLength = jsonschema.Ptr(b.maxLength)
		}
		if p.Type == "integer" {
			minimum, maximum := float64(b.min), float64(b.max)
			p.Minimum, p.Maximum = &minimum, &maximum
		}
		if b.def != nil {
			raw, err := json.Marshal(b.def)
			if err != nil {
				panic(err)
			}
			p.Default = raw
		}
	}
	return sch
}
