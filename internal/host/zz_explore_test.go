package host

import (
	"testing"
)

func TestZZExplore(t *testing.T) {
	r := newRig(t, "cpc6128")
	r.frames(100)
	r.poke(0x4100, 0x01, 0x00, 0x00, 0x1C, 0x01, 0x00, 0x0F, 0x32, 0x00)
	mv := r.call(CallArgs{Address: "&BCAA", Values: []byte(`{"cpu.h": 65, "cpu.l": 0}`), Conditions: Conditions{Gather: []Condition{{Kind: "psg", Capture: CaptureArgs{Memory: []SpanArg{{Address: "cpu.sp", Length: 2}}, CPU: []string{"cpu.a", "cpu.c"}}}}}})
	t.Log(asJSON(mv))
	mv = r.run(RunArgs{Frames: ptr(uint64(40)), Conditions: Conditions{Gather: []Condition{{Kind: "psg", Capture: CaptureArgs{Memory: []SpanArg{{Address: "cpu.sp", Length: 2}}}}}}})
	for _, g := range mv.Gathered {
		t.Log(asJSON(g))
	}
}
