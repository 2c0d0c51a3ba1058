package main

import (
	"context"
	"fmt"
)

func init() {
	register(&command{
		name:    "help",
		args:    "[COMMAND]",
		summary: "list the commands, or tell how to use one",
		run:     runHelp,
	})
}

func runHelp(_ context.Context, std stdio, args []string) error {
	switch len(args) {
	case 0:
		fmt.Fprintln(std.out, "usage: colophon COMMAND [ARGUMENTS]")
		listCommands(std.out)
		return nil
	case 1:
		c := lookup(args[0])
		if c == nil {
			return usage("unknown command %q", args[0])
		}
		fmt.Fprintf(std.out, "usage: colophon %s %s\n\n%s\n", c.name, c.args, c.summary)
		if c.doc != "" {
			fmt.Fprintf(std.out, "\n%s\n", c.doc)
		}
		return nil
	}
	return usage("help takes one command at most, not %d arguments", len(args))
}
