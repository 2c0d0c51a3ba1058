package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strconv"

	"colophon/internal/build"
	"colophon/internal/proxy"
	"colophon/internal/transport"
)

func init() { commands["proxy"] = proxyCommand }

const proxyUsage = `usage: colophon-mcp proxy [--window-port 7637]

Speaks MCP on standard input and output and forwards every tool call to the
window running at http://127.0.0.1:PORT (colophon-mcp window), so that a
client registered once outlives any number of windows. The client is told
the tool list changed each time a window starts, stops or is replaced.
While none runs, the window's watching tools are listed and each call is
refused: "` + proxy.NoWindow + `".
`

// proxyCommand is colophon-mcp proxy.
func proxyCommand(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("colophon-mcp proxy", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, proxyUsage)
		fs.PrintDefaults()
	}
	port := fs.Int("window-port", WindowPort, "the port the window serves on")
	verbose := fs.Bool("verbose", false, "log each window starting and stopping on standard error")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() != 0 {
		fmt.Fprintf(stderr, "colophon-mcp proxy: unexpected arguments %q\n", fs.Args())
		return 2
	}
	if *port < 1 || *port > 65535 {
		fmt.Fprintf(stderr, "colophon-mcp proxy: --window-port %d is outside 1..65535\n", *port)
		return 2
	}
	addr := "http://" + net.JoinHostPort("127.0.0.1", strconv.Itoa(*port))
	opts := proxy.Options{Window: addr}
	if *verbose {
		opts.Logger = slog.New(slog.NewTextHandler(stderr, nil))
	}
	p := proxy.New(opts)
	fmt.Fprintf(stderr, "colophon-mcp proxy %s: forwarding to the window at %s\n", build.Name(), addr)
	context.AfterFunc(ctx, p.Stop)
	err := p.Serve(ctx, &transport.Stdio{Reader: stdin, Writer: stdout})
	if err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintf(stderr, "colophon-mcp proxy: %v\n", err)
		return 1
	}
	return 0
}
