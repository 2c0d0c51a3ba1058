// Command colophon-mcp is the MCP server that gives an agent eyes and hands
// on emulated machines. It speaks over its standard input and output.
package main

import (
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	impl := &mcp.Implementation{Name: "colophon-mcp", Version: "0.0.0"}
	fmt.Println(impl.Name, impl.Version)
}
