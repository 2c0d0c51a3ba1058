package host

import (
	"fmt"
	"strings"

	"colophon/internal/chip/crtc"
	"colophon/internal/firmware"
	"colophon/internal/machine"
	"colophon/internal/machine/cpc"
	"colophon/internal/machine/spectrum"
	"colophon/internal/media/sna"
	"colophon/internal/typing"
)

// A kind is a machine machine_open can build, by the name the emulator's
// command line gives it, wired as the command line wires it (spec, "What
// it answers"; W-5).
type kind struct {
	name string
	// cpc is set for the Amstrads: a 6845 of a type, memory named by
	// which ROM or RAM answered (PP-3), and RAM by its own addresses.
	cpc bool
	// firmware is the images the machine is built from, read when it is
	// opened (S-8).
	firmware []firmware.Image
	layout   typing.Layout
	snapshot sizeRule
	// build stands the machine up from its firmware, as read in the
	// order firmware lists it, and from a snapshot if one is given.
	build func(fw [][]byte, crtcType int, snapshot []byte) (machine.Machine, error)
}

// The snapshot limits (spec, "The files a machine is built from"; FILE-7):
// a Spectrum's .sna has one length, 49179 bytes, and nothing else is read
// a CPC's SNA may carry chunks after its memory in version 3, up
// to 8MB.
var (
	spectrumSnapshot = sizeRule{most: sna.Spectrum48Size, exact: true,
		why: fmt.Sprintf("a Spectrum 48K snapshot is exactly %d bytes", sna.Spectrum48Size)}
	cpcSnapshot = sizeRule{most: 8 << 20,
		why: "a CPC snapshot is at most 8MB (8388608 bytes)"}
)

// kinds lists the machines: the three CPCs, then the Spectrum.
var kinds = []*kind{
	cpcKind(cpc.CPC464, firmware.CPC464),
	cpcKind(cpc.CPC664, firmware.CPC664),
	cpcKind(cpc.CPC6128, firmware.CPC6128),
	{
		name:     spectrum.Name,
		firmware: []firmware.Image{firmware.Spectrum48},
		layout:   spectrum.Layout,
		snapshot: spectrumSnapshot,
		build: func(fw [][]byte, _ int, snapshot []byte) (machine.Machine, error) {
			if snapshot != nil {
				return spectrum.Load(fw[0], snapshot)
			}
			return spectrum.New(fw[0])
		},
	},
}

// cpcKind is a CPC: its own firmware, the OS then BASIC, and AMSDOS as
// upper ROM 7 where the model has a disc interface, as the command line
// fits them (cmd/colophon/cpc.go; spec, "What it answers": "the same
// firmware in the same sockets").
func cpcKind(model cpc.Model, image firmware.Image) *kind {
	fw := []firmware.Image{image}
	if model.DiscInterface() {
		fw = append(fw, firmware.AMSDOS)
	}
	return &kind{
		name:     model.String(),
		cpc:      true,
		firmware: fw,
		layout:   cpc.Typing,
		snapshot: cpcSnapshot,
		build: func(fw [][]byte, crtcType int, snapshot []byte) (machine.Machine, error) {
			cfg := cpc.Config{Model: model, CRTC: crtc.Type(crtcType), Firmware: fw[0]}
			if model.DiscInterface() {
				cfg.AMSDOS = fw[1]
			}
			var m *cpc.CPC
			var err error
			if snapshot != nil {
				m, err = cpc.Load(cfg, snapshot)
			} else {
				m, err = cpc.New(cfg)
			}
			if err != nil {
				return nil, err
			}
			return m, nil
		},
	}
}

// kindNamed finds a kind by its name.
func kindNamed(name string) (*kind, error) {
	for _, k := range kinds {
		if k.name == name {
			return k, nil
		}
	}
	return nil, fmt.Errorf("argument \"machine\" is %q; it must be one of %s", name, strings.Join(MachineNames(), ", "))
}

// MachineNames lists the names machine_open takes.
func MachineNames() []string {
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = k.name
	}
	return names
}
