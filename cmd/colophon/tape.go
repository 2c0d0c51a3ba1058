package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"colophon/internal/machine"
	"colophon/internal/machine/catalogue"
	"colophon/internal/media/tape"
)

// insertTape puts the tape --tape names in the machine's deck, at the tick
// the machine stands at, before anything runs: at power-on for boot, at
// the snapshot's tick for run. A Spectrum's deck presses PLAY then; a
// CPC's tape moves once the firmware runs its motor (spec, "Discs and
// tapes"; DT-16). The file is told by its name's ending, as the machine's
// deck takes it: .tzx or .tap on a Spectrum, .cdt or .tzx on a CPC.
func insertTape(m cliMachine, o *runOptions) error {
	if o.tape == "" {
		return nil
	}
	deck, ok := m.(machine.TapeDeck)
	medium, err := o.kind.Medium(catalogue.Tape)
	if err != nil || !ok {
		return fmt.Errorf("--tape: %s has no cassette deck in this build", o.kind.Name)
	}
	ext := strings.ToLower(filepath.Ext(o.tape))
	if !slices.Contains(medium.Extensions, ext) {
		return usage("--tape %s: %s takes %s (%s)", o.tape, o.kind.Name, strings.Join(medium.Extensions, " or "), medium.Formats)
	}
	b, err := readMedium(o.tape, medium.File)
	if err != nil {
		return fmt.Errorf("--tape: %w", err)
	}
	format := tape.TZX
	if ext == ".tap" {
		format = tape.TAP
	}
	t, err := tape.Open(format, b)
	if err != nil {
		return fmt.Errorf("--tape %s: %w", o.tape, err)
	}
	deck.InsertTape(t)
	return nil
}
