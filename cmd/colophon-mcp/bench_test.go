package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"testing"

	"colophon/internal/shared"
)

// BenchmarkPeekOverStdio measures a peek round trip through the real
// program over its standard input and output: the line a client writes,
// the server's work, and the line it reads back. The budget is 1 ms
// (ARCHITECTURE.md, "Performance budget").
func BenchmarkPeekOverStdio(b *testing.B) {
	roms := shared.TestPath(b, "roms")
	bin := filepath.Join(b.TempDir(), "colophon-mcp")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "--roms", roms)
	in, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() {
		in.Close()
		cmd.Wait()
	}()
	lines := bufio.NewScanner(outPipe)
	lines.Buffer(make([]byte, 0, 1<<20), 16<<20)
	ask := func(line string) map[string]any {
		if _, err := io.WriteString(in, line+"\n"); err != nil {
			b.Fatal(err)
		}
		if !lines.Scan() {
			b.Fatalf("no answer to %s: %v", line, lines.Err())
		}
		var r map[string]any
		if err := json.Unmarshal(lines.Bytes(), &r); err != nil || r["result"] == nil {
			b.Fatalf("answer %s: %v", lines.Bytes(), err)
		}
		return r
	}
	ask(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`)
	io.WriteString(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	ask(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"machine_open","arguments":{"machine":"spectrum48"}}}`)
	ask(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"run","arguments":{"handle":"m1","frames":100}}}`)
	b.ResetTimer()
	for i := range b.N {
		r := ask(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"peek","arguments":{"handle":"m1","address":"&5C00","length":16}}}`, 100+i))
		if res := r["result"].(map[string]any); res["isError"] == true {
			b.Fatalf("peek refused: %v", res)
		}
	}
}
