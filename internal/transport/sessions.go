package transport

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"colophon/internal/quote"
)

// A session is one legacy client's session as the file keeps it: what the
// client said when it opened it, so that it can be opened again the same
// way after a restart.
type session struct {
	// ID is the Mcp-Session-Id the client was given and names.
	ID string `json:"id"`
	// Revision is the revision initialize opened it in.
	Revision string `json:"revision"`
	// Initialize is what the client sent to open it: its revision, its
	// capabilities and its name.
	Initialize *mcp.InitializeParams `json:"initialize"`
	// Opened and Seen are when it was opened and last named.
	Opened time.Time `json:"opened"`
	Seen   time.Time `json:"seen"`

	// live is the SDK's session serving it in this process, nil until a
	// request names it after a restart; inner is that session's own id,
	// which differs from ID once the session was opened again.
	live  *mcp.ServerSession
	inner string
	// reopened is set when this process opened it again after a restart,
	// and streamed once this process has served its standalone stream.
	reopened, streamed bool
}

// sessionsFile is the file's layout.
type sessionsFile struct {
	// Note says what the file is, for whoever opens it.
	Note     string     `json:"note"`
	Sessions []*session `json:"sessions"`
	// Extra keeps what the program carries over a restart beside the
	// sessions (colophon-mcp: how many machines it has opened, so that no
	// handle is given twice).
	Extra map[string]json.RawMessage `json:"extra,omitempty"`
}

const fileNote = "The MCP sessions of a streamable HTTP server, kept so that its clients keep them across a restart. Written by the server; safe to delete while it is stopped."

// A store holds the legacy sessions by the id their clients name, and
// writes them to a file on every change, whole and atomically: a new file
// beside it, then renamed over it.
type store struct {
	path string

	mu       sync.Mutex
	sessions map[string]*session // by the id clients name
	byInner  map[string]string   // the SDK's session id → the id clients name
	extra    map[string]json.RawMessage
	frozen   bool // the server is stopping: sessions that end stay kept

	// The writer: a change marks the store dirty and wakes it; it writes
	// what stands when it gets there, so a burst of changes is one write.
	dirty     chan struct{}
	written   chan struct{} // closed and replaced after each write
	stop      chan struct{}
	closeOnce sync.Once
	stopped   chan struct{}
	werr      error
}

// MaxSessionsFile is the most bytes a sessions file may hold to be read:
// a thousand sessions (HTTPOptions.MaxSessions's default) whose clients
// each sent 16 KiB of initialize, where a real one sends well under one.
const MaxSessionsFile = 16 << 20

// maxSessionID is the longest session id kept: the SDK's are 26
// characters; a longer one in the file was not written by this server.
const maxSessionID = 256

// openStore reads the sessions kept at path, if any; an empty path keeps
// nothing on disk. It keeps at most max of them, the ones named most
// recently, and none idle longer than idle (as of now).
//
// A file that cannot be read at all (its directory's permissions, a
// directory where the file should be) is an error: the server could not
// keep its sessions there either. A file that reads but does not hold
// sessions (cut short by a full disk, written over by hand, larger than
// MaxSessionsFile) is not: the server starts with no sessions, says so on
// warn naming the file and what is wrong with it, and moves the file aside
// to PATH.bad (or PATH.bad.N), where it stays to be looked at rather than
// written over. Its clients lose only their sessions: each is answered 404
// and opens another with initialize, as the transport has a client do
// after any lost session; refusing to start would cost the user the server
// itself over a file they did not write.
func openStore(path string, max int, idle time.Duration, now time.Time, warn io.Writer) (*store, error) {
	s := &store{
		path:     path,
		sessions: map[string]*session{},
		byInner:  map[string]string{},
		extra:    map[string]json.RawMessage{},
		dirty:    make(chan struct{}, 1),
		written:  make(chan struct{}),
		stop:     make(chan struct{}),
		stopped:  make(chan struct{}),
	}
	if path != "" {
		f, err := readSessionsFile(path, max, idle, now)
		var bad *badSessionsFile
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case errors.As(err, &bad):
			aside, merr := moveAside(path)
			if merr != nil {
				return nil, fmt.Errorf("%v, and moving it aside failed: %w (delete it to start afresh)", err, merr)
			}
			if warn != nil {
				fmt.Fprintf(warn, "%v: starting with no sessions (each client opens a new one); the file is kept as %s\n", err, aside)
			}
		case err != nil:
			return nil, err
		default:
			for _, ss := range f.Sessions {
				s.sessions[ss.ID] = ss
			}
			if f.Extra != nil {
				s.extra = f.Extra
			}
		}
	}
	go s.writer()
	return s, nil
}

// A badSessionsFile is a sessions file that reads, but not as one.
type badSessionsFile struct{ why string }

func (e *badSessionsFile) Error() string { return e.why }

