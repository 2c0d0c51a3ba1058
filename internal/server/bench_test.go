package server

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"colophon/internal/machine"
	"colophon/internal/machine/cpc"
	"colophon/internal/machine/spectrum"
	"colophon/internal/shared"
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

// BenchmarkRun1500Frames sets a run of 1500 frames asked through the server,
// over a pipe as a client asks it, beside the same run of the bare machine:
// the server is to be within 5% of the machine (ARCHITECTURE.md,
// "Performance budget"). Each iteration runs the next 1500 frames of each,
// one after the other, so that both see the same load on a shared machine;
// it reports the seconds of each and the server's over the machine's.
func BenchmarkRun1500Frames(b *testing.B) {
	for _, name := range []string{"spectrum48", "cpc6128"} {
		b.Run(name, func(b *testing.B) {
			m := bareMachine(b, name)
			w := machineWire(b)
			h := w.open(name)
			var bare, served time.Duration
			b.ResetTimer()
			for i := range b.N {
				start := time.Now()
				m.RunFrames(1500)
				bare += time.Since(start)

				start = time.Now()
				w.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"run","arguments":{"handle":%q,"frames":1500}}}`, 1000+i, h))
				if r := decodeReply(b, w.recv()); r.Error != nil || r.Result["isError"] == true {
					b.Fatalf("run: %s", r.Raw)
				}
				served += time.Since(start)
			}
			b.ReportMetric(bare.Seconds()/float64(b.N), "bare-s/op")
			b.ReportMetric(served.Seconds()/float64(b.N), "server-s/op")
			b.ReportMetric(served.Seconds()/bare.Seconds(), "server/bare")
		})
	}
}

// bareMachine builds a machine as machine_open does, without the host.
func bareMachine(b *testing.B, name string) machine.Machine {
	roms := shared.TestPath(b, "roms")
	if name == spectrum.Name {
		rom, err := os.ReadFile(filepath.Join(roms, "spectrum48.rom"))
		if err != nil {
			b.Fatal(err)
		}
		s, err := spectrum.New(rom)
		if err != nil {
			b.Fatal(err)
		}
		return s
	}
	model, _ := cpc.ModelNamed(name)
	return newCPC(b, roms, model)
}

// BenchmarkNew measures building a server with every tool, as each test,
// each fuzz input of FuzzToolArguments, and each HTTP session's server
// does: the tools' schemas are inferred once per process (schemasOf), so
// what is left is the SDK's own work of adding each tool.
func BenchmarkNew(b *testing.B) {
	for range b.N {
		New(Options{Build: testBuild})
	}
}
