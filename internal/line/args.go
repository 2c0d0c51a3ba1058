package line

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"colophon/internal/quote"
)

// What a client sends is held to its tools' schemas here, before the SDK
// sees it, and every refusal names the argument and its limit and quotes
// at most quote.Most characters of what was sent (issue 19, item 2). The
// SDK's own validator, which runs after and then finds nothing wrong,
// quotes a string or an unknown argument's name whole: a 10 MiB host was
// answered with 20 MiB.
//
// The bounds on the strings are lengths a real session never comes near
// and that bound what one call can make the server hold:
const (
	// maxHostLength bounds open's host: a domain name is at most 255
	// octets (RFC 1035, section 2.3.4), and an address literal is shorter.
	maxHostLength = 255
	// maxExpectLength bounds an expect pattern. A prompt to wait for is a
	// few characters (`\*$`, `LOGIN`); 1024 leaves room for any
	// alternation of them while keeping the compiled program, which is
	// run over the unread output each time the line has news, small.
	maxExpectLength = 1024
	// maxInputLength bounds send's input: 64 KiB is a program of a
	// thousand lines pasted whole, far more than one call's typing, and
	// what one call puts on the wire stays within a few socket buffers.
	maxInputLength = 64 << 10
)

// maxFaults is how many faults one refusal lists; the rest are counted.
const maxFaults = 8

// checkArguments is receiving middleware that holds a tools/call's
// arguments to the tool's input schema (schemas, by tool name) and answers
// a call that breaks it with a short refusal, never calling the tool.
func checkArguments(schemas map[string]*jsonschema.Schema) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			call, ok := req.(*mcp.CallToolRequest)
			if !ok || call.Params == nil {
				return next(ctx, method, req)
			}
			schema, ok := schemas[call.Params.Name]
			if !ok {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "unknown tool " + quote.String(call.Params.Name)}
			}
			if err := holdArguments(call.Params.Name, schema, call.Params.Arguments); err != nil {
				return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}, nil
			}
			return next(ctx, method, req)
		}
	}
}

// quotePrompt is receiving middleware that quotes short the name of a
// prompt the SDK refuses as unknown, which it quotes whole. The server has
// no prompts, so every prompts/get is refused so.
func quotePrompt(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if get, ok := req.(*mcp.GetPromptRequest); ok && get.Params != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "unknown prompt " + quote.String(get.Params.Name)}
		}
		return next(ctx, method, req)
	}
}

// holdArguments says what is wrong with a tool's raw arguments, or nil.
// It checks what the schemas here say: the type of each property, the
// required ones, no others, integers' ranges and strings' lengths.
func holdArguments(tool string, schema *jsonschema.Schema, raw json.RawMessage) error {
	if t := bytes.TrimSpace(raw); len(t) == 0 || string(t) == "null" {
		raw = json.RawMessage("{}") // as nullArguments makes it
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber() // a million digits stay text until they are counted
	var v any
	if err := dec.Decode(&v); err != nil {
		return fmt.Errorf("arguments are not JSON: %s", quote.JSONError(err))
	}
	args, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf("arguments must be a JSON object of named arguments, not %s", kindOf(v))
	}
	var faults []string
	more := 0
	fault := func(format string, a ...any) {
		if len(faults) == maxFaults {
			more++
			return
		}
		faults = append(faults, fmt.Sprintf(format, a...))
	}
	names := make([]string, 0, len(schema.Properties))
	for name := range schema.Properties {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range schema.Required {
		if _, ok := args[name]; !ok {
			fault("argument %q is missing: %s needs it", name, tool)
		}
	}
	given := make([]string, 0, len(args))
	for name := range args {
		given = append(given, name)
	}
	slices.Sort(given) // the same request is refused in the same words
	for _, name := range given {
		p, ok := schema.Properties[name]
		if !ok {
			takes := "no arguments"
			if len(names) > 0 {
				takes = strings.Join(names, ", ")
			}
			fault("unknown argument %s: %s takes %s", quote.String(name), tool, takes)
			continue
		}
		if msg := holdValue(name, args[name], p); msg != "" {
			fault("%s", msg)
		}
	}
	if len(faults) == 0 {
		return nil
	}
	if more > 0 {
		faults = append(faults, fmt.Sprintf("and %d faults more", more))
	}
	return errors.New(strings.Join(faults, "; "))
}

// holdValue checks one argument against its property's schema and says
// what is wrong with it, or "".
func holdValue(name string, v any, p *jsonschema.Schema) string {
	switch p.Type {
	case "string":
		s, ok := v.(string)
		if !ok {
			return fmt.Sprintf("argument %q is %s; it must be a string", name, kindOf(v))
		}
		if p.MaxLength != nil {
			if n := utf8.RuneCountInString(s); n > *p.MaxLength {
				return fmt.Sprintf("argument %q is %d characters long; it may be at most %d", name, n, *p.MaxLength)
			}
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			return fmt.Sprintf("argument %q is %s; it must be true or false", name, kindOf(v))
		}
	case "integer":
		n, ok := v.(json.Number)
		if !ok {
			return fmt.Sprintf("argument %q is %s; it must be a whole number", name, kindOf(v))
		}
		lo, hi := int64(math.MinInt64), int64(math.MaxInt64)
		if p.Minimum != nil {
			lo = int64(*p.Minimum)
		}
		if p.Maximum != nil {
			hi = int64(*p.Maximum)
		}
		text := strings.TrimPrefix(n.String(), "-")
		// More digits than the bounds have is refused before it is read.
		if most := max(len(strconv.FormatInt(lo, 10)), len(strconv.FormatInt(hi, 10))); len(text) > most {
			return fmt.Sprintf("argument %q is a number of %d digits; it must be %d to %d", name, len(text), lo, hi)
		}
		i, err := strconv.ParseInt(n.String(), 10, 64)
		if err != nil {
			return fmt.Sprintf("argument %q is %s; it must be a whole number, %d to %d", name, quote.Raw(n.String()), lo, hi)
		}
		if i < lo || i > hi {
			return fmt.Sprintf("argument %q is %d; it must be %d to %d", name, i, lo, hi)
		}
	}
	return ""
}

// kindOf names a JSON value's kind for a message, with a short quote of a
// string or a number.
func kindOf(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(v)
	case json.Number:
		return "the number " + quote.Raw(v.String())
	case string:
		return "the string " + quote.String(v)
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// compileExpect compiles an expect pattern, with an error that names the
// argument and quotes the part of the pattern at fault short: the regexp
// package's own error quotes it whole.
func compileExpect(expect string) (*regexp.Regexp, error) {
	re, err := regexp.Compile(expect)
	if err == nil {
		return re, nil
	}
	var se *syntax.Error
	if errors.As(err, &se) {
		return nil, fmt.Errorf("expect: not a regular expression (Go RE2 syntax): %s: %s", se.Code, quote.String(se.Expr))
	}
	return nil, fmt.Errorf("expect: not a regular expression (Go RE2 syntax): %s", quote.Raw(err.Error()))
}
