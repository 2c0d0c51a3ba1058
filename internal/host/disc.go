package host

import (
	"context"
	"fmt"
	"strings"

	"colophon/internal/machine"
	"colophon/internal/machine/catalogue"
	"colophon/internal/quote"
)

// Discs (spec, "Discs and tapes"; DT-1 to DT-12, FILE-2).

// DiscInsertArgs are disc_insert's arguments.
type DiscInsertArgs struct {
	Handle       string `json:"handle" jsonschema:"the machine: a cpc664 or a cpc6128" maxLength:"64"`
	Path         string `json:"path" jsonschema:"the DSK file to put in, of the original layout (MV - CPCEMU) or the extended one (EXTENDED CPC DSK), 16MB at most. A relative path is read from the server's working directory." maxLength:"4096"`
	Drive        string `json:"drive,omitempty" jsonschema:"the drive, A or B; A if not given" maxLength:"1"`
	WriteProtect bool   `json:"write_protect,omitempty" jsonschema:"put the disc in with its write-protect tab set: the drive reports it and the disc controller writes and formats nothing on it"`
	SHA256       string `json:"sha256,omitempty" jsonschema:"the SHA-256 the file must have, in hex, as the journal names it; the disc is refused if the file holds anything else" maxLength:"64"`
}

// DiscInserted is disc_insert's answer.
type DiscInserted struct {
	Handle       string `json:"handle" jsonschema:"the machine"`
	Drive        string `json:"drive" jsonschema:"the drive the disc went in: A or B"`
	File         File   `json:"file" jsonschema:"the file read, by its absolute path and the SHA-256 of what it held"`
	Tick         uint64 `json:"tick" jsonschema:"the machine's tick as the disc went in"`
	WriteProtect bool   `json:"write_protect" jsonschema:"whether its write-protect tab is set"`
}

// discInsertEntry is disc_insert as the journal enters it: the file by its
// absolute path and its SHA-256 (J-3).
type discInsertEntry struct {
	Path         string `json:"path"`
	SHA256       string `json:"sha256"`
	Drive        string `json:"drive"`
	WriteProtect bool   `json:"write_protect,omitempty"`
}

// discs answers the disc drives of a machine, and the catalogue's word on
// them, or why it has none: a Spectrum or a cpc464, refused by name
// (DT-12).
func (m *Machine) discs() (machine.Discs, *catalogue.Medium, error) {
	medium, err := m.kind.Medium(catalogue.Disc)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", m.handle, err)
	}
	d, ok := m.m.(machine.Discs)
	if !ok {
		return nil, nil, fmt.Errorf("%s offers no disc drives in this build", m.kind.name)
	}
	return d, medium, nil
}

// drive reads the drive an argument names.
func driveArg(medium *catalogue.Medium, name string) (int, string, error) {
	n, err := medium.Slot(name)
	if err != nil {
		return 0, "", fmt.Errorf("argument \"drive\" is %s; the drives are %s", quote.String(name), strings.Join(medium.Slots, " and "))
	}
	return n, medium.Slots[n], nil
}

// DiscInsert reads a DSK file whole and puts a copy of it in a drive at the
// machine's tick, taking out the disc there and what was written to it
// (DT-1 to DT-6). The file is never written. The request is entered in
// the journal with the file's SHA-256.
func (h *Host) DiscInsert(ctx context.Context, a DiscInsertArgs) (DiscInserted, error) {
	return with(h, ctx, a.Handle, func(m *Machine) (DiscInserted, error) {
		d, medium, err := m.discs()
		if err != nil {
			return DiscInserted{}, err
		}
		n, name, err := driveArg(medium, a.Drive)
		if err != nil {
			return DiscInserted{}, err
		}
		if a.Path == "" {
			return DiscInserted{}, fmt.Errorf("argument \"path\" is missing: the DSK file to put in drive %s", name)
		}
		want, err := sha256Given("sha256", a.SHA256)
		if err != nil {
			return DiscInserted{}, err
		}
		f, b, err := readInput(catalogue.Disc, a.Path, ruleOf(medium.File))
		if err != nil {
			return DiscInserted{}, err
		}
		if want != "" && want != f.SHA256 {
			return DiscInserted{}, fmt.Errorf("disc %s has SHA-256 %s, not %s as sha256 asks: the file has changed", quote.Path(f.Path), f.SHA256, want)
		}
		tick := m.m.Tick()
		if err := d.InsertDisc(n, b, a.WriteProtect); err != nil {
			return DiscInserted{}, fmt.Errorf("disc %s is refused: %w", quote.Path(f.Path), err)
		}
		m.enter("disc_insert", tick, discInsertEntry{Path: f.Path, SHA256: f.SHA256, Drive: name, WriteProtect: a.WriteProtect})
		return DiscInserted{Handle: m.handle, Drive: name, File: f, Tick: tick, WriteProtect: a.WriteProtect}, nil
	})
}

// DiscSaveArgs are disc_save's arguments.
type DiscSaveArgs struct {
	Handle string `json:"handle" jsonschema:"the machine" maxLength:"64"`
	Path   string `json:"path" jsonschema:"the file to write, where no file is yet: a relative path is written from the server's working directory" maxLength:"4096"`
	Drive  string `json:"drive,omitempty" jsonschema:"the drive whose disc to write, A or B; A if not given" maxLength:"1"`
}

// DiscSaved is disc_save's answer.
type DiscSaved struct {
	Handle  string `json:"handle" jsonschema:"the machine"`
	Drive   string `json:"drive" jsonschema:"the drive whose disc was written"`
	File    File   `json:"file" jsonschema:"the file written, by its absolute path and the SHA-256 of what it holds"`
	Tick    uint64 `json:"tick" jsonschema:"the machine's tick, at which the disc stands as written"`
	Written bool   `json:"written" jsonschema:"whether the machine has written to the disc since it went in"`
}

// DiscSave writes the disc in a drive to a new file as an extended DSK,
// as it stands at the machine's tick, as the command line's --save-disc
// writes it; it moves nothing and is not entered in the journal (DT-9 to
// DT-11, J-4).
func (h *Host) DiscSave(ctx context.Context, a DiscSaveArgs) (DiscSaved, error) {
	return with(h, ctx, a.Handle, func(m *Machine) (DiscSaved, error) {
		d, medium, err := m.discs()
		if err != nil {
			return DiscSaved{}, err
		}
		n, name, err := driveArg(medium, a.Drive)
		if err != nil {
			return DiscSaved{}, err
		}
		if a.Path == "" {
			return DiscSaved{}, fmt.Errorf("argument \"path\" is missing: the file to write drive %s's disc to", name)
		}
		b, written, err := d.SaveDisc(n)
		if err != nil {
			return DiscSaved{}, fmt.Errorf("%s: %w", m.handle, err)
		}
		f, err := writeNew(catalogue.Disc, a.Path, b)
		if err != nil {
			return DiscSaved{}, err
		}
		return DiscSaved{Handle: m.handle, Drive: name, File: f, Tick: m.m.Tick(), Written: written}, nil
	})
}
