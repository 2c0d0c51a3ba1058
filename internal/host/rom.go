package host

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"colophon/internal/machine/cpc"
	"colophon/internal/quote"
)

// ROMSelect is a CPC's ROM as peek, find and disassemble's rom argument
// names it: "lower" for the lower ROM, or an upper ROM's number, 0 to 255,
// a JSON number or its decimal digits. It is kept as given, like an
// Address, until the machine it is for says what it has.
type ROMSelect string

// UnmarshalJSON takes a number or a string, and keeps its text.
func (r *ROMSelect) UnmarshalJSON(b []byte) error {
	s, err := addressText(b)
	*r = ROMSelect(s)
	return err
}

// lowerROMName is what rom and the answers call the lower ROM.
const lowerROMName = "lower"

// A romView is one of a CPC's ROM images, read by number without touching
// the Gate Array: the lower ROM at &0000-&3FFF, an upper ROM at
// &C000-&FFFF (spec, "Stopping and watching": "an upper ROM, chosen by its
// number, over &C000 to &FFFF").
type romView struct {
	image []byte // 16K
	base  uint32 // &0000 or &C000
	name  string // as the answers name it: lower, or upper and the number that answered
	lower []byte // the lower ROM, which a listing reads at &0000-&3FFF
}

// last is the last address the ROM answers.
func (v *romView) last() uint32 { return v.base + cpc.ROMSize - 1 }

// romFor is the ROM a request's rom argument names, or nil where it names
// none. A number with no ROM fitted is answered by ROM 0, as the board
// answers it; a Spectrum, whose one ROM peek reads at &0000 already, is
// refused, and so is rom beside ram.
func (m *Machine) romFor(sel ROMSelect, ram bool) (*romView, error) {
	if sel == "" {
		return nil, nil
	}
	if !m.kind.cpc {
		return nil, fmt.Errorf("argument \"rom\" names one of a CPC's ROMs, and %s is a %s: a Spectrum's one ROM is read at &0000-&3FFF as it stands; leave rom out", m.handle, m.kind.name)
	}
	if ram {
		return nil, errors.New("arguments \"rom\" and \"ram\" are both given; read a ROM's image or the RAM, not both")
	}
	c, ok := m.m.(*cpc.CPC)
	if !ok {
		return nil, fmt.Errorf("%s offers no view of its ROMs in this build", m.kind.name)
	}
	v := &romView{lower: c.LowerROMBytes()}
	text := strings.TrimSpace(string(sel))
	if text == lowerROMName {
		v.image, v.name = v.lower, lowerROMName
		return v, nil
	}
	n, err := strconv.ParseUint(text, 10, 8)
	if err != nil {
		return nil, fmt.Errorf("argument \"rom\" is %s; it is \"lower\" or an upper ROM's number, 0 to 255", quote.String(text))
	}
	img, answered := c.UpperROMAnswering(byte(n))
	v.image, v.base, v.name = img, 0xC000, fmt.Sprintf("upper %d", answered)
	return v, nil
}

// holds refuses an address outside the ROM's 16K, naming arg.
func (v *romView) holds(arg string, addr uint32) error {
	if addr < v.base || addr > v.last() {
		return fmt.Errorf("argument %q is %s, outside ROM %s, which is read at %s-%s", arg, formatAddress(addr), v.name, formatAddress(v.base), formatAddress(v.last()))
	}
	return nil
}

// at reads the ROM at a processor address in its 16K.
func (v *romView) at(addr uint32) byte { return v.image[addr-v.base] }
