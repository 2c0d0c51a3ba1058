package main

import (
	"context"
	"io"
)

// A command is a program of its own that shares this binary, run as
// colophon-mcp NAME [ARGUMENTS]; it returns the exit status. Each lives in
// a file of its own and adds itself to commands in an init function.
type command func(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int

// commands are the commands by name. An argument that names none is the
// server's own.
var commands = map[string]command{}
