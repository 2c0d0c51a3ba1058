// Package watch is the engine behind run's and call's conditions (spec,
// "Stopping and watching"): it follows a machine's run through the
// machine.Watch the board consults, and stops it at a match (until), lists
// its matches (gather and gather_last), counts them by place (count, by
// address, by pc or by range), and captures the machine at each match. It
// answers what it found as the answers list it, or as the lines of a file
// (Write).
//
// A condition here is already checked and in numbers; the host reads the
// request's words into one and refuses what it may not ask. The engine
// reads no clock and ranges over no map: the same run gives the same
// answer.
package watch

import (
	"fmt"

	"colophon/internal/machine"
)

// Kind is what a condition matches.
type Kind uint8

const (
	// Exec is an instruction about to begin at an address.
	Exec Kind = iota
	// Read and Write are the program reading a byte of memory as data, and
	// writing one (RD-1).
	Read
	Write
	// In and Out are a port read and written.
	In
	Out
	// PSG and CRTC are a register of a CPC's sound chip or its 6845
	// taking a write.
	PSG
	CRTC
	kinds
)

var kindNames = [kinds]string{"exec", "read", "write", "in", "out", "psg", "crtc"}

func (k Kind) String() string {
	if k < kinds {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// KindNamed is the kind a condition's kind names, or false.
func KindNamed(name string) (Kind, bool) {
	for k, n := range kindNames {
		if n == name {
			return Kind(k), true
		}
	}
	return 0, false
}

// KindNames lists the kinds' names, in order.
func KindNames() []string { return kindNames[:] }

// From is the memory an instruction or a read must come from.
type From uint8

const (
	Anywhere From = iota
	FromRAM
	FromROM   // any ROM
	FromLower // a CPC's lower ROM, or a Spectrum's ROM
	FromUpper // any of a CPC's upper ROMs
	FromUpperN
)

// A Condition is one condition of until, gather, gather_last or count.
type Condition struct {
	Kind Kind
	// Lo and Hi are the addresses of Exec, Read and Write, and the
	// registers of PSG and CRTC, both included.
	Lo, Hi uint16
	// Port and Mask are In's and Out's: a port matches where its address
	// lines under Mask are Port's (PR-1).
	Port, Mask uint16
	// From is where an Exec's instruction or a Read's byte comes from;
	// ROM is the upper ROM's number with FromUpperN.
	From From
	ROM  uint8
	// Value asks the byte to lie from ValueLo to ValueHi (VC-1).
	Value            bool
	ValueLo, ValueHi uint8
	// Changes asks a Write, PSG or CRTC to leave the byte or register
	// holding other than it held (VC-3).
	Changes bool
	// When asks bytes to stand in memory as the match is made (WHEN-1).
	When *When
	// Capture asks for the machine at each match (CAP-1).
	Capture *Capture
}

// MaxWhen is the most bytes one when names.
const MaxWhen = 8

// When is an address and the bytes that must stand there, Any marking a
// byte that may be anything.
type When struct {
	Addr  uint16
	Bytes []byte
	Any   []bool
}

// Capture is what a match captures: processor values by their inspect
// paths under cpu, and spans of memory.
type Capture struct {
	CPU    []string
	Memory []Span
}

// The limits of a capture: how many values and spans, and how long a span.
const (
	MaxCaptureValues = 32
	MaxSpans         = 4
	MaxSpan          = 64
)

// Base is where a span begins.
type Base uint8

const (
	AtAddress Base = iota // Addr, through the banking as the processor reads it
	AtRAM                 // Addr, a CPC's RAM by its own address
	AtSP                  // where SP points as the capture is taken
	AtPC                  // where PC points
)

// A Span is a stretch of memory a capture reads, as peek reads it.
type Span struct {
	Base Base
	Addr uint32
	Len  int
}

// What the lists hold before they fill, in an answer and in a file
// (CB-9, CAP-8, CNT-11, PATH-4, PATH-5, RNG-8).
const (
	AnswerMatches        = 128
	AnswerCaptureMatches = 32
	FileMatches          = 1 << 20
	AnswerPlaces         = 256
	AnswerRanges         = 256
	MaxConditionsPerList = 16
)

// By is how a count counts.
type By uint8

const (
	ByAddress By = iota
	ByPC
	ByRange
)

var byNames = [...]string{"address", "pc", "range"}

func (b By) String() string { return byNames[b] }

// ByNamed is the By a count_by names, or false.
func ByNamed(name string) (By, bool) {
	for b, n := range byNames {
		if n == name {
			return By(b), true
		}
	}
	return 0, false
}

// Options are what one run watches for.
type Options struct {
	Until, Gather, Count []Condition
	// Last keeps the last matches of Gather rather than filling (CB-12).
	Last bool
	By   By
	// File says the lists go to a file, where a count never fills and a
	// gathering fills at FileMatches (PATH-4, PATH-5).
	File bool
	// CPC names the memory a match came from (PR-6, PR-7).
	CPC bool
	// Skip says the run begins on an instruction a run was stopped before,
	// which it runs first, matching nothing about to begin there (CB-5).
	Skip bool
}

// matches reports whether an instruction or read from src meets f.
func (c *Condition) fromMatches(src machine.Source) bool {
	switch c.From {
	case FromRAM:
		return !src.ROM
	case FromROM:
		return src.ROM
	case FromLower:
		return src.ROM && !src.Upper
	case FromUpper:
		return src.ROM && src.Upper
	case FromUpperN:
		return src.ROM && src.Upper && src.Number == c.ROM
	}
	return true
}
