package watch

import (
	"bufio"
	"cmp"
	"io"
	"slices"
)

// Until answers the match until stopped at, if it stopped.
func (e *Engine) Until() (Match, bool) {
	if !e.untilHit {
		return Match{}, false
	}
	var m Match
	e.match(&m, &e.untilRec, e.untilSnap)
	return m, true
}

// Gathering reports whether the run gathered, or kept its last matches.
func (e *Engine) Gathering() bool { return e.gather }

// Counting reports whether the run counted.
func (e *Engine) Counting() bool { return len(e.opts.Count) > 0 }

// records lists the matches gathered, oldest first.
func (e *Engine) records() []record {
	if e.ringFull {
		return append(append([]record(nil), e.recs[e.ringNext:]...), e.recs[:e.ringNext]...)
	}
	return e.recs
}

// snapOf is the capture of r, or nil.
func (e *Engine) snapOf(r *record) *snap {
	if r.snap < 0 {
		return nil
	}
	return &e.snaps[r.snap]
}

// Gathered answers the matches gathered, oldest first: every one, which
// may be more than the gathering fills at, by the rest of the instruction
// that filled it and the response taken at its end.
func (e *Engine) Gathered() []Match {
	rs := e.records()
	out := make([]Match, len(rs))
	for i := range rs {
		e.match(&out[i], &rs[i], e.snapOf(&rs[i]))
	}
	return out
}

// listed are the count's kinds in the order the answer lists them (CNT-3,
//
var listed = [...]Kind{Exec, Read, Write, In, PSG, CRTC}

// placesOf answers the places of kind k, with In standing for both port
// kinds, which one list holds.
func (e *Engine) placesOf(k Kind) []place {
	if k != In {
		return e.count.sorted(k)
	}
	ps := append(e.count.sorted(In), e.count.sorted(Out)...)
	slices.SortStableFunc(ps, func(a, b place) int { return cmp.Compare(a.addr, b.addr) })
	return ps
}

// Counted answers a count by address or by pc.
func (e *Engine) Counted() Counted {
	c := Counted{By: e.opts.By.String(), Places: e.count.places}
	lists := [...]*[]Place{&c.Executes, &c.Reads, &c.Writes, &c.Ports, &c.PSG, &c.CRTC}
	for i, k := range listed {
		if !e.counts(k) {
			continue
		}
		ps := e.placesOf(k)
		out := make([]Place, len(ps))
		for j := range ps {
			e.place(&out[j], &ps[j], ps[j].kind)
		}
		*lists[i] = out
	}
	return c
}

// counts reports whether the count counts kind k, or for In either port
// kind.
func (e *Engine) counts(k Kind) bool {
	return e.count.lists[k].on || k == In && e.count.lists[Out].on
}

// rangesOf folds the places of list k; the ports of in and out fold apart,
// as the two kinds they are.
func (e *Engine) rangesOf(k Kind) []span {
	if k != In {
		return e.count.fold(k)
	}
	ss := append(e.count.fold(In), e.count.fold(Out)...)
	slices.SortStableFunc(ss, func(a, b span) int { return cmp.Compare(a.first.addr, b.first.addr) })
	return ss
}

// Ranged answers a count by range: the first AnswerRanges ranges, in the
// order of the lists, with how many there were.
func (e *Engine) Ranged() Ranged {
	r := Ranged{Places: e.count.places}
	lists := [...]*[]Range{&r.Executes, &r.Reads, &r.Writes, &r.Ports, &r.PSG, &r.CRTC}
	for i, k := range listed {
		if !e.counts(k) {
			continue
		}
		ss := e.rangesOf(k)
		r.Ranges += len(ss)
		out := make([]Range, 0, len(ss))
		for j := range ss {
			if r.Ranges-len(ss)+j >= AnswerRanges {
				break
			}
			var x Range
			e.rangeOf(&x, &ss[j], ss[j].first.kind)
			out = append(out, x)
		}
		*lists[i] = out
	}
	return r
}

// Write writes what the run gathered and counted as JSON Lines, a line
// for each match and each place or range, as the answer would list it,
// the matches first, then the count's lists in their order (PATH-2). It
// answers how many lines each list holds.
func (e *Engine) Write(w io.Writer) (Lines, error) {
	var n Lines
	bw := bufio.NewWriterSize(w, 1<<16)
	var b []byte
	line := func() error {
		b = append(b, '\n')
		_, err := bw.Write(b)
		b = b[:0]
		return err
	}
	var m Match
	rs := e.records()
	for i := range rs {
		e.match(&m, &rs[i], e.snapOf(&rs[i]))
		b = m.appendJSON(b)
		if err := line(); err != nil {
			return n, err
		}
		n.Gathered++
	}
	counts := [...]*int{&n.Executes, &n.Reads, &n.Writes, &n.Ports, &n.PSG, &n.CRTC}
	for i, k := range listed {
		if !e.counts(k) {
			continue
		}
		register := k == PSG || k == CRTC
		if e.opts.By == ByRange {
			ss := e.rangesOf(k)
			var r Range
			for j := range ss {
				e.rangeOf(&r, &ss[j], ss[j].first.kind)
				b = r.appendJSON(b, register)
				if err := line(); err != nil {
					return n, err
				}
				*counts[i]++
			}
			continue
		}
		ps := e.placesOf(k)
		var p Place
		for j := range ps {
			e.place(&p, &ps[j], ps[j].kind)
			b = p.appendJSON(b, register)
			if err := line(); err != nil {
				return n, err
			}
			*counts[i]++
		}
	}
	return n, bw.Flush()
}
