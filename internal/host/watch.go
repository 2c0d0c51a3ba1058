package host

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"colophon/internal/machine"
	"colophon/internal/watch"
)

// Conditions are the arguments run and call share for stopping and
// watching (spec, "Stopping and watching"; A-5).
type Conditions struct {
	Until      []Condition `json:"until,omitempty" jsonschema:"stop at the first match of any of these"`
	Gather     []Condition `json:"gather,omitempty" jsonschema:"list the matches of these, stopping once the list fills"`
	GatherLast []Condition `json:"gather_last,omitempty" jsonschema:"keep the last matches of these, running on as though nothing filled"`
	Count      []Condition `json:"count,omitempty" jsonschema:"count the matches of these by place"`
	CountBy    string      `json:"count_by,omitempty" jsonschema:"how count counts: address (the place matched, the default), pc (where the instruction that made it begins) or range (places that follow one another, folded)"`
	Path       string      `json:"path,omitempty" jsonschema:"write what gather, gather_last and count find to a new JSON Lines file here instead of the answer"`
	PathSHA256 string      `json:"path_sha256,omitempty" jsonschema:"the SHA-256 the file must hold, in hex, as the journal names it; a file that holds anything else is taken away and the request refused"`
}

// conditionsEntry is what the journal keeps of the conditions: each in its
// normal form, the path absolute, and the file named by what it holds
// (J-3).
type conditionsEntry struct {
	Until      []conditionEntry `json:"until,omitempty"`
	Gather     []conditionEntry `json:"gather,omitempty"`
	GatherLast []conditionEntry `json:"gather_last,omitempty"`
	Count      []conditionEntry `json:"count,omitempty"`
	CountBy    string           `json:"count_by,omitempty"`
	Path       string           `json:"path,omitempty"`
	PathSHA256 string           `json:"path_sha256,omitempty"`
}

// Written is a file a run or a call wrote (PATH-3).
type Written struct {
	Path   string      `json:"path" jsonschema:"the file's absolute path"`
	SHA256 string      `json:"sha256" jsonschema:"the SHA-256 of what it holds, in lower-case hex"`
	Lines  watch.Lines `json:"lines" jsonschema:"how many lines each list holds, in the order the file holds them"`
}

// The stops conditions make.
const (
	stopUntil     = "until"     // at the first match of until
	stopFull      = "full"      // a gathering or a count filled
	stopCancelled = "cancelled" // the client cancelled the request
)

// watching is a run's or a call's conditions, read and checked, with the
// file made for them, until the request is done.
type watching struct {
	opts  watch.Options
	entry conditionsEntry
	any   bool
	file  *os.File
	abs   string
	eng   *watch.Engine
}

// watching reads and checks the conditions of a request, and makes its
// file, where it has one, only where nothing is. It is the last check a
// request makes before it runs: a request it refuses leaves the machine,
// and the file system, as they were (PATH-6).
func (m *Machine) watching(c Conditions) (*watching, error) {
	w := &watching{}
	var err error
	if w.opts.Until, w.entry.Until, err = m.conditions("until", c.Until, true); err != nil {
		return nil, err
	}
	if len(c.Gather) > 0 && len(c.GatherLast) > 0 {
		return nil, errors.New(`arguments "gather" and "gather_last" are both given; a run gathers one way, listing until the list fills, or keeping the last matches`)
	}
	if w.opts.Gather, w.entry.Gather, err = m.conditions("gather", c.Gather, true); err != nil {
		return nil, err
	}
	if len(c.GatherLast) > 0 {
		if w.opts.Gather, w.entry.GatherLast, err = m.conditions("gather_last", c.GatherLast, true); err != nil {
			return nil, err
		}
		w.opts.Last = true
	}
	if w.opts.Count, w.entry.Count, err = m.conditions("count", c.Count, false); err != nil {
		return nil, err
	}
	if c.CountBy != "" {
		if len(c.Count) == 0 {
			return nil, errors.New(`argument "count_by" is given without "count", the conditions it counts`)
		}
		by, ok := watch.ByNamed(c.CountBy)
		if !ok {
			return nil, fmt.Errorf("argument \"count_by\" is %q; a count is by address, pc or range", clip(c.CountBy))
		}
		w.opts.By = by
		w.entry.CountBy = by.String()
	}
	w.opts.CPC = m.kind.cpc
	w.any = len(w.opts.Until)+len(w.opts.Gather)+len(w.opts.Count) > 0
	if c.PathSHA256 != "" && c.Path == "" {
		return nil, errors.New(`argument "path_sha256" is given without "path", the file it names`)
	}
	if c.Path == "" {
		return w, nil
	}
	if len(w.opts.Gather) == 0 && len(w.opts.Count) == 0 {
		return nil, errors.New(`argument "path" is given, but nothing is gathered or counted to write there: path is for gather, gather_last and count`)
	}
	w.opts.File = true
	abs, wd, err := absolute(c.Path)
	if err != nil {
		return nil, err
	}
	f, err := os.OpenFile(abs, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("argument \"path\": %s: a file is already there, and no tool writes over one", abs)
	}
	if err != nil {
		return nil, fmt.Errorf("argument \"path\": %s cannot be made (the server's working directory is %s): %w", abs, wd, err)
	}
	w.file, w.abs = f, abs
	w.entry.Path, w.entry.PathSHA256 = abs, strings.ToLower(c.PathSHA256)
	return w, nil
}

