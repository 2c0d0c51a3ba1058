package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"colophon/internal/firmware"
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

// maxSnapshot is the most a snapshot file is read of: a CPC's SNA with its
// chunks (spec, "The files a machine is built from"; FILE-7). A Spectrum's
// machine refuses any length but its own.
const maxSnapshot = 8 << 20

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
	b, err := readSnapshot(positional[0])
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

// readSnapshot reads a snapshot file whole. Anything but a regular file is
// refused unread, and so is a file longer than any snapshot (FILE-6,
// FILE-7).
func readSnapshot(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	if fi.Size() > maxSnapshot {
		return nil, fmt.Errorf("%s is %d bytes; no snapshot is longer than %d", path, fi.Size(), maxSnapshot)
	}
	b, err := io.ReadAll(io.LimitReader(f, maxSnapshot+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if len(b) > maxSnapshot {
		return nil, fmt.Errorf("%s grew past %d bytes as it was read", path, maxSnapshot)
	}
	return b, nil
}
