// Package catalogue is the one list of the machines colophon builds: each
// by the name the emulator's command line gives it, with the firmware it is
// built from and the socket each image goes in, its disc interface, and the
// media it takes. The command line and the MCP server's host both build
// their machines from here, so that machine_open wires a machine "as the
// command line does" (spec, "What it answers"; W-5) by construction rather
// than by two lists kept alike.
//
// A medium a machine takes (a disc in drive A or B, a tape in its deck) is
// a Medium in its Media; adding one is adding an entry there and the
// optional interface in package machine that puts it in.
package catalogue

import (
	"fmt"
	"strings"

	"colophon/internal/chip/crtc"
	"colophon/internal/chip/monitor"
	"colophon/internal/firmware"
	"colophon/internal/machine"
	"colophon/internal/machine/cpc"
	"colophon/internal/machine/spectrum"
	"colophon/internal/media/sna"
	"colophon/internal/typing"
)

// A Machine is one machine the emulator builds.
type Machine struct {
	// Name is the command line's name for it: cpc464, cpc664, cpc6128,
	// spectrum48.
	Name string
	// Title is what it is, for a person: "Amstrad CPC 6128".
	Title string
	// CPC is set for the Amstrads: a 6845 of a type the command line
	// chooses, memory answered by a lower ROM, upper ROMs or the RAM
	// beneath, and RAM by its own addresses.
	CPC bool
	// Firmware is the images it is built from, in the order Build takes
	// them, each with the socket it goes in (S-7).
	Firmware []Socket
	// StartFrames is the firmware's start-up wait, the frames the command
	// line runs when --frames is not given (KEY-19).
	StartFrames uint64
	// Typing is how text is typed at it (KEY-4).
	Typing typing.Layout
	// Snapshot is the snapshot files it is stood up from (FILE-7).
	Snapshot Limit
	// Media are the media it takes, each with its slots.
	Media []Medium
	// Lacks says, for a medium it does not take, why not.
	Lacks []Lack

	build func(Config) (machine.Machine, error)
}

// A Socket is where one firmware image goes.
type Socket struct {
	Image firmware.Image
	// Where says where the board fits it: "the lower ROM, then upper ROM 0
	// (the OS, then BASIC)", "upper ROM 7".
	Where string
}

// A Limit is how long a file of some kind may be.
type Limit struct {
	Most  int64  // the longest it may be
	Exact bool   // it must be exactly Most bytes long
	Why   string // the rule, as a refusal gives it
}

// The kinds of medium.
const (
	Disc = "disc"
	Tape = "tape"
)

// A Medium is a kind of medium a machine takes, such as a disc, and the
// places it goes in, such as drives A and B.
type Medium struct {
	// Kind is Disc or Tape.
	Kind string
	// Slots names the places a medium of this kind goes in, in the order
	// the machine numbers them: "A" and "B" for a CPC's disc drives.
	Slots []string
	// Formats says what files it is read from.
	Formats string
	// Extensions are the endings, in lower case, of the names of the
	// files it is read from, where the kind of file is told by its name,
	// as a tape's is: .tzx, .cdt, .tap.
	Extensions []string
	// File is how long such a file may be (FILE-7).
	File Limit
}

// A Lack is a medium a machine does not take, and why.
type Lack struct {
	Kind string
	Why  string
}

// Config says how to build a machine.
type Config struct {
	// Firmware is the images, as read, in the order Machine.Firmware
	// lists them.
	Firmware [][]byte
	// CRTC is a CPC's 6845 type, 0 to 4 as the Compendium numbers them;
	// 0, the first CPCs' type, where none is chosen.
	CRTC int
	// SixtyHz wires a CPC's refresh link for 60 Hz (--sixty-hz).
	SixtyHz bool
	// View is how a CPC's picture is cut (--full-raster, --no-double).
	View monitor.View
	// Snapshot, if given, is loaded once the firmware is fitted.
	Snapshot []byte
}

// Build stands the machine up as the command line does: at power-on from
// its firmware, or from a snapshot loaded once the firmware is fitted.
func (m *Machine) Build(c Config) (machine.Machine, error) {
	if len(c.Firmware) != len(m.Firmware) {
		return nil, fmt.Errorf("%s is built from %d firmware images, given %d", m.Name, len(m.Firmware), len(c.Firmware))
	}
	if !m.CPC && c.CRTC != 0 {
		return nil, fmt.Errorf("%s has no 6845; only a CPC takes a crtc type", m.Name)
	}
	return m.build(c)
}

// Medium answers the medium of a kind the machine takes, or an error that
// says why it takes none.
func (m *Machine) Medium(kind string) (*Medium, error) {
	for i := range m.Media {
		if m.Media[i].Kind == kind {
			return &m.Media[i], nil
		}
	}
	for _, l := range m.Lacks {
		if l.Kind == kind {
			return nil, fmt.Errorf("%s takes no %s: %s", m.Name, kind, l.Why)
		}
	}
	return nil, fmt.Errorf("%s takes no %s", m.Name, kind)
}

// Slot answers the number of the slot a medium's place is named by, as
// Slots names them, ignoring case; an empty name is the first.
func (d *Medium) Slot(name string) (int, error) {
	if name == "" {
		return 0, nil
	}
	for i, s := range d.Slots {
		if strings.EqualFold(s, name) {
			return i, nil
		}
	}
	return 0, fmt.Errorf("no %s slot is called %q; there are %s", d.Kind, name, strings.Join(d.Slots, " and "))
}

