package transport

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var epoch = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

// keptSessions is a sessions file holding n sessions, session-0 named
// longest ago.
func keptSessions(t testing.TB, n int) []byte {
	t.Helper()
	f := sessionsFile{Note: fileNote, Extra: map[string]json.RawMessage{"machines": json.RawMessage("3")}}
	for i := range n {
		f.Sessions = append(f.Sessions, &session{
			ID:         fmt.Sprintf("session-%d", i),
			Revision:   "2025-11-25",
			Initialize: &mcp.InitializeParams{ProtocolVersion: "2025-11-25", ClientInfo: &mcp.Implementation{Name: "test", Version: "1"}},
			Opened:     epoch,
			Seen:       epoch.Add(time.Duration(i) * time.Second),
		})
	}
	data, err := json.MarshalIndent(f, "", "\t")
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// openFile opens a store on a file holding data, and closes it when the
// test ends; it returns the store and what it said on its warnings.
func openFile(t *testing.T, path string, data []byte, max int) (*store, string) {
	t.Helper()
	if data != nil {
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	var warn bytes.Buffer
	s, err := openStore(path, max, time.Hour, epoch.Add(time.Minute), &warn)
	if err != nil {
		t.Fatalf("openStore: %v", err)
	}
	t.Cleanup(func() { s.close() })
	return s, warn.String()
}

// TestSessionsFileKept: a file the server wrote is read back whole.
func TestSessionsFileKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sessions.json")
	s, warn := openFile(t, path, keptSessions(t, 3), 1000)
	if warn != "" {
		t.Errorf("warned of a good file: %s", warn)
	}
	if len(s.sessions) != 3 || string(s.extra["machines"]) != "3" {
		t.Errorf("read %d sessions and extra %s; want 3 and 3", len(s.sessions), s.extra["machines"])
	}
	if _, err := os.Stat(path + ".bad"); err == nil {
		t.Errorf("a good file was moved aside")
	}
}

// TestSessionsFileBadStartsAfresh: a sessions file that does not hold
// sessions (corrupt, cut short, longer than MaxSessionsFile) costs the
// clients their sessions, not the server its start: it starts with none,
// says so naming the file and what is wrong, and keeps the file aside,
// unchanged, as PATH.bad.
func TestSessionsFileBadStartsAfresh(t *testing.T) {
	good := keptSessions(t, 3)
	huge := append(bytes.Repeat([]byte(" "), MaxSessionsFile), good...)
	for _, tc := range []struct {
		name, why string
		data      []byte
	}{
		{"corrupt", "not a sessions file", []byte("{\"note\": \"x\", \"sessions\": [\x00\x01garbage")},
		{"not JSON", "not a sessions file", []byte("PK\x03\x04 a zip file, say")},
		{"truncated", "not a sessions file", good[:len(good)/2]},
		{"sessions not a list", "not a sessions file", []byte(`{"sessions": {"id": "x"}}`)},
		{"oversized", fmt.Sprintf("longer than %d bytes", MaxSessionsFile), huge},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "sessions.json")
			s, warn := openFile(t, path, tc.data, 1000)
			if len(s.sessions) != 0 {
				t.Errorf("kept %d sessions from a bad file", len(s.sessions))
			}
			for _, want := range []string{path, tc.why, "starting with no sessions", path + ".bad"} {
				if !strings.Contains(warn, want) {
					t.Errorf("the warning %q does not say %q", warn, want)
				}
			}
			if len(warn) > 600 {
				t.Errorf("the warning is %d bytes long: it quotes too much of the file", len(warn))
			}
			aside, err := os.ReadFile(path + ".bad")
			if err != nil || !bytes.Equal(aside, tc.data) {
				t.Errorf("the bad file was not kept aside unchanged as %s.bad: %v", path, err)
			}
			// What the server writes next is a good file, which reads back.
			if err := s.flush(); err != nil {
				t.Fatal(err)
			}
			if s2, warn := openFile(t, path, nil, 1000); warn != "" || len(s2.sessions) != 0 {
				t.Errorf("the file written after a bad one: %d sessions, warning %q", len(s2.sessions), warn)
			}
		})
	}
}

