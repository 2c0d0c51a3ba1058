package host

import (
	"context"
	"encoding/json"
	"fmt"

	"colophon/internal/chip/crtc"
	"colophon/internal/quote"
)

// openState stands a machine up from a state file (spec, "Keeping a
// machine"; W-9, KEEP-11 to KEEP-15). The file is read whole and taken
// apart first, and the firmware read now is held to the state's by its
// hash, so that nothing is built from a file that cannot be the machine.
// The build that wrote the file stands it up field by field; any other
// makes it again from the journal in its first line (rebuild). Either way
// the machine carries on the state's journal and the files it names, while
// the answer names the files read for this open: the firmware and the
// state file, and what a replayed journal read.
func (h *Host) openState(ctx context.Context, a OpenArgs) (Opened, error) {
	k, err := kindNamed(string(a.Machine))
	if err != nil {
		return Opened{}, err
	}
	switch {
	case a.CRTC != nil:
		return Opened{}, fmt.Errorf("argument \"crtc\" is given with \"state\": a state file stands its machine up with the 6845 it was kept with")
	case a.SixtyHz != nil:
		return Opened{}, fmt.Errorf("argument \"sixty_hz\" is given with \"state\": a state file stands its machine up with the links it was kept with")
	case a.Snapshot != "" || a.SnapshotSHA256 != "":
		return Opened{}, fmt.Errorf("arguments \"snapshot\" and \"state\" are both given: a machine is stood up from one or the other")
	}
	file, sf, err := readState(a.State)
	if err != nil {
		return Opened{}, err
	}
	m, files, err := h.fromState(ctx, k, file, sf)
	if err != nil {
		return Opened{}, fmt.Errorf("state file %s: %w", quote.Path(file.Path), err)
	}
	h.register(m)
	by := "fields"
	if sf.line.Build != h.opts.Build {
		by = "journal"
	}
	return Opened{
		Handle: m.handle, Machine: k.name, CRTC: m.crtcOut(), Tick: m.m.Tick(), Files: files,
		State: &StateOpened{Build: sf.line.Build, By: by, Tick: sf.line.Tick, Journal: len(sf.line.Journal)},
	}, nil
}

// fromState builds the machine a state file read as file holds, without
// a handle, and answers it with the files read to build it.
func (h *Host) fromState(ctx context.Context, k *kind, file File, sf *stateFile) (*Machine, []File, error) {
	l := &sf.line
	if l.Machine != k.name {
		return nil, nil, fmt.Errorf("it holds a %s, and argument \"machine\" is %s", quote.String(l.Machine), k.name)
	}
	var first openEntry
	if err := json.Unmarshal(l.Journal[0].Arguments, &first); err != nil || first.Machine != k.name {
		return nil, nil, fmt.Errorf("its journal begins with a machine_open of another machine than its %s", k.name)
	}
	ct := 0
	switch {
	case k.cpc && l.CRTC == nil:
		return nil, nil, fmt.Errorf("it names no 6845 type, which a %s's state does", k.name)
	case k.cpc && (*l.CRTC < 0 || *l.CRTC >= crtc.Types):
		return nil, nil, fmt.Errorf("its 6845 is of type %d; a 6845 is of type 0 to %d", *l.CRTC, crtc.Types-1)
	case k.cpc:
		ct = *l.CRTC
	case l.CRTC != nil:
		return nil, nil, fmt.Errorf("it names a 6845 type, and a %s has no 6845", k.name)
	}

	// The firmware, read now, is the state's, by its hash (KEEP-14).
	var kept []File
	for _, f := range l.Files {
		if f.Kind == "firmware" {
			kept = append(kept, f)
		}
	}
	if len(kept) != len(k.Firmware) {
		return nil, nil, fmt.Errorf("it names %d firmware images; a %s is built from %d", len(kept), k.name, len(k.Firmware))
	}
	var files []File
	var fw [][]byte
	for i, socket := range k.Firmware {
		f, err := h.opts.Firmware.Load(socket.Image)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", k.name, err)
		}
		if f.SHA256 != kept[i].SHA256 {
			return nil, nil, fmt.Errorf("it was kept on firmware %s of SHA-256 %s, and this server's %s has SHA-256 %s: a state is opened only on the firmware it was kept on", quote.Path(kept[i].Path), kept[i].SHA256, quote.Path(f.Path), f.SHA256)
		}
		files = append(files, File{Kind: "firmware", Path: f.Path, SHA256: f.SHA256})
		fw = append(fw, f.Data)
	}
	files = append(files, file)

	if l.Build != h.opts.Build {
		// Another build's names may mean other things: its journal makes
		// the machine again.
		m, read, err := h.rebuild(ctx, k, l)
		if err != nil {
			return nil, nil, fmt.Errorf("it was written by build %s, and this is %s: %w", l.Build, h.opts.Build, err)
		}
		return m, append(files, read...), nil
	}
	mm, err := standState(k, ct, fw, sf)
	if err != nil {
		return nil, nil, err
	}
	m := h.newMachine(k, ct, mm, l.Files)
	m.journal = l.Journal
	return m, files, nil
}
