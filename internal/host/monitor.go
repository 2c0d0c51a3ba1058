package host

import (
	"context"
	"fmt"

	"colophon/internal/cpcscreen"
	"colophon/internal/machine/cpc"
	"colophon/internal/screentext"
)

// MonitorArgs are monitor's arguments.
type MonitorArgs struct {
	Handle string `json:"handle" jsonschema:"the machine whose monitor to show" maxLength:"64"`
	Text   bool   `json:"text,omitempty" jsonschema:"also read the characters on the screen as lines of text, as the machine's firmware draws them now"`
}

// Beam is where the monitor's beam stands, in the picture's pixels.
type Beam struct {
	X int `json:"x" jsonschema:"the pixel across from the picture's left edge; negative or past the width in the blanking or the sync"`
	Y int `json:"y" jsonschema:"the line down from the picture's top edge; negative or past the height in the blanking or the sync"`
}

// Monitor is monitor's answer, beside the picture itself.
type Monitor struct {
	Handle  string   `json:"handle" jsonschema:"the machine"`
	Machine string   `json:"machine" jsonschema:"what it was built as"`
	Tick    uint64   `json:"tick" jsonschema:"the machine's tick the picture was painted up to"`
	Width   int      `json:"width" jsonschema:"the picture's width in pixels: 768 on a CPC, 352 on a Spectrum"`
	Height  int      `json:"height" jsonschema:"the picture's height in pixels: 544 on a CPC, 264 on a Spectrum"`
	Beam    Beam     `json:"beam" jsonschema:"where the beam stands"`
	Whole   bool     `json:"whole" jsonschema:"true when every line was painted in one frame; false when the beam stands partway through the picture, the lines above it this frame's and those below it the frame's before"`
	Text    []string `json:"text,omitempty" jsonschema:"with text: the screen's character rows, top first, each with the spaces at its end left off; a cell is one character, or an escape: \\\\ for a backslash, \\A to \\U a Spectrum's user-defined graphics, \\{n} any other character by its code, and ░ a cell that draws no character"`
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
		out := Monitor{
			Handle: m.handle, Machine: m.kind.name, Tick: m.m.Tick(),
			Width: p.Width, Height: p.Height,
			Beam:  Beam{X: p.BeamX, Y: p.BeamY},
			Whole: p.Whole(),
		}
		if a.Text {
			if out.Text, err = m.screenText(); err != nil {
				return shown{}, err
			}
		}
		return shown{out, png}, nil
	})
	return s.Monitor, s.png, err
}

// screenText reads the characters on a machine's screen as its firmware
// draws them now (internal/screentext): a CPC's screen as the 6845 and
// the Gate Array display it, matched against the lower ROM's matrices and
// the user-defined table the firmware's own variables point at; a
// Spectrum's 32 by 24 cells against the set CHARS points at and the UDGs.
func (m *Machine) screenText() ([]string, error) {
	var lines []string
	var err error
	if c, ok := m.m.(*cpc.CPC); ok {
		// The Gate Array takes up a new mode as the 6845's line sync
		// ends, which the video, running behind the processor, comes to
		// in its own time; bring it up to the machine's tick first.
		c.BeforeInspect()
		lines, err = screentext.CPC(cpcscreen.Displayed(&c.CRTC, &c.GA), c.LowerROMBytes(), c.RAM, m.kind.matrixVars)
	} else {
		var mem interface{ Peek(uint16) uint8 }
		if mem, err = m.memory(); err == nil {
			lines, err = screentext.Spectrum(mem.Peek)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%s: reading the screen as text: %w", m.handle, err)
	}
	return lines, nil
}
