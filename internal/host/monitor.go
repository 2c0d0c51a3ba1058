package host

import (
	"context"
	"fmt"
)

// MonitorArgs are monitor's arguments.
type MonitorArgs struct {
	Handle string `json:"handle" jsonschema:"the machine whose monitor to show"`
}

// Beam is where the monitor's beam stands, in the picture's pixels.
type Beam struct {
	X int `json:"x" jsonschema:"the pixel across from the picture's left edge; negative or past the width in the blanking or the sync"`
	Y int `json:"y" jsonschema:"the line down from the picture's top edge; negative or past the height in the blanking or the sync"`
}

// Monitor is monitor's answer, beside the picture itself.
type Monitor struct {
	Handle  string `json:"handle" jsonschema:"the machine"`
	Machine string `json:"machine" jsonschema:"what it was built as"`
	Tick    uint64 `json:"tick" jsonschema:"the machine's tick the picture was painted up to"`
	Width   int    `json:"width" jsonschema:"the picture's width in pixels: 768 on a CPC, 352 on a Spectrum"`
	Height  int    `json:"height" jsonschema:"the picture's height in pixels: 544 on a CPC, 264 on a Spectrum"`
	Beam    Beam   `json:"beam" jsonschema:"where the beam stands"`
	Whole   bool   `json:"whole" jsonschema:"true when every line was painted in one frame; false when the beam stands partway through the picture, the lines above it this frame's and those below it the frame's before"`
}

// Monitor answers the picture on the machine's monitor as a PNG, cut and
// drawn as the emulator's command line writes its screenshots, byte for
// byte (MON-1 to MON-6). It is a read: it moves nothing and is not entered
// in the journal.
func (h *Host) Monitor(ctx context.Context, a MonitorArgs) (Monitor, []byte, error) {
	type shown struct {
		Monitor
		png []byte
	}
	s, err := with(h, ctx, a.Handle, func(m *Machine) (shown, error) {
		p := m.m.Picture()
		png, err := p.PNG()
		if err != nil {
			return shown{}, fmt.Errorf("%s: the picture: %w", m.handle, err)
		}
		return shown{Monitor{
			Handle: m.handle, Machine: m.kind.name, Tick: m.m.Tick(),
			Width: p.Width, Height: p.Height,
			Beam:  Beam{X: p.BeamX, Y: p.BeamY},
			Whole: p.Whole(),
		}, png}, nil
	})
	return s.Monitor, s.png, err
}
