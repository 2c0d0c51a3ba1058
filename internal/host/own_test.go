package host

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"testing"
)

// served answers a request made of an owned machine: the request is made
// on a goroutine of its own, as a tool call is, and the loop, here the
// test, serves it at the frame boundary it stands at.
func served[T any](t *testing.T, o *Owner, f func() (T, error)) T {
	t.Helper()
	type answer struct {
		v   T
		err error
	}
	got := make(chan answer, 1)
	go func() {
		v, err := f()
		got <- answer{v, err}
	}()
	for {
		select {
		case a := <-got:
			if a.err != nil {
				t.Fatal(a.err)
			}
			return a.v
		case <-o.Wake():
			o.ServePending()
		}
	}
}

func jsonArgs[T any](t *testing.T, s string) T {
	t.Helper()
	var v T
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return v
}

// replayOwned makes a journal again on a machine of its own, through the
// host's requests, as a client would from journal's answer.
func replayOwned(t *testing.T, h *Host, j []Entry) string {
	t.Helper()
	ctx := context.Background()
	var handle string
	with := func(args json.RawMessage) []byte {
		var m map[string]any
		if err := json.Unmarshal(args, &m); err != nil {
			t.Fatal(err)
		}
		m["handle"] = handle
		b, _ := json.Marshal(m)
		return b
	}
	for _, e := range j {
		var err error
		switch e.Tool {
		case "machine_open":
			handle = must(h.Open(ctx, jsonArgs[OpenArgs](t, string(e.Arguments)))).Handle
		case "run":
			_, err = h.Run(ctx, jsonArgs[RunArgs](t, string(with(e.Arguments))))
		case "type":
			_, err = h.Type(ctx, jsonArgs[TypeArgs](t, string(with(e.Arguments))))
		case "poke":
			_, err = h.Poke(ctx, jsonArgs[PokeArgs](t, string(with(e.Arguments))))
		case "set":
			_, err = h.Set(ctx, jsonArgs[SetArgs](t, string(with(e.Arguments))))
		default:
			t.Fatalf("the replay does not make %s", e.Tool)
		}
		if err != nil {
			t.Fatalf("making %s %s again: %v", e.Tool, e.Arguments, err)
		}
	}
	return handle
}

// alike fails the test unless two machines stand alike: their ticks, their
// monitors' pictures and every field inspect reads.
func alike(t *testing.T, h *Host, a, b string) {
	t.Helper()
	ctx := context.Background()
	ia := must(h.Inspect(ctx, InspectArgs{Handle: a}))
	ib := must(h.Inspect(ctx, InspectArgs{Handle: b}))
	ja, _ := json.Marshal(ia.Value)
	jb, _ := json.Marshal(ib.Value)
	if !bytes.Equal(ja, jb) {
		var fa, fb map[string]any
		json.Unmarshal(ja, &fa)
		json.Unmarshal(jb, &fb)
		for k := range fa {
			x, _ := json.Marshal(fa[k])
			y, _ := json.Marshal(fb[k])
			if !bytes.Equal(x, y) {
				t.Errorf("%s and %s differ in %s:\n%.300s\n%.300s", a, b, k, x, y)
			}
		}
	}
	ma, pa, err := h.Monitor(ctx, MonitorArgs{Handle: a})
	if err != nil {
		t.Fatal(err)
	}
	mb, pb, err := h.Monitor(ctx, MonitorArgs{Handle: b})
	if err != nil {
		t.Fatal(err)
	}
	if ma.Tick != mb.Tick || !bytes.Equal(pa, pb) {
		t.Errorf("%s stands at tick %d and %s at %d; pictures equal: %v", a, ma.Tick, b, mb.Tick, bytes.Equal(pa, pb))
	}
}

// TestOwnedMachineJournalReplays: a machine run in real time by its loop,
// a frame at a time, with a person's keys going down and up, requests
// served between frames, a span longer than one run may be, and a HALT
// with interrupts disabled, journals a way to where it stands that makes
// the same machine again (spec, "The journal"; J-2, J-6).
func TestOwnedMachineJournalReplays(t *testing.T) {
	for _, c := range []struct {
		machine string
		keys    []string
	}{
		{"cpc6128", []string{"P"}},
		{"spectrum48", []string{"CAPS", "P"}},
	} {
		t.Run(c.machine, func(t *testing.T) {
			h := newHost(t)
			ctx := context.Background()
			handle := must(h.Open(ctx, OpenArgs{Machine: MachineName(c.machine)})).Handle
			o, err := h.Own(handle)
			if err != nil {
				t.Fatal(err)
			}
			frames := func(n int) {
				for range n {
					if _, err := o.RunFrame(); err != nil {
						t.Fatal(err)
					}
				}
			}
			frames(100)
			if err := o.Hold(c.keys); err != nil {
				t.Fatal(err)
			}
			frames(4)
			// A request between frames lets the person's keys go for
			// itself, and the span goes on after a read.
			served(t, o, func() (Peeked, error) {
				return h.Peek(ctx, jsonArgs[PeekArgs](t, fmt.Sprintf(`{"handle":%q,"address":"&0038"}`, handle)))
			})
			frames(3)
			if err := o.Hold(nil); err != nil {
				t.Fatal(err)
			}
			frames(10)
			served(t, o, func() (Moved, error) {
				return h.Type(ctx, TypeArgs{Handle: handle, Text: "10 REM\n"})
			})
			frames(1600) // past one run's 1500 standard frames
			if err := o.Hold(c.keys[len(c.keys)-1:]); err != nil {
				t.Fatal(err)
			}
			frames(2)
			// A HALT with interrupts disabled, where the frame stops
			// short; the frames after it run on in the HALT.
			served(t, o, func() (Poked, error) {
				return h.Poke(ctx, jsonArgs[PokeArgs](t, fmt.Sprintf(`{"handle":%q,"address":"&8000","bytes":"F3 76"}`, handle)))
			})
			served(t, o, func() (SetAnswer, error) {
				return h.Set(ctx, SetArgs{Handle: handle, Values: json.RawMessage(`{"cpu.pc":32768}`)})
			})
			r, err := o.RunFrame()
			if err != nil {
				t.Fatal(err)
			}
			if r.Stop.String() != "halted" {
				t.Errorf("the frame after DI; HALT stopped %s, want halted", r.Stop)
			}
			frames(5)

			journal := served(t, o, func() ([]Entry, error) {
				var all []Entry
				start := 0
				for {
					p, err := h.Journal(ctx, JournalArgs{Handle: handle, Start: &start})
					if err != nil {
						return nil, err
					}
					all = append(all, p.Entries...)
					if p.Next == nil {
						return all, nil
					}
					start = *p.Next
				}
			})
			var tools []string
			for _, e := range journal {
				tools = append(tools, e.Tool+" "+string(e.Arguments))
			}
			runs := 0
			for _, e := range journal {
				if e.Tool == "run" {
					runs++
				}
			}
			// 100+4 frames; 3 with the keys after the peek (a read
			// enters nothing, so the span goes on: no new entry); 10
			// without; the typing; 1600 split in two; 2 with one key;
			// the poke and the set; the halted frame; the 5 after.
			if runs != 8 {
				t.Errorf("the journal holds %d runs, want 8:\n%q", runs, tools)
			}
			// The key the person holds now is held by no request; let go,
			// the machine stands where its journal leads.
			if err := o.Hold(nil); err != nil {
				t.Fatal(err)
			}
			o.Release()
			again := replayOwned(t, h, journal)
			alike(t, h, handle, again)
		})
	}
}
