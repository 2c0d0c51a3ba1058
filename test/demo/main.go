// Command demo boots a machine through the real MCP server, end to end, as
// make demo shows it: it starts colophon-mcp, writes JSON-RPC to its
// standard input as a client would, line by line, and reads its answers
// back: initialize, machine_open spectrum48, run the 128 frames the ROM
// takes to start, type p2+2 and ENTER, and monitor. It writes monitor's
// PNG to a file and says where.
//
// Usage:
//
//	go run ./test/demo --server bin/colophon-mcp --roms roms --out bin/demo.png
package main

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
)

func main() {
	server := flag.String("server", "bin/colophon-mcp", "the colophon-mcp program")
	roms := flag.String("roms", "roms", "the firmware directory")
	out := flag.String("out", "bin/demo.png", "where to write monitor's picture; it must not exist")
	flag.Parse()
	if err := demo(*server, *roms, *out); err != nil {
		fmt.Fprintf(os.Stderr, "demo: %v\n", err)
		os.Exit(1)
	}
}

// A session is the server, and the lines to and from it.
type session struct {
	in    io.WriteCloser
	lines *bufio.Scanner
	id    int
}

// send writes one line, showing it as a client sends it.
func (s *session) send(line string) error {
	fmt.Println("-> " + line)
	_, err := io.WriteString(s.in, line+"\n")
	return err
}

// call makes a request and returns its result, showing the answer with any
// picture's data cut short.
func (s *session) call(method string, params any) (map[string]any, error) {
	s.id++
	p, err := json.Marshal(params)
	if err != nil {
		return nil, err
	}
	if err := s.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`, s.id, method, p)); err != nil {
		return nil, err
	}
	if !s.lines.Scan() {
		return nil, fmt.Errorf("%s: the server answered nothing: %v", method, s.lines.Err())
	}
	var reply struct {
		Result map[string]any  `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(s.lines.Bytes(), &reply); err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	fmt.Println("<- " + shorten(s.lines.Text()))
	if reply.Error != nil {
		return nil, fmt.Errorf("%s: %s", method, reply.Error)
	}
	return reply.Result, nil
}

// tool calls a tool and fails if it refuses.
func (s *session) tool(name string, args map[string]any) (map[string]any, error) {
	res, err := s.call("tools/call", map[string]any{"name": name, "arguments": args})
	if err != nil {
		return nil, err
	}
	if res["isError"] == true {
		return nil, fmt.Errorf("%s refused: %v", name, res["content"])
	}
	return res, nil
}

// shorten cuts a long line, a PNG's base64 above all, for the terminal.
func shorten(line string) string {
	const most = 400
	if len(line) <= most {
		return line
	}
	return line[:most] + fmt.Sprintf("… (%d characters in all)", len(line))
}

func demo(server, roms, out string) error {
	if _, err := os.Lstat(out); err == nil {
		return fmt.Errorf("%s is there already; the demo writes only where no file is", out)
	}
	cmd := exec.Command(server, "--roms", roms)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	lines := bufio.NewScanner(stdout)
	lines.Buffer(make([]byte, 0, 1<<20), 16<<20)
	s := &session{in: in, lines: lines}
	err = script(s, out)
	in.Close()
	if werr := cmd.Wait(); err == nil {
		err = werr
	}
	return err
}

// script is what the demo asks of the server.
func script(s *session, out string) error {
	init, err := s.call("initialize", map[string]any{
		"protocolVersion": "2025-11-25",
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": "make demo", "version": "0"},
	})
	if err != nil {
		return err
	}
	if err := s.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`); err != nil {
		return err
	}
	opened, err := s.tool("machine_open", map[string]any{"machine": "spectrum48"})
	if err != nil {
		return err
	}
	handle, _ := opened["structuredContent"].(map[string]any)["handle"].(string)
	// The 128 frames the command line waits for the ROM to start, counted
	// as it counts them, in ticks.
	if _, err := s.tool("run", map[string]any{"handle": handle, "ticks": 128 * 69888}); err != nil {
		return err
	}
	if _, err := s.tool("type", map[string]any{"handle": handle, "text": "p2+2\n"}); err != nil {
		return err
	}
	shown, err := s.tool("monitor", map[string]any{"handle": handle})
	if err != nil {
		return err
	}
	var png []byte
	for _, c := range shown["content"].([]any) {
		c := c.(map[string]any)
		if c["type"] == "image" {
			if png, err = base64.StdEncoding.DecodeString(c["data"].(string)); err != nil {
				return err
			}
		}
	}
	if png == nil {
		return errors.New("monitor answered no picture")
	}
	f, err := os.OpenFile(out, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(png); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	abs, _ := filepath.Abs(out)
	info, _ := init["serverInfo"].(map[string]any)
	fmt.Println()
	fmt.Printf("%s %v booted a spectrum48 (%s), typed p2+2 and ENTER, and showed its monitor:\n",
		info["name"], info["version"], handle)
	fmt.Printf("  %s (%d bytes; the ZX Spectrum's answer, 4, is at its top left)\n", abs, len(png))
	return nil
}
