// Package window is colophon-mcp's window (issue 16;
// ../../../shared/spec/window-mcp.md): one machine running in real time in
// a page a person watches and types into, with an MCP server beside it for
// an agent, both on one port.
//
// The machine belongs to the window's loop (loop.go), which runs it a frame
// at a time at the machine's own pace, 50 or 60 frames a second as its
// links say, and publishes each frame's picture for the page. A tool call
// is a request to the machine like any other (internal/host), but an owned
// machine's requests are put on the loop's list and the loop is woken: it
// lets each have the machine at the next frame boundary, and the request's
// answer goes back to its caller on a channel of its own (host.Owner).
//
// The tools that only look are always listed; those that change the
// machine only while dev mode is on, which it is not when the window opens
// (tools.go). The page (page.go, static/) is plain HTML and JavaScript
// embedded in the binary: the picture on a canvas, fetched as the rows that
// changed since the frame the page has; the person's keys, sent as they go
// down and up and mapped onto the machine's (keys.go); a pause button; the
// dev-mode switch; and the journal.
package window

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"sync"
	"time"

	"colophon/internal/chip/crtc"
	"colophon/internal/host"
	"colophon/internal/machine/catalogue"
	"colophon/internal/machine/cpc"
	"colophon/internal/machine/spectrum"
	"colophon/internal/quote"
	"colophon/internal/server"
	"colophon/internal/transport"
)

// Options say what the window runs.
type Options struct {
	// Host stands the machine up, reading its firmware from where the
	// program was told.
	Host *host.Host
	// Machine is the machine, by the command line's name: cpc6128.
	Machine string
	// CRTC is a CPC's 6845 type, nil for type 0.
	CRTC *int
	// SixtyHz wires a CPC's 50/60 Hz link for 60 Hz, as machine_open's
	// sixty_hz does; its firmware then sets a 60 Hz frame, and the loop
	// runs 60 of them a second.
	SixtyHz bool
	// Snapshot, if given, is a snapshot to stand the machine up from.
	Snapshot string
	// Disc and DiscB are discs to put in a CPC's drives A and B; Tape a
	// tape to put in its deck.
	Disc, DiscB, Tape string
	// Sessions is the file the MCP sessions are kept in; "" keeps them
	// in memory only.
	Sessions string
	// Logger logs what the HTTP transport logs. Nil logs nothing.
	Logger *slog.Logger
}

// A Window is one machine running in real time, its page and its MCP
// server.
type Window struct {
	opts     Options
	h        *host.Host
	srv      *server.Server
	mcp      *transport.HTTP
	owner    *host.Owner
	handle   string
	title    string
	instance string
	clock    uint64 // the machine's clock, in ticks a second

	driving []string // the tools listed only in dev mode
	absent  []string // the tools the window does not serve

	frames *frames
	keys   *keyboard

	mu       sync.Mutex
	devMode  bool
	paused   bool
	version  uint64        // counts the changes the page's status shows
	journal  int           // entries in the journal, as the loop last saw
	problem  string        // why the loop stopped by itself, if it did
	lost     time.Duration // the time the loop gave up catching up, running
	statusCh chan struct{}

	poke    chan struct{} // wakes the loop when the page pauses or runs it
	closing chan struct{} // closed as the window ends
}

