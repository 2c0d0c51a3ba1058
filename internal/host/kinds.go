package host

import (
	"fmt"
	"strings"

	"colophon/internal/machine/catalogue"
	"colophon/internal/quote"
	"colophon/internal/screentext"
)

// A kind is a machine machine_open can build, as the catalogue lists it,
// by the name the emulator's command line gives it and wired as the
// command line wires it (spec, "What it answers"; W-5).
type kind struct {
	*catalogue.Machine
	name string
	// cpc is set for the Amstrads: a 6845 of a type, memory named by
	// which ROM or RAM answered (PP-3), and RAM by its own addresses.
	cpc bool
	// snapshot is how long a snapshot it is stood up from may be.
	snapshot sizeRule
	// matrixVars is where a CPC's firmware keeps the state of its
	// user-defined matrix table (screentext.MatrixVars464 and 6128).
	matrixVars uint16
}

// kinds lists the machines in the catalogue's order: the three CPCs, then
// the Spectrum.
var kinds = func() []*kind {
	ks := make([]*kind, len(catalogue.Machines))
	for i, m := range catalogue.Machines {
		ks[i] = &kind{Machine: m, name: m.Name, cpc: m.CPC, snapshot: ruleOf(m.Snapshot), matrixVars: screentext.MatrixVars6128}
		if m.Name == "cpc464" { // the firmware V1.0
			ks[i].matrixVars = screentext.MatrixVars464
		}
	}
	return ks
}()

// ruleOf is a catalogue's limit on a file as the host reads files by it.
func ruleOf(l catalogue.Limit) sizeRule {
	return sizeRule{most: l.Most, exact: l.Exact, why: l.Why}
}

// kindNamed finds a kind by its name.
func kindNamed(name string) (*kind, error) {
	for _, k := range kinds {
		if strings.EqualFold(k.name, name) { // CPC6128 is cpc6128
			return k, nil
		}
	}
	return nil, fmt.Errorf("argument \"machine\" is %s; it must be one of %s", quote.String(name), strings.Join(MachineNames(), ", "))
}

// MachineNames lists the names machine_open takes.
func MachineNames() []string { return catalogue.Names() }
