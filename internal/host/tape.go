package host

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"colophon/internal/machine"
	"colophon/internal/machine/catalogue"
	"colophon/internal/media/tape"
	"colophon/internal/quote"
)

// TapeInsertArgs are tape_insert's arguments.
type TapeInsertArgs struct {
	Handle string `json:"handle" jsonschema:"the machine whose deck takes the tape" maxLength:"64"`
	Path   string `json:"path" jsonschema:"the tape file: a .tzx on either machine, a .cdt on a CPC, a .tap on a Spectrum; at most 16MB. A relative path is read from the server's working directory." maxLength:"4096"`
	SHA256 string `json:"sha256,omitempty" jsonschema:"the SHA-256 the file must have, in hex, as the journal names it; the tape is refused if the file holds anything else" maxLength:"64"`
}

// TapeInserted is tape_insert's answer.
type TapeInserted struct {
	Handle string `json:"handle" jsonschema:"the machine"`
	File   File   `json:"file" jsonschema:"the file read, by its absolute path and the SHA-256 of what it held"`
	Tick   uint64 `json:"tick" jsonschema:"the machine's tick at which the tape went in"`
	ReadAs string `json:"read_as" jsonschema:"how the file was read: TZX (a .tzx or .cdt) or TAP"`
	Blocks int    `json:"blocks" jsonschema:"the blocks the tape holds"`
}

// tapeEntry is tape_insert as the journal enters it: the file by its
// absolute path and its SHA-256 (spec, "The journal"; J-3).
type tapeEntry struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}

// TapeInsert puts a tape in a machine's deck at its tick, rewound, in
// place of any tape there (spec, "Discs and tapes"; DT-1, DT-16). The file
// is read whole, checked whole, and copied into the machine; nothing the
// machine does reaches the file (DT-2). A Spectrum's deck presses PLAY as
// the tape goes in; a CPC's tape moves once its motor runs. A refused
// request leaves the deck as it was.
func (h *Host) TapeInsert(ctx context.Context, a TapeInsertArgs) (TapeInserted, error) {
	return with(h, ctx, a.Handle, func(m *Machine) (TapeInserted, error) {
		deck, ok := m.m.(machine.TapeDeck)
		medium, err := m.kind.Medium(catalogue.Tape)
		if err != nil || !ok {
			return TapeInserted{}, fmt.Errorf("machine %s: %s has no cassette deck in this build", m.handle, m.kind.name)
		}
		if a.Path == "" {
			return TapeInserted{}, fmt.Errorf("argument \"path\" is missing: the tape file, %s", extensions(medium))
		}
		want, err := sha256Given("sha256", a.SHA256)
		if err != nil {
			return TapeInserted{}, err
		}
		format, err := tapeFormat(a.Path, m.kind.name, medium)
		if err != nil {
			return TapeInserted{}, err
		}
		f, b, err := readInput("tape", a.Path, ruleOf(medium.File))
		if err != nil {
			return TapeInserted{}, err
		}
		if want != "" && want != f.SHA256 {
			return TapeInserted{}, fmt.Errorf("tape %s has SHA-256 %s, not %s as sha256 asks: the file has changed", quote.Path(f.Path), f.SHA256, want)
		}
		tp, err := tape.Open(format, b)
		if err != nil {
			return TapeInserted{}, fmt.Errorf("tape %s is refused, read as a %s: %w", quote.Path(f.Path), format, err)
		}
		tick := m.m.Tick()
		deck.InsertTape(tp)
		m.enter("tape_insert", tick, tapeEntry{Path: f.Path, SHA256: f.SHA256})
		return TapeInserted{Handle: m.handle, File: f, Tick: tick, ReadAs: format.String(), Blocks: tp.Blocks()}, nil
	})
}

// tapeFormat tells a tape file's format by its name's ending, as the
// machine's deck takes them: a .tap is read as a TAP, a .tzx and a .cdt as
// a TZX (DT-16).
func tapeFormat(path, name string, medium *catalogue.Medium) (tape.Format, error) {
	ext := strings.ToLower(filepath.Ext(path))
	if !slices.Contains(medium.Extensions, ext) {
		what := "has no ending"
		if ext != "" {
			what = "is a " + quote.Raw(ext)
		}
		return 0, fmt.Errorf("argument \"path\": %s %s; %s takes %s", quote.Path(filepath.Base(path)), what, name, extensions(medium))
	}
	if ext == ".tap" {
		return tape.TAP, nil
	}
	return tape.TZX, nil
}

// extensions says what files a deck takes.
func extensions(medium *catalogue.Medium) string {
	return strings.Join(medium.Extensions, " or ") + " (" + medium.Formats + ")"
}
