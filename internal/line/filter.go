package line

import "strings"

// Telnet command bytes (RFC 854, "TELNET COMMAND STRUCTURE"; SB and SE from
// RFC 855). simh serves its lines as telnet, so negotiation arrives in-band.
const (
	iac  = 255 // interpret as command
	dont = 254
	do   = 253
	wont = 252
	will = 251
	sb   = 250 // subnegotiation begins; runs to IAC SE
	se   = 240
)

// esc introduces a VT52 escape sequence (DEC VT52 manual, "escape sequences":
// ESC followed by one letter, except direct cursor addressing, ESC Y row col).
const esc = 0x1B

// The filter works in two layers, as the line does: telnet commands are
// removed first, wherever they fall, and the terminal's own sequences are
// removed from what remains. Each layer keeps its state between reads, so a
// sequence split across two reads from the socket is still removed whole.

// telnetState is where the telnet layer stands.
type telnetState int

const (
	tnData   telnetState = iota
	tnIAC                // after IAC
	tnOption             // after IAC WILL/WONT/DO/DONT: the option byte
	tnSB                 // inside IAC SB ... IAC SE
	tnSBIAC              // IAC seen inside a subnegotiation
)

// terminalState is where the VT52 layer stands.
type terminalState int

const (
	vtText   terminalState = iota
	vtESC                  // after ESC
	vtESCRow               // after ESC Y: the row byte
	vtESCCol               // after ESC Y row: the column byte
)

// A filter turns the raw bytes of the line into plain text. It drops NUL
// padding, VT52 sequences (ESC+letter and ESC Y row col), telnet negotiation
// and every other nonprinting byte, keeps printable ASCII, tabs and newlines,
// and turns CR, LF and CRLF each into one "\n". It is not a telnet stack: it
// never answers a negotiation, it only removes it.
//
// The zero filter is ready.
type filter struct {
	telnet   telnetState
	terminal terminalState
	// afterCR is set between a CR and the next text byte, so that the LF of
	// a CR LF pair is swallowed even with NULs or a telnet command between.
	afterCR bool
	// sub holds a subnegotiation's bytes until its IAC SE, at most
	// maxSubnegotiation of them; spill says the filter gave up on it.
	sub   []byte
	spill bool
}

// maxSubnegotiation is the most bytes an IAC SB swallows before the filter
// takes it for a stray one, with no IAC SE coming, and passes the bytes on
// as data (issue 19, item 8). Real subnegotiations are a few bytes: a window
// size is four (RFC 1073), a terminal type a name (RFC 1091).
const maxSubnegotiation = 1024

// write appends the text filtered from raw to dst.
func (f *filter) write(dst, raw []byte) []byte {
	for _, c := range raw {
		if !f.telnetData(c) {
			if f.spill {
				for _, b := range f.sub {
					dst = f.text(dst, b)
				}
				f.sub, f.spill = f.sub[:0], false
			}
			continue
		}
		dst = f.text(dst, c)
	}
	return dst
}

// telnetData steps the telnet layer and reports whether c is data.
func (f *filter) telnetData(c byte) bool {
	switch f.telnet {
	case tnIAC:
		switch {
		case c == iac:
			// IAC IAC stands for a data byte of 255, which is not ASCII;
			// the text layer drops it.
			f.telnet = tnData
			return true
		case c >= will && c <= dont:
			f.telnet = tnOption
		case c == sb:
			f.telnet, f.sub = tnSB, f.sub[:0]
		default:
			// The two-byte commands: NOP, DM, BRK, IP, AO, AYT, EC, EL, GA.
			f.telnet = tnData
		}
	case tnOption:
		f.telnet = tnData
	case tnSB:
		if c == iac {
			f.telnet = tnSBIAC
			break
		}
		f.sub = append(f.sub, c)
		if len(f.sub) > maxSubnegotiation {
			f.telnet, f.spill = tnData, true
		}
	case tnSBIAC:
		if c == se {
			f.telnet, f.sub = tnData, f.sub[:0]
		} else {
			f.telnet = tnSB // IAC IAC, or a stray command, inside SB
		}
	default:
		if c == iac {
			f.telnet = tnIAC
			return false
		}
		return true
	}
	return false
}

// text steps the terminal layer over one data byte.
func (f *filter) text(dst []byte, c byte) []byte {
	if c == 0 {
		return dst // NUL padding, even inside a sequence or a CR LF pair
	}
	switch f.terminal {
	case vtESC:
		f.terminal = vtText
		if c == 'Y' {
			f.terminal = vtESCRow
			return dst
		}
		if isLetter(c) {
			return dst
		}
		// ESC followed by anything else: only the ESC is dropped, and the
		// byte is treated as text below.
	case vtESCRow:
		f.terminal = vtESCCol
		return dst
	case vtESCCol:
		f.terminal = vtText
		return dst
	}
	switch {
	case c == esc:
		f.terminal = vtESC
	case c == '\r':
		dst = append(dst, '\n')
		f.afterCR = true
	case c == '\n':
		if !f.afterCR {
			dst = append(dst, '\n')
		}
		f.afterCR = false
	case c == '\t' || c >= 0x20 && c < 0x7F:
		dst = append(dst, c)
		f.afterCR = false
	default:
		// Other nonprinting bytes, rubout and anything with bit 7 set are
		// dropped, and they do not break a CR LF pair.
	}
	return dst
}

func isLetter(c byte) bool {
	return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z'
}

// collapse trims the text an agent is shown: trailing spaces and tabs go from
// every line, and a run of blank lines becomes a single blank line. The
// scrollback keeps the text unabridged; only responses are collapsed.
func collapse(text string) string {
	lines := strings.Split(text, "\n")
	out := lines[:0]
	blank := 0
	for _, l := range lines {
		l = strings.TrimRight(l, " \t")
		if l == "" {
			blank++
			if blank > 1 {
				continue
			}
		} else {
			blank = 0
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}
