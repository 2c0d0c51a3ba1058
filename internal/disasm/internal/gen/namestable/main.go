// Command namestable writes package disasm's table of the CPC firmware's
// jumpblock names from the shared data: go generate in internal/disasm.
//
//	go run ./internal/gen/namestable -o names_table.go
package main

import (
	"flag"
	"fmt"
	"os"

	"colophon/internal/disasm/internal/gen"
	"colophon/internal/shared"
)

func main() {
	out := flag.String("o", "names_table.go", "the Go file to write")
	flag.Parse()
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "namestable:", err)
		os.Exit(1)
	}
}

func run(out string) error {
	names, err := open("jumpblocks.tsv")
	if err != nil {
		return err
	}
	defer names.Close()
	detail, err := open("jumpblocks_detail.tsv")
	if err != nil {
		return err
	}
	defer detail.Close()
	entries, err := gen.Parse(names, detail)
	if err != nil {
		return err
	}
	src, err := gen.Source(entries)
	if err != nil {
		return err
	}
	return os.WriteFile(out, src, 0o644)
}

func open(name string) (*os.File, error) {
	p, err := shared.Path("testdata", "cpc-firmware", name)
	if err != nil {
		return nil, err
	}
	return os.Open(p)
}
