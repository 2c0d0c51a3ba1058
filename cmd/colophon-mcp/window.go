package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os/exec"
	"runtime"
	"strconv"
	"strings"

	"colophon/internal/build"
	"colophon/internal/firmware"
	"colophon/internal/host"
	"colophon/internal/machine/catalogue"
	"colophon/internal/transport"
	"colophon/internal/window"
)

func init() { commands["window"] = windowCommand }

// WindowPort is where a window serves, and where the proxy looks for one.
const WindowPort = 7637

const windowUsage = `usage: colophon-mcp window --machine NAME [--crtc N] [--sixty-hz] [--snapshot FILE] [--disc FILE] [--disc-b FILE] [--tape FILE]
                          [--http-port 7637] [--sessions PATH] [--roms DIR] [--no-browser]

Runs one machine in real time in a page at http://127.0.0.1:PORT/, opened in
the default browser, and serves MCP beside it at http://127.0.0.1:PORT/mcp.
The tools that only look are always listed; those that change the machine
only while dev mode is on, which the page's switch or the dev_mode tool
turns. colophon-mcp proxy forwards a client's requests to whichever window
is running.
`

// windowCommand is colophon-mcp window.
func windowCommand(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("colophon-mcp window", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, windowUsage)
		fs.PrintDefaults()
	}
	machineName := fs.String("machine", "", "the machine to run: "+strings.Join(host.MachineNames(), ", "))
	crtc := fs.Int("crtc", -1, "a CPC's 6845 type, 0 to 4 (default 0)")
	sixtyHz := fs.Bool("sixty-hz", false, "wire a CPC's 50/60 Hz link for 60 Hz, as machine_open's sixty_hz does: the firmware sets a 60 Hz frame and the window runs 60 a second")
	snapshot := fs.String("snapshot", "", "a snapshot to stand the machine up from")
	disc := fs.String("disc", "", "a DSK to put in a CPC's drive A")
	discB := fs.String("disc-b", "", "a DSK to put in a CPC's drive B")
	tape := fs.String("tape", "", "a tape to put in the machine's deck")
	port := fs.Int("http-port", WindowPort, "the port to serve the page and MCP on, 0 for any free one")
	sessions := fs.String("sessions", "", "the file the MCP clients' sessions are kept in (default $XDG_STATE_HOME/colophon/colophon-mcp-window-sessions.json)")
	roms := fs.String("roms", "", "the firmware directory (default $"+firmware.EnvDir+", else roms/ beside this program, else ./roms)")
	noBrowser := fs.Bool("no-browser", false, "do not open the page in the default browser")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	switch {
	case fs.NArg() != 0:
		fmt.Fprintf(stderr, "colophon-mcp window: unexpected arguments %q\n", fs.Args())
		return 2
	case *machineName == "":
		fmt.Fprintf(stderr, "colophon-mcp window: --machine is needed: one of %s\n", strings.Join(host.MachineNames(), ", "))
		return 2
	case *sixtyHz && !isCPC(*machineName):
		fmt.Fprintf(stderr, "colophon-mcp window: --sixty-hz is for a CPC: %s has no 50/60 Hz link\n", *machineName)
		return 2
	case *port < 0 || *port > 65535:
		fmt.Fprintf(stderr, "colophon-mcp window: --http-port %d is outside 0..65535\n", *port)
		return 2
	}
	if *sessions == "" {
		var err error
		if *sessions, err = transport.DefaultSessionsFile("colophon-mcp-window"); err != nil {
			fmt.Fprintf(stderr, "colophon-mcp window: %v\n", err)
			return 1
		}
	}
	opts := window.Options{
		Host:     host.New(host.Options{Firmware: firmware.Loader{Dirs: firmware.Dirs(*roms), Fit: firmware.Exact}, Build: build.Name()}),
		Machine:  *machineName,
		SixtyHz:  *sixtyHz,
		Snapshot: *snapshot,
		Disc:     *disc,
		DiscB:    *discB,
		Tape:     *tape,
		Sessions: *sessions,
	}
	if *crtc >= 0 {
		opts.CRTC = crtc
	}
	// Listen first, so that a window already running is said plainly
	// before a machine is stood up for nothing.
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(*port)))
	if err != nil {
		fmt.Fprintf(stderr, "colophon-mcp window: %v (is a window running already?)\n", err)
		return 1
	}
	w, err := window.New(opts)
	if err != nil {
		ln.Close()
		fmt.Fprintf(stderr, "colophon-mcp window: %v\n", err)
		return 1
	}
	page := fmt.Sprintf("http://%s/", ln.Addr())
	fmt.Fprintf(stderr, "colophon-mcp window %s: %s as %s at %s, MCP at %s%s\n",
		build.Name(), *machineName, w.Handle(), page, strings.TrimSuffix(page, "/"), transport.Path)
	if !*noBrowser {
		if err := openBrowser(page); err != nil {
			fmt.Fprintf(stderr, "colophon-mcp window: opening the browser: %v; open %s yourself\n", err, page)
		}
	}
	if err := w.Serve(ctx, ln); err != nil {
		fmt.Fprintf(stderr, "colophon-mcp window: %v\n", err)
		return 1
	}
	return 0
}

// isCPC reports whether name is a CPC's; an unknown name is left for the
// window to refuse, naming the machines there are.
func isCPC(name string) bool {
	k, err := catalogue.Named(name)
	return err != nil || k.CPC
}

// openBrowser opens url in the default browser, as each system's own
// command does.
func openBrowser(url string) error {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.Command("open", url)
	case "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", url)
	default:
		cmd = exec.Command("xdg-open", url)
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	go cmd.Wait()
	return nil
}
