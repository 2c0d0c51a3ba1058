// Command gen writes docs/tools.md from the server itself (package
// toolsdoc), for go generate ./internal/server. It reads the firmware from
// -roms, the shared ROMs if not given, and writes -o whole.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"

	"colophon/internal/server/internal/toolsdoc"
	"colophon/internal/shared"
)

func main() {
	out := flag.String("o", "", "the file to write: docs/tools.md")
	roms := flag.String("roms", "", "the firmware directory; the shared ROMs if not given")
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "gen: -o is the file to write")
		os.Exit(2)
	}
	dir := *roms
	if dir == "" {
		var err error
		if dir, err = shared.Path("roms"); err != nil {
			fmt.Fprintln(os.Stderr, "gen:", err)
			os.Exit(1)
		}
	}
	var b bytes.Buffer
	if err := toolsdoc.Write(&b, dir); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, b.Bytes(), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}