// readSessionsFile reads the sessions file at path (decodeSessions),
// refusing one longer than MaxSessionsFile before reading more of it than
// that. A file that reads but holds no sessions is a *badSessionsFile.
func readSessionsFile(path string, max int, idle time.Duration, now time.Time) (*sessionsFile, error) {
	file, err := os.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		return nil, fmt.Errorf("reading the sessions file: %w", err)
	}
	defer file.Close()
	data, err := io.ReadAll(io.LimitReader(file, MaxSessionsFile+1))
	if err != nil {
		return nil, fmt.Errorf("reading the sessions file %s: %w", path, err)
	}
	if len(data) > MaxSessionsFile {
		return nil, &badSessionsFile{fmt.Sprintf("the sessions file %s is longer than %d bytes, the most one is read", path, MaxSessionsFile)}
	}
	f, err := decodeSessions(data, max, idle, now)
	if err != nil {
		return nil, &badSessionsFile{fmt.Sprintf("the sessions file %s: %v", path, err)}
	}
	return f, nil
}

// decodeSessions decodes a sessions file: of the sessions that name an id
// and how they were opened, the max named most recently and not idle past
// idle as of now; the first of two with one id.
func decodeSessions(data []byte, max int, idle time.Duration, now time.Time) (*sessionsFile, error) {
	var f sessionsFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("not a sessions file: %s", quote.String(err.Error()))
	}
	seen := map[string]bool{}
	kept := f.Sessions[:0]
	for _, ss := range f.Sessions {
		if ss == nil || ss.ID == "" || len(ss.ID) > maxSessionID || ss.Initialize == nil || seen[ss.ID] {
			continue
		}
		if idle > 0 && now.Sub(ss.Seen) > idle {
			continue
		}
		seen[ss.ID] = true
		kept = append(kept, ss)
	}
	if len(kept) > max {
		slices.SortStableFunc(kept, func(a, b *session) int { return b.Seen.Compare(a.Seen) })
		clear(kept[max:])
		kept = kept[:max]
	}
	f.Sessions = kept
	return &f, nil
}

// moveAside renames the file at path to PATH.bad, or PATH.bad.N with the
// first N free, so that nothing is written over it, and returns the name.
func moveAside(path string) (string, error) {
	for n := 0; n < 100; n++ {
		aside := path + ".bad"
		if n > 0 {
			aside += "." + strconv.Itoa(n)
		}
		if _, err := os.Lstat(aside); !errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err := os.Rename(path, aside); err != nil {
			return "", err
		}
		return aside, nil
	}
	return "", fmt.Errorf("%s.bad to %s.bad.99 are all taken", path, path)
}

// writer writes the file each time the store is marked dirty, until close.
func (s *store) writer() {
	defer close(s.stopped)
	for {
		select {
		case <-s.dirty:
			s.write()
		case <-s.stop:
			s.write()
			return
		}
	}
}

func (s *store) changed() {
	select {
	case s.dirty <- struct{}{}:
	default:
	}
}

// write writes the file as the store stands.
func (s *store) write() {
	s.mu.Lock()
	// A copy of what it holds, since the file is written outside the lock
	// while SetExtra and the sessions go on changing.
	f := sessionsFile{Note: fileNote, Extra: maps.Clone(s.extra)}
	for _, ss := range s.sessions {
		c := *ss
		f.Sessions = append(f.Sessions, &c)
	}
	written := s.written
	s.written = make(chan struct{})
	s.mu.Unlock()
	defer close(written)
	if s.path == "" {
		return
	}
	slices.SortFunc(f.Sessions, func(a, b *session) int { return a.Opened.Compare(b.Opened) })
	data, err := json.MarshalIndent(f, "", "\t")
	if err == nil {
		err = writeAtomic(s.path, append(data, '\n'))
	}
	s.mu.Lock()
	s.werr = err
	s.mu.Unlock()
}

// flush waits until what stands now is in the file.
func (s *store) flush() error {
	s.mu.Lock()
	written := s.written
	s.mu.Unlock()
	s.changed()
	select {
	case <-written:
	case <-s.stopped:
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.werr
}

// close writes the file a last time and stops the writer. Sessions that
// end from now on stay kept.
func (s *store) close() error {
	s.mu.Lock()
	s.frozen = true
	s.mu.Unlock()
	s.closeOnce.Do(func() { close(s.stop) })
	<-s.stopped
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.werr
}

// writeAtomic writes data to a new file beside path, then renames it over
// path, so that a reader finds the old file or the new one, never a part.
func writeAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("making the sessions file's directory: %w", err)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("writing the sessions file: %w", err)
	}
	defer os.Remove(tmp.Name()) // gone once renamed; left only on failure
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("writing the sessions file: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("writing the sessions file: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing the sessions file: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("writing the sessions file: %w", err)
	}
	return nil
}

// DefaultSessionsFile is where a program keeps its sessions unless told:
// $XDG_STATE_HOME/colophon/<program>-sessions.json, or
// ~/.local/state/colophon/… where XDG_STATE_HOME is not set (the XDG Base
// Directory Specification's user state directory).
func DefaultSessionsFile(program string) (string, error) {
	dir := os.Getenv("XDG_STATE_HOME")
	if dir == "" || !filepath.IsAbs(dir) {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("finding the user's state directory for the sessions file: %w (give --sessions PATH)", err)
		}
		dir = filepath.Join(home, ".local", "state")
	}
	return filepath.Join(dir, "colophon", program+"-sessions.json"), nil
}