// TestSessionsFileBadTwiceKeepsBoth: a second bad file is kept beside the
// first, never written over it.
func TestSessionsFileBadTwiceKeepsBoth(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sessions.json")
	openFile(t, path, []byte("first"), 1000)
	_, warn := openFile(t, path, []byte("second"), 1000)
	if !strings.Contains(warn, path+".bad.1") {
		t.Errorf("the second bad file's warning %q does not name %s.bad.1", warn, path)
	}
	for name, want := range map[string]string{path + ".bad": "first", path + ".bad.1": "second"} {
		if got, err := os.ReadFile(name); err != nil || string(got) != want {
			t.Errorf("%s holds %q (%v); want %q", name, got, err, want)
		}
	}
}

// TestSessionsFileUnreadable: a file that cannot be read at all is an
// error naming it, since the sessions could not be kept there either.
func TestSessionsFileUnreadable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sessions.json")
	if err := os.Mkdir(path, 0o700); err != nil {
		t.Fatal(err)
	}
	_, err := openStore(path, 1000, time.Hour, epoch, nil)
	if err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("opening a directory as the sessions file: %v; want an error naming it", err)
	}
}

// TestSessionsFileCapsWhatItLoads: at most MaxSessions are loaded, the
// ones named most recently; none idle past the limit; none without an id,
// with an id no server gives, or without how it was opened; and the first
// of two with one id.
func TestSessionsFileCapsWhatItLoads(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sessions.json")
	s, warn := openFile(t, path, keptSessions(t, 50), 10)
	if warn != "" {
		t.Errorf("warned of a good file: %s", warn)
	}
	if len(s.sessions) != 10 {
		t.Fatalf("loaded %d sessions; want the cap, 10", len(s.sessions))
	}
	for i := 40; i < 50; i++ {
		if s.sessions[fmt.Sprintf("session-%d", i)] == nil {
			t.Errorf("session-%d, of the ten named most recently, was not loaded", i)
		}
	}

	init := &mcp.InitializeParams{ProtocolVersion: "2025-06-18"}
	f := sessionsFile{Sessions: []*session{
		{ID: "idle", Initialize: init, Seen: epoch.Add(-2 * time.Hour)},
		{ID: "", Initialize: init, Seen: epoch},
		{ID: strings.Repeat("x", maxSessionID+1), Initialize: init, Seen: epoch},
		{ID: "unopened", Seen: epoch},
		nil,
		{ID: "twice", Revision: "first", Initialize: init, Seen: epoch},
		{ID: "twice", Revision: "second", Initialize: init, Seen: epoch},
		{ID: "fine", Initialize: init, Seen: epoch},
	}}
	data, _ := json.Marshal(f)
	s, _ = openFile(t, filepath.Join(t.TempDir(), "sessions.json"), data, 10)
	if len(s.sessions) != 2 || s.sessions["fine"] == nil || s.sessions["twice"] == nil || s.sessions["twice"].Revision != "first" {
		var ids []string
		for id := range s.sessions {
			ids = append(ids, quoteID(id))
		}
		t.Errorf("loaded %v; want fine and the first twice", ids)
	}
}

func quoteID(id string) string {
	if len(id) > 20 {
		return fmt.Sprintf("%q…(%d)", id[:20], len(id))
	}
	return fmt.Sprintf("%q", id)
}

