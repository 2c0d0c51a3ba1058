package window

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"slices"
	"strconv"
	"time"

	"colophon/internal/host"
	"colophon/internal/quote"
)

// static is the page: plain HTML, CSS and JavaScript, served as they are.
//
//go:embed static
var static embed.FS

// The longest the page's long polls wait before they are answered with
// nothing new, so that a page notices a window that went.
const (
	frameWait  = time.Second
	statusWait = 5 * time.Second
)

// AlivePath is where a window answers a request that it never finishes: a
// proxy holds one open to learn, as it ends, that the window's process
// has.
const AlivePath = "/alive"

// InstanceHeader names, in the answer to /alive, the window's instance: a
// random name each window gives itself, so that a proxy can tell a window
// that replaced another from the one it knew.
const InstanceHeader = "Colophon-Window"

func (w *Window) route(mux *http.ServeMux) {
	sub, _ := fs.Sub(static, "static")
	files := http.FileServerFS(sub)
	mux.Handle("/", files)
	mux.HandleFunc("GET "+AlivePath, w.serveAlive)
	mux.HandleFunc("GET /frame", w.serveFrame)
	mux.HandleFunc("GET /status", w.serveStatus)
	mux.HandleFunc("GET /journal", w.serveJournal)
	mux.HandleFunc("POST /keys", w.serveKeys)
	mux.HandleFunc("POST /control", w.serveControl)
}

// serveAlive answers with its headers at once and then holds the request
// open, sending nothing more, until the window ends or the client goes.
func (w *Window) serveAlive(rw http.ResponseWriter, r *http.Request) {
	rw.Header().Set("Content-Type", "text/plain; charset=utf-8")
	rw.Header().Set("Cache-Control", "no-store")
	rw.Header().Set(InstanceHeader, w.instance)
	rw.WriteHeader(http.StatusOK)
	if f, ok := rw.(http.Flusher); ok {
		f.Flush()
	}
	select {
	case <-r.Context().Done():
	case <-w.closing:
	}
}

// serveFrame answers the rows of the picture changed since the frame the
// page names (since), once there are some, or 204 after a second of none.
func (w *Window) serveFrame(rw http.ResponseWriter, r *http.Request) {
	since, err := strconv.ParseUint(r.URL.Query().Get("since"), 10, 32)
	if err != nil && r.URL.Query().Get("since") != "" {
		http.Error(rw, fmt.Sprintf("since is %s; it is a frame's number, 0 for the whole picture", quote.String(r.URL.Query().Get("since"))), http.StatusBadRequest)
		return
	}
	b := w.frames.wait(r.Context(), uint32(since), frameWait)
	rw.Header().Set("Cache-Control", "no-store")
	if b == nil {
		rw.WriteHeader(http.StatusNoContent)
		return
	}
	rw.Header().Set("Content-Type", "application/octet-stream")
	rw.Write(b)
}

// Status is what the page shows beside the picture.
type Status struct {
	Version  uint64   `json:"version"`
	Instance string   `json:"instance"`
	Handle   string   `json:"handle"`
	Machine  string   `json:"machine"`
	Title    string   `json:"title"`
	Paused   bool     `json:"paused"`
	DevMode  bool     `json:"dev_mode"`
	Driving  []string `json:"driving"`
	Journal  int      `json:"journal"`
	Problem  string   `json:"problem,omitempty"`
	// LostMS is the time, in milliseconds, the machine has fallen behind
	// real time while running and not caught up: after a request that ran
	// it for long, or while the process was not given the processor.
	LostMS int64 `json:"lost_ms"`
}

func (w *Window) status() (Status, <-chan struct{}) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return Status{
		Version: w.version, Instance: w.instance, Handle: w.handle, Machine: w.opts.Machine, Title: w.title,
		Paused: w.paused, DevMode: w.devMode, Driving: w.driving, Journal: w.journal, Problem: w.problem,
		LostMS: w.lost.Milliseconds(),
	}, w.statusCh
}