// start sets the engine watching the machine, if anything is watched;
// before says whether the machine stands at an instruction a run was
// stopped before (CB-5). stop takes it away again.
func (w *watching) start(m *Machine) error {
	if !w.any {
		return nil
	}
	wm, ok := m.m.(interface {
		machine.Watchable
		watch.Machine
	})
	if !ok {
		return fmt.Errorf("%s offers no watching of its runs in this build", m.kind.name)
	}
	c := wm.Processor()
	w.opts.Skip = m.before.valid && m.before.tick == c.Tick && m.before.pc == c.PC
	w.eng = watch.New(wm, w.opts)
	wm.Watch(w.eng.Watch())
	return nil
}

func (w *watching) stop(m *Machine) {
	if w.eng != nil {
		m.m.(machine.Watchable).Watch(nil)
	}
}

// abandon takes a refused request's file away again.
func (w *watching) abandon() {
	if w.file != nil {
		w.file.Close()
		os.Remove(w.abs)
		w.file = nil
	}
}

// stopped is the stop a request's answer gives for the machine's own: the
// engine's, where it stopped the run.
func (w *watching) stopped(s machine.Stop) string {
	switch {
	case s == machine.Cancelled:
		return stopCancelled
	case s != machine.Stopped || w.eng == nil:
		return s.String()
	case w.eng.Stop() == watch.Until:
		return stopUntil
	}
	return stopFull
}

// answer puts what the run found into the answer, or into the file, which
// it writes whole and names by its SHA-256 (PATH-3, PATH-7), and notes
// where the machine stands for the next run (CB-5). A file that cannot be
// written whole is taken away, and answered as an error, the run standing
// as it ran (PATH-8).
func (w *watching) answer(m *Machine, mv *Moved) error {
	m.before = stoppedBefore{}
	if w.eng == nil {
		return nil
	}
	if w.eng.StoppedBefore() {
		c := m.m.(watch.Machine).Processor()
		m.before = stoppedBefore{valid: true, tick: c.Tick, pc: c.PC}
	}
	if u, ok := w.eng.Until(); ok {
		mv.Until = u
	}
	if w.file == nil {
		if w.eng.Gathering() {
			mv.Gathered = w.eng.Gathered()
		}
		if w.eng.Counting() {
			if w.opts.By == watch.ByRange {
				mv.Ranges = w.eng.Ranged()
			} else {
				mv.Count = w.eng.Counted()
			}
		}
		return nil
	}
	h := sha256.New()
	var to io.Writer = w.file
	if fileFault != nil {
		to = fileFault(to)
	}
	lines, err := w.eng.Write(io.MultiWriter(to, h))
	if cerr := w.file.Close(); err == nil {
		err = cerr
	}
	w.file = nil
	if err != nil {
		os.Remove(w.abs)
		return fmt.Errorf("%s could not be written whole, and is taken away: %w", w.abs, err)
	}
	sum := hex.EncodeToString(h.Sum(nil))
	if w.entry.PathSHA256 != "" && sum != w.entry.PathSHA256 {
		os.Remove(w.abs)
		return fmt.Errorf("%s holds SHA-256 %s, not %s as path_sha256 asks, and is taken away", w.abs, sum, w.entry.PathSHA256)
	}
	w.entry.PathSHA256 = sum
	mv.File = Written{Path: w.abs, SHA256: sum, Lines: lines}
	return nil
}

// fileFault, where a test sets it, stands between a path file and what
// is written to it, so that a write can be made to fail part way.
var fileFault func(io.Writer) io.Writer

// stoppedBefore is where a run stopped before an instruction: a run that
// begins there runs it first (CB-5).
type stoppedBefore struct {
	valid bool
	tick  uint64
	pc    uint16
}
