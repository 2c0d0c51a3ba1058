package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"colophon/internal/proxy"
	"colophon/internal/shared"
)

// freePort finds a port nothing listens on.
func freePort(tb testing.TB) int {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// startWindow runs colophon-mcp window as a process of its own, and waits
// until it answers /alive.
func startWindow(tb testing.TB, bin string, port int, machine string) *exec.Cmd {
	tb.Helper()
	cmd := exec.Command(bin, "window", "--machine", machine, "--no-browser",
		"--http-port", fmt.Sprint(port), "--sessions", filepath.Join(tb.TempDir(), "sessions.json"),
		"--roms", shared.TestPath(tb, "roms"))
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	deadline := time.Now().Add(20 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, fmt.Sprintf("http://127.0.0.1:%d/alive", port), nil)
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
			cancel()
			return cmd
		}
		cancel()
		if time.Now().After(deadline) {
			tb.Fatalf("the window on port %d did not answer /alive: %v", port, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// A proxied client is a client of colophon-mcp proxy, run as a process
// of its own, counting the times it is told the tool list changed.
type proxied struct {
	*mcp.ClientSession
	cmd     *exec.Cmd
	changed chan time.Time
}

func startProxy(tb testing.TB, bin string, port int, revision string) *proxied {
	tb.Helper()
	p := &proxied{changed: make(chan time.Time, 64)}
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { p.changed <- time.Now() },
	})
	p.cmd = exec.Command(bin, "proxy", "--window-port", fmt.Sprint(port))
	var opts *mcp.ClientSessionOptions
	if revision != "" {
		opts = &mcp.ClientSessionOptions{ProtocolVersion: revision}
	}
	s, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: p.cmd}, opts)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	p.ClientSession = s
	return p
}

func (p *proxied) names(tb testing.TB) []string {
	tb.Helper()
	var names []string
	for t, err := range p.Tools(context.Background(), nil) {
		if err != nil {
			tb.Fatal(err)
		}
		names = append(names, t.Name)
	}
	slices.Sort(names)
	return names
}

func (p *proxied) call(tb testing.TB, name string, args any) (string, bool) {
	tb.Helper()
	res, err := p.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		tb.Fatalf("%s: %v", name, err)
	}
	var text []string
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			text = append(text, t.Text)
		}
	}
	return strings.Join(text, "\n"), res.IsError
}

// told waits until the client is told the tool list changed after since,
// and answers when.
func (p *proxied) told(tb testing.TB, what string, since time.Time) time.Time {
	tb.Helper()
	timeout := time.After(20 * time.Second)
	for {
		select {
		case at := <-p.changed:
			if at.After(since) {
				return at
			}
		case <-timeout:
			tb.Fatalf("%s: the client was not told the tool list changed", what)
		}
	}
}

// drain forgets the changes the client was told of so far.
func (p *proxied) drain() {
	for {
		select {
		case <-p.changed:
		default:
			return
		}
	}
}

// eventually calls machine_list until it names machine, as it does once
// the proxy forwards to the window that runs it.
func (p *proxied) eventually(tb testing.TB, machine string) {
	tb.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		text, refused := p.call(tb, "machine_list", map[string]any{})
		if !refused && strings.Contains(text, `"machine":"`+machine+`"`) {
			return
		}
		if time.Now().After(deadline) {
			tb.Fatalf("machine_list answers %q, not the window running %s", text, machine)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestProxyOutlivesWindows: a client connected to colophon-mcp proxy, in
// either era, is told the tool list changed when a window starts, when it
// stops (killed with SIGKILL, noticed through /alive within a second) and
// when another replaces it; its calls reach whichever window runs, and are
// refused saying so while none does; and the proxy is the one process it
// started, all along.
func TestProxyOutlivesWindows(t *testing.T) {
	var catalogue []string
	for _, tool := range proxy.Catalogue() {
		catalogue = append(catalogue, tool.Name)
	}
	slices.Sort(catalogue)
	bin := buildBinary(t)
	for _, revision := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(revision, func(t *testing.T) {
			port := freePort(t)
			p := startProxy(t, bin, port, revision)
			pid := p.cmd.Process.Pid

			// No window.
			if got := p.names(t); !slices.Equal(got, catalogue) {
				t.Errorf("with no window the proxy lists %q, want %q", got, catalogue)
			}
			if text, refused := p.call(t, "machine_list", map[string]any{}); !refused || text != proxy.NoWindow {
				t.Errorf("a call with no window: %v %q, want refused with %q", refused, text, proxy.NoWindow)
			}

			// A window starts.
			start := time.Now()
			a := startWindow(t, bin, port, "cpc6128")
			p.told(t, "a window started", start)
			p.eventually(t, "cpc6128")
			if names := p.names(t); !slices.Contains(names, "dev_mode") || slices.Contains(names, "run") {
				t.Errorf("the window's list through the proxy is %q", names)
			}
			// Dev mode on, through the proxy: the client is told, and
			// drives the machine.
			p.drain()
			if text, refused := p.call(t, "run", map[string]any{"handle": "m1", "frames": 5}); !refused || !strings.Contains(text, "dev mode") {
				t.Errorf("run with dev mode off, through the proxy: %v %q", refused, text)
			}
			since := time.Now()
			if text, refused := p.call(t, "dev_mode", map[string]any{"on": true}); refused {
				t.Fatal(text)
			}
			p.told(t, "dev mode turned on", since)
			if !slices.Contains(p.names(t), "run") {
				t.Error("dev mode on, and the proxy does not list run")
			}
			if text, refused := p.call(t, "run", map[string]any{"handle": "m1", "frames": 5}); refused || !strings.Contains(text, `"frames":5`) {
				t.Errorf("run with dev mode on, through the proxy: %v %q", refused, text)
			}

			// It is killed.
			p.drain()
			killed := time.Now()
			a.Process.Kill()
			at := p.told(t, "the window was killed", killed)
			if d := at.Sub(killed); d > time.Second {
				t.Errorf("the proxy noticed the window killed after %v, more than a second", d)
			}
			if got := p.names(t); !slices.Equal(got, catalogue) {
				t.Errorf("with the window gone the proxy lists %q", got)
			}
			if text, refused := p.call(t, "machine_list", map[string]any{}); !refused || text != proxy.NoWindow {
				t.Errorf("a call with the window gone: %v %q", refused, text)
			}

			// Another starts.
			start = time.Now()
			b := startWindow(t, bin, port, "spectrum48")
			p.told(t, "another window started", start)
			p.eventually(t, "spectrum48")

			// It is replaced, as fast as one process can follow another.
			p.drain()
			replaced := time.Now()
			b.Process.Kill()
			b.Wait()
			startWindow(t, bin, port, "cpc464")
			p.told(t, "the window was replaced", replaced)
			p.eventually(t, "cpc464")
			if names := p.names(t); !slices.Contains(names, "dev_mode") || slices.Contains(names, "run") {
				t.Errorf("the new window's list through the proxy is %q (its dev mode is off)", names)
			}

			if p.cmd.ProcessState != nil || p.cmd.Process.Pid != pid {
				t.Errorf("the proxy process ended or changed: %v", p.cmd.ProcessState)
			}
		})
	}
}
