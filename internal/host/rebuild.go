package host

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"

	"colophon/internal/quote"
)

// Making a machine again from a journal (spec, "Keeping a machine": "on
// any other build the journal in the file's first line makes the machine
// again"; KEEP-14, J-6, J-7).
//
// A field is read by its name, and nothing promises another build gives a
// name the same meaning, so a state file another build wrote is not read
// field by field: its journal is, request by request, each made again of
// a machine of its own through the very functions a client's requests
// reach, its arguments decoded as this build's tool takes them. The
// machine has no handle while the journal is replayed; the context the
// replay's requests carry names it (replaying), and no other request can
// reach it. The files a request reads are checked by the hashes the
// journal gives them, as the tools check them; a file a run or a call
// wrote is written again, where no file is, into a directory of the
// replay's own that is taken away after, and checked by its hash too
// the journal's path is the one the first request wrote, and a
// replay writes elsewhere).

// replayKey is the context key of the machine a journal is made again on.
type replayKey struct{}

// replayHandle is the handle the replay's requests name their machine by.
const replayHandle = "(replay)"

// replaying answers the machine a request's context replays a journal
// on, or nil.
func replaying(ctx context.Context) *Machine {
	m, _ := ctx.Value(replayKey{}).(*Machine)
	return m
}

// A replayer makes one journal entry again on the machine replaying, from
// its arguments, and answers the files it read.
type replayer struct {
	// writes is set for a tool whose path is a file it writes, which a
	// replay writes elsewhere.
	writes bool
	make   func(h *Host, ctx context.Context, args json.RawMessage) ([]File, error)
}

// replayers are the tools a journal enters, after its machine_open.
var replayers = map[string]replayer{
	"run":         {writes: true, make: replayAs((*Host).Run, nil)},
	"call":        {writes: true, make: replayAs((*Host).Call, nil)},
	"step":        {make: replayAs((*Host).Step, nil)},
	"type":        {make: replayAs((*Host).Type, nil)},
	"set":         {make: replayAs((*Host).Set, nil)},
	"poke":        {make: replayAs((*Host).Poke, nil)},
	"disc_insert": {make: replayAs((*Host).DiscInsert, func(d DiscInserted) []File { return []File{d.File} })},
	"tape_insert": {make: replayAs((*Host).TapeInsert, func(t TapeInserted) []File { return []File{t.File} })},
}

// replayAs makes a replayer of a tool's function: the arguments decoded as
// the tool takes them, none it does not know, and its handle the
// replay's.
func replayAs[A, R any](tool func(*Host, context.Context, A) (R, error), read func(R) []File) func(*Host, context.Context, json.RawMessage) ([]File, error) {
	return func(h *Host, ctx context.Context, args json.RawMessage) ([]File, error) {
		var a A
		d := json.NewDecoder(bytes.NewReader(args))
		d.DisallowUnknownFields()
		if err := d.Decode(&a); err != nil {
			return nil, fmt.Errorf("its arguments are not this build's: %s", jsonProblem(err))
		}
		reflect.ValueOf(&a).Elem().FieldByName("Handle").SetString(replayHandle)
		r, err := tool(h, ctx, a)
		if err != nil || read == nil {
			return nil, err
		}
		return read(r), nil
	}
}

// rebuild makes the machine a state file holds again from the journal in
// its first line, on this build, and answers it, without a handle, with
// the files the journal's requests read: the snapshot its machine_open
// names and each disc and tape put in. The caller has held the firmware
// to the state's. A request this build refuses, or does not know, refuses
// the whole, naming the entry.
func (h *Host) rebuild(ctx context.Context, k *kind, l *stateLine) (*Machine, []File, error) {
	entry := func(i int, err error) error {
		e := l.Journal[i]
		return fmt.Errorf("making its journal again, entry %d (%s at tick %d): %w", i, quote.String(e.Tool), e.Tick, err)
	}
	var open OpenArgs
	d := json.NewDecoder(bytes.NewReader(l.Journal[0].Arguments))
	d.DisallowUnknownFields()
	if err := d.Decode(&open); err != nil {
		return nil, nil, entry(0, fmt.Errorf("its arguments are not this build's: %s", jsonProblem(err)))
	}
	if open.State != "" || string(open.Machine) != k.name {
		return nil, nil, entry(0, fmt.Errorf("it is not the machine_open of a %s from power-on or a snapshot", k.name))
	}
	m, files, err := h.build(open)
	if err != nil {
		return nil, nil, entry(0, err)
	}
	read := files[len(k.Firmware):] // the snapshot, if any
	m.handle = replayHandle
	ctx = context.WithValue(ctx, replayKey{}, m)
	ctx = context.WithValue(ctx, arrivalKey{}, func() {})

	var dir string // where the replay writes the files its runs wrote
	defer func() {
		if dir != "" {
			os.RemoveAll(dir)
		}
	}()
	for i := 1; i < len(l.Journal); i++ {
		e := l.Journal[i]
		r, ok := replayers[e.Tool]
		if !ok {
			return nil, nil, entry(i, fmt.Errorf("this build makes no such request again"))
		}
		args := e.Arguments
		if r.writes {
			if args, err = elsewhere(args, &dir, i); err != nil {
				return nil, nil, entry(i, err)
			}
		}
		got, err := r.make(h, ctx, args)
		if err != nil {
			return nil, nil, entry(i, err)
		}
		if err := ctx.Err(); err != nil {
			return nil, nil, entry(i, fmt.Errorf("the open was cancelled: %w", err))
		}
		read = append(read, got...)
	}
	m.handle = ""
	m.journal = l.Journal
	m.files = l.Files
	return m, read, nil
}

// elsewhere rewrites a run's or a call's arguments to write its file, if
// it writes one, to a new path in the replay's own directory, made the
// first time one is needed.
func elsewhere(args json.RawMessage, dir *string, i int) (json.RawMessage, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(args, &obj); err != nil {
		return nil, fmt.Errorf("its arguments are not a JSON object")
	}
	if _, ok := obj["path"]; !ok {
		return args, nil
	}
	if *dir == "" {
		d, err := os.MkdirTemp("", "colophon-replay-")
		if err != nil {
			return nil, fmt.Errorf("making a directory to write its file again in: %w", err)
		}
		*dir = d
	}
	p, err := json.Marshal(filepath.Join(*dir, fmt.Sprintf("entry%d.jsonl", i)))
	if err != nil {
		return nil, err
	}
	obj["path"] = p
	return json.Marshal(obj)
}
