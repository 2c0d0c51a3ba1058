// Command colophon-mcp is the MCP server that gives an agent eyes and hands
// on emulated machines. It speaks the Model Context Protocol over its
// standard input and output, to one client at a time.
//
// Usage:
//
//	colophon-mcp [--roms DIR]
//	colophon-mcp --version
//
// The firmware is read from DIR, or else from $COLOPHON_ROMS, or else from
// roms/ beside this program and then ./roms; a file is read only when a
// machine that needs it is opened. --version prints the build's name, which
// the server also gives as its version in the answer to initialize.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"colophon/internal/build"
	"colophon/internal/firmware"
	"colophon/internal/host"
	"colophon/internal/server"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is the program, with its streams given, returning its exit status.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("colophon-mcp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: colophon-mcp [--roms DIR]\n       colophon-mcp --version")
		fs.PrintDefaults()
	}
	version := fs.Bool("version", false, "print the build's name and exit")
	roms := fs.String("roms", "", "the firmware directory (default $"+firmware.EnvDir+", else roms/ beside this program, else ./roms)")
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

	// Nothing is read from the firmware directory yet: a machine reads its
	// firmware when it is opened (checklist S-8). Saying where that will be
	// helps whoever reads a client's log.
	dirs := firmware.Dirs(*roms)
	fmt.Fprintf(stderr, "colophon-mcp %s: firmware from %s\n", build.Name(), strings.Join(dirs, ", "))

	t := &mcp.IOTransport{Reader: io.NopCloser(stdin), Writer: nopCloser{stdout}}
	h := host.New(host.Options{Firmware: firmware.Loader{Dirs: dirs, Fit: firmware.Exact}, Build: build.Name()})
	err := server.New(server.Options{Host: h}).Serve(ctx, t)
	if err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintf(stderr, "colophon-mcp: %v\n", err)
		return 1
	}
	return 0
}

// nopCloser leaves the standard output open when the session ends.
type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }
