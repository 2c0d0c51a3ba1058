package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"colophon/internal/quote"
)

// typeSchemas gives the schema of a Go type whose JSON is not what its Go
// kind would say, such as an address that may be given as a number or as
// &hex. A tool's file adds its types here in an init function; inference
// uses the entry wherever the type appears.
var typeSchemas = map[reflect.Type]*jsonschema.Schema{}

// schemaFor infers the JSON schema of T as the SDK infers a tool's, from its
// fields, their json names and their jsonschema descriptions: a field is
// required unless it is omitempty or omitzero, and an unknown property is
// refused. It refuses a schema that names a format anywhere, since no
// schema may ("What it answers": every format JSON Schema defines is of
// strings, and a client need not know any other), and one that leaves a
// value's type unsaid; and it gives each property one type (schema.go).
func schemaFor[T any]() (*jsonschema.Schema, error) {
	s, err := jsonschema.For[T](&jsonschema.ForOptions{TypeSchemas: typeSchemas})
	if err != nil {
		return nil, err
	}
	data, err := json.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("writing the schema of %v: %w", reflect.TypeFor[T](), err)
	}
	var generic any
	if err := json.Unmarshal(data, &generic); err != nil {
		return nil, err
	}
	var formats []string
	walkSchemas(generic, "#", func(path string, schema map[string]any) {
		if _, ok := schema["format"]; ok {
			formats = append(formats, path)
		}
	})
	if len(formats) > 0 {
		return nil, fmt.Errorf("the schema of %v names a format at %v; no schema may", reflect.TypeFor[T](), formats)
	}
	if err := portable(s, "the schema of "+reflect.TypeFor[T]().String()); err != nil {
		return nil, err
	}
	return s, nil
}

// walkSchemas calls visit for v and every schema inside it, each with its
// JSON pointer, where v is a schema decoded into generic JSON. Names under
// properties and the like are names, not keywords, so a property called
// "format" is not taken for the keyword.
func walkSchemas(v any, path string, visit func(path string, schema map[string]any)) {
	schema, ok := v.(map[string]any)
	if !ok {
		return // true and false are schemas with nothing inside
	}
	visit(path, schema)
	keys := make([]string, 0, len(schema))
	for k := range schema {
		keys = append(keys, k)
	}
	sort.Strings(keys) // visit in one order, for one answer
	for _, k := range keys {
		sub := schema[k]
		at := path + "/" + k
		switch k {
		case "properties", "patternProperties", "$defs", "definitions", "dependentSchemas":
			named, _ := sub.(map[string]any)
			names := make([]string, 0, len(named))
			for n := range named {
				names = append(names, n)
			}
			sort.Strings(names)
			for _, n := range names {
				walkSchemas(named[n], at+"/"+n, visit)
			}
		case "allOf", "anyOf", "oneOf", "prefixItems":
			list, _ := sub.([]any)
			for i, s := range list {
				walkSchemas(s, fmt.Sprintf("%s/%d", at, i), visit)
			}
		case "items":
			// An array of schemas in draft 7, one schema since.
			if list, ok := sub.([]any); ok {
				for i, s := range list {
					walkSchemas(s, fmt.Sprintf("%s/%d", at, i), visit)
				}
			} else {
				walkSchemas(sub, at, visit)
			}
		case "additionalProperties", "additionalItems", "not", "if", "then", "else", "contains",
			"propertyNames", "unevaluatedItems", "unevaluatedProperties", "contentSchema":
			walkSchemas(sub, at, visit)
		}
	}
}

// A handler answers one call of a tool: its arguments, decoded and checked
// against the schema of In, go in, and its answer comes out, which the
// client gets as JSON both as structured content and as text. An error is
// the tool's refusal, which the client gets as the text of an error result.
type handler[In, Out any] func(ctx context.Context, in In) (Out, error)

// A contentHandler is a handler that also answers content beside the JSON,
// after it: monitor's picture, say.
type contentHandler[In, Out any] func(ctx context.Context, in In) (Out, []mcp.Content, error)

// addTool adds a tool to s. Its input and output schemas are inferred from
// In and Out; t gives its name, title, description and annotations.
func addTool[In, Out any](s *mcp.Server, t *mcp.Tool, h handler[In, Out]) {
	addContentTool(s, t, func(ctx context.Context, in In) (Out, []mcp.Content, error) {
		out, err := h(ctx, in)
		return out, nil, err
	})
}

// addContentTool adds a tool whose answers carry content beside their JSON.
// It panics if In or Out has no schema a client may be given, since that is
// a mistake in the server and not in a request.
func addContentTool[In, Out any](s *mcp.Server, t *mcp.Tool, h contentHandler[In, Out]) {
	sc, err := schemasOf[In, Out]()
	if err != nil {
		panic(fmt.Sprintf("tool %s: %v", t.Name, err))
	}
	in, resolved, out, outResolved := sc.in, sc.resolved, sc.out, sc.outResolved

	tool := *t
	tool.InputSchema = in
	tool.OutputSchema = out
	name := t.Name
	if !checkAnswers {
		outResolved = nil
	}
	shelve(s, &tool, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var args In
		if err := decodeArguments(name, in, resolved, req.Params.Arguments, &args); err != nil {
			return refusal(err), nil
		}
		answer, extra, err := h(withProgress(ctx, req), args)
		if err != nil {
			return refusal(err), nil
		}
		data, err := marshalAnswer(answer)
		if err != nil {
			return nil, fmt.Errorf("tool %s: writing its answer: %w", name, err)
		}
		if outResolved != nil {
			if err := fits(outResolved, data); err != nil {
				return nil, fmt.Errorf("tool %s: its answer does not fit its output schema: %w", name, err)
			}
		}
		content := append([]mcp.Content{&mcp.TextContent{Text: string(data)}}, extra...)
		return &mcp.CallToolResult{Content: content, StructuredContent: json.RawMessage(data)}, nil
	})
}

