package machine

import (
	"strings"
	"testing"

	"colophon/internal/picture"
)

// TestT17Limits checks T-17 and A-4: one request runs at most 1500 frames,
// the ticks of 1500 standard frames, or 100000 instructions, and more is
// refused naming the limit.
func TestT17Limits(t *testing.T) {
	m := frameOnly(69888)
	for _, c := range []struct {
		err  error
		want string
	}{
		{CheckFrames(1500), ""},
		{CheckFrames(1501), "at most 1500"},
		{CheckTicks(m, 1500*69888), ""},
		{CheckTicks(m, 1500*69888+1), "at most 104832000, the ticks of 1500 standard frames"},
		{CheckInstructions(100000), ""},
		{CheckInstructions(100001), "1 to 100000"},
		{CheckInstructions(-1), "1 to 100000"},
		{CheckInstructions(0), "1 to 100000"},
	} {
		switch {
		case c.want == "" && c.err != nil:
			t.Errorf("refused: %v", c.err)
		case c.want != "" && (c.err == nil || !strings.Contains(c.err.Error(), c.want)):
			t.Errorf("err = %v, want one containing %q", c.err, c.want)
		}
	}
}

func TestNames(t *testing.T) {
	for s, want := range map[Stop]string{Done: "done", Halted: "halted", Unsettled: "unsettled", Stopped: "stopped", Cancelled: "cancelled", 9: "Stop(9)"} {
		if s.String() != want {
			t.Errorf("Stop %d = %q, want %q", s, s.String(), want)
		}
	}
	for k, want := range map[Kind]string{Fetch: "fetch", Read: "read", Write: "write", In: "in", Out: "out", Acknowledge: "acknowledge"} {
		if k.String() != want {
			t.Errorf("Kind %d = %q, want %q", k, k.String(), want)
		}
	}
}

// frameOnly is a Machine that knows only its standard frame, which is all
// CheckTicks asks of one.
type frameOnly uint64

func (f frameOnly) StandardFrame() uint64 { return uint64(f) }

func (frameOnly) Name() string                           { return "test" }
func (frameOnly) Tick() uint64                           { return 0 }
func (frameOnly) Frames() uint64                         { return 0 }
func (frameOnly) RunTicks(uint64) Result                 { return Result{} }
func (frameOnly) RunFrames(uint64) Result                { return Result{} }
func (frameOnly) Step(int) Result                        { return Result{} }
func (frameOnly) Type(string) (Result, error)            { return Result{}, nil }
func (frameOnly) TypeFor(string, uint64) (Result, error) { return Result{}, nil }
func (frameOnly) KeyNames() []string                     { return nil }
func (frameOnly) Hold([]string) error                    { return nil }
func (frameOnly) Held() []string                         { return nil }
func (frameOnly) Picture() *picture.Picture              { return nil }
func (frameOnly) Observe(Observer)                       {}
