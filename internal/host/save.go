package host

import (
	"context"
	"fmt"

	"colophon/internal/machine"
)

// Saving a machine (spec, "Saving a machine"; SNA-1 to SNA-7).

// SnapshotSaveArgs are snapshot_save's arguments.
type SnapshotSaveArgs struct {
	Handle string `json:"handle" jsonschema:"the machine to write" maxLength:"64"`
	Path   string `json:"path" jsonschema:"the file to write, where no file is yet: a relative path is written from the server's working directory" maxLength:"4096"`
}

// SnapshotSaved is snapshot_save's answer.
type SnapshotSaved struct {
	Handle string `json:"handle" jsonschema:"the machine"`
	File   File   `json:"file" jsonschema:"the file written, by its absolute path and the SHA-256 of what it holds"`
	Tick   uint64 `json:"tick" jsonschema:"the machine's tick, at which the snapshot stands"`
}

// snapshotter is a machine that writes itself as the command line's --save
// does: an SNA of version 1 for a CPC, a 48K .sna for a Spectrum.
type snapshotter interface {
	Snapshot() ([]byte, error)
}

// SnapshotSave writes the machine to a new file in the format the command
// line's --save writes and machine_open reads (SNA-1 to SNA-3): the bytes
// are the machine's own Snapshot, which the command line writes too, so the
// two are one by construction. It moves nothing and is not entered in the
// journal (J-4). A snapshot has no room for a processor inside a chain of
// prefixes, where a run may leave it, so that is refused, as is a
// Spectrum's stack pointer that would push the program counter into the
// ROM; the machine stands as it stood.
func (h *Host) SnapshotSave(ctx context.Context, a SnapshotSaveArgs) (SnapshotSaved, error) {
	return with(h, ctx, a.Handle, func(m *Machine) (SnapshotSaved, error) {
		if a.Path == "" {
			return SnapshotSaved{}, fmt.Errorf("argument \"path\" is missing: the file to write the snapshot to")
		}
		s, ok := m.m.(snapshotter)
		if !ok {
			return SnapshotSaved{}, fmt.Errorf("%s cannot be written as a snapshot in this build", m.kind.name)
		}
		b, err := s.Snapshot()
		if err != nil {
			advice := "state_save keeps the machine whole"
			if p, ok := m.m.(machine.Processor); ok && p.Processor().Prefix != 0 {
				advice = "step 1 carries it to the end of the instruction, or " + advice
			}
			return SnapshotSaved{}, fmt.Errorf("machine %s at tick %d: %w; %s", m.handle, m.m.Tick(), err, advice)
		}
		f, err := writeNew("snapshot", a.Path, b)
		if err != nil {
			return SnapshotSaved{}, err
		}
		return SnapshotSaved{Handle: m.handle, File: f, Tick: m.m.Tick()}, nil
	})
}

// StateSaveArgs are state_save's arguments.
type StateSaveArgs struct {
	Handle string `json:"handle" jsonschema:"the machine" maxLength:"64"`
	State  string `json:"state,omitempty" jsonschema:"the state to write, by the name state_keep gave it: s1, s2 and on; the machine as it stands if not given" maxLength:"64"`
	Path   string `json:"path" jsonschema:"the file to write, where no file is yet: a relative path is written from the server's working directory" maxLength:"4096"`
}

// StateSaved is state_save's answer.
type StateSaved struct {
	Handle  string `json:"handle" jsonschema:"the machine"`
	State   string `json:"state,omitempty" jsonschema:"the state written, where one was named"`
	File    File   `json:"file" jsonschema:"the file written, by its absolute path and the SHA-256 of what it holds"`
	Tick    uint64 `json:"tick" jsonschema:"the tick the state stands at"`
	Build   string `json:"build" jsonschema:"the build that wrote it, the one build that opens it field by field"`
	Journal int    `json:"journal" jsonschema:"the entries of the journal the file carries, which another build makes the machine again from"`
}

// StateSave writes a state kept of the machine, or the machine as it
// stands, to a new file, which machine_open stands a machine up from in
// this server or another (KEEP-8 to KEEP-10). It moves nothing and is not
// entered in the journal (J-4).
//
// A kept state holds the machine's own pointers, so it is read as the
// machine it was kept of: the machine is kept as it stands, the state put
// back into it and written, and the machine put back as it stood, each
// sharing the pages it can, as keeping and restoring do.
func (h *Host) StateSave(ctx context.Context, a StateSaveArgs) (StateSaved, error) {
	return with(h, ctx, a.Handle, func(m *Machine) (StateSaved, error) {
		if a.Path == "" {
			return StateSaved{}, fmt.Errorf("argument \"path\" is missing: the file to write the state to")
		}
		journal := m.journal
		if a.State != "" {
			s, _, err := m.state(a.State)
			if err != nil {
				return StateSaved{}, err
			}
			now, err := keepImage(m.m, m.base)
			if err != nil {
				return StateSaved{}, err
			}
			restoreImage(s.image, now)
			m.base = s.image
			defer func() {
				restoreImage(now, m.base)
				m.base = now
			}()
			journal = s.journal
		}
		b, err := m.encodeState(h.opts.Build, journal)
		if err != nil {
			return StateSaved{}, fmt.Errorf("machine %s: %w", m.handle, err)
		}
		tick := m.m.Tick()
		f, err := writeNew("state", a.Path, b)
		if err != nil {
			return StateSaved{}, err
		}
		return StateSaved{Handle: m.handle, State: a.State, File: f, Tick: tick, Build: h.opts.Build, Journal: len(journal)}, nil
	})
}
