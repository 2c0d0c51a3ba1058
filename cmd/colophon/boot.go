package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"colophon/internal/firmware"
	"colophon/internal/machine"
	"colophon/internal/machine/catalogue"
	"colophon/internal/typing"
)

func init() {
	register(&command{
		name:    "boot",
		args:    "--machine NAME [OPTIONS]",
		summary: "start a machine from power-on, run it, type at it, and write its picture or snapshot",
		doc: `boot stands a machine up from power-on with its firmware, runs --frames
frames, types --type, runs --wait frames more, and then writes what it is asked
for. A frame is counted as the ticks of a standard frame: 69888 on a Spectrum,
79872 on a CPC.

` + machineOptionsDoc,
		run: runBoot,
	})
}

// machineOptionsDoc describes the options boot and run share.
const machineOptionsDoc = `  --machine NAME      the machine to build; there is no default:
                        spectrum48  Sinclair ZX Spectrum 48K
                        cpc464, cpc664, cpc6128  the Amstrad CPCs
  --roms DIR          the firmware directory (default: $COLOPHON_ROMS, else
                      roms beside the program, else ./roms)
  --frames N          frames to run before typing (default: the firmware's
                      start-up wait, 128 on a Spectrum and 78 on a CPC)
  --type TEXT         type this, each key held 3 frames and let go 3 on a CPC,
                      6 on a Spectrum; escapes: \n Return/Enter, \t Tab,
                      \e Esc, \b Del, \\ backslash
  --wait N            frames to run after typing (default 0)
  --screenshot F.png  write the monitor's picture here as a paletted PNG
  --save F.sna        write the machine here as a snapshot
  --tape FILE         put this tape in the deck before anything runs: a
                      .tzx, or a .tap on a Spectrum, a .cdt on a CPC. A
                      Spectrum's deck plays it from then on (type j"" and
                      ENTER to LOAD ""); a CPC's once its firmware runs the
                      motor (RUN" and a key; |TAPE first on a 664 or 6128)
  --disc F.dsk        put this DSK image in drive A at power-on (or once the
                      snapshot is loaded), a copy: the file is never written
  --disc-b F.dsk      and this one in drive B
  --save-disc F.dsk   write drive A's disc here at the end, as an extended DSK
  A file is written only where no file is.

  A CPC alone takes --sixty-hz, --full-raster and --no-double; a cpc664 and
  a cpc6128 alone take discs.`

// runOptions are the options boot and run take.
type runOptions struct {
	kind       *catalogue.Machine
	roms       string
	frames     uint64
	text       string // unescaped
	typed      bool   // --type was given
	wait       uint64
	screenshot string
	save       string

	// A CPC's own.
	sixtyHz, fullRaster, noDouble bool
	disc, discB, saveDisc         string

	// tape is the tape --tape puts in the deck before anything runs.
	tape string
}

// cpcOnly names the options only a CPC takes, and why.
var cpcOnly = []struct{ flag, why string }{
	{"sixty-hz", "a CPC's refresh link"},
	{"full-raster", "a CPC's whole raster"},
	{"no-double", "a CPC's lines drawn once"},
}

// parseRunOptions parses the options, with positional arguments allowed
// among them; it returns the positional ones.
func parseRunOptions(name string, args []string) (*runOptions, []string, error) {
	o := &runOptions{}
	flags := flag.NewFlagSet(name, flag.ContinueOnError)
	flags.SetOutput(io.Discard)
	var machineName, frames, wait, text string
	flags.StringVar(&machineName, "machine", "", "")
	flags.StringVar(&o.roms, "roms", "", "")
	flags.StringVar(&frames, "frames", "", "")
	flags.StringVar(&text, "type", "", "")
	flags.StringVar(&wait, "wait", "0", "")
	flags.StringVar(&o.screenshot, "screenshot", "", "")
	flags.StringVar(&o.save, "save", "", "")
	flags.BoolVar(&o.sixtyHz, "sixty-hz", false, "")
	flags.BoolVar(&o.fullRaster, "full-raster", false, "")
	flags.BoolVar(&o.noDouble, "no-double", false, "")
	flags.StringVar(&o.disc, "disc", "", "")
	flags.StringVar(&o.discB, "disc-b", "", "")
	flags.StringVar(&o.saveDisc, "save-disc", "", "")
	flags.StringVar(&o.tape, "tape", "", "")

	var positional []string
	for {
		if err := flags.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, nil, flag.ErrHelp
			}
			return nil, nil, usage("%v", err)
		}
		if flags.NArg() == 0 {
			break
		}
		positional = append(positional, flags.Arg(0))
		args = flags.Args()[1:]
	}
	set := map[string]bool{}
	flags.Visit(func(f *flag.Flag) { set[f.Name] = true })

	if machineName == "" {
		return nil, nil, usage("--machine is required; there is no default (spectrum48, cpc464, cpc664 or cpc6128)")
	}
	k, err := machineNamed(machineName)
	if err != nil {
		return nil, nil, err
	}
	o.kind = k
	if !k.CPC {
		for _, c := range cpcOnly {
			if set[c.flag] {
				return nil, nil, usage("--%s is for a CPC (%s); %s has none", c.flag, c.why, k.Name)
			}
		}
	}
	if set["tape"] && o.tape == "" {
		return nil, nil, usage("--tape wants a tape file")
	}
	o.frames = k.StartFrames
	if set["frames"] {
		n, err := strconv.ParseUint(frames, 10, 64)
		if err != nil || n < 1 {
			return nil, nil, usage("--frames wants a positive number of frames, not %q", frames)
		}
		o.frames = n
	}
	if o.wait, err = strconv.ParseUint(wait, 10, 64); err != nil {
		return nil, nil, usage("--wait wants a number of frames, not %q", wait)
	}
	if set["type"] {
		o.typed = true
		if o.text, err = typing.Unescape(text); err != nil {
			return nil, nil, usage("--type: %v", err)
		}
		// A text no key types is refused before the machine is even
		// built, let alone a key pressed (KEY-10).
		if _, _, err := typing.Plan(o.text, k.Typing); err != nil {
			return nil, nil, usage("--type: %v", err)
		}
	}
	if set["screenshot"] && o.screenshot == "" {
		return nil, nil, usage("--screenshot wants a file name")
	}
	if set["save"] && o.save == "" {
		return nil, nil, usage("--save wants a file name")
	}
	if set["disc"] || set["disc-b"] || set["save-disc"] {
		// Discs go in a cpc664's or a cpc6128's drives alone (DT-12).
		if _, err := k.Medium(catalogue.Disc); err != nil {
			return nil, nil, usage("--disc, --disc-b and --save-disc: %v", err)
		}
	}
	for _, f := range []struct{ flag, path string }{{"disc", o.disc}, {"disc-b", o.discB}, {"save-disc", o.saveDisc}} {
		if set[f.flag] && f.path == "" {
			return nil, nil, usage("--%s wants a file name", f.flag)
		}
	}
	outputs := []struct{ flag, path string }{{"screenshot", o.screenshot}, {"save", o.save}, {"save-disc", o.saveDisc}}
	for i, a := range outputs {
		for _, b := range outputs[i+1:] {
			if a.path != "" && b.path != "" && filepath.Clean(a.path) == filepath.Clean(b.path) {
				return nil, nil, usage("--%s and --%s name the same file, %s", a.flag, b.flag, b.path)
			}
		}
	}
	for _, p := range outputs {
		if p.path == "" {
			continue
		}
		if _, err := os.Lstat(p.path); err == nil {
			return nil, nil, fmt.Errorf("--%s %s: a file is already there; colophon writes only where no file is", p.flag, p.path)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return nil, nil, fmt.Errorf("--%s: %w", p.flag, err)
		}
	}
	return o, positional, nil
}

