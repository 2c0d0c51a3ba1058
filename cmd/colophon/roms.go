package main

import (
	"context"
	"errors"
	"flag"
	"io"

	"colophon/internal/firmware"
)

func init() {
	register(&command{
		name:    "roms",
		args:    "fetch [--dir DIR] [--cpc-url URL] [--spectrum-url URL]",
		summary: "fetch the five firmware images, each checked against its pinned SHA-256",
		doc: `roms fetch downloads cpc464.rom, cpc664.rom, cpc6128.rom and amsdos.rom from
Caprice32's rom/ folder, and spectrum48.rom from the Fuse emulator's roms/48.rom,
into DIR (./roms unless --dir says otherwise). Each is written to a staging file,
checked against the SHA-256 pinned for it, and only then renamed into place. An
image already there with the right digest is left alone and not fetched again.

  --dir DIR           where the images go (default roms)
  --cpc-url URL       base URL of the CPC images and AMSDOS, for a mirror
                      (default ` + firmware.Caprice32Base + `)
  --spectrum-url URL  base URL holding the Spectrum's image as 48.rom
                      (default ` + firmware.FuseBase + `)`,
		run: runRoms,
	})
}

func runRoms(ctx context.Context, std stdio, args []string) error {
	if len(args) == 0 {
		return usage("roms needs a subcommand: fetch")
	}
	if args[0] != "fetch" {
		return usage("unknown subcommand %q; roms has fetch", args[0])
	}
	fs := flag.NewFlagSet("roms fetch", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // mistakes are reported once, by run
	f := &firmware.Fetcher{Log: std.out}
	fs.StringVar(&f.Dir, "dir", "roms", "")
	fs.StringVar(&f.CPCBase, "cpc-url", firmware.Caprice32Base, "")
	fs.StringVar(&f.SpectrumBase, "spectrum-url", firmware.FuseBase, "")
	if err := fs.Parse(args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return runHelp(ctx, std, []string{"roms"})
		}
		return usage("%v", err)
	}
	if fs.NArg() != 0 {
		return usage("roms fetch takes no arguments, only flags; got %q", fs.Args())
	}
	if f.Dir == "" {
		return usage("--dir is empty")
	}
	return f.Fetch(ctx, firmware.Images)
}