// New stands the machine up, as machine_open, disc_insert and tape_insert
// would, and builds the server that serves it. Nothing runs until Serve.
func New(opts Options) (*Window, error) {
	if opts.Host == nil {
		return nil, errors.New("window: no host")
	}
	kind, err := catalogue.Named(opts.Machine)
	if err != nil {
		return nil, err
	}
	w := &Window{
		opts:     opts,
		h:        opts.Host,
		title:    kind.Title,
		frames:   newFrames(),
		statusCh: make(chan struct{}),
		poke:     make(chan struct{}, 1),
		closing:  make(chan struct{}),
		instance: randomInstance(),
	}
	l := spectrumLayout
	w.clock = spectrum.Deck.Clock
	if kind.CPC {
		l = cpcLayout
		w.clock = cpc.Deck.Clock
	}
	w.keys = newKeyboard(l)

	w.srv = server.New(server.Options{Host: opts.Host, Instructions: server.WindowInstructions})
	// The HTTP transport first: it numbers the machine after those a
	// window before this one stood up, as the sessions file keeps them.
	if w.mcp, err = w.srv.HTTP(transport.HTTPOptions{Sessions: opts.Sessions, Logger: opts.Logger}); err != nil {
		return nil, err
	}
	fail := func(err error) (*Window, error) {
		w.mcp.Close()
		return nil, err
	}
	// The errors name the command line's flags, which the options are.
	ctx := context.Background()
	open := host.OpenArgs{Machine: host.MachineName(opts.Machine), Snapshot: opts.Snapshot}
	if opts.CRTC != nil {
		switch {
		case !kind.CPC:
			return fail(fmt.Errorf("--crtc: %s has no 6845; only a CPC takes a crtc type", opts.Machine))
		case *opts.CRTC < 0 || *opts.CRTC >= crtc.Types:
			return fail(fmt.Errorf("--crtc %d: a 6845 is of type 0 to %d", *opts.CRTC, crtc.Types-1))
		}
		t := host.CRTCType(*opts.CRTC)
		open.CRTC = &t
	}
	if opts.SixtyHz {
		if !kind.CPC {
			return fail(fmt.Errorf("--sixty-hz: %s has no 50/60 Hz link", opts.Machine))
		}
		open.SixtyHz = &opts.SixtyHz
	}
	opened, err := w.h.Open(ctx, open)
	if err != nil {
		if opts.Snapshot != "" {
			return fail(fmt.Errorf("--snapshot %s: %w", quote.Path(opts.Snapshot), err))
		}
		return fail(err)
	}
	w.handle = opened.Handle
	for _, d := range []struct{ flag, drive, path string }{{"--disc", "A", opts.Disc}, {"--disc-b", "B", opts.DiscB}} {
		if d.path == "" {
			continue
		}
		if _, err := w.h.DiscInsert(ctx, host.DiscInsertArgs{Handle: w.handle, Drive: d.drive, Path: d.path}); err != nil {
			return fail(fmt.Errorf("%s %s: %w", d.flag, quote.Path(d.path), err))
		}
	}
	if opts.Tape != "" {
		if _, err := w.h.TapeInsert(ctx, host.TapeInsertArgs{Handle: w.handle, Path: opts.Tape}); err != nil {
			return fail(fmt.Errorf("--tape %s: %w", quote.Path(opts.Tape), err))
		}
	}
	if w.owner, err = w.h.Own(w.handle); err != nil {
		return fail(err)
	}
	w.journal = w.owner.Journaled()

	for _, t := range w.srv.Tools() {
		switch RoleOf(t) {
		case Driving:
			w.driving = append(w.driving, t.Name)
		case Absent:
			w.absent = append(w.absent, t.Name)
		}
	}
	w.srv.Hide(w.absent...)
	w.srv.Hide(w.driving...)
	w.srv.AddDevMode(w)
	w.srv.Refuse(w.refusal)
	w.frames.publish(w.owner.Picture(), w.owner.Tick())
	return w, nil
}

func randomInstance() string {
	b := make([]byte, 8)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// Handle is the machine's handle.
func (w *Window) Handle() string { return w.handle }

// DevMode reports whether dev mode is on.
func (w *Window) DevMode() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.devMode
}

// SetDevMode turns dev mode on or off, listing the driving tools or taking
// them off the list; every client is told the list changed.
func (w *Window) SetDevMode(on bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.devMode == on {
		return
	}
	w.devMode = on
	if on {
		w.srv.Show(w.driving...)
	} else {
		w.srv.Hide(w.driving...)
	}
	w.changedLocked()
}

// Driving names the tools listed only while dev mode is on.
func (w *Window) Driving() []string { return slices.Clone(w.driving) }

// refusal says why a call of tool is refused, or "" to let it through.
func (w *Window) refusal(tool string) string {
	if slices.Contains(w.absent, tool) {
		return fmt.Sprintf("%s is not served in the window: the window runs one machine, %s (%s), stood up from its command line, and no other; machine_list names it", tool, w.handle, w.opts.Machine)
	}
	if slices.Contains(w.driving, tool) && !w.DevMode() {
		return fmt.Sprintf("%s changes the machine, and the window serves the tools that change it only while dev mode is on; dev mode is off, as it is whenever the window opens. Turn it on with dev_mode {\"on\": true}, or the person can with the switch on the window's page; then list the tools again", tool)
	}
	return ""
}

// Paused reports whether the person has paused the machine.
func (w *Window) Paused() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.paused
}

// SetPaused pauses the machine's real-time running, or runs it again.
// Requests are answered either way.
func (w *Window) SetPaused(p bool) {
	w.mu.Lock()
	if w.paused != p {
		w.paused = p
		w.changedLocked()
	}
	w.mu.Unlock()
	select {
	case w.poke <- struct{}{}:
	default:
	}
}

// changedLocked tells the page's status watchers something changed. w.mu
// is held.
func (w *Window) changedLocked() {
	w.version++
	close(w.statusCh)
	w.statusCh = make(chan struct{})
}

// Serve runs the machine in real time and serves the page and MCP on ln
// until ctx is done. Then every call is cancelled, the sessions are
// written, and the machine goes back to its host.
func (w *Window) Serve(ctx context.Context, ln net.Listener) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	looped := make(chan struct{})
	go func() {
		defer close(looped)
		w.loop(ctx)
	}()
	srv := &http.Server{Handler: w.Handler(), ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	var err error
	select {
	case err = <-served:
	case <-ctx.Done():
	}
	close(w.closing)
	w.srv.Stop()
	srv.Close()
	if cerr := w.mcp.Close(); err == nil {
		err = cerr
	}
	cancel()
	<-looped
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}

// Handler serves the page, its endpoints and MCP at /mcp, each refused to
// a request a page of another site could have made.
func (w *Window) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle(transport.Path, w.mcp)
	w.route(mux)
	return transport.Guard(mux)
}