func runBoot(ctx context.Context, std stdio, args []string) error {
	o, positional, err := parseRunOptions("boot", args)
	if errors.Is(err, flag.ErrHelp) {
		return runHelp(ctx, std, []string{"boot"})
	}
	if err != nil {
		return err
	}
	if len(positional) != 0 {
		return usage("boot takes no arguments but its options; got %q (colophon run takes a snapshot)", positional)
	}
	roms := firmware.Loader{Dirs: firmware.Dirs(o.roms), Fit: firmware.Prefix}
	m, err := stand(o, roms, nil)
	if err != nil {
		return err
	}
	return drive(ctx, std, m, o)
}

// drive runs a machine as the options ask: the frames, the typing, the
// wait; then it writes the snapshot and the picture. Frames are counted as
// the ticks of standard frames, as the emulator's command line counts them
// (spec, "Time"), and the typing begins where the frames end.
func drive(ctx context.Context, std stdio, m cliMachine, o *runOptions) error {
	if err := insertTape(m, o); err != nil {
		return err
	}
	if err := insertDiscs(m, o); err != nil {
		return err
	}
	var frames uint64
	last := machine.Done // how the last request ended
	runFrames := func(n uint64) error {
		// In slices of the most one request may run, so that an
		// interrupt from the terminal is heard between them.
		for n > 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
			k := min(n, machine.MaxFrames)
			last = m.RunTicks(k * m.StandardFrame()).Stop
			n -= k
			frames += k
		}
		return nil
	}
	if err := runFrames(o.frames); err != nil {
		return err
	}
	if o.typed {
		r, err := m.Type(o.text)
		if err != nil {
			return fmt.Errorf("--type: %w", err)
		}
		last = r.Stop
		frames += r.Ticks / m.StandardFrame()
	}
	if err := runFrames(o.wait); err != nil {
		return err
	}
	report := fmt.Sprintf("%s: %d frames, tick %d", m.Name(), frames, m.Tick())
	if o.saveDisc != "" {
		// Before --save, which may run on to the end of an instruction:
		// the disc as it stands where the frames end, as disc_save writes
		// it at that tick (DT-14).
		b, err := saveDisc(m)
		if err != nil {
			return fmt.Errorf("--save-disc: %w", err)
		}
		if err := writeNew(o.saveDisc, b); err != nil {
			return fmt.Errorf("--save-disc: %w", err)
		}
		report += ", disc A to " + o.saveDisc
	}
	if o.save != "" {
		if last == machine.Unsettled {
			// A snapshot has no room for a chain of prefixes: run on to
			// the end of the instruction, as the emulator's command line
			// does before it saves.
			m.Step(1)
		}
		b, err := m.Snapshot()
		if err != nil {
			return fmt.Errorf("--save: %w", err)
		}
		if err := writeNew(o.save, b); err != nil {
			return fmt.Errorf("--save: %w", err)
		}
		report += ", snapshot to " + o.save
	}
	if o.screenshot != "" {
		p := m.Picture()
		b, err := p.PNG()
		if err != nil {
			return fmt.Errorf("--screenshot: %w", err)
		}
		if err := writeNew(o.screenshot, b); err != nil {
			return fmt.Errorf("--screenshot: %w", err)
		}
		report += fmt.Sprintf(", %dx%d picture to %s", p.Width, p.Height, o.screenshot)
	}
	_, err := fmt.Fprintln(std.out, report)
	return err
}

// writeNew writes a file only where no file is (SNA-2, A-10).
func writeNew(path string, b []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		os.Remove(path)
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(path)
		return err
	}
	return nil
}
