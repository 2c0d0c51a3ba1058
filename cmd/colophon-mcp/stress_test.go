package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"colophon/internal/shared"
)

// The stress test's size (issue 19's standing guards): machines standing at
// once, writers sending their requests at once over the one connection, as
// that many clients would, and rounds of requests each writer makes of
// each of its machines.
const (
	stressMachines = 50
	stressWriters  = 8
	stressRounds   = 8
	// stressRSS bounds the server's resident memory at its peak. Fifty
	// machines hold some 25 MB between them (a 6128's 128K of RAM and its
	// monitor's raster of 312 lines of 1024 samples, a Spectrum's 64K
	// and its picture); the rest is the runtime's, and a request's.
	stressRSS = 256 << 20
)

// malformedLines are lines no request is made of, each answered -32700 or
// -32600 with id null, and none of which may end the server or swallow
// the request after it.
var malformedLines = []string{
	`not json`,
	"\xef\xbb\xbf" + `{"jsonrpc":"2.0","id":"bom","method":"ping"}`,
	`[{"jsonrpc":"2.0","id":"batch","method":"ping"}]`,
	`{"jsonrpc":"1.0","id":"old","method":"ping"}`,
	`{"id":"none","method":"ping"}`,
	`{"jsonrpc":"2.0","id":{"an":"object"},"method":"ping"}`,
	`42`,
	`"ping"`,
	`{"jsonrpc":"2.0","id":"two","method":"ping"}{"jsonrpc":"2.0","id":"three","method":"ping"}`,
	`{"jsonrpc":"2.0","id":"trailing","method":"ping"} and more`,
	`{"nrpc":`,
	`{"jsonrpc":"2.0","id":"cut","method":"tools/call","params":{"name":"run","arguments":{"handle":"m1","ticks":1`,
}

// A sent request is what its answer is held to.
type sent struct {
	machine int // 0 to stressMachines-1
	seq     int // its place among the requests to its machine
	kind    string
	ticks   uint64 // asked of a run
	bytes   string // poked, and to be peeked back
}