// TestDefaultSessionsFile: the sessions are kept under the user's state
// directory, $XDG_STATE_HOME, or ~/.local/state where it is not set or
// not absolute (the XDG Base Directory Specification has a relative one
// ignored).
func TestDefaultSessionsFile(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	for _, tc := range []struct {
		name, xdg, want string
	}{
		{"set", "/var/state/someone", "/var/state/someone/colophon/colophon-mcp-sessions.json"},
		{"unset", "", filepath.Join(home, ".local", "state", "colophon", "colophon-mcp-sessions.json")},
		{"relative", "state", filepath.Join(home, ".local", "state", "colophon", "colophon-mcp-sessions.json")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.xdg == "" {
				t.Setenv("XDG_STATE_HOME", "")
				os.Unsetenv("XDG_STATE_HOME")
			} else {
				t.Setenv("XDG_STATE_HOME", tc.xdg)
			}
			got, err := DefaultSessionsFile("colophon-mcp")
			if err != nil || got != tc.want {
				t.Errorf("DefaultSessionsFile = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
	t.Run("pidp10-mcp", func(t *testing.T) {
		t.Setenv("XDG_STATE_HOME", "/x")
		if got, _ := DefaultSessionsFile("pidp10-mcp"); got != "/x/colophon/pidp10-mcp-sessions.json" {
			t.Errorf("DefaultSessionsFile(pidp10-mcp) = %q", got)
		}
	})
	t.Run("no home", func(t *testing.T) {
		t.Setenv("XDG_STATE_HOME", "")
		t.Setenv("HOME", "")
		_, err := DefaultSessionsFile("colophon-mcp")
		if err == nil || !strings.Contains(err.Error(), "--sessions PATH") {
			t.Errorf("with no home and no XDG_STATE_HOME: %v; want an error asking for --sessions PATH", err)
		}
	})
}

// FuzzSessionsFile: whatever bytes the sessions file holds, decoding them
// never panics and either refuses them with a short reason or keeps at
// most the cap of sessions, each with an id a server could have given and
// how it was opened, none twice and none idle past the limit; and what is
// kept, written again, reads back the same.
func FuzzSessionsFile(f *testing.F) {
	f.Add(keptSessions(f, 3))
	f.Add(keptSessions(f, 12))
	f.Add([]byte(`{"sessions":[null,{"id":""},{"id":"a","initialize":{}},{"id":"a","initialize":{}}],"extra":{"machines":-1}}`))
	f.Add([]byte(`{"sessions":{}}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(``))
	const max = 10
	now := epoch.Add(time.Minute)
	f.Fuzz(func(t *testing.T, data []byte) {
		sf, err := decodeSessions(data, max, time.Hour, now)
		if err != nil {
			if len(err.Error()) > 200 {
				t.Fatalf("a refusal %d bytes long: %.300s", len(err.Error()), err)
			}
			return
		}
		if len(sf.Sessions) > max {
			t.Fatalf("kept %d sessions; the cap is %d", len(sf.Sessions), max)
		}
		ids := map[string]bool{}
		for _, s := range sf.Sessions {
			switch {
			case s == nil || s.Initialize == nil:
				t.Fatalf("kept a session with no initialize: %+v", s)
			case s.ID == "" || len(s.ID) > maxSessionID || ids[s.ID]:
				t.Fatalf("kept a session id that is empty, too long or twice: %q", s.ID)
			case now.Sub(s.Seen) > time.Hour:
				t.Fatalf("kept session %q, idle since %v", s.ID, s.Seen)
			}
			ids[s.ID] = true
		}
		again, err := json.Marshal(sf)
		if err != nil {
			t.Fatalf("what was kept does not write: %v", err)
		}
		sf2, err := decodeSessions(again, max, time.Hour, now)
		if err != nil {
			t.Fatalf("what was kept, written, does not read back: %v", err)
		}
		if len(sf2.Sessions) != len(sf.Sessions) {
			t.Fatalf("what was kept, %d sessions, reads back as %d", len(sf.Sessions), len(sf2.Sessions))
		}
		for i, s := range sf2.Sessions {
			if s.ID != sf.Sessions[i].ID {
				t.Fatalf("session %d reads back as %q; it was %q", i, s.ID, sf.Sessions[i].ID)
			}
		}
	})
}
