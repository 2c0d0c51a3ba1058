// Command pidp10-mcp is an MCP server for one raw TCP terminal line: an ITS
// session on a PiDP-10 (simh KA10). It speaks MCP over standard input and
// output, or over streamable HTTP with --http.
//
//	pidp10-mcp [--host H] [--port P]
//	pidp10-mcp --http [--http-host 127.0.0.1] [--http-port 8010] [--sessions PATH]
//	pidp10-mcp --version
//
// The environment supplies the defaults: PIDP10_HOST, PIDP10_PORT,
// PIDP10_MCP_HOST and PIDP10_MCP_PORT. Flags win over the environment.
//
// Whatever way the process ends, on end of input, on SIGTERM, SIGHUP or
// interrupt, the line is hard-closed so the emulator frees it at once.
//
// --version prints the build's name (internal/build), which make stamps
// into this program as into colophon-mcp, and which the server gives as
// its version in serverInfo.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"colophon/internal/build"
	"colophon/internal/line"
	"colophon/internal/transport"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The spec's configuration table (spec/pidp10-mcp.md, "Configuration").
const (
	defaultHost     = "pidp10.local"
	defaultPort     = 10018
	defaultHTTPHost = "127.0.0.1"
	defaultHTTPPort = 8010
)

type config struct {
	host     string
	port     int
	http     bool
	httpHost string
	httpPort int
	sessions string
	version  bool // print the build's name and exit
}

func main() {
	if err := run(os.Args[1:], os.Getenv, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "pidp10-mcp:", err)
		os.Exit(1)
	}
}

func run(args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cfg, err := parseConfig(args, getenv, stderr)
	if err != nil {
		return err
	}
	if cfg.version {
		_, err := fmt.Fprintln(stdout, build.Name())
		return err
	}
	session := line.NewSession(cfg.host, cfg.port)
	// The teardown on every way out: a normal return, end of input, and
	// the signals, which cancel ctx and so end the transport.
	defer session.Close()

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGHUP, os.Interrupt)
	defer stop()
	// A signal closes the line first, hard, at once: the SDK ends a
	// session only once its running calls return, and a call waiting on
	// the line could wait its whole timeout (issue 19, item 8). With the
	// line closed, a waiting call returns saying so.
	context.AfterFunc(ctx, func() { session.Close() })

	server := line.NewServer(session, build.Name())
	served := make(chan error, 1)
	go func() {
		if cfg.http {
			served <- serveHTTP(ctx, server, cfg, stderr)
			return
		}
		// The end of input closes the line, so that a call waiting on it
		// returns at once, and its answer is written before the end is
		// reported (issue 19, item 7).
		served <- server.Run(ctx, &transport.Stdio{Reader: os.Stdin, Writer: os.Stdout,
			Ended: func() { session.Close() }, Drain: stopGrace})
	}()
	select {
	case err := <-served:
		if ctx.Err() != nil {
			return nil // a signal asked us to stop
		}
		return err
	case <-ctx.Done():
	}
	// Stopping: whatever still runs has a second to finish.
	select {
	case <-served:
	case <-time.After(stopGrace):
	}
	return nil
}

// stopGrace is how long a signalled process waits for its calls to end
// before it exits all the same: the process ends within a second of the
// signal, whatever runs (issue 19, item 7).
const stopGrace = 900 * time.Millisecond

// serveHTTP serves MCP over streamable HTTP until ctx ends. Every client
// shares the one line, as the line belongs to the process.
func serveHTTP(ctx context.Context, server *mcp.Server, cfg config, stderr io.Writer) error {
	sessions := cfg.sessions
	if sessions == "" {
		var err error
		if sessions, err = transport.DefaultSessionsFile("pidp10-mcp"); err != nil {
			return err
		}
	}
	h, err := transport.NewHTTP(server, transport.HTTPOptions{Sessions: sessions, Warnings: stderr})
	if err != nil {
		return fmt.Errorf("--http: %w", err)
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(cfg.httpHost, strconv.Itoa(cfg.httpPort)))
	if err != nil {
		h.Close()
		return fmt.Errorf("--http: %w", err)
	}
	fmt.Fprintf(stderr, "pidp10-mcp: serving MCP over streamable HTTP at http://%s%s, sessions kept in %s\n", ln.Addr(), transport.Path, sessions)
	return h.Serve(ctx, ln)
}

// parseConfig reads the environment for defaults, then the flags.
func parseConfig(args []string, getenv func(string) string, stderr io.Writer) (config, error) {
	cfg := config{host: defaultHost, port: defaultPort, httpHost: defaultHTTPHost, httpPort: defaultHTTPPort}
	if v := getenv("PIDP10_HOST"); v != "" {
		cfg.host = v
	}
	if v := getenv("PIDP10_MCP_HOST"); v != "" {
		cfg.httpHost = v
	}
	for _, e := range []struct {
		name string
		dst  *int
	}{{"PIDP10_PORT", &cfg.port}, {"PIDP10_MCP_PORT", &cfg.httpPort}} {
		if v := getenv(e.name); v != "" {
			p, err := strconv.Atoi(v)
			if err != nil {
				return config{}, fmt.Errorf("%s=%q is not a port number", e.name, v)
			}
			*e.dst = p
		}
	}

	fs := flag.NewFlagSet("pidp10-mcp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&cfg.host, "host", cfg.host, "emulator host (PIDP10_HOST)")
	fs.IntVar(&cfg.port, "port", cfg.port, "emulator TCP port, one terminal line (PIDP10_PORT)")
	fs.BoolVar(&cfg.http, "http", false, "serve streamable HTTP instead of stdio")
	fs.StringVar(&cfg.httpHost, "http-host", cfg.httpHost, "bind address for --http (PIDP10_MCP_HOST)")
	fs.IntVar(&cfg.httpPort, "http-port", cfg.httpPort, "bind port for --http, 0 for any free port (PIDP10_MCP_PORT)")
	fs.BoolVar(&cfg.version, "version", false, "print the build's name and exit")
	fs.StringVar(&cfg.sessions, "sessions", "", "the file --http keeps its clients' sessions in, so they outlast a restart (default $XDG_STATE_HOME/colophon/pidp10-mcp-sessions.json)")
	if err := fs.Parse(args); err != nil {
		return config{}, err
	}
	if fs.NArg() > 0 {
		return config{}, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if cfg.host == "" {
		return config{}, errors.New("--host (PIDP10_HOST) is empty")
	}
	if cfg.port < 1 || cfg.port > 65535 {
		return config{}, fmt.Errorf("--port (PIDP10_PORT) %d is outside 1..65535", cfg.port)
	}
	if cfg.httpPort < 0 || cfg.httpPort > 65535 {
		return config{}, fmt.Errorf("--http-port (PIDP10_MCP_PORT) %d is outside 0..65535", cfg.httpPort)
	}
	return cfg, nil
}
