package host

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"colophon/internal/chip/crtc"
	"colophon/internal/machine"
	"colophon/internal/machine/catalogue"
	"colophon/internal/quote"
)

// MachineName names a machine as the emulator's command line does: cpc464,
// cpc664, cpc6128 or spectrum48.
type MachineName string

// CRTCType is a CPC's 6845 type, 0 to 4 as the CRTC Compendium numbers
// the five.
type CRTCType int

// OpenArgs are machine_open's arguments.
type OpenArgs struct {
	Machine        MachineName `json:"machine" jsonschema:"the machine to build: cpc464, cpc664, cpc6128 or spectrum48"`
	CRTC           *CRTCType   `json:"crtc,omitempty" jsonschema:"a CPC's 6845 type, 0 to 4 as the CRTC Compendium numbers them; 0 if not given. A Spectrum has no 6845 and takes none."`
	SixtyHz        *bool       `json:"sixty_hz,omitempty" jsonschema:"true wires a CPC's 50/60 Hz link for 60 Hz, whose firmware then sets a 60 Hz frame; 50 Hz if not given or false. A Spectrum has no such link and takes none."`
	Snapshot       string      `json:"snapshot,omitempty" jsonschema:"a snapshot file to stand the machine up from, loaded once the firmware is fitted: a 48K .sna of exactly 49179 bytes for spectrum48, an SNA of version 1, 2 or 3 of at most 8MB for a CPC. A relative path is read from the server's working directory." maxLength:"4096"`
	SnapshotSHA256 string      `json:"snapshot_sha256,omitempty" jsonschema:"the SHA-256 the snapshot must have, in hex, as the journal names it; the open is refused if the file holds anything else" maxLength:"64"`
	State          string      `json:"state,omitempty" jsonschema:"a state file state_save wrote, to stand the machine up from as the state kept it, in place of power-on or a snapshot; machine must name the machine it holds. At most 128MB, its first line at most 32MB. A relative path is read from the server's working directory." maxLength:"4096"`
}

// Opened is machine_open's answer.
type Opened struct {
	Handle  string       `json:"handle" jsonschema:"the machine's handle, which every other tool takes to name it"`
	Machine string       `json:"machine" jsonschema:"what it was built as"`
	CRTC    *int         `json:"crtc,omitempty" jsonschema:"a CPC's 6845 type"`
	Tick    uint64       `json:"tick" jsonschema:"its tick: 0, from power-on or from the snapshot; the state's, from a state file"`
	Files   []File       `json:"files" jsonschema:"every file read to build it: its firmware, then its snapshot or its state file, and the files a journal replayed read"`
	State   *StateOpened `json:"state,omitempty" jsonschema:"where it was stood up from a state file: how"`
}

// StateOpened says how a machine was stood up from a state file.
type StateOpened struct {
	Build   string `json:"build" jsonschema:"the build that wrote the state file"`
	By      string `json:"by" jsonschema:"fields, where this build wrote the file and the machine was written back field by field, exactly as the state kept it; journal, where another build wrote it and the requests of the journal in its first line were made again"`
	Tick    uint64 `json:"tick" jsonschema:"the tick the state stands at"`
	Journal int    `json:"journal" jsonschema:"the entries of the state's journal, which the machine carries on"`
}

// openEntry is machine_open as the journal enters it: a CPC's 6845 type
// even where none was named, sixty_hz only where it is true, so that a
// 50 Hz machine's journal is what it was before the window could ask for
// 60, and the snapshot by its absolute path and its SHA-256 (spec, "The
// journal"; J-3).
type openEntry struct {
	Machine        string `json:"machine"`
	CRTC           *int   `json:"crtc,omitempty"`
	SixtyHz        bool   `json:"sixty_hz,omitempty"`
	Snapshot       string `json:"snapshot,omitempty"`
	SnapshotSHA256 string `json:"snapshot_sha256,omitempty"`
}

// Open stands a machine up, reading its firmware now (S-8) and its
// snapshot if given, and gives it the next handle. The handles are m1, m2
// and on, in the order machines are stood up, and never given twice.
//
// Open builds the machine before the request is counted as arrived, so
// that machines are numbered in the order they were asked for.
func (h *Host) Open(ctx context.Context, a OpenArgs) (Opened, error) {
	defer arrived(ctx)
	if a.State != "" {
		return h.openState(ctx, a)
	}
	m, files, err := h.build(a)
	if err != nil {
		return Opened{}, err
	}
	h.register(m)
	return Opened{Handle: m.handle, Machine: m.kind.name, CRTC: m.crtcOut(), Tick: m.m.Tick(), Files: files}, nil
}