// checkAnswers has every answer held to its tool's output schema before it
// is sent; the tests set it, so that an answer that leaves a single-typed
// schema, a null where an array is promised, is caught wherever it is made.
var checkAnswers bool

// fits reports whether an answer's JSON fits a resolved schema.
func fits(s *jsonschema.Resolved, data []byte) error {
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	return s.Validate(v)
}

// toolSchemas are a tool's schemas, inferred from its Go types: what it
// takes, resolved for validation, and what it answers, resolved too.
type toolSchemas struct {
	in, out               *jsonschema.Schema
	resolved, outResolved *jsonschema.Resolved
}

// schemaCache holds each pair of types' schemas, inferred once: every
// server built in a process has the same tools, and inferring them is most
// of what building one costs. The schemas are read and never written once
// made, so servers share them.
var schemaCache sync.Map // [2]reflect.Type → *toolSchemas

// schemasOf infers a tool's schemas from In and Out, or answers them as
// inferred before. It refuses types that make no schema a client may be
// given, since that is a mistake in the server and not in a request.
func schemasOf[In, Out any]() (*toolSchemas, error) {
	key := [2]reflect.Type{reflect.TypeFor[In](), reflect.TypeFor[Out]()}
	if sc, ok := schemaCache.Load(key); ok {
		return sc.(*toolSchemas), nil
	}
	in, err := schemaFor[In]()
	if err != nil {
		return nil, fmt.Errorf("input: %v", err)
	}
	if in.Type != "object" {
		return nil, fmt.Errorf("input: arguments are an object, so In must be a struct, not %v", reflect.TypeFor[In]())
	}
	if err := bound(reflect.TypeFor[In](), in); err != nil {
		return nil, fmt.Errorf("input: %v", err)
	}
	resolved, err := in.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true})
	if err != nil {
		return nil, fmt.Errorf("input: %v", err)
	}
	out, err := schemaFor[Out]()
	if err != nil {
		return nil, fmt.Errorf("output: %v", err)
	}
	if out.Type != "object" {
		return nil, fmt.Errorf("output: structured content is an object, so Out must be a struct, not %v", reflect.TypeFor[Out]())
	}
	outResolved, err := out.Resolve(nil)
	if err != nil {
		return nil, fmt.Errorf("output: %v", err)
	}
	sc, _ := schemaCache.LoadOrStore(key, &toolSchemas{in: in, out: out, resolved: resolved, outResolved: outResolved})
	return sc.(*toolSchemas), nil
}

// refusal is the answer to a call a tool refuses: an error result, whose
// text says why, so that the model reads it and can put it right.
func refusal(err error) *mcp.CallToolResult {
	res := &mcp.CallToolResult{}
	res.SetError(err)
	return res
}

// decodeArguments checks raw arguments against a tool's input schema and
// decodes them into in. The checks come first and name every argument at
// fault (args.go); the SDK's own validation then holds the arguments to
// whatever of the schema those checks do not cover.
func decodeArguments(tool string, schema *jsonschema.Schema, resolved *jsonschema.Resolved, raw json.RawMessage, in any) error {
	if len(bytes.TrimSpace(raw)) == 0 || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		raw = json.RawMessage("{}")
	}
	args, respelled, err := checkArguments(tool, schema, raw)
	if err != nil {
		return err
	}
	if len(respelled) > 0 {
		// An enum's name given in another case is decoded as the schema
		// spells it; the other arguments stay as they came, an object
		// of set's values in its own order among them.
		var top map[string]json.RawMessage
		if err := json.Unmarshal(raw, &top); err != nil {
			return fmt.Errorf("arguments: %w", err)
		}
		for _, name := range respelled {
			b, err := json.Marshal(args[name])
			if err != nil {
				return fmt.Errorf("argument %q: %w", name, err)
			}
			top[name] = b
		}
		if raw, err = json.Marshal(top); err != nil {
			return fmt.Errorf("arguments: %w", err)
		}
	}
	generic, _ := floats(args).(map[string]any)
	if err := resolved.Validate(generic); err != nil {
		return fmt.Errorf("arguments: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(in); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) && typeErr.Field != "" {
			return fmt.Errorf("argument %q cannot be %s: it must be %s", typeErr.Field, quote.Raw(typeErr.Value), kindOfGo(typeErr.Type))
		}
		return fmt.Errorf("arguments: %s", quote.Raw(err.Error()))
	}
	return nil
}

// floats gives the arguments as the SDK's validator reads them, each
// number a float64. A number the checks let through is one no bound
// constrains, inside an object of set's values, say, and may be too large
// for a float64; it stands as 0, which no such check can refuse.
func floats(v any) any {
	switch x := v.(type) {
	case json.Number:
		f, err := strconv.ParseFloat(x.String(), 64)
		if err != nil {
			return 0.0
		}
		return f
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = floats(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = floats(e)
		}
		return out
	}
	return v
}

// kindOfGo says in words what JSON a Go type takes.
func kindOfGo(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return fmt.Sprintf("an integer that fits %d signed bits", t.Bits())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return fmt.Sprintf("an integer from 0 that fits %d bits", t.Bits())
	}
	return "JSON of Go type " + t.String()
}

// marshalAnswer writes an answer as JSON, with & kept as & rather than
// \u0026, so that an address reads &BB06 in the text a model is shown.
func marshalAnswer(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