// The snapshot limits (spec, "The files a machine is built from"; FILE-7):
// a Spectrum's .sna has one length, 49179 bytes, and nothing else is read
// a CPC's SNA may carry chunks after its memory in version 3, up
// to 8MB.
var (
	spectrumSnapshot = Limit{Most: sna.Spectrum48Size, Exact: true,
		Why: fmt.Sprintf("a Spectrum 48K snapshot is exactly %d bytes", sna.Spectrum48Size)}
	cpcSnapshot = Limit{Most: 8 << 20,
		Why: "a CPC snapshot is at most 8MB (8388608 bytes)"}
)

// MediaLimit is the longest disc or tape file read: 16MB (FILE-7).
var MediaLimit = Limit{Most: 16 << 20, Why: "a disc or a tape is at most 16MB (16777216 bytes)"}

// discs is a CPC's two drives (spec, "Discs and tapes": "a CPC's drive A
// or B").
var discs = Medium{
	Kind:    Disc,
	Slots:   []string{"A", "B"},
	Formats: "a DSK image, of the original layout (MV - CPCEMU) or the extended one (EXTENDED CPC DSK)",
	File:    MediaLimit,
}

// The decks (spec, "Discs and tapes": "a .tzx on either machine, a .cdt
// on a CPC and a .tap on a Spectrum"; DT-16). A CDT is a TZX by another
// name, and a .tap holds only the Spectrum ROM's blocks.
var (
	cpcTapes = Medium{
		Kind:       Tape,
		Slots:      []string{"deck"},
		Formats:    "a CDT or a TZX (revision 1), blocks that carry their own timings in T-states of 3.5 MHz",
		Extensions: []string{".cdt", ".tzx"},
		File:       MediaLimit,
	}
	spectrumTapes = Medium{
		Kind:       Tape,
		Slots:      []string{"deck"},
		Formats:    "a TZX (revision 1), or a TAP of blocks played at the ROM's timings",
		Extensions: []string{".tzx", ".tap"},
		File:       MediaLimit,
	}
)

// Machines lists the machines: the three CPCs, then the Spectrum.
var Machines = []*Machine{
	cpcMachine(cpc.CPC464, "Amstrad CPC 464", firmware.CPC464),
	cpcMachine(cpc.CPC664, "Amstrad CPC 664", firmware.CPC664),
	cpcMachine(cpc.CPC6128, "Amstrad CPC 6128", firmware.CPC6128),
	{
		Name:        spectrum.Name,
		Title:       "Sinclair ZX Spectrum 48K",
		Firmware:    []Socket{{firmware.Spectrum48, "the ROM, &0000-&3FFF"}},
		StartFrames: 128,
		Typing:      spectrum.Layout,
		Snapshot:    spectrumSnapshot,
		Media:       []Medium{spectrumTapes},
		Lacks:       []Lack{{Disc, "a 48K Spectrum has no disc interface"}},
		build: func(c Config) (machine.Machine, error) {
			if c.Snapshot != nil {
				return spectrum.Load(c.Firmware[0], c.Snapshot)
			}
			return spectrum.New(c.Firmware[0])
		},
	},
}

// cpcMachine is a CPC: its own firmware, the OS then BASIC, and AMSDOS as
// upper ROM 7 where the model has a disc interface, with a 6845 of type 0
// where none is chosen (spec, "What it answers": "of type 0, the first
// CPCs' type, where it is given none").
func cpcMachine(model cpc.Model, title string, image firmware.Image) *Machine {
	m := &Machine{
		Name:        model.String(),
		Title:       title,
		CPC:         true,
		Firmware:    []Socket{{image, "the lower ROM, then upper ROM 0: the operating system, then BASIC"}},
		StartFrames: 78,
		Typing:      cpc.Typing,
		Snapshot:    cpcSnapshot,
		Media:       []Medium{cpcTapes},
	}
	if model.DiscInterface() {
		m.Firmware = append(m.Firmware, Socket{firmware.AMSDOS, fmt.Sprintf("upper ROM %d", cpc.AMSDOSSlot)})
		m.Media = append(m.Media, discs)
	} else {
		// Built as the command line builds one given no disc (spec,
		// "Discs and tapes"; DT-12).
		m.Lacks = append(m.Lacks, Lack{Disc, "a cpc464 has no disc interface, and none can be fitted"})
	}
	m.build = func(c Config) (machine.Machine, error) {
		if c.CRTC < 0 || c.CRTC >= crtc.Types {
			return nil, fmt.Errorf("crtc is %d; a 6845 is of type 0 to %d", c.CRTC, crtc.Types-1)
		}
		cfg := cpc.Config{Model: model, CRTC: crtc.Type(c.CRTC), Firmware: c.Firmware[0], SixtyHz: c.SixtyHz}
		if model.DiscInterface() {
			cfg.AMSDOS = c.Firmware[1]
		}
		var b *cpc.CPC
		var err error
		if c.Snapshot != nil {
			b, err = cpc.Load(cfg, c.Snapshot)
		} else {
			b, err = cpc.New(cfg)
		}
		if err != nil {
			return nil, err
		}
		b.View = c.View
		return b, nil
	}
	return m
}

// Named finds a machine by its name, in any case (CPC6128 is cpc6128), or
// refuses the name with every name there is.
func Named(name string) (*Machine, error) {
	for _, m := range Machines {
		if strings.EqualFold(m.Name, name) {
			return m, nil
		}
	}
	return nil, fmt.Errorf("no machine is called %q; the machines are %s", name, strings.Join(Names(), ", "))
}

// Names lists the machines' names, in the catalogue's order.
func Names() []string {
	names := make([]string, len(Machines))
	for i, m := range Machines {
		names[i] = m.Name
	}
	return names
}
