//go:build !race

package line

// hugeArgument is how long TestHugeArgumentsAnsweredShort makes every
// argument: 10 MiB, as colophon-mcp's test of the same name sends.
const hugeArgument = 10 << 20
