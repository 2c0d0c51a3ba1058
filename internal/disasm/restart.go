package disasm

import "fmt"

// Where a CPC firmware restart's word sends the processor. Each restart
// reads its word and sets the ROMs up before it jumps or calls, as SOFT
// 968's "The Low Kernel Jumpblock" describes each and the 6128's firmware
// listing codes it (RST 1 at &0430, RST 2 at &04C3, RST 3 at &046D, RST 5 at
// &04DB; the 464's and 664's code them alike):
//
//   - LOW JUMP (RST &08): the address is the word's bits 13-0, in the
//     bottom 16K; bit 14 set disables the lower ROM and bit 15 the upper
//     ROM, clear enables them ("res 7,d; res 6,d", then the two bits
//     rotated into the Gate Array's ROM disables). So the lower ROM answers
//     the address unless bit 14 is set, and then the RAM does.
//   - SIDE CALL (RST &10): the address is &C000 plus bits 13-0, in an upper
//     ROM selected as the foreground ROM's number plus bits 15-14 ("set
//     7,d; set 6,d", then bits 15-14 added to the number the firmware keeps
//     of the foreground ROM), with the lower ROM disabled.
//   - FAR CALL (RST &18): the word is the address of a far address, three
//     bytes: the address, low byte first, and a ROM select. A select of
//     &00 to &FB selects that upper ROM and enables it, the lower ROM
//     disabled; &FC to &FF leave the selection as it is and set the ROMs as
//     its two low bits say: &FC enables both, &FD the upper alone, &FE the
//     lower alone, &FF neither (the listing at &047C: "cp &FC").
//   - FIRM JUMP (RST &28): the address is the word, with the lower ROM
//     enabled and the upper ROM left as it stands.

// Target is where a restart goes: an address, and the memory that answers
// it as the restart leaves the ROMs.
type Target struct {
	Addr uint16
	In   Bank
}

// Bank is the memory that answers a restart's target.
type Bank struct {
	Kind BankKind
	// ROM is an UpperROM's number, or a SideROM's offset from the
	// foreground ROM's number, 0 to 3.
	ROM byte
}

// BankKind says which memory a Bank is.
type BankKind uint8

const (
	NoBank      BankKind = iota // no restart with a word
	LowerROM                    // the lower ROM
	UpperROM                    // the upper ROM numbered Bank.ROM
	SideROM                     // the upper ROM Bank.ROM on from the foreground ROM
	SelectedROM                 // the upper ROM already selected when the restart runs
	RAM                         // the RAM at the address, as the RAM configuration pages it
	AsBanked                    // whatever the banking pages in there when the restart runs
)

// String names a Bank as the disassemble tool's answer does: lower, upper 7,
// upper +1, upper, ram or banked; empty for NoBank.
func (b Bank) String() string {
	switch b.Kind {
	case LowerROM:
		return "lower"
	case UpperROM:
		return fmt.Sprintf("upper %d", b.ROM)
	case SideROM:
		return fmt.Sprintf("upper +%d", b.ROM)
	case SelectedROM:
		return "upper"
	case RAM:
		return "ram"
	case AsBanked:
		return "banked"
	}
	return ""
}

// restartTarget works out where restart rst (1, 2, 3 or 5) sends the
// processor with word w, reading a FAR CALL's far address from mem.
func restartTarget(rst int32, w uint16, mem Memory) Target {
	// in is the memory at addr with the lower and upper ROMs as given.
	in := func(addr uint16, lower bool, upper Bank) Bank {
		switch {
		case addr < 0x4000 && lower:
			return Bank{Kind: LowerROM}
		case addr >= 0xC000:
			return upper
		}
		return Bank{Kind: RAM}
	}
	switch rst {
	case 1: // LOW JUMP
		a := w & 0x3FFF
		return Target{a, in(a, w&0x4000 == 0, Bank{Kind: RAM})}
	case 2: // SIDE CALL
		return Target{0xC000 | w&0x3FFF, Bank{Kind: SideROM, ROM: byte(w >> 14)}}
	case 3: // FAR CALL
		a := uint16(mem(w)) | uint16(mem(w+1))<<8
		sel := mem(w + 2)
		if sel < 0xFC {
			return Target{a, in(a, false, Bank{Kind: UpperROM, ROM: sel})}
		}
		upper := Bank{Kind: RAM}
		if sel&2 == 0 {
			upper = Bank{Kind: SelectedROM}
		}
		return Target{a, in(a, sel&1 == 0, upper)}
	case 5: // FIRM JUMP
		return Target{w, in(w, true, Bank{Kind: AsBanked})}
	}
	return Target{}
}
