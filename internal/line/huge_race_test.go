//go:build race

package line

// hugeArgument is how long TestHugeArgumentsAnsweredShort makes every
// argument. Under the race detector, which makes each of the many passes
// of encoding/json over it tens of times slower, it is 1 MiB, still a
// thousand times past the longest bound; plain go test sends 10 MiB.
const hugeArgument = 1 << 20
