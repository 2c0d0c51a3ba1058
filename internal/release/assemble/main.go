// Command assemble makes the release for make: the archives and SHA256SUMS
// (make release), and the npm packages from them (make npm). It is run from
// the module's root.
//
// Usage:
//
//	go run ./internal/release/assemble archives -out DIR -roms DIR -license FILE
//	    -stamp colophon-mcp=FLAGS -stamp colophon=FLAGS -stamp pidp10-mcp=FLAGS
//	    [-platforms "linux/amd64 ..."]
//	go run ./internal/release/assemble npm -out DIR [-platforms "linux/amd64 ..."]
//
// Each -stamp is the -X flags internal/build/stamp gives for that program,
// so that the programs carry the build's name as make build's do. The
// archives' times are $SOURCE_DATE_EPOCH, or else HEAD's commit time.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"time"

	"colophon/internal/build"
	"colophon/internal/release"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:]); err != nil {
		fmt.Fprintf(os.Stderr, "assemble: %v\n", err)
		os.Exit(1)
	}
}

// stamps collects -stamp PROGRAM=FLAGS.
type stamps map[string]string

func (s stamps) String() string { return fmt.Sprint(map[string]string(s)) }

func (s stamps) Set(v string) error {
	prog, flags, ok := strings.Cut(v, "=")
	if !ok || prog == "" {
		return fmt.Errorf("want PROGRAM=FLAGS, got %q", v)
	}
	s[prog] = flags
	return nil
}

func run(ctx context.Context, args []string) error {
	if len(args) == 0 {
		return errors.New("usage: assemble archives|npm [flags]")
	}
	if _, err := os.Stat("go.mod"); err != nil {
		return fmt.Errorf("run assemble from the module's root: %w", err)
	}
	fs := flag.NewFlagSet("assemble "+args[0], flag.ContinueOnError)
	out := fs.String("out", "dist", "where the archives, SHA256SUMS and npm/ go")
	platforms := fs.String("platforms", "", "the platforms, GOOS/GOARCH separated by spaces (default all six)")
	start := time.Now()
	switch args[0] {
	case "archives":
		roms := fs.String("roms", "roms", "the firmware directory")
		license := fs.String("license", "LICENSE", "the project's licence file")
		st := stamps{}
		fs.Var(st, "stamp", "PROGRAM=FLAGS, the -X flags internal/build/stamp gives the program (once for each)")
		if err := parse(fs, args[1:]); err != nil {
			return err
		}
		ps, err := parsePlatforms(*platforms)
		if err != nil {
			return err
		}
		mtime, err := release.CommitTime(".")
		if err != nil {
			return err
		}
		_, err = release.Archives(ctx, release.Options{
			Root: ".", Out: *out, ROMs: *roms, License: *license, Platforms: ps,
			Version: build.Version, Stamps: st, MTime: mtime, Log: os.Stdout,
		})
		if err != nil {
			return err
		}
	case "npm":
		if err := parse(fs, args[1:]); err != nil {
			return err
		}
		ps, err := parsePlatforms(*platforms)
		if err != nil {
			return err
		}
		_, err = release.NPM(ctx, release.NPMOptions{Root: ".", Out: *out, Platforms: ps, Version: build.Version, Log: os.Stdout})
		if err != nil {
			return err
		}
	default:
		return fmt.Errorf("unknown step %q: assemble has archives and npm", args[0])
	}
	fmt.Printf("assemble %s: %.1fs\n", args[0], time.Since(start).Seconds())
	return nil
}

// parse parses the step's flags, which take no other arguments.
func parse(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	return nil
}

func parsePlatforms(s string) ([]release.Platform, error) {
	if strings.TrimSpace(s) == "" {
		return release.Platforms, nil
	}
	var ps []release.Platform
	for _, f := range strings.Fields(s) {
		p, err := release.ParsePlatform(f)
		if err != nil {
			return nil, err
		}
		ps = append(ps, p)
	}
	return ps, nil
}
