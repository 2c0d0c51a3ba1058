package host

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// An Entry is one request in a machine's journal: the tool, the machine's
// tick as the request began, and its arguments in the journal's normal
// form (spec, "The journal"; J-2, J-3). The handle is left out of the
// arguments, since a replay names a machine of its own.
type Entry struct {
	Tick      uint64          `json:"tick" jsonschema:"the machine's tick as the request began"`
	Tool      string          `json:"tool" jsonschema:"the tool the request was made of"`
	Arguments json.RawMessage `json:"arguments" jsonschema:"its arguments in the journal's normal form, without the handle"`
}

// JournalPageChars is how many characters of entries one page of a
// journal holds, and one entry at least however long (J-8).
const JournalPageChars = 8192

// enter adds a request that changed the machine to its journal. args is
// the request's arguments in normal form, as a struct whose JSON names
// them as the tool does.
func (m *Machine) enter(tool string, tick uint64, args any) {
	b, err := marshal(args)
	if err != nil {
		// The normal forms are plain structs of strings and numbers.
		panic(fmt.Sprintf("host: writing %s's arguments for the journal: %v", tool, err))
	}
	m.journal = append(m.journal, Entry{Tick: tick, Tool: tool, Arguments: b})
}

// marshal writes JSON as the answers do: & stays &, not \u0026.
func marshal(v any) (json.RawMessage, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return json.RawMessage(bytes.TrimSuffix(b.Bytes(), []byte("\n"))), nil
}

// JournalArgs are journal's arguments.
type JournalArgs struct {
	Handle string `json:"handle" jsonschema:"the machine whose journal to read" maxLength:"64"`
	Start  *int   `json:"start,omitempty" jsonschema:"the number of the first entry to answer, counting the machine_open that stood the machine up as 0; 0 if not given. A page's next says where the next page starts." minimum:"0"`
}

// JournalPage is journal's answer: one page of the journal.
type JournalPage struct {
	Handle  string  `json:"handle" jsonschema:"the machine"`
	Machine string  `json:"machine" jsonschema:"what it was built as"`
	Build   string  `json:"build" jsonschema:"the build that runs the machine, whose requests the journal's make again"`
	Files   []File  `json:"files" jsonschema:"the files it was built from, each by its absolute path and SHA-256"`
	Total   int     `json:"total" jsonschema:"how many entries the whole journal holds"`
	Start   int     `json:"start" jsonschema:"the number of this page's first entry"`
	Entries []Entry `json:"entries" jsonschema:"this page's entries, in the order the requests were made"`
	Next    *int    `json:"next,omitempty" jsonschema:"where the next page starts, as start takes it; absent on the last page"`
}

// Journal answers a page of a machine's journal: as many entries from
// start as 8192 characters of their JSON hold, and one at least (J-8).
// Reading it enters nothing (J-4).
func (h *Host) Journal(ctx context.Context, a JournalArgs) (JournalPage, error) {
	return with(h, ctx, a.Handle, func(m *Machine) (JournalPage, error) {
		start := given(a.Start, 0)
		if start < 0 || start > len(m.journal) {
			return JournalPage{}, fmt.Errorf("argument \"start\" is %d; the journal of %s holds entries 0 to %d", start, m.handle, len(m.journal)-1)
		}
		p := JournalPage{
			Handle: m.handle, Machine: m.kind.name, Build: h.opts.Build,
			Files: m.files, Total: len(m.journal), Start: start, Entries: []Entry{},
		}
		chars := 0
		i := start
		for ; i < len(m.journal); i++ {
			b, err := marshal(m.journal[i])
			if err != nil {
				return JournalPage{}, err
			}
			n := utf8.RuneCount(b)
			if len(p.Entries) > 0 && chars+n > JournalPageChars {
				break
			}
			chars += n
			p.Entries = append(p.Entries, m.journal[i])
		}
		if i < len(m.journal) {
			p.Next = &i
		}
		return p, nil
	})
}