// crtcOut is a CPC's 6845 type as answers give it, and nothing for a
// Spectrum.
func (m *Machine) crtcOut() *int {
	if !m.kind.cpc {
		return nil
	}
	ct := m.crtc
	return &ct
}

// register gives a machine built the next handle and stands it among the
// machines.
func (h *Host) register(m *Machine) {
	h.mu.Lock()
	h.opened++
	m.handle = fmt.Sprintf("m%d", h.opened)
	m.publish() // before any other request can reach it
	h.machines = append(h.machines, m)
	opened, onOpen := h.opened, h.onOpen
	h.mu.Unlock()
	if onOpen != nil {
		onOpen(opened)
	}
}

// build builds the machine machine_open asks for, from power-on or a
// snapshot, its journal begun, with the files it read; it is not yet
// among the host's machines.
func (h *Host) build(a OpenArgs) (*Machine, []File, error) {
	k, err := kindNamed(string(a.Machine))
	if err != nil {
		return nil, nil, err
	}
	ct := 0
	switch {
	case a.CRTC != nil && !k.cpc:
		return nil, nil, fmt.Errorf("argument \"crtc\": %s has no 6845; only a CPC takes a crtc type", k.name)
	case a.CRTC != nil:
		if *a.CRTC < 0 || int(*a.CRTC) >= crtc.Types {
			return nil, nil, fmt.Errorf("argument \"crtc\" is %d; a 6845 is of type 0 to %d", *a.CRTC, crtc.Types-1)
		}
		ct = int(*a.CRTC)
	}
	if a.SixtyHz != nil && !k.cpc {
		return nil, nil, fmt.Errorf("argument \"sixty_hz\": %s has no 50/60 Hz link; only a CPC takes sixty_hz", k.name)
	}
	sixty := a.SixtyHz != nil && *a.SixtyHz
	if a.SnapshotSHA256 != "" && a.Snapshot == "" {
		return nil, nil, fmt.Errorf("argument \"snapshot_sha256\" is given without \"snapshot\", the file it names")
	}
	want, err := sha256Given("snapshot_sha256", a.SnapshotSHA256)
	if err != nil {
		return nil, nil, err
	}

	var files []File
	var fw [][]byte
	for _, socket := range k.Firmware {
		f, err := h.opts.Firmware.Load(socket.Image)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", k.name, err)
		}
		files = append(files, File{Kind: "firmware", Path: f.Path, SHA256: f.SHA256})
		fw = append(fw, f.Data)
	}
	var snapshot []byte
	if a.Snapshot != "" {
		f, b, err := readInput("snapshot", a.Snapshot, k.snapshot)
		if err != nil {
			return nil, nil, err
		}
		if want != "" && want != f.SHA256 {
			return nil, nil, fmt.Errorf("snapshot %s has SHA-256 %s, not %s as snapshot_sha256 asks: the file has changed", quote.Path(f.Path), f.SHA256, want)
		}
		files = append(files, f)
		snapshot = b
	}
	mm, err := k.Build(catalogue.Config{Firmware: fw, CRTC: ct, SixtyHz: sixty, Snapshot: snapshot})
	if err != nil {
		if snapshot != nil {
			return nil, nil, fmt.Errorf("%s: snapshot %s: %w", k.name, files[len(files)-1].Path, err)
		}
		return nil, nil, fmt.Errorf("%s: %w", k.name, err)
	}

	entry := openEntry{Machine: k.name, SixtyHz: sixty}
	if k.cpc {
		entry.CRTC = &ct
	}
	if snapshot != nil {
		entry.Snapshot = files[len(files)-1].Path
		entry.SnapshotSHA256 = files[len(files)-1].SHA256
	}

	m := h.newMachine(k, ct, mm, files)
	m.enter("machine_open", 0, entry)
	return m, files, nil
}

// newMachine is a machine built, with the files it was built from, before
// it is given a handle.
func (h *Host) newMachine(k *kind, ct int, mm machine.Machine, files []File) *Machine {
	return &Machine{kind: k, crtc: ct, m: mm, files: files, progressEvery: h.opts.ProgressEvery}
}

// sha256Given reads a SHA-256 a request gives, as 64 hex digits in either
// case, and answers it in the lower case the answers and the journal write
// it in; "" where none is given.
func sha256Given(arg, text string) (string, error) {
	if text == "" {
		return "", nil
	}
	b, err := hex.DecodeString(text)
	if err != nil || len(b) != sha256.Size {
		return "", fmt.Errorf("argument %q is %s, which is no SHA-256: write its 64 hex digits, as the journal names a file's", arg, quote.String(text))
	}
	return hex.EncodeToString(b), nil
}