// serveStatus answers the status once its version is past the one the
// page names (since), or after a few seconds as it stands.
func (w *Window) serveStatus(rw http.ResponseWriter, r *http.Request) {
	var since uint64
	if s := r.URL.Query().Get("since"); s != "" {
		var err error
		if since, err = strconv.ParseUint(s, 10, 64); err != nil {
			http.Error(rw, fmt.Sprintf("since is %s; it is a status's version", quote.String(s)), http.StatusBadRequest)
			return
		}
	}
	timer := time.NewTimer(statusWait)
	defer timer.Stop()
	st, ch := w.status()
	for st.Version == since {
		select {
		case <-ch:
		case <-timer.C:
			writeJSON(rw, st)
			return
		case <-w.closing:
		case <-r.Context().Done():
			return
		}
		st, ch = w.status()
		if st.Version == since { // the window is closing
			break
		}
	}
	writeJSON(rw, st)
}

// serveJournal answers a page of the machine's journal, from start, as
// the journal tool does: a request served by the loop between frames.
func (w *Window) serveJournal(rw http.ResponseWriter, r *http.Request) {
	var start int
	if s := r.URL.Query().Get("start"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			http.Error(rw, fmt.Sprintf("start is %s; it is an entry's number, 0 or more", quote.String(s)), http.StatusBadRequest)
			return
		}
		start = n
	}
	p, err := w.h.Journal(r.Context(), host.JournalArgs{Handle: w.handle, Start: &start})
	if err != nil {
		http.Error(rw, err.Error(), http.StatusBadRequest)
		return
	}
	writeJSON(rw, p)
}

// serveKeys takes the person's keys going down and up.
func (w *Window) serveKeys(rw http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(rw, r.Body, maxKeyBody))
	if err != nil {
		http.Error(rw, fmt.Sprintf("reading the key events: %v", err), http.StatusRequestEntityTooLarge)
		return
	}
	evs, err := decodeKeyEvents(body)
	if err != nil {
		http.Error(rw, err.Error(), http.StatusBadRequest)
		return
	}
	if w.Paused() {
		// A paused machine reads no keys: those pressed now would go
		// down, long after, when it runs again. Keys let go still go up.
		evs = slices.DeleteFunc(evs, func(e keyEvent) bool { return e.Type == "down" })
	}
	w.keys.push(evs)
	rw.WriteHeader(http.StatusNoContent)
}

// A control is what the page's buttons send: pause or run, dev mode on or
// off. What is left out stays as it is.
type control struct {
	Paused  *bool `json:"paused,omitempty"`
	DevMode *bool `json:"dev_mode,omitempty"`
}

// maxControlBody bounds a control's body.
const maxControlBody = 1024

// decodeControl reads one control, refusing anything else.
func decodeControl(b []byte) (control, error) {
	var c control
	if len(b) > maxControlBody {
		return c, fmt.Errorf("the body is %d bytes; a control takes at most %d", len(b), maxControlBody)
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(&c); err != nil {
		return control{}, fmt.Errorf("a control is a JSON object with paused or dev_mode, each true or false: %s, in %s", quote.JSONError(err), quote.Bytes(b))
	}
	if d.More() {
		return control{}, fmt.Errorf("a control is one JSON object; more follows in %s", quote.Bytes(b))
	}
	return c, nil
}

// serveControl pauses or runs the machine, or turns dev mode, and answers
// the status.
func (w *Window) serveControl(rw http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(rw, r.Body, maxControlBody))
	if err != nil {
		http.Error(rw, fmt.Sprintf("reading the control: %v", err), http.StatusRequestEntityTooLarge)
		return
	}
	c, err := decodeControl(body)
	if err != nil {
		http.Error(rw, err.Error(), http.StatusBadRequest)
		return
	}
	if c.Paused != nil {
		if !*c.Paused {
			w.mu.Lock()
			w.problem = ""
			w.mu.Unlock()
		}
		w.SetPaused(*c.Paused)
	}
	if c.DevMode != nil {
		w.SetDevMode(*c.DevMode)
	}
	st, _ := w.status()
	writeJSON(rw, st)
}

func writeJSON(rw http.ResponseWriter, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(rw, err.Error(), http.StatusInternalServerError)
		return
	}
	rw.Header().Set("Content-Type", "application/json")
	rw.Header().Set("Cache-Control", "no-store")
	rw.Write(b)
}
