package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"colophon/internal/firmware"
)

// colophon-mcp install [--client NAME] [--npx] [--roms DIR] prints how each
// MCP client is given this server (checklist S-11, S-12): the command line a
// client starts, as npx -y colophon-mcp, or as this program's absolute path
// with its firmware directory's. It writes no client's files: each block
// says where it goes.

func init() { commands["install"] = runInstall }

// serverName is the name the server is registered under in every client.
const serverName = "colophon"

// launch is the command a client starts, and its arguments.
type launch struct {
	command string
	args    []string
}

// npxLaunch is the npm package's command (checklist S-11). On Windows npx
// is a batch file, which a client starting programs directly cannot run, so
// cmd runs it.
func npxLaunch(goos string) launch {
	if goos == "windows" {
		return launch{"cmd", []string{"/c", "npx", "-y", "colophon-mcp"}}
	}
	return launch{"npx", []string{"-y", "colophon-mcp"}}
}

// client is an MCP client whose configuration install prints.
type client struct {
	name   string // as --client takes it
	title  string
	config func(l launch, goos string) []part
}

// part is one way of giving a client the server: what to do, and the line
// to run or the block to put in its file.
type part struct {
	intro, code string
}

var clients = []client{
	{"claude-code", "Claude Code", func(l launch, goos string) []part {
		return []part{{"Run:", commandLine(goos, append([]string{"claude", "mcp", "add", serverName, "--"}, l.argv()...))}}
	}},
	{"claude-desktop", "Claude Desktop", func(l launch, goos string) []part {
		return []part{{"In claude_desktop_config.json (Settings, Developer, Edit Config), beside any servers there:", jsonConfig("mcpServers", l, false)}}
	}},
	{"cursor", "Cursor", func(l launch, goos string) []part {
		return []part{{"In ~/.cursor/mcp.json, or .cursor/mcp.json in a project:", jsonConfig("mcpServers", l, false)}}
	}},
	{"vscode", "VS Code", func(l launch, goos string) []part {
		one, _ := json.Marshal(struct {
			Name    string   `json:"name"`
			Command string   `json:"command"`
			Args    []string `json:"args"`
		}{serverName, l.command, l.args})
		return []part{
			{"Run:", commandLine(goos, []string{"code", "--add-mcp", string(one)})},
			{"or put in .vscode/mcp.json in a workspace:", jsonConfig("servers", l, true)},
		}
	}},
	{"windsurf", "Windsurf", func(l launch, goos string) []part {
		return []part{{"In ~/.codeium/windsurf/mcp_config.json:", jsonConfig("mcpServers", l, false)}}
	}},
	{"zed", "Zed", func(l launch, goos string) []part {
		return []part{{"In Zed's settings.json (zed: open settings), beside what is there:", jsonConfig("context_servers", l, false)}}
	}},
}

func (l launch) argv() []string { return append([]string{l.command}, l.args...) }

// jsonConfig is the block the JSON-configured clients take: the server
// under key, by its command and arguments, with "type": "stdio" where the
// client asks for it. Arrays stay on one line, as people write them.
func jsonConfig(key string, l launch, typed bool) string {
	q := func(s string) string {
		b, _ := json.Marshal(s)
		return string(b)
	}
	args := make([]string, len(l.args))
	for i, a := range l.args {
		args[i] = q(a)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "{\n  %s: {\n    %s: {\n", q(key), q(serverName))
	if typed {
		fmt.Fprintf(&b, "      \"type\": \"stdio\",\n")
	}
	fmt.Fprintf(&b, "      \"command\": %s,\n      \"args\": [%s]\n    }\n  }\n}", q(l.command), strings.Join(args, ", "))
	return b.String()
}

// commandLine quotes words for the shell a person types into: POSIX
// single quotes, or on Windows cmd's double quotes, with a double quote
// inside escaped for the program's own reading of its command line.
func commandLine(goos string, words []string) string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = quoteWord(goos, w)
	}
	return strings.Join(out, " ")
}

func quoteWord(goos, w string) string {
	plain := w != "" && strings.IndexFunc(w, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=+,@%", r) || goos == "windows" && r == '\\')
	}) < 0
	switch {
	case plain:
		return w
	case goos == "windows":
		return `"` + strings.ReplaceAll(w, `"`, `\"`) + `"`
	default:
		return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
	}
}