// TestStress runs the built server with 50 machines standing, cpc6128s,
// cpc464s and spectrum48s, and 8 writers each sending requests to its own
// machines over the one standard input at once, lines no request is made
// of among them: pokes, peeks of what was poked, runs by ticks and
// inspects of the tick. Every request is answered, correctly, and each
// machine's requests ran in the order they were asked (checkMachine);
// every bad line is answered with id null and ends nothing; and the
// server's resident memory stays within stressRSS, its peak logged for
// docs/performance.md.
func TestStress(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("no go command to build the server with: %v", err)
	}
	roms := shared.TestPath(t, "roms")
	bin := filepath.Join(t.TempDir(), "colophon-mcp")
	if out, err := exec.Command(goTool, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "--roms", roms)
	cmd.Dir = t.TempDir()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })

	var wmu sync.Mutex
	write := func(line string) {
		wmu.Lock()
		defer wmu.Unlock()
		if _, err := io.WriteString(stdin, line+"\n"); err != nil {
			t.Errorf("writing to the server: %v", err)
		}
	}
	lines := bufio.NewScanner(stdout)
	lines.Buffer(make([]byte, 0, 1<<20), 16<<20)
	next := func() map[string]any {
		if !lines.Scan() {
			t.Fatalf("the server ended: %v", lines.Err())
		}
		var m map[string]any
		if err := json.Unmarshal(lines.Bytes(), &m); err != nil {
			t.Fatalf("the server wrote %q: %v", lines.Text(), err)
		}
		return m
	}

	write(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"stress","version":"1"}}}`)
	if m := next(); m["id"] != "init" || m["result"] == nil {
		t.Fatalf("initialize answered %v", m)
	}
	write(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	kinds := []string{"cpc6128", "cpc464", "spectrum48"}
	handles := make([]string, stressMachines)
	for i := range handles {
		write(fmt.Sprintf(`{"jsonrpc":"2.0","id":"open%d","method":"tools/call","params":{"name":"machine_open","arguments":{"machine":%q}}}`, i, kinds[i%len(kinds)]))
		m := next()
		var opened struct{ Handle string }
		if err := json.Unmarshal([]byte(text(t, m)), &opened); err != nil || opened.Handle == "" {
			t.Fatalf("machine_open %s answered %v", kinds[i%len(kinds)], m)
		}
		handles[i] = opened.Handle
	}

	// The reader holds each answer to its request, as the writers send
	// them.
	var (
		mu        sync.Mutex
		pending   = map[string]sent{}
		got       = make([][]answer, stressMachines)
		malformed int
		answered  int
	)
	readerDone := make(chan struct{})
	go func() {
		defer close(readerDone)
		for lines.Scan() {
			var a struct {
				ID     any
				Result json.RawMessage
				Error  *struct{ Code int }
			}
			if err := json.Unmarshal(lines.Bytes(), &a); err != nil {
				t.Errorf("the server wrote %q: %v", lines.Text(), err)
				return
			}
			mu.Lock()
			if a.ID == nil {
				if a.Error == nil || a.Error.Code != -32700 && a.Error.Code != -32600 {
					t.Errorf("an answer with id null that is no parse or request error: %s", lines.Text())
				}
				malformed++
				mu.Unlock()
				continue
			}
			id, _ := a.ID.(string)
			s, ok := pending[id]
			delete(pending, id)
			mu.Unlock()
			if !ok {
				t.Errorf("an answer to no request sent: %s", lines.Text())
				continue
			}
			if a.Error != nil || a.Result == nil {
				t.Errorf("%s of %s: %s", s.kind, handles[s.machine], lines.Text())
				continue
			}
			if s.kind == "ping" {
				continue
			}
			mu.Lock()
			got[s.machine] = append(got[s.machine], answer{s, a.Result})
			answered++
			mu.Unlock()
		}
	}()

	var writers sync.WaitGroup
	sentBad := make([]int, stressWriters)
	total := 0
	for w := range stressWriters {
		total += ((stressMachines - w + stressWriters - 1) / stressWriters) * stressRounds * 4
	}
	for w := range stressWriters {
		writers.Add(1)
		go func() {
			defer writers.Done()
			r := rand.New(rand.NewPCG(uint64(w), 19))
			seq := map[int]int{}
			ask := func(machine int, s sent, tool, args string) {
				s.machine, s.seq = machine, seq[machine]
				seq[machine]++
				id := fmt.Sprintf("w%d-m%d-%d", w, machine, s.seq)
				mu.Lock()
				pending[id] = s
				mu.Unlock()
				write(fmt.Sprintf(`{"jsonrpc":"2.0","id":%q,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, id, tool, args))
				if r.IntN(4) == 0 {
					write(malformedLines[r.IntN(len(malformedLines))])
					sentBad[w]++
				}
			}
			for round := range stressRounds {
				for m := w; m < stressMachines; m += stressWriters {
					h := handles[m]
					b := fmt.Sprintf("%02X %02X", round, m)
					ticks := uint64(1000 + 37*round + m)
					ask(m, sent{kind: "poke", bytes: b}, "poke", fmt.Sprintf(`{"handle":%q,"address":"&8000","bytes":%q}`, h, b))
					ask(m, sent{kind: "peek", bytes: b}, "peek", fmt.Sprintf(`{"handle":%q,"address":"&8000","length":2}`, h))
					ask(m, sent{kind: "run", ticks: ticks}, "run", fmt.Sprintf(`{"handle":%q,"ticks":%d}`, h, ticks))
					ask(m, sent{kind: "inspect"}, "inspect", fmt.Sprintf(`{"handle":%q,"path":"cpu.tick"}`, h))
				}
			}
		}()
	}
	writers.Wait()
	// Every answer is in once a ping sent last is answered, since the
	// server answers every request it reads before the client's input
	// ends; then the peak of its memory is read, and its input closed.
	mu.Lock()
	pending["last"] = sent{kind: "ping"}
	mu.Unlock()
	write(`{"jsonrpc":"2.0","id":"last","method":"ping"}`)
	peak := peakRSS(t, cmd.Process.Pid)
	stdin.Close()
	<-readerDone
	cmd.Wait()

	bad := 0
	for _, n := range sentBad {
		bad += n
	}
	mu.Lock()
	defer mu.Unlock()
	delete(pending, "last")
	if len(pending) > 0 || answered != total {
		t.Errorf("%d of %d requests answered; %d unanswered", answered, total, len(pending))
	}
	for m, answers := range got {
		checkMachine(t, m, answers)
	}
	if malformed != bad {
		t.Errorf("%d bad lines sent, %d answered with id null", bad, malformed)
	}
	if peak > stressRSS {
		t.Errorf("the server's resident memory peaked at %d MB, past %d MB", peak>>20, stressRSS>>20)
	}
	t.Logf("%d machines, %d writers: %d requests answered, each machine's run in order, and %d bad lines refused; the server's resident memory peaked at %.1f MB",
		stressMachines, stressWriters, answered, malformed, float64(peak)/(1<<20))
}

