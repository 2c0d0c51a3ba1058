package server

// docs/tools.md is written from the server's own tools and a session run on
// it (internal/toolsdoc); TestToolsDocUpToDate holds the file to it.
//go:generate go run ./internal/toolsdoc/gen -o ../../docs/tools.md