// installOptions are what install prints from, gathered by runInstall.
type installOptions struct {
	client string // one client's name, or "" for all
	npx    bool   // print npx -y colophon-mcp rather than absolute paths
	exe    string // this program's absolute path
	roms   string // the firmware directory's absolute path
	goos   string
}

// install writes the configuration of one client or of all.
func install(w io.Writer, o installOptions) error {
	l := npxLaunch(o.goos)
	if !o.npx {
		l = launch{o.exe, []string{"--roms", o.roms}}
	}
	chosen, err := choose(o.client)
	if err != nil {
		return err
	}
	if o.client == "" {
		fmt.Fprintf(w, "Each client starts the server itself, as\n\n    %s\n\nwhich is given to each client as follows.\n", commandLine(o.goos, l.argv()))
	}
	for _, c := range chosen {
		if o.client == "" {
			fmt.Fprintf(w, "\n== %s (--client %s)\n\n", c.title, c.name)
		}
		for i, p := range c.config(l, o.goos) {
			if i > 0 {
				fmt.Fprintln(w)
			}
			fmt.Fprintf(w, "%s\n\n%s\n", p.intro, p.code)
		}
	}
	return nil
}

// choose gives the client named, or every client for "".
func choose(name string) ([]client, error) {
	var chosen []client
	for _, c := range clients {
		if name == "" || name == c.name {
			chosen = append(chosen, c)
		}
	}
	if len(chosen) == 0 {
		return nil, fmt.Errorf("--client %q: the clients are %s", clip(name), strings.Join(clientNames(), ", "))
	}
	return chosen, nil
}

func clientNames() []string {
	var names []string
	for _, c := range clients {
		names = append(names, c.name)
	}
	return names
}

// clip quotes at most 80 bytes of what was sent.
func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}

// fromNPM says whether a program's path is inside one of the npm platform
// packages (…/node_modules/@colophon-mcp/<os>-<cpu>/…), whose place npx
// may choose afresh, so that npx -y colophon-mcp is the line to give.
func fromNPM(exe string) bool {
	return strings.Contains(strings.ReplaceAll(exe, `\`, "/"), "/node_modules/@colophon-mcp/")
}

// runInstall is colophon-mcp install [--client NAME] [--npx] [--roms DIR].
func runInstall(_ context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("colophon-mcp install", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: colophon-mcp install [--client NAME] [--npx] [--roms DIR]")
		fs.PrintDefaults()
	}
	o := installOptions{goos: runtime.GOOS}
	roms := fs.String("roms", "", "the firmware directory to give clients (default the first of $"+firmware.EnvDir+", roms/ beside this program, ./roms that is there)")
	fs.StringVar(&o.client, "client", "", "print only this client's configuration: "+strings.Join(clientNames(), ", "))
	fs.BoolVar(&o.npx, "npx", false, "give npx -y colophon-mcp as the command, not this program's absolute path (the default where npm installed it)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() != 0 {
		fmt.Fprintf(stderr, "colophon-mcp install: unexpected arguments %q\n", fs.Args())
		fs.Usage()
		return 2
	}
	if _, err := choose(o.client); err != nil {
		fmt.Fprintf(stderr, "colophon-mcp install: %v\n", err)
		return 2
	}
	exe, err := os.Executable()
	if err == nil {
		exe, err = filepath.EvalSymlinks(exe)
	}
	if err != nil {
		fmt.Fprintf(stderr, "colophon-mcp install: finding this program's path: %v\n", err)
		return 1
	}
	if fromNPM(exe) {
		o.npx = true
	}
	o.exe = exe
	if !o.npx {
		o.roms = firmwareDir(*roms, stderr)
	}
	if err := install(stdout, o); err != nil {
		fmt.Fprintf(stderr, "colophon-mcp install: %v\n", err)
		return 2
	}
	return 0
}

// firmwareDir is the firmware directory to give a client: --roms where it
// was given, else the first of the directories the server searches that is
// there (firmware.Dirs), else the first of them, with a warning.
func firmwareDir(roms string, stderr io.Writer) string {
	dirs := firmware.Dirs(roms)
	for _, d := range dirs {
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			return d
		}
	}
	fmt.Fprintf(stderr, "colophon-mcp install: no firmware directory at %s yet; fetch it there with colophon roms fetch --dir %s\n",
		strings.Join(dirs, " or "), dirs[0])
	return dirs[0]
}