// An answer is one request's answer, as the reader took it.
type answer struct {
	sent
	result json.RawMessage
}

// checkMachine holds one machine's answers to its requests, each to what
// the one asked before it left: the bytes a peek reads are those the poke
// before it wrote, a run begins at the tick the run before it ended at,
// and cpu.tick reads where the last run ended. So the requests ran in the
// order they were asked. Each answer is written as its request ends, and
// the next request to the machine may end and be answered first; a client
// matches answers to requests by their ids, as JSON-RPC has it.
func checkMachine(t *testing.T, machine int, answers []answer) {
	slices.SortFunc(answers, func(a, b answer) int { return a.seq - b.seq })
	var tick uint64
	for i, a := range answers {
		if a.seq != i {
			t.Errorf("machine %d: request %d unanswered", machine, i)
			return
		}
		var r struct {
			IsError           bool
			StructuredContent json.RawMessage
		}
		if err := json.Unmarshal(a.result, &r); err != nil || r.IsError {
			t.Errorf("%s of machine %d: %s", a.kind, machine, a.result)
			return
		}
		switch a.kind {
		case "peek":
			var p struct{ Bytes string }
			json.Unmarshal(r.StructuredContent, &p)
			if p.Bytes != a.bytes {
				t.Errorf("machine %d: peek %d after poking %s read %s", machine, a.seq, a.bytes, p.Bytes)
			}
		case "run":
			var m struct{ Ticks, Tick uint64 }
			json.Unmarshal(r.StructuredContent, &m)
			if m.Ticks < a.ticks || m.Ticks > a.ticks+64 || m.Tick != tick+m.Ticks {
				t.Errorf("machine %d: run %d of %d ticks from %d took %d to %d", machine, a.seq, a.ticks, tick, m.Ticks, m.Tick)
			}
			tick = m.Tick
		case "inspect":
			var in struct{ Value uint64 }
			json.Unmarshal(r.StructuredContent, &in)
			if in.Value != tick {
				t.Errorf("machine %d: cpu.tick reads %d after a run to %d", machine, in.Value, tick)
			}
		}
	}
}

// text is a tool's answer's text.
func text(t *testing.T, m map[string]any) string {
	t.Helper()
	res, _ := m["result"].(map[string]any)
	content, _ := res["content"].([]any)
	if len(content) == 0 {
		t.Fatalf("no content in %v", m)
	}
	s, _ := content[0].(map[string]any)["text"].(string)
	return s
}

// peakRSS reads a process's peak resident memory in bytes, VmHWM in
// /proc (proc(5)); 0 where there is no /proc.
func peakRSS(t *testing.T, pid int) uint64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Logf("no peak memory to read: %v", err)
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) == 3 && f[0] == "VmHWM:" {
			kb, err := strconv.ParseUint(f[1], 10, 64)
			if err != nil {
				t.Fatalf("%s: %v", line, err)
			}
			return kb << 10
		}
	}
	return 0
}
