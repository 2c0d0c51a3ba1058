// Command pidp10-mcp is an MCP server for one raw TCP terminal line: an ITS
// session on a PiDP-10 (simh KA10). It speaks MCP over standard input and
// output, or over streamable HTTP with --http.
//
//	pidp10-mcp [--host H] [--port P]
//	pidp10-mcp --http [--http-host 127.0.0.1] [--http-port 8010]
//
// The environment supplies the defaults: PIDP10_HOST, PIDP10_PORT,
// PIDP10_MCP_HOST and PIDP10_MCP_PORT. Flags win over the environment.
//
// Whatever way the process ends, on end of input, on SIGTERM, SIGHUP or
// interrupt, the line is hard-closed so the emulator frees it at once.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"colophon/internal/line"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const version = "0.1.0"

// The spec's configuration table (spec/pidp10-mcp.md, "Configuration").
const (
	defaultHost     = "pidp10.local"
	defaultPort     = 10018
	defaultHTTPHost = "127.0.0.1"
	defaultHTTPPort = 8010
)

// httpPath is where the streamable HTTP endpoint answers.
const httpPath = "/mcp"

type config struct {
	host     string
	port     int
	http     bool
	httpHost string
	httpPort int
}

func main() {
	if err := run(os.Args[1:], os.Getenv, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "pidp10-mcp:", err)
		os.Exit(1)
	}
}

func run(args []string, getenv func(string) string, stderr io.Writer) error {
	cfg, err := parseConfig(args, getenv, stderr)
	if err != nil {
		return err
	}
	session := line.NewSession(cfg.host, cfg.port)
	// The teardown on every way out: a normal return, end of input, and
	// the signals, which cancel ctx and so end the transport.
	defer session.Close()

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGHUP, os.Interrupt)
	defer stop()

	server := line.NewServer(session, version)
	if cfg.http {
		return serveHTTP(ctx, server, net.JoinHostPort(cfg.httpHost, strconv.Itoa(cfg.httpPort)), stderr)
	}
	err = server.Run(ctx, &mcp.StdioTransport{})
	if ctx.Err() != nil {
		return nil // a signal asked us to stop
	}
	return err
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

// serveHTTP serves MCP over streamable HTTP at addr until ctx ends. Every
// client shares the one line, as the line belongs to the process.
func serveHTTP(ctx context.Context, server *mcp.Server, addr string, stderr io.Writer) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("--http: %w", err)
	}
	mux := http.NewServeMux()
	// The SDK rejects a request that reached a loopback address with a
	// foreign Host header; checkOrigin adds the Origin check.
	mux.Handle(httpPath, checkOrigin(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(stderr, "pidp10-mcp: serving MCP over streamable HTTP at http://%s%s\n", ln.Addr(), httpPath)

	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = srv.Shutdown(shutdown)
	return nil
}

// checkOrigin refuses requests whose Origin header names anything but a
// loopback host. A browser always sends Origin on a cross-origin request, so
// a web page that rebinds its own DNS name to 127.0.0.1 is turned away; the
// MCP transport specification requires servers to validate Origin for this
// reason (modelcontextprotocol.io, "Transports", Streamable HTTP, "Security
// Warning"). Clients that are not browsers send no Origin and pass.
func checkOrigin(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if origin := r.Header.Get("Origin"); origin != "" && !loopbackOrigin(origin) {
			http.Error(w, fmt.Sprintf("Forbidden: Origin %q is not a loopback origin", origin), http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func loopbackOrigin(origin string) bool {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	host := u.Hostname()
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
