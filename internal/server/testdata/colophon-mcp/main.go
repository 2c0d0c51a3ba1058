// Command colophon-mcp, here, stands in for cmd/colophon-mcp in the
// real-client test (realclient_test.go) until that command serves through
// package server. It does what that command's main is to do: serve one
// client over standard input and output until it goes.
//
// It lives under testdata so that go build ./... and go vet ./... pass it
// by; the test builds it by its path.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"colophon/internal/build"
	"colophon/internal/server"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	// The firmware directory is read once machines can be opened; the
	// flag is taken now so that the command line is the real one.
	flag.String("roms", "roms", "the directory the firmware is read from")
	version := flag.Bool("version", false, "print the build's name and exit")
	flag.Parse()
	if *version {
		fmt.Println(build.Name())
		return
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := server.New(server.Options{}).Serve(ctx, &mcp.StdioTransport{}); err != nil && ctx.Err() == nil {
		fmt.Fprintln(os.Stderr, "colophon-mcp:", err)
		os.Exit(1)
	}
}
