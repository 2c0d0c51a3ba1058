// Command colophon is the emulator's command line, the plainest host of the
// machines the MCP server holds.
//
// Usage:
//
//	colophon COMMAND [ARGUMENTS]
//
// Each command lives in a file of its own and registers itself there, so a
// new one is a new file: see register. colophon help lists them.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
)

// A command is one of colophon's subcommands.
type command struct {
	name    string // as typed after colophon
	args    string // its arguments, for the usage line: "fetch [--dir DIR]"
	summary string // one line for the list colophon help prints
	doc     string // more, for colophon help NAME; may be empty
	// run carries the command out. An error wrapped by usage is the
	// caller's mistake: it is printed with the command's usage and the
	// exit status is 2. Any other error gives status 1.
	run func(ctx context.Context, std stdio, args []string) error
}

// stdio is where a command writes.
type stdio struct {
	out, err io.Writer
}

// commands holds every registered command, in the order the files' init
// functions ran; help sorts them by name.
var commands []*command

// register adds a command. Call it from an init function in the command's
// own file.
func register(c *command) {
	if c.name == "" || c.summary == "" || c.run == nil {
		panic(fmt.Sprintf("colophon: command %q registered without a name, a summary or a run", c.name))
	}
	if lookup(c.name) != nil {
		panic(fmt.Sprintf("colophon: command %q registered twice", c.name))
	}
	commands = append(commands, c)
}

func lookup(name string) *command {
	i := slices.IndexFunc(commands, func(c *command) bool { return c.name == name })
	if i < 0 {
		return nil
	}
	return commands[i]
}

// sorted returns the commands by name.
func sorted() []*command {
	return slices.SortedFunc(slices.Values(commands), func(a, b *command) int { return strings.Compare(a.name, b.name) })
}

// usageError is a mistake in how a command was called.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// usage marks a mistake in the arguments.
func usage(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	os.Exit(run(ctx, stdio{os.Stdout, os.Stderr}, os.Args[1:]))
}

// run dispatches args to their command and returns the exit status.
func run(ctx context.Context, std stdio, args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(std.err, "usage: colophon COMMAND [ARGUMENTS]")
		listCommands(std.err)
		return 2
	}
	name := args[0]
	if name == "-h" || name == "-help" || name == "--help" {
		name = "help"
	}
	c := lookup(name)
	if c == nil {
		fmt.Fprintf(std.err, "colophon: unknown command %q; colophon help lists the commands\n", args[0])
		return 2
	}
	err := c.run(ctx, std, args[1:])
	var ue usageError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ue):
		fmt.Fprintf(std.err, "colophon %s: %v\n", c.name, err)
		fmt.Fprintf(std.err, "usage: colophon %s %s\n", c.name, c.args)
		return 2
	default:
		fmt.Fprintf(std.err, "colophon %s: %v\n", c.name, err)
		return 1
	}
}

// listCommands writes a line for each command, by name.
func listCommands(w io.Writer) {
	fmt.Fprintln(w, "\ncommands:")
	for _, c := range sorted() {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\ncolophon help COMMAND tells more of one.")
}
