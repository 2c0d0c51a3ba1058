package host

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzConditions feeds run's condition arguments, as a client's JSON
// gives them, to the host's reading of them on both machines: whatever
// comes, it is read or refused naming an argument, never a panic, and a
// condition read writes its journal entry (the seeds in
// testdata/fuzz/FuzzConditions run with every go test).
func FuzzConditions(f *testing.F) {
	for _, s := range []string{
		`{"until":[{"kind":"exec","address":"&BB06"}]}`,
		`{"gather":[{"kind":"out","port":"&BC00","mask":"&4300","value":"&80","value_to":"&BF"}]}`,
		`{"count":[{"kind":"psg","register":7,"register_to":15,"changes":true}],"count_by":"range"}`,
		`{"gather_last":[{"kind":"write","address":"&9000","address_to":"&9001","when":{"address":"&9000","bytes":"34 ??"},"capture":{"cpu":["cpu.a","cpu"],"memory":[{"address":"cpu.sp","length":4},{"address":"&10000","length":2,"ram":true}]}}]}`,
		`{"until":[{"kind":"read","address":"49152","from":"upper 7"}]}`,
		`{"until":[{"kind":"in","port":"&F400","mask":"&0B00","value":"1"}]}`,
		`{"until":[{"kind":"crtc","register":-1}]}`,
	} {
		f.Add([]byte(s))
	}
	h := New(Options{Firmware: newHostFirmware(f), Build: "fuzz"})
	cpc := rigOn(f, h, "cpc6128")
	spectrum := rigOn(f, h, "spectrum48")
	machines := []*Machine{machineOf(f, h, cpc.handle), machineOf(f, h, spectrum.handle)}
	f.Fuzz(func(t *testing.T, b []byte) {
		var c Conditions
		if err := json.Unmarshal(b, &c); err != nil {
			return
		}
		c.Path, c.PathSHA256 = "", "" // no files made here
		for _, m := range machines {
			w, err := m.watching(c)
			if err != nil {
				if !strings.Contains(err.Error(), "argument") {
					t.Errorf("%s: refused without naming an argument: %v", b, err)
				}
				continue
			}
			if _, err := marshal(w.entry); err != nil {
				t.Errorf("%s: the journal's entry: %v", b, err)
			}
		}
	})
}
