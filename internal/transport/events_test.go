package transport

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// replay is what After yields for a stream after index, or its error.
func replay(s *eventStore, session, stream string, index int) ([]string, error) {
	var out []string
	for d, err := range s.After(context.Background(), session, stream, index) {
		if err != nil {
			return out, err
		}
		out = append(out, string(d))
	}
	return out, nil
}

// TestEventStoreKeepsWithinItsBounds: the events kept for resumption are
// bounded in bytes, each event costing eventCost beside its data, and
// dropped oldest first, across sessions; a resumption that needs a dropped
// event is refused (the SDK answers it 400), never given a part; a stream
// opened afresh gets what is kept.
func TestEventStoreKeepsWithinItsBounds(t *testing.T) {
	ctx := context.Background()
	s := newEventStore(10*(eventCost+10), 100)
	s.Open(ctx, "A", "")
	s.Open(ctx, "A", "s1")
	s.Open(ctx, "B", "s2")
	for i := range 8 {
		s.Append(ctx, "A", "s1", fmt.Appendf(nil, "a1-event-%d", i)) // 10 bytes each
		s.Append(ctx, "B", "s2", fmt.Appendf(nil, "b2-event-%d", i))
	}
	if events, _, bytes := s.kept(); events != 10 || bytes != 10*(eventCost+10) {
		t.Fatalf("kept %d events of %d bytes; want the 10 that fit", events, bytes)
	}
	// The oldest six went: A's 0..2 and B's 0..2.
	if got, err := replay(s, "A", "s1", 4); err != nil || fmt.Sprint(got) != "[a1-event-5 a1-event-6 a1-event-7]" {
		t.Errorf("A's s1 after 4: %v, %v", got, err)
	}
	if _, err := replay(s, "B", "s2", 1); !errors.Is(err, mcp.ErrEventsPurged) {
		t.Errorf("B's s2 after 1, whose next was dropped: %v; want ErrEventsPurged", err)
	}
	if got, err := replay(s, "B", "s2", -1); err != nil || len(got) != 5 || got[0] != "b2-event-3" {
		t.Errorf("B's s2 opened afresh: %v, %v; want what is kept, from b2-event-3", got, err)
	}
	if got, err := replay(s, "B", "s2", 7); err != nil || len(got) != 0 {
		t.Errorf("B's s2 after its last: %v, %v; want nothing", got, err)
	}

	// An empty event costs eventCost, so empty ones are bounded too.
	for range 1000 {
		s.Append(ctx, "A", "", nil)
	}
	if events, _, bytes := s.kept(); events != 10*(eventCost+10)/eventCost || bytes > 10*(eventCost+10) {
		t.Errorf("after 1000 empty events: %d kept in %d bytes", events, bytes)
	}

	s.SessionClosed(ctx, "A")
	s.SessionClosed(ctx, "B")
	if events, streams, bytes := s.kept(); events != 0 || streams != 0 || bytes != 0 {
		t.Errorf("after both sessions closed: %d events, %d streams, %d bytes kept", events, streams, bytes)
	}
	if err := s.Append(ctx, "A", "s1", []byte("late")); !errors.Is(err, errStreamGone) {
		t.Errorf("an event of a closed session's stream: %v; want errStreamGone", err)
	}
}

// TestEventStoreBoundsItsStreams: every call opens a stream, so a session
// that makes calls for ever must not keep a record of each: the oldest
// calls' streams are dropped past the cap, across sessions, and resuming
// one is refused; a session's standalone stream stays while the session
// does.
func TestEventStoreBoundsItsStreams(t *testing.T) {
	ctx := context.Background()
	s := newEventStore(1<<20, 50)
	s.Open(ctx, "A", "")
	s.Append(ctx, "A", "", []byte("list changed"))
	for i := range 10000 {
		id := fmt.Sprintf("call-%d", i)
		s.Open(ctx, "A", id)
		s.Append(ctx, "A", id, nil) // the priming event
		s.Append(ctx, "A", id, []byte("answer"))
	}
	events, streams, _ := s.kept()
	if streams != 51 || events != 101 {
		t.Errorf("after 10000 calls: %d streams and %d events kept; want 50 calls' and the standalone stream", streams, events)
	}
	if _, err := replay(s, "A", "call-0", 0); !errors.Is(err, errStreamGone) {
		t.Errorf("resuming the first call's stream: %v; want errStreamGone", err)
	}
	if got, err := replay(s, "A", "call-9999", 0); err != nil || fmt.Sprint(got) != "[answer]" {
		t.Errorf("resuming the last call's stream: %v, %v", got, err)
	}
	if got, err := replay(s, "A", "", -1); err != nil || fmt.Sprint(got) != "[list changed]" {
		t.Errorf("the standalone stream: %v, %v; want it kept", got, err)
	}
	if err := s.Append(ctx, "A", "call-0", []byte("late")); !errors.Is(err, errStreamGone) {
		t.Errorf("an event of a dropped stream: %v; want errStreamGone, not kept under a wrong number", err)
	}
}
