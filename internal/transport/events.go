package transport

import (
	"container/list"
	"context"
	"errors"
	"fmt"
	"iter"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The events kept so that a legacy client whose SSE stream broke can
// resume it, naming the last event it had in Last-Event-ID: the MCP
// transport of 2025-06-18 and 2025-11-25 ("Resumability and Redelivery")
// has a server that numbers its events replay those after that one, on
// that stream only. 2026-07-28 took resumption out; the SDK keeps no
// events of its requests.
//
// The go-sdk's MemoryEventStore bounds the bytes of the events it keeps,
// but not its records of streams: every call opens a stream, and its
// record stays until the session ends, so a session that makes calls for
// a day grows by every call it made. This store bounds both, oldest
// first, across all sessions: events to maxEventBytes (each costing its
// bytes and eventCost), and streams to maxStreams. A session's standalone
// stream (its GET) is kept as long as the session, since there is one per
// session and sessions are capped; its events are bounded with the rest.

// The store's bounds: the go-sdk's MemoryEventStore's 10 MiB of events,
// and streams enough for a thousand sessions' last ten calls, each record
// about 200 bytes.
const (
	maxEventBytes = 10 << 20
	maxStreams    = 10000
)

// eventCost is what an event is counted as beyond its bytes: its place in
// the lists, so that a flood of empty events (each stream's priming event
// is one) is bounded too.
const eventCost = 64

// An eventStore is an mcp.EventStore bounded in memory.
type eventStore struct {
	maxBytes, maxStreams int

	mu       sync.Mutex
	sessions map[string]map[string]*eventStream // session id → stream id →
	events   list.List                          // of *keptEvent, oldest first
	streams  list.List                          // of *eventStream, but standalone ones, oldest first
	bytes    int
}

// An eventStream is what is kept of one stream: its events from the
// first-th on.
type eventStream struct {
	session, id string
	first       int
	events      []*list.Element // in s.events
	elem        *list.Element   // in s.streams; nil for a standalone stream
}

type keptEvent struct {
	stream *eventStream
	data   []byte
}

var _ mcp.EventStore = (*eventStore)(nil)

func newEventStore(maxBytes, maxStreams int) *eventStore {
	return &eventStore{maxBytes: maxBytes, maxStreams: maxStreams, sessions: map[string]map[string]*eventStream{}}
}

// Open records a new stream; the SDK opens each before it appends to it.
func (s *eventStore) Open(_ context.Context, sessionID, streamID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	streams := s.sessions[sessionID]
	if streams == nil {
		streams = map[string]*eventStream{}
		s.sessions[sessionID] = streams
	}
	if streams[streamID] != nil {
		return nil
	}
	st := &eventStream{session: sessionID, id: streamID}
	streams[streamID] = st
	if streamID != "" {
		st.elem = s.streams.PushBack(st)
		for s.streams.Len() > s.maxStreams {
			s.drop(s.streams.Front().Value.(*eventStream))
		}
	}
	return nil
}

// errStreamGone is Append's and After's answer for a stream whose record
// was dropped to make room, or whose session ended.
var errStreamGone = errors.New("the stream's events are no longer kept")

// Append keeps an event of a stream, dropping the oldest events of any
// stream until it fits. An event of a stream no longer recorded is not
// kept: its numbering is lost, so it could not be replayed as the event
// it is. The SDK still delivers it to a client connected to the stream.
func (s *eventStore) Append(_ context.Context, sessionID, streamID string, data []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.sessions[sessionID][streamID]
	if st == nil {
		return fmt.Errorf("keeping an event of stream %q: %w", streamID, errStreamGone)
	}
	st.events = append(st.events, s.events.PushBack(&keptEvent{stream: st, data: data}))
	s.bytes += len(data) + eventCost
	for s.bytes > s.maxBytes && s.events.Len() > 1 {
		s.dropOldestEvent()
	}
	return nil
}

// After yields the events of a stream after the index-th, or an error if
// any of them is no longer kept. Index -1 is a stream opened afresh, with
// no Last-Event-ID (the SDK replays a standalone stream's events from its
// first to it): it gets what is kept, rather than an error for events
// dropped long ago, which would refuse the session its stream for good.
func (s *eventStore) After(_ context.Context, sessionID, streamID string, index int) iter.Seq2[[]byte, error] {
	s.mu.Lock()
	var data [][]byte
	var err error
	st := s.sessions[sessionID][streamID]
	switch start := index + 1; {
	case st == nil:
		err = fmt.Errorf("resuming stream %q: %w", streamID, errStreamGone)
	case start < st.first && index >= 0:
		err = fmt.Errorf("resuming stream %q after event %d: events from %d on are kept: %w", streamID, index, st.first, mcp.ErrEventsPurged)
	default:
		for _, e := range st.events[min(max(start-st.first, 0), len(st.events)):] {
			data = append(data, e.Value.(*keptEvent).data)
		}
	}
	s.mu.Unlock()
	return func(yield func([]byte, error) bool) {
		if err != nil {
			yield(nil, err)
			return
		}
		for _, d := range data {
			if !yield(d, nil) {
				return
			}
		}
	}
}

// SessionClosed forgets a session's streams and their events.
func (s *eventStore) SessionClosed(_ context.Context, sessionID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, st := range s.sessions[sessionID] {
		s.drop(st)
	}
	delete(s.sessions, sessionID)
	return nil
}

// dropOldestEvent forgets the oldest event kept, the first of its
// stream's.
func (s *eventStore) dropOldestEvent() {
	e := s.events.Front()
	ke := e.Value.(*keptEvent)
	st := ke.stream
	s.events.Remove(e)
	s.bytes -= len(ke.data) + eventCost
	st.events[0] = nil
	st.events = st.events[1:]
	st.first++
}

// drop forgets a stream and its events.
func (s *eventStore) drop(st *eventStream) {
	for _, e := range st.events {
		s.bytes -= len(e.Value.(*keptEvent).data) + eventCost
		s.events.Remove(e)
	}
	st.events = nil
	if st.elem != nil {
		s.streams.Remove(st.elem)
		st.elem = nil
	}
	if streams := s.sessions[st.session]; streams != nil && streams[st.id] == st {
		delete(streams, st.id)
	}
}

// kept is how many events and streams are kept, and their cost in bytes.
func (s *eventStore) kept() (events, streams, bytes int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, ss := range s.sessions {
		streams += len(ss)
	}
	return s.events.Len(), streams, s.bytes
}
