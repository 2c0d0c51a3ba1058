package main

import (
	"fmt"
	"io"
	"os"

	"colophon/internal/chip/monitor"
	"colophon/internal/firmware"
	"colophon/internal/machine"
	"colophon/internal/machine/catalogue"
)

// cliMachine is a machine as the command line drives it.
type cliMachine interface {
	machine.Machine
	Snapshot() ([]byte, error)
}

// machineNamed finds the machine --machine names in the catalogue.
func machineNamed(name string) (*catalogue.Machine, error) {
	k, err := catalogue.Named(name)
	if err != nil {
		return nil, usage("%v; --machine takes one of them", err)
	}
	return k, nil
}

// stand stands the machine the options name up, as the catalogue wires it:
// its firmware read from the firmware directory, in the sockets the
// catalogue gives, a CPC's 6845 of type 0 (spec, "What it answers": "of
// type 0, the first CPCs' type, where it is given none"), its refresh link
// and its picture's cut as --sixty-hz, --full-raster and --no-double ask,
// and a snapshot, if given, loaded once the firmware is fitted.
func stand(o *runOptions, roms firmware.Loader, snapshot []byte) (cliMachine, error) {
	k := o.kind
	fw := make([][]byte, len(k.Firmware))
	for i, socket := range k.Firmware {
		f, err := roms.Load(socket.Image)
		if err != nil {
			return nil, err
		}
		fw[i] = f.Data
	}
	m, err := k.Build(catalogue.Config{
		Firmware: fw,
		SixtyHz:  o.sixtyHz,
		View:     monitor.View{Full: o.fullRaster, Single: o.noDouble},
		Snapshot: snapshot,
	})
	if err != nil {
		return nil, err
	}
	cm, ok := m.(cliMachine)
	if !ok {
		return nil, fmt.Errorf("%s cannot be written as a snapshot in this build", k.Name)
	}
	return cm, nil
}

// insertDiscs puts the discs --disc and --disc-b name in drives A and B, at
// the machine's tick: power-on, or the snapshot's.
func insertDiscs(m cliMachine, o *runOptions) error {
	for drive, path := range []string{o.disc, o.discB} {
		if path == "" {
			continue
		}
		flag := [2]string{"--disc", "--disc-b"}[drive]
		d, ok := m.(machine.Discs)
		if !ok {
			return fmt.Errorf("%s: %s has no disc drives in this build", flag, m.Name())
		}
		b, err := readMedium(path, catalogue.MediaLimit)
		if err != nil {
			return fmt.Errorf("%s: %w", flag, err)
		}
		if err := d.InsertDisc(drive, b, false); err != nil {
			return fmt.Errorf("%s %s: %w", flag, path, err)
		}
	}
	return nil
}

// saveDisc writes drive A's disc as disc_save does.
func saveDisc(m cliMachine) ([]byte, error) {
	d, ok := m.(machine.Discs)
	if !ok {
		return nil, fmt.Errorf("%s has no disc drives in this build", m.Name())
	}
	b, _, err := d.SaveDisc(0)
	return b, err
}

// readMedium reads a disc, tape or snapshot file whole. Anything but a
// regular file is refused unread, and so is a file past the limit (FILE-6,
// FILE-7).
func readMedium(path string, limit catalogue.Limit) ([]byte, error) {
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
	if fi.Size() > limit.Most {
		return nil, fmt.Errorf("%s is %d bytes; %s", path, fi.Size(), limit.Why)
	}
	b, err := io.ReadAll(io.LimitReader(f, limit.Most+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if int64(len(b)) > limit.Most {
		return nil, fmt.Errorf("%s grew past %d bytes as it was read", path, limit.Most)
	}
	return b, nil
}
