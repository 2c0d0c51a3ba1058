// Command colophon-mcp is the MCP server that gives an agent eyes and hands
// on emulated machines. It speaks the Model Context Protocol over its
// standard input and output, to one client at a time, or over streamable
// HTTP with --http, to any number.
//
// Usage:
//
//	colophon-mcp [--roms DIR]
//	colophon-mcp --http [--http-host 127.0.0.1] [--http-port 7637] [--sessions PATH] [--roms DIR]
//	colophon-mcp --version
//	colophon-mcp COMMAND [ARGUMENTS]
//	colophon-mcp install [--client NAME] [--npx] [--roms DIR]
//
// The firmware is read from DIR, or else from $COLOPHON_ROMS, or else from
// roms/ beside this program and then ./roms; a file is read only when a
// machine that needs it is opened. --version prints the build's name, which
// the server also gives as its version in the answer to initialize.
//
// Over HTTP the endpoint is http://HOST:PORT/mcp. It answers requests of
// 2026-07-28, each alone, and sessions of 2025-11-25 and 2025-06-18, which
// are kept in PATH (by default $XDG_STATE_HOME/colophon/colophon-mcp-sessions.json)
// so that a client keeps its session when the server restarts.
//
// A COMMAND is a program of its own that shares this binary (commands.go);
// without one, the program serves. install (install.go) prints the
// configuration that gives each MCP client this server.
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
	"strings"
	"syscall"
	"time"

	"colophon/internal/build"
	"colophon/internal/firmware"
	"colophon/internal/host"
	"colophon/internal/server"
	"colophon/internal/transport"
)

func main() {
	// SIGTERM and SIGHUP end the process within a second, whatever runs;
	// so does the end of input (issue 19, item 7).
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is the program, with its streams given, returning its exit status.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		if c, ok := commands[args[0]]; ok {
			return c(ctx, args[1:], stdin, stdout, stderr)
		}
	}
	return serve(ctx, args, stdin, stdout, stderr)
}

// serve is the server, over stdio or HTTP.
func serve(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("colophon-mcp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: colophon-mcp [--roms DIR]\n       colophon-mcp --http [--http-host 127.0.0.1] [--http-port 7637] [--sessions PATH] [--roms DIR]\n       colophon-mcp --version")
		fs.PrintDefaults()
	}
	version := fs.Bool("version", false, "print the build's name and exit")
	roms := fs.String("roms", "", "the firmware directory (default $"+firmware.EnvDir+", else roms/ beside this program, else ./roms)")
	overHTTP := fs.Bool("http", false, "serve MCP over streamable HTTP at /mcp instead of stdio")
	httpHost := fs.String("http-host", "127.0.0.1", "the address --http listens on; only this machine can reach the default")
	httpPort := fs.Int("http-port", 7637, "the port --http listens on, 0 for any free port")
	sessions := fs.String("sessions", "", "the file --http keeps its clients' sessions in, so that they outlast a restart (default $XDG_STATE_HOME/colophon/colophon-mcp-sessions.json)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() != 0 {
		fmt.Fprintf(stderr, "colophon-mcp: unexpected arguments %q\n", fs.Args())
		fs.Usage()
		return 2
	}
	if *version {
		fmt.Fprintln(stdout, build.Name())
		return 0
	}
	if *httpPort < 0 || *httpPort > 65535 {
		fmt.Fprintf(stderr, "colophon-mcp: --http-port %d is outside 0..65535\n", *httpPort)
		return 2
	}

	// Nothing is read from the firmware directory yet: a machine reads its
	// firmware when it is opened (checklist S-8). Saying where that will be
	// helps whoever reads a client's log.
	dirs := firmware.Dirs(*roms)
	fmt.Fprintf(stderr, "colophon-mcp %s: firmware from %s\n", build.Name(), strings.Join(dirs, ", "))

	h := host.New(host.Options{Firmware: firmware.Loader{Dirs: dirs, Fit: firmware.Exact}, Build: build.Name()})
	srv := server.New(server.Options{Host: h})
	addTestTrigger(srv)
	if *overHTTP {
		return serveHTTP(ctx, srv, net.JoinHostPort(*httpHost, strconv.Itoa(*httpPort)), *sessions, stderr)
	}
	err := srv.Serve(ctx, &transport.Stdio{Reader: stdin, Writer: stdout})
	if err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintf(stderr, "colophon-mcp: %v\n", err)
		return 1
	}
	return 0
}

// serveHTTP serves srv over streamable HTTP at addr until ctx ends; then
// every call is cancelled, the sessions are written, and the program ends
// within a second.
func serveHTTP(ctx context.Context, srv *server.Server, addr, sessions string, stderr io.Writer) int {
	if sessions == "" {
		var err error
		if sessions, err = transport.DefaultSessionsFile("colophon-mcp"); err != nil {
			fmt.Fprintf(stderr, "colophon-mcp: %v\n", err)
			return 1
		}
	}
	web, err := srv.HTTP(transport.HTTPOptions{Sessions: sessions, Warnings: stderr})
	if err != nil {
		fmt.Fprintf(stderr, "colophon-mcp: --http: %v\n", err)
		return 1
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		web.Close()
		fmt.Fprintf(stderr, "colophon-mcp: --http: %v\n", err)
		return 1
	}
	fmt.Fprintf(stderr, "colophon-mcp: serving MCP over streamable HTTP at http://%s%s, sessions kept in %s\n", ln.Addr(), transport.Path, sessions)
	context.AfterFunc(ctx, srv.Stop)
	served := make(chan error, 1)
	go func() { served <- web.Serve(ctx, ln) }()
	select {
	case err = <-served:
	case <-ctx.Done():
		// The sessions are written first; a call that does not end when
		// cancelled is left behind after the grace (issue 19, item 7).
		select {
		case err = <-served:
		case <-time.After(server.DefaultStopGrace):
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "colophon-mcp: --http: %v\n", err)
		return 1
	}
	return 0
}
