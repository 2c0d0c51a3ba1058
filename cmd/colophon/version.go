package main

import (
	"context"
	"fmt"

	"colophon/internal/build"
)

func init() {
	register(&command{
		name:    "version",
		summary: "print the name of this build: 0.0.0+mcp.<commit>.emulator.<commit>",
		run:     runVersion,
	})
}

func runVersion(_ context.Context, std stdio, args []string) error {
	if len(args) != 0 {
		return usage("version takes no arguments")
	}
	_, err := fmt.Fprintln(std.out, build.Name())
	return err
}
