package main

import (
	"context"
	"errors"
	"flag"
	"fmt"

	"colophon/internal/firmware"
	"colophon/internal/machine/catalogue"
)

func init() {
	register(&command{
		name:    "run",
		args:    "SNAPSHOT.sna --machine NAME [OPTIONS]",
		summary: "stand a machine up from a snapshot, run it, type at it, and write its picture or snapshot",
		doc: `run fits the machine's firmware, loads the snapshot into it, and then runs,
types and writes as boot does; its tick counts from the snapshot. A Spectrum
takes the 48K .sna, 49179 bytes; a CPC an SNA.

` + machineOptionsDoc,
		run: runRun,
	})
}

// snapshotLimit is the most a snapshot file is read of: a CPC's SNA with
// its chunks (spec, "The files a machine is built from"; FILE-7). A
// Spectrum's machine refuses any length but its own.
var snapshotLimit = catalogue.Limit{Most: 8 << 20, Why: "no snapshot is longer than 8388608"}

func runRun(ctx context.Context, std stdio, args []string) error {
	o, positional, err := parseRunOptions("run", args)
	if errors.Is(err, flag.ErrHelp) {
		return runHelp(ctx, std, []string{"run"})
	}
	if err != nil {
		return err
	}
	if len(positional) != 1 {
		return usage("run takes one snapshot file; got %d arguments %q", len(positional), positional)
	}
	b, err := readMedium(positional[0], snapshotLimit)
	if err != nil {
		return err
	}
	roms := firmware.Loader{Dirs: firmware.Dirs(o.roms), Fit: firmware.Prefix}
	m, err := stand(o, roms, b)
	if err != nil {
		return fmt.Errorf("%s: %w", positional[0], err)
	}
	return drive(ctx, std, m, o)
}
