package server

import (
	"fmt"
	"testing"
)

// BenchmarkRoundTrip measures one tools/call, machine_list, from the line a
// client writes to the line it reads back, over a pipe: what the protocol
// layer adds to every tool's answer. The spec's peek over stdio is to take
// at most 1 ms in all.
func BenchmarkRoundTrip(b *testing.B) {
	for _, rev := range []string{"2025-11-25", modern} {
		b.Run(rev, func(b *testing.B) {
			w := dial(b, New(Options{Build: testBuild}))
			meta := ""
			if rev == modern {
				meta = `,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
			} else {
				w.initialize(rev)
			}
			b.ResetTimer()
			for i := range b.N {
				w.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"machine_list"%s}}`, 1000+i, meta))
				if r := decodeReply(b, w.recv()); r.Error != nil || r.Result["isError"] == true {
					b.Fatalf("machine_list: %s", r.Raw)
				}
			}
		})
	}
}
